"""GEMM on an H200: glc's examples/gemm.gl and gemm_ws.gl against cuBLAS and Triton.

One process, same inputs. glc's kernels run through ctypes on shared libraries
(kernel object + bench/gemm_shim.c + libglrt, built by bench/gemm_run.sh as
DIR/lib{gemm,gemm_ws}_{f16,bf16}.so) on torch tensors and torch's current
stream; the tensor maps are built with glrt_tensor_map_encode_nvmma.

--check: every kernel and dtype on M, N, K from 128 to 8192 (with tails that
are not multiples of the tiles) against a float64 reference of fresh random
inputs, outputs poisoned with NaN first; each case runs twice and both runs
must pass and agree bit for bit.

Timing: CUDA events around each launch, median of --reps after --warmup,
TFLOP/s = 2 M N K / time. Triton: a tl.dot kernel over several
block/warp/stage configurations, the best kept.

Usage: python3 bench/gemm.py --libs DIR [--check] [--bench] [--profile] [--json OUT.json]
"""
import argparse
import ctypes
import json
import statistics

import torch

BM, BK = 128, 64
BN = 256
VARIANTS = ("gemm", "gemm_s4", "gemm_ws")
TMA = {torch.float16: 6, torch.bfloat16: 9}
NAMES = {torch.float16: "f16", torch.bfloat16: "bf16"}
TOL = {torch.float16: 2e-3, torch.bfloat16: 1e-2}


class Glc:
    """One glc GEMM launcher for one dtype: variant gemm, gemm_s4 (kernel gemm
    with 4 stages) or gemm_ws."""

    def __init__(self, libdir, variant, dtype):
        self.variant, self.dtype = variant, dtype
        kernel = "gemm_ws" if variant == "gemm_ws" else "gemm"
        self.kernel = kernel
        self.lib = ctypes.CDLL(f"{libdir}/lib{variant}_{NAMES[dtype]}.so")
        self.fn = getattr(self.lib, kernel)
        self.fn.restype = ctypes.c_int
        self.fn.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 3 + [ctypes.c_void_p] * 3 + \
            [ctypes.c_int32] * 6
        self.lib.gemm_shim_map_new.restype = ctypes.c_void_p
        self.lib.gemm_shim_encode.restype = ctypes.c_int
        self.lib.gemm_shim_encode.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64] + \
            [ctypes.c_uint64] * 3 + [ctypes.c_uint32] * 2
        self.lib.glrt_last_error.restype = ctypes.c_char_p
        self.maps = [self.lib.gemm_shim_map_new() for _ in range(3)]
        self.sms = torch.cuda.get_device_properties(0).multi_processor_count

    def ok(self, what, status):
        if status != 0:
            raise RuntimeError(f"{self.variant} {what}: status {status}: "
                               f"{self.lib.glrt_last_error().decode()}")

    def prepare(self, a, b, c):
        """Encodes the three maps; returns the launch closure."""
        (m, k), n = a.shape, b.shape[1]
        for mp, t, br, bc in ((self.maps[0], a, BM, BK), (self.maps[1], b, BK, BN),
                              (self.maps[2], c, BM, BN)):
            self.ok("encode", self.lib.gemm_shim_encode(mp, TMA[self.dtype], t.data_ptr(),
                                                         t.shape[0], t.shape[1], t.stride(0),
                                                         br, bc))
        if self.kernel == "gemm":
            grid = ((m + BM - 1) // BM, (n + BN - 1) // BN, 1)
        else:
            grid = (self.sms, 1, 1)
        stream = torch.cuda.current_stream().cuda_stream

        def launch():
            self.ok("launch", self.fn(stream, *grid, *self.maps, m, k, k, n, m, n))
        return launch


def rel_err(c, ref):
    return ((c.double() - ref).norm() / ref.norm()).item()


def check(glcs, shapes):
    fails = 0
    for g in glcs:
        for (m, n, k) in shapes:
            a = torch.randn(m, k, device="cuda").to(g.dtype)
            b = torch.randn(k, n, device="cuda").to(g.dtype)
            ref = a.double() @ b.double()
            outs, errs = [], []
            for _ in range(2):
                c = torch.full((m, n), float("nan"), device="cuda", dtype=g.dtype)
                g.prepare(a, b, c)()
                torch.cuda.synchronize()
                errs.append(rel_err(c, ref) if not c.isnan().any() else float("nan"))
                outs.append(c)
            same = torch.equal(outs[0], outs[1])
            good = all(e <= TOL[g.dtype] for e in errs) and same
            fails += not good
            print(f"{'PASS' if good else 'FAIL'} {g.variant:8s} {NAMES[g.dtype]:4s} "
                  f"M={m:5d} N={n:5d} K={k:5d} rel_err={errs[0]:.2e},{errs[1]:.2e} "
                  f"same={same}", flush=True)
    return fails


def median_ms(fn, warmup, reps):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def triton_best(a, b, c, warmup, reps):
    """Best median time of a tl.dot kernel over several configurations."""
    import triton
    import triton.language as tl

    @triton.jit
    def mm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
           BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
        pid = tl.program_id(0)
        num_m = tl.cdiv(M, BLOCK_M)
        num_n = tl.cdiv(N, BLOCK_N)
        in_group = GROUP_M * num_n
        first_m = pid // in_group * GROUP_M
        size_m = min(num_m - first_m, GROUP_M)
        pid_m = first_m + (pid % in_group) % size_m
        pid_n = (pid % in_group) // size_m
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        pa = a_ptr + rm[:, None] * K + rk[None, :]
        pb = b_ptr + rk[:, None] * N + rn[None, :]
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for kk in range(0, tl.cdiv(K, BLOCK_K)):
            ka = kk * BLOCK_K + rk
            x = tl.load(pa, mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
            y = tl.load(pb, mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(x, y, acc)
            pa += BLOCK_K
            pb += BLOCK_K * N
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))

    (m, k), n = a.shape, b.shape[1]
    configs = [(128, 256, 64, 8, 3), (128, 128, 64, 4, 4), (256, 128, 64, 8, 3),
               (128, 128, 64, 8, 3)]
    best = None
    for bm, bn, bk, w, s in configs:
        grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)

        def run():
            mm[grid](a, b, c, m, n, k, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
                     num_warps=w, num_stages=s)
        try:
            run()
            torch.cuda.synchronize()
        except Exception as e:  # a config that does not fit (shared memory)
            print(f"  triton config {bm}x{bn}x{bk} w{w} s{s}: {type(e).__name__}")
            continue
        t = median_ms(run, warmup, reps)
        if best is None or t < best[0]:
            best = (t, f"{bm}x{bn}x{bk} w{w} s{s}")
    return best


def bench(libdir, shapes, warmup, reps):
    rows = []
    for dtype in (torch.float16, torch.bfloat16):
        kernels = [Glc(libdir, v, dtype) for v in VARIANTS]
        for (m, n, k) in shapes:
            a = torch.randn(m, k, device="cuda").to(dtype)
            b = torch.randn(k, n, device="cuda").to(dtype)
            c = torch.empty(m, n, device="cuda", dtype=dtype)
            flop = 2.0 * m * n * k
            tf = lambda t: flop / (t * 1e-3) / 1e12
            r = {"dtype": NAMES[dtype], "M": m, "N": n, "K": k}
            for g in kernels:
                r[g.variant] = tf(median_ms(g.prepare(a, b, c), warmup, reps))
            r["cublas"] = tf(median_ms(lambda: torch.matmul(a, b, out=c), warmup, reps))
            t, cfg = triton_best(a, b, c, warmup, reps)
            r["triton"], r["triton_cfg"] = tf(t), cfg
            r["glc_best"] = max(r[v] for v in VARIANTS)
            r["vs_cublas"] = r["glc_best"] / r["cublas"]
            r["vs_triton"] = r["glc_best"] / r["triton"]
            rows.append(r)
            print(f"{r['dtype']:4s} {m}x{n}x{k}: gemm {r['gemm']:6.1f} gemm_s4 {r['gemm_s4']:6.1f} "
                  f"gemm_ws {r['gemm_ws']:6.1f} "
                  f"cuBLAS {r['cublas']:6.1f} triton {r['triton']:6.1f} ({cfg})  "
                  f"best/cuBLAS {r['vs_cublas']:.3f} best/triton {r['vs_triton']:.3f}",
                  flush=True)
    print("\n| dtype | M x N x K | glc gemm | glc gemm_s4 | glc gemm_ws | cuBLAS "
          "| Triton (best cfg) | glc/cuBLAS | glc/Triton |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['dtype']} | {r['M']}x{r['N']}x{r['K']} | {r['gemm']:.1f} | "
              f"{r['gemm_s4']:.1f} | {r['gemm_ws']:.1f} | {r['cublas']:.1f} | {r['triton']:.1f} ({r['triton_cfg']}) "
              f"| {r['vs_cublas']:.3f} | {r['vs_triton']:.3f} |")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--libs", required=True)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--profile", action="store_true",
                    help="one launch of each variant at 8192^3 f16 (for ncu)")
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.manual_seed(0)
    print(torch.cuda.get_device_name(0), "torch", torch.__version__)
    out = {}
    if args.check:
        glcs = [Glc(args.libs, v, dt) for v in VARIANTS
                for dt in (torch.float16, torch.bfloat16)]
        shapes = [(128, 128, 128), (129, 264, 72), (1000, 1000, 1000), (255, 776, 2056),
                  (1536, 1280, 8192), (8192, 8192, 512), (4096, 4096, 4096),
                  (8192, 8192, 8192)]
        fails = check(glcs, shapes)
        print(f"check: {len(glcs) * len(shapes) - fails} passed, {fails} failed")
        out["check_failures"] = fails
    if args.bench:
        out["bench"] = bench(args.libs, [(4096, 4096, 4096), (8192, 8192, 8192),
                                         (8192, 8192, 512)], args.warmup, args.reps)
    if args.profile:
        n = 8192
        a = torch.randn(n, n, device="cuda").half()
        b = torch.randn(n, n, device="cuda").half()
        c = torch.empty(n, n, device="cuda").half()
        for v in VARIANTS:
            Glc(args.libs, v, torch.float16).prepare(a, b, c)()
        torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
