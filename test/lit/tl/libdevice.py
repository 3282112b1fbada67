# libdevice's functions as Triton calls them: the symbol by the argument
# dtypes (after the arithmetic promotion when no variant takes them as
# they are), an `extern` call of it per element, libdevice.10.bc linked.
# RUN: %glc %s -n k -s "*fp32, *fp32, 128" --emit=ir | FileCheck %s
# CHECK: extern symbol="__nv_powf"
# CHECK: extern symbol="__nv_tanhf"
# CHECK: extern symbol="__nv_ilogbf" {{.*}} : tensor<i32
# CHECK: extern symbol="__nv_sin" {{.*}} : tensor<f64
# CHECK: extern symbol="__nv_fmaf"
# RUN: %glc %s -n k -s "*fp32, *fp32, 128" --emit=ir -o %t.ir
# RUN: %glc %t.ir --emit=ir | FileCheck %s
# RUN: %glc %s -n k -s "*fp32, *fp32, 128" --emit=cubin -o %t.cubin
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice


@triton.jit
def k(x_ptr, out_ptr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols)
    y = libdevice.pow(x, 2.0) + cuda_libdevice.tanh(x) + libdevice.ilogb(x)
    z = tl.extra.cuda.libdevice.sin(x.to(tl.float64)) + libdevice.fma(x, x, 1)
    tl.store(out_ptr + cols, y + z)
