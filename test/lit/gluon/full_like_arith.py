# gl.full_like / gl.zeros_like take the input's shape, dtype and layout unless
# given; gl.add / gl.sub / gl.mul are the operators (Triton's promotion),
# sanitize_overflow accepted.
# RUN: %glc %s -n k -s "*fp32, *i32, *fp16" -w 4 --emit=typed | FileCheck %s
# RUN: %glc %s -n k -s "*fp32, *i32, *fp16" -w 4 -c -o %t.o
# CHECK: [[A:%[0-9]+]] = full %{{[0-9]+}} : tensor<f32, [128], #blocked>
# CHECK: [[B:%[0-9]+]] = full %{{[0-9]+}} : tensor<i32, [128], #blocked>
# CHECK: [[C:%[0-9]+]] = full %{{[0-9]+}} : tensor<f16, [256], #blocked1>
# CHECK: mul %{{[0-9]+}}, [[A]] : tensor<f32, [128], #blocked>
# CHECK: sub %{{[0-9]+}}, %{{[0-9]+}} : tensor<f32, [128], #blocked>
# CHECK: add %{{[0-9]+}}, %{{[0-9]+}} : tensor<f32, [128], #blocked>
# CHECK: add %{{[0-9]+}}, %{{[0-9]+}} : tensor<u8, [128], #blocked>
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

L: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
L2: gl.constexpr = gl.BlockedLayout([2], [32], [4], [0])


@gluon.jit
def k(p, q, r):
    o = gl.arange(0, 128, layout=L)
    x = gl.load(p + o)
    a = gl.full_like(x, 2.0)
    b = gl.zeros_like(x, dtype=gl.int32)
    c = gl.full_like(x, 3, shape=[256], dtype=gl.float16, layout=L2)
    gl.store(p + o, gl.add(gl.mul(x, a), gl.sub(x, 1.0, sanitize_overflow=False)))
    u = gl.zeros_like(x, dtype=gl.uint8)
    gl.store(q + o, b + gl.add(u, 3).to(gl.int32))
    gl.store(r + gl.arange(0, 256, layout=L2), c)
