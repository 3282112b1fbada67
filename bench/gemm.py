"""GEMM on an H200: glc's examples/gemm.gl, gemm_ws.gl and gemm_pp.gl against cuBLAS and Triton.

One process, same inputs. glc's kernels run through ctypes on shared libraries
(kernel object + bench/gemm_shim.c + libglrt, built by bench/gemm_run.sh as
DIR/lib{VARIANT}_{f16,bf16}.so) on torch tensors and torch's current
stream; the tensor maps are built with glrt_tensor_map_encode_nvmma.
Variants: gemm (grouped 1-D grid), gemm_ws (persistent, cooperative consumers),
gemm_pp (persistent, ping-pong consumers on 128x128 tiles), and, when the
bundle has them, base_gemm (2-D grid), base_gemm_ws and base_gemm_pp:
the kernels of an earlier commit compiled by that commit's glc, measured in
the same rounds. glc's result per shape is its best variant (as Triton's is
its best configuration).

--check: every kernel and dtype on M, N, K from 128 to 8192 (with tails that
are not multiples of the tiles) against a float64 reference of fresh random
inputs, outputs poisoned with NaN first; each case runs twice and both runs
must pass and agree bit for bit.

Timing (--bench): per shape and dtype, Triton's best configuration is picked
first (a tl.dot kernel over four block/warp/stage configurations, short
timings); then every contestant (glc variants, cuBLAS via torch.matmul,
Triton's best) is warmed up and timed in --rounds interleaved rounds, each
round running every contestant --reps times back to back in a rotated
order, each launch between its own CUDA events. Reported per contestant:
the median over all launches in TFLOP/s = 2 M N K / time, and the spread
as the 10th-90th percentile range of the per-launch times and the range of
the per-round medians (clock drift shows up there).

Usage: python3 bench/gemm.py --libs DIR [--check] [--bench] [--profile] [--json OUT.json]
"""
import argparse
import ctypes
import os
import json
import statistics

import torch

BK = 64
# variant -> (kernel symbol, grid, BM, BN): "tiles" one program per tile on a
# 1-D grid (grouped order inside the kernel), "tiles2d" cdiv(M, BM) x
# cdiv(N, BN), "sms" one program per SM (persistent).
VARIANTS = {"gemm": ("gemm", "tiles", 128, 256), "gemm_ws": ("gemm_ws", "sms", 128, 256),
            "gemm_pp": ("gemm_pp", "sms", 128, 128),
            "base_gemm": ("gemm", "tiles2d", 128, 256),
            "base_gemm_ws": ("gemm_ws", "sms", 128, 256),
            "base_gemm_pp": ("gemm_pp", "sms", 128, 128)}
GLC_OWN = ("gemm", "gemm_ws", "gemm_pp")
TMA = {torch.float16: 6, torch.bfloat16: 9}
NAMES = {torch.float16: "f16", torch.bfloat16: "bf16"}
TOL = {torch.float16: 2e-3, torch.bfloat16: 1e-2}


class Glc:
    """One glc GEMM launcher for one dtype and variant (see VARIANTS)."""

    def __init__(self, libdir, variant, dtype):
        self.variant, self.dtype = variant, dtype
        kernel, self.grid, self.bm, self.bn = VARIANTS[variant]
        self.kernel = kernel
        self.lib = ctypes.CDLL(f"{libdir}/lib{variant}_{NAMES[dtype]}.so")
        self.fn = getattr(self.lib, kernel)
        self.fn.restype = ctypes.c_int
        self.fn.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 3 + [ctypes.c_void_p] * 3
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
        BM, BN = self.bm, self.bn
        for mp, t, br, bc in ((self.maps[0], a, BM, BK), (self.maps[1], b, BK, BN),
                              (self.maps[2], c, BM, BN)):
            self.ok("encode", self.lib.gemm_shim_encode(mp, TMA[self.dtype], t.data_ptr(),
                                                         t.shape[0], t.shape[1], t.stride(0),
                                                         br, bc))
        tiles_m, tiles_n = (m + BM - 1) // BM, (n + BN - 1) // BN
        grid = {"tiles": (tiles_m * tiles_n, 1, 1), "tiles2d": (tiles_m, tiles_n, 1),
                "sms": (self.sms, 1, 1)}[self.grid]
        stream = torch.cuda.current_stream().cuda_stream

        def launch():
            self.ok("launch", self.fn(stream, *grid, *self.maps))
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


def launch_times(fn, reps):
    """Times reps back-to-back launches of fn, each between its own events (ms)."""
    evs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
           for _ in range(reps)]
    for st, en in evs:
        st.record()
        fn()
        en.record()
    torch.cuda.synchronize()
    return [st.elapsed_time(en) for st, en in evs]


def median_ms(fn, warmup, reps):
    for _ in range(warmup):
        fn()
    return statistics.median(launch_times(fn, reps))


def interleaved(contestants, warmup, rounds, reps):
    """contestants: name -> launch closure. Warms each up, then runs rounds
    of reps launches of every contestant, the order rotated each round.
    Returns name -> (all launch times, per-round medians)."""
    names = list(contestants)
    for nm in names:
        for _ in range(warmup):
            contestants[nm]()
    torch.cuda.synchronize()
    times = {nm: [] for nm in names}
    rmed = {nm: [] for nm in names}
    for r in range(rounds):
        for i in range(len(names)):
            nm = names[(i + r) % len(names)]
            t = launch_times(contestants[nm], reps)
            times[nm] += t
            rmed[nm].append(statistics.median(t))
    return {nm: (times[nm], rmed[nm]) for nm in names}


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


def triton_best(a, b, c, warmup, reps):
    """(median time, name, launch closure) of the best configuration of a
    tl.dot kernel."""
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
            best = (t, f"{bm}x{bn}x{bk} w{w} s{s}", run)
    return best


def bench(libdir, shapes, warmup, rounds, reps):
    rows = []
    variants = [v for v in VARIANTS if os.path.exists(f"{libdir}/lib{v}_f16.so")]
    for dtype in (torch.float16, torch.bfloat16):
        kernels = [Glc(libdir, v, dtype) for v in variants]
        for (m, n, k) in shapes:
            a = torch.randn(m, k, device="cuda").to(dtype)
            b = torch.randn(k, n, device="cuda").to(dtype)
            c = torch.empty(m, n, device="cuda", dtype=dtype)
            flop = 2.0 * m * n * k
            tf = lambda t: flop / (t * 1e-3) / 1e12
            _, cfg, triton_run = triton_best(a, b, c, 3, 10)
            contestants = {g.variant: g.prepare(a, b, c) for g in kernels}
            contestants["cublas"] = lambda: torch.matmul(a, b, out=c)
            contestants["triton"] = triton_run
            res = interleaved(contestants, warmup, rounds, reps)
            r = {"dtype": NAMES[dtype], "M": m, "N": n, "K": k, "triton_cfg": cfg}
            for nm, (ts, meds) in res.items():
                r[nm] = {"tflops": tf(statistics.median(ts)),
                         "p10_p90": [tf(pct(ts, 0.9)), tf(pct(ts, 0.1))],
                         "rounds": [tf(max(meds)), tf(min(meds))], "n": len(ts)}
            best = max((v for v in GLC_OWN if v in r), key=lambda v: r[v]["tflops"])
            r["glc_best"] = best
            r["vs_cublas"] = r[best]["tflops"] / r["cublas"]["tflops"]
            r["vs_triton"] = r[best]["tflops"] / r["triton"]["tflops"]
            rows.append(r)
            print(f"{r['dtype']:4s} {m}x{n}x{k}: " + " ".join(
                f"{nm} {r[nm]['tflops']:.1f}" for nm in contestants) +
                f" (triton {cfg}) best={best} /cuBLAS {r['vs_cublas']:.3f} "
                f"/triton {r['vs_triton']:.3f}", flush=True)
    names = variants + ["cublas", "triton"]
    print("\nTFLOP/s: median of all launches [10th-90th percentile] {range of round medians}")
    print("| dtype | M x N x K | " + " | ".join(names) + " | glc/cuBLAS | glc/Triton |")
    print("|---|---|" + "---|" * (len(names) + 2))
    for r in rows:
        cells = [f"{r[nm]['tflops']:.1f} [{r[nm]['p10_p90'][0]:.0f}-{r[nm]['p10_p90'][1]:.0f}]"
                 f" {{{r[nm]['rounds'][0]:.0f}-{r[nm]['rounds'][1]:.0f}}}" for nm in names]
        print(f"| {r['dtype']} | {r['M']}x{r['N']}x{r['K']} | " + " | ".join(cells) +
              f" | {r['vs_cublas']:.3f} ({r['glc_best']}) | {r['vs_triton']:.3f} |")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--libs", required=True)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--reps", type=int, default=10, help="launches per contestant and round")
    ap.add_argument("--profile", action="store_true",
                    help="one launch of each variant and of cuBLAS in f16 (for ncu)")
    ap.add_argument("--profile-size", type=int, default=8192,
                    help="M = N = K of the --profile launches")
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.manual_seed(0)
    print(torch.cuda.get_device_name(0), "torch", torch.__version__)
    out = {}
    if args.check:
        glcs = [Glc(args.libs, v, dt) for v in GLC_OWN
                if os.path.exists(f"{args.libs}/lib{v}_f16.so")
                for dt in (torch.float16, torch.bfloat16)]
        shapes = [(128, 128, 128), (129, 264, 72), (1000, 1000, 1000), (255, 776, 2056),
                  (1536, 1280, 8192), (8192, 8192, 512), (4096, 4096, 4096),
                  (8192, 8192, 8192)]
        fails = check(glcs, shapes)
        print(f"check: {len(glcs) * len(shapes) - fails} passed, {fails} failed")
        out["check_failures"] = fails
    if args.bench:
        out["bench"] = bench(args.libs, [(4096, 4096, 4096), (8192, 8192, 8192),
                                         (8192, 8192, 512)], args.warmup, args.rounds,
                             args.reps)
    if args.profile:
        n = args.profile_size
        a = torch.randn(n, n, device="cuda").half()
        b = torch.randn(n, n, device="cuda").half()
        c = torch.empty(n, n, device="cuda").half()
        for v in VARIANTS:
            if os.path.exists(f"{args.libs}/lib{v}_f16.so"):
                Glc(args.libs, v, torch.float16).prepare(a, b, c)()
        torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
