"""Row-wise memory-bound kernels on a GPU: glc's GEMV, online softmax, LayerNorm and RMSNorm against torch, Triton and a device copy, in one process.

The jobs (examples/gemv.gl, online_softmax.gl, layernorm.gl, rmsnorm.gl):

  gemv_f16, gemv_bf16     y = A @ x, A 8192 x 8192 (--gemv-size)   torch.mv
  online_softmax_f32      row softmax, R x 32768 (--softmax-rows)  torch.softmax
  layernorm_{f16,bf16}_N  LayerNorm of M x N, N = 1024 .. 8192     F.layer_norm
  rmsnorm_{f16,bf16}_N    RMSNorm of M x N                          torch.rms_norm

with M rows making --norm-mb megabytes of input. Families, as in
bench/bandwidth.py (whose job machinery and table this reuses): glc's kernel
(its BLOCK_N variant for the row length: launchers layernorm_f16_1024 ...;
online_softmax's 16- and 32-warp kernels, the faster one picked),
torch's op, Triton kernels written as Triton's tutorials write them
(bench/triton_rowwise.py, autotuned per problem over their configurations)
and a device copy of the same bytes. Every configuration is checked on a
NaN-poisoned output against a float64 reference before it is timed, and
the picks are timed in interleaved rounds. Bandwidth counts every input read
once and every output written once (A, x and y for the GEMV; x and y for the
others, whose weights are a rounding error). torch ops without an out=
argument (layer_norm, rms_norm) hand their result over with Tensor.set_,
which moves no data.

Usage: python3 bench/rowwise.py --libs DIR [--json OUT.json] [sizes, timing options]
       python3 bench/rowwise.py --smoke   (no GPU: tiny sizes, Triton's interpreter)
"""
import argparse
import ctypes
import os
import sys

import torch

import bandwidth
import harness as H

P = ctypes.c_uint64
I = ctypes.c_int32
F = ctypes.c_float
EPS = 1e-5


def block_n(n):
    """The BLOCK_N variant of the norms for rows of n elements."""
    b = 1024
    while b < n:
        b *= 2
    return b


def problems(jobs, a):
    """Yields (kernel, size text, bytes moved, families) for every job."""
    import triton_rowwise
    dev, nan = H.DEVICE, float("nan")
    F_ = torch.nn.functional
    names = {torch.float16: "f16", torch.bfloat16: "bf16"}
    s = a.gemv_size
    for dt in (torch.float16, torch.bfloat16):
        A, x = torch.randn(s, s, device=dev).to(dt), torch.randn(s, device=dev).to(dt)
        ref = A.double() @ x.double()
        jobs.triton = triton_rowwise.candidates(s, 2, EPS)
        name = "gemv" if dt == torch.float16 else "gemv_bf16"
        glc = jobs.glc(name, [P, P, P, I, I, I], (bandwidth.cdiv(s, 16), 1, 1),
                       lambda o, A=A, x=x: (A.data_ptr(), x.data_ptr(), o.data_ptr(), s, s,
                                            A.stride(0)))
        nbytes = (s * s + 2 * s) * 2
        yield (f"gemv_{names[dt]}", f"{s}x{s}", nbytes, jobs.families(
            glc, ("torch.mv", lambda o, A=A, x=x: lambda: torch.mv(A, x, out=o)), "gemv",
            lambda o, A=A, x=x: (A, x, o), lambda x=x: torch.full_like(x, nan),
            lambda o, ref=ref, dt=dt: H.expect_close(o, ref, 2e-3 if dt == torch.float16 else 1e-2),
            nbytes))
    r, c = a.softmax_rows, a.softmax_cols
    x = torch.randn(r, c, device=dev) * 4
    ref = torch.softmax(x.double(), 1)
    jobs.triton = triton_rowwise.candidates(c, 4, EPS)
    glc = jobs.glc_configs([(k, [P, P, I, I, I, I], (r, 1, 1),
                             lambda o: (x.data_ptr(), o.data_ptr(), r, c, x.stride(0),
                                        o.stride(0))) for k in ("online_softmax",
                                                                "online_softmax_w32",
                                                                "softmax_direct_w32")])
    yield ("online_softmax_f32", f"{r}x{c}", 2 * r * c * 4, jobs.families(
        glc, ("torch.softmax", lambda o: lambda: torch.softmax(x, 1, out=o)), "softmax",
        lambda o: (x, o), lambda: torch.full_like(x, nan), lambda o: H.expect_close(o, ref, 1e-5),
        2 * r * c * 4))
    for n in a.norm_n:
        m = max(1, a.norm_mb * (1 << 20) // (2 * n))
        bn = block_n(n)
        rows = 8 * 1024 // bn
        for dt in (torch.float16, torch.bfloat16):
            x = (torch.randn(m, n, device=dev) * 2 + 0.5).to(dt)
            w = (torch.rand(n, device=dev) + 0.5).to(dt)
            b = (torch.rand(n, device=dev) - 0.5).to(dt)
            xd, wd, bd = x.double(), w.double(), b.double()
            var, mean = torch.var_mean(xd, 1, unbiased=False, keepdim=True)
            ref_ln = (xd - mean) / torch.sqrt(var + EPS) * wd + bd
            ref_rms = xd / torch.sqrt((xd * xd).mean(1, keepdim=True) + EPS) * wd
            jobs.triton = triton_rowwise.candidates(n, 2, EPS)
            nbytes = 2 * m * n * 2
            fresh = lambda x=x: torch.full_like(x, nan)
            tol = 1e-2 if dt == torch.bfloat16 else 2e-3
            glc = jobs.glc(f"layernorm_{names[dt]}_{bn}", [P, P, P, P, I, I, I, I, F],
                           (bandwidth.cdiv(m, rows), 1, 1),
                           lambda o, x=x, w=w, b=b, m=m, n=n: (
                               x.data_ptr(), w.data_ptr(), b.data_ptr(), o.data_ptr(), m, n,
                               x.stride(0), o.stride(0), EPS))
            op = ("F.layer_norm", lambda o, x=x, w=w, b=b, n=n:
                  lambda: o.set_(F_.layer_norm(x, (n, ), w, b, EPS)))
            yield (f"layernorm_{names[dt]}", f"{m}x{n}", nbytes, jobs.families(
                glc, op, "layer_norm", lambda o, x=x, w=w, b=b: (x, w, b, o), fresh,
                lambda o, ref=ref_ln, tol=tol: H.expect_close(o, ref, tol), nbytes))
            glc = jobs.glc(f"rmsnorm_{names[dt]}_{bn}", [P, P, P, I, I, I, I, F],
                           (bandwidth.cdiv(m, rows), 1, 1),
                           lambda o, x=x, w=w, m=m, n=n: (
                               x.data_ptr(), w.data_ptr(), o.data_ptr(), m, n, x.stride(0),
                               o.stride(0), EPS))
            op = ("torch.rms_norm", lambda o, x=x, w=w, n=n:
                  lambda: o.set_(torch.rms_norm(x, (n, ), w, EPS)))
            yield (f"rmsnorm_{names[dt]}", f"{m}x{n}", nbytes, jobs.families(
                glc, op, "rms_norm", lambda o, x=x, w=w: (x, w, o), fresh,
                lambda o, ref=ref_rms, tol=tol: H.expect_close(o, ref, tol), nbytes))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libs", help="folder with the shared libraries of glc's kernels (run.sh)")
    ap.add_argument("--gemv-size", type=int, default=8192, help="the GEMV's A is S x S")
    ap.add_argument("--softmax-rows", type=int, default=4096)
    ap.add_argument("--softmax-cols", type=int, default=32768)
    ap.add_argument("--norm-n", type=int, nargs="+", default=[1024, 2048, 3072, 4096, 6144, 8192],
                    help="row lengths of the norms (at most 8192)")
    ap.add_argument("--norm-mb", type=int, default=256, help="MB of input of each norm problem")
    ap.add_argument("--warmup", type=int, default=10, help="warm-up launches per contestant and pass")
    ap.add_argument("--warmup-s", type=float, default=1.0, help="seconds of warm-up passes at least")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--reps", type=int, default=10, help="launches per contestant and round")
    ap.add_argument("--pick-reps", type=int, default=10, help="launches timed per configuration")
    ap.add_argument("--smoke", action="store_true", help="no GPU: tiny sizes, Triton's interpreter")
    ap.add_argument("--json", help="write every result and configuration record here")
    a = ap.parse_args()
    if a.smoke:
        os.environ["TRITON_INTERPRET"] = "1"
        a.gemv_size, a.softmax_rows, a.softmax_cols, a.norm_n, a.norm_mb = 64, 4, 256, [1024], 1
        a.warmup, a.warmup_s, a.rounds, a.reps, a.pick_reps = 1, 0, 2, 2, 1
    if H.DEVICE != "cuda" and not a.smoke:
        print("SKIP: no GPU (--smoke tests the script without one)")
        return 77
    torch.manual_seed(0)
    print(H.header())
    jobs = bandwidth.Jobs(a.libs, {})
    return bandwidth.run_jobs(problems(jobs, a), a)


if __name__ == "__main__":
    sys.exit(main())
