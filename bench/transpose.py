"""Bandwidth of glc's transpose (and copy/add) kernels against PyTorch, in one process.

glc's kernels run through ctypes on shared libraries made of the packaged
kernel objects plus libglrt (test/gpu/run.sh builds them as
work/lib<example>.so), on torch tensors and on torch's current stream, so
both sides are timed the same way: CUDA events around each launch, the
median of --reps runs after --warmup runs. Bandwidth counts the bytes that
must move: every input read once and every output written once.

  transpose_f32      dst = src^T (M x N f32)   vs  src.clone() (a D2D copy)
  relayout_copy_f32  dst = src (M x N f32)     vs  src.clone()
  vector_add_f32     z = x + y (n f32)         vs  torch.add(x, y, out=z)

Usage: python3 bench/transpose.py --libs DIR [--size 8192] [--json OUT.json]
"""
import argparse
import ctypes
import json
import os
import statistics
import sys

import torch

TILE = 64            # transpose_f32 / relayout_copy_f32 tile edge
ADD_BLOCK = 2048     # vector_add_f32 elements per program

U = ctypes.c_uint
P = ctypes.c_uint64
I = ctypes.c_int32
SIGNATURES = {
    "transpose_f32": [P, P, I, I, I, I],
    "relayout_copy_f32": [P, P, I, I, I, I],
    "vector_add_f32": [P, P, P, I],
}


def find_kernel(libs, name):
    """The launcher `name` from the first library in libs that has it."""
    for lib in libs:
        fn = getattr(lib, name, None)
        if fn is not None:
            fn.restype = ctypes.c_int
            fn.argtypes = [ctypes.c_void_p, U, U, U] + SIGNATURES[name]
            return fn, lib
    return None, None


def checked(lib, name, status):
    if status != 0:
        lib.glrt_last_error.restype = ctypes.c_char_p
        raise RuntimeError(f"{name}: status {status}: {lib.glrt_last_error().decode()}")


def median_ms(fn, warmup, reps):
    """Median over reps of one call of fn, timed with CUDA events on the current stream."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times), max(times)


def row(name, shape, nbytes, glc_t, ref_name, ref_t):
    gbs = lambda t: nbytes / (t[0] * 1e-3) / 1e9
    r = {
        "kernel": name, "shape": shape, "bytes": nbytes,
        "glc_ms": glc_t[0], "glc_ms_min": glc_t[1], "glc_ms_max": glc_t[2],
        "glc_GBps": gbs(glc_t), "ref": ref_name, "ref_ms": ref_t[0],
        "ref_GBps": gbs(ref_t), "ratio": ref_t[0] / glc_t[0],
    }
    print(f"{name:18s} {shape:>12s}: glc {r['glc_GBps']:7.0f} GB/s ({glc_t[0]:.4f} ms)  "
          f"{ref_name} {r['ref_GBps']:7.0f} GB/s ({ref_t[0]:.4f} ms)  ratio {r['ratio']:.3f}")
    return r


def bench_move(libs, name, transposed, m, n, args):
    fn, lib = find_kernel(libs, name)
    if fn is None:
        print(f"SKIP {name}: not compiled by glc")
        return None
    stream = torch.cuda.current_stream().cuda_stream
    src = torch.randn(m, n, device="cuda")
    dst = torch.full((n, m) if transposed else (m, n), float("nan"), device="cuda")
    grid = ((m + TILE - 1) // TILE, (n + TILE - 1) // TILE, 1)

    def launch():
        checked(lib, name, fn(stream, *grid, src.data_ptr(), dst.data_ptr(), m, n,
                              src.stride(0), dst.stride(0)))

    launch()
    torch.cuda.synchronize()
    want = src.t() if transposed else src
    if not torch.equal(dst, want):
        raise RuntimeError(f"{name}: wrong result on {m}x{n}")
    t = median_ms(launch, args.warmup, args.reps)
    ref = median_ms(lambda: src.clone(), args.warmup, args.reps)
    return row(name, f"{m}x{n}", 2 * m * n * 4, t, "torch clone", ref)


def bench_add(libs, n, args):
    fn, lib = find_kernel(libs, "vector_add_f32")
    if fn is None:
        print("SKIP vector_add_f32: not compiled by glc")
        return None
    stream = torch.cuda.current_stream().cuda_stream
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    z = torch.full_like(x, float("nan"))
    grid = ((n + ADD_BLOCK - 1) // ADD_BLOCK, 1, 1)

    def launch():
        checked(lib, "vector_add_f32", fn(stream, *grid, x.data_ptr(), y.data_ptr(),
                                          z.data_ptr(), n))

    launch()
    torch.cuda.synchronize()
    if not torch.equal(z, x + y):
        raise RuntimeError("vector_add_f32: wrong result")
    t = median_ms(launch, args.warmup, args.reps)
    ref = median_ms(lambda: torch.add(x, y, out=z), args.warmup, args.reps)
    return row("vector_add_f32", str(n), 3 * n * 4, t, "torch add", ref)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libs", required=True, help="folder with lib<example>.so")
    ap.add_argument("--size", type=int, default=8192, help="M = N of the matrices")
    ap.add_argument("--add-n", type=int, default=1 << 28, help="vector_add length")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--json", help="write the rows here")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("SKIP: no GPU")
        return 77
    libs = [ctypes.CDLL(os.path.join(args.libs, f))
            for f in sorted(os.listdir(args.libs))
            if f.startswith("lib") and f.endswith(".so") and f != "libglrt.so"]
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"median of {args.reps} after {args.warmup} warm-up runs")
    rows = [bench_move(libs, "transpose_f32", True, args.size, args.size, args),
            bench_move(libs, "relayout_copy_f32", False, args.size, args.size, args),
            bench_add(libs, args.add_n, args)]
    rows = [r for r in rows if r]
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
