"""Launch glc's vector_add_f32 from Python on torch tensors, through ctypes.

The shared library is the packaged kernel object plus libglrt:
    glc ../vector_add.gl -c -o vector_add.o
    cc -shared -o libvector_add.so vector_add.o \
       -Wl,--whole-archive $PREFIX/lib/libglrt.a -Wl,--no-whole-archive -ldl -pthread
(`make libvector_add.so` here). glrt uses the device's primary context, the
one PyTorch uses, so torch's data_ptr()s and streams are valid for it.

Usage: python3 vector_add_ctypes.py path/to/libvector_add.so
Exit status: 0 when the sums match torch's, 77 without torch or a GPU, 1 otherwise.
"""
import ctypes
import sys

try:
    import torch
except ImportError:
    print("no torch")
    sys.exit(77)

BLOCK = 2048  # vector_add_f32's constexpr default: elements per program


def load(path):
    lib = ctypes.CDLL(path)
    lib.vector_add_f32.restype = ctypes.c_int  # glrt_status
    lib.vector_add_f32.argtypes = [
        ctypes.c_void_p,                                  # stream
        ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,      # grid
        ctypes.c_uint64, ctypes.c_uint64, ctypes.c_uint64,  # x, y, z
        ctypes.c_int32,                                   # n
    ]
    lib.glrt_last_error.restype = ctypes.c_char_p
    return lib


def main():
    if not torch.cuda.is_available():
        print("no GPU")
        return 77
    lib = load(sys.argv[1])
    n = 1_000_003
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    z = torch.full_like(x, float("nan"))
    stream = torch.cuda.current_stream().cuda_stream
    status = lib.vector_add_f32(stream, (n + BLOCK - 1) // BLOCK, 1, 1,
                                x.data_ptr(), y.data_ptr(), z.data_ptr(), n)
    if status != 0:
        print("vector_add_f32:", lib.glrt_last_error().decode())
        return 1
    torch.cuda.synchronize()
    if not torch.equal(z, x + y):
        bad = (z != x + y).nonzero()[:5].flatten().tolist()
        print("mismatch at", bad)
        return 1
    print(f"vector_add (Python ctypes): {n} sums ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
