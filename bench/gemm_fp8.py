"""fp8 GEMM on an H200: glc's examples/gemm_fp8.gl against torch._scaled_mm.

C = (A @ B) * scale_a * scale_b with A (M x K) f8e4m3 row-major, B (K x N)
f8e4m3 column-major (its transpose Bt, N x K, row-major: what _scaled_mm
takes and what gemm_fp8.gl's K-major WGMMAs read), per-tensor f32 scales as
device scalars, C bf16. One process, the same tensors for every contestant.

Contestants (families, one configuration each):
  glc              gemm_fp8 (libgemm_fp8.so): all of K accumulated in the
                   tensor cores, 128 x 128 tiles per consumer warpgroup;
  glc_precise      gemm_fp8_precise (libgemm_fp8_precise.so, -D IMPRECISE=128
                   -D BN=64): each 128-element K-tile's sum added to the
                   accumulator in f32, 128 x 64 tiles;
  scaled_mm_fast   torch._scaled_mm(..., use_fast_accum=True);
  scaled_mm        torch._scaled_mm(..., use_fast_accum=False) (the default).
glc's kernels run through ctypes on shared libraries (kernel object +
bench/gemm_shim.c + libglrt, built by bench/run.sh) on torch's stream.

--bench, per shape (bench/harness.py): every contestant is checked twice
against a float64 reference on its NaN-poisoned output (a wrong or failing
one is dropped, never timed), then all are timed in --rounds interleaved
rounds of --reps launches each (order rotated per round, CUDA events around
every launch) and checked again. Reported: TFLOP/s = 2 M N K / time (the
median of all launches, the 10th-90th percentile range), and the ratios
glc / scaled_mm_fast and glc_precise / scaled_mm (same accumulation), and
glc / scaled_mm. The goal of issue 12: glc >= 0.95x torch._scaled_mm at
4096^3 and 8192^3.

--check: both glc kernels on M, N, K from 128 to 8192 (with tails that are
not multiples of the tiles; K a multiple of 16, N of 8) against the float64
reference, outputs poisoned with NaN; each case runs twice and both runs
must pass and agree bit for bit.

Usage: python3 bench/gemm_fp8.py --libs DIR [--check] [--bench] [--json OUT.json]
       (on the GPU machine: sh BUNDLE/run.sh gemm_fp8.py --check --bench)
"""
import argparse
import ctypes
import json
import os
import sys
import time

import torch

import harness as H

BM, BK = 128, 128
# variant -> (library stem, BN)
VARIANTS = {"glc": ("gemm_fp8", 128), "glc_precise": ("gemm_fp8_precise", 64)}
TMA_U8, TMA_BF16 = 0, 9
TOL = 1e-2
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]
FP8 = torch.float8_e4m3fn


class Glc:
    """The gemm_fp8 launcher of one variant (see VARIANTS)."""

    def __init__(self, libdir, variant):
        stem, self.bn = VARIANTS[variant]
        self.variant = variant
        lib = H.GlcLib(f"{libdir}/lib{stem}.so")
        self.launch = lib.launcher("gemm_fp8", [ctypes.c_void_p] * 3 + [ctypes.c_uint64] * 2)
        self.map_new = lib.lib.gemm_shim_map_new
        self.map_new.restype = ctypes.c_void_p
        self.encode = lib.lib.gemm_shim_encode_bits
        self.encode.restype = ctypes.c_int
        self.encode.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_uint64] + \
            [ctypes.c_uint64] * 3 + [ctypes.c_uint32] * 2
        self.lib = lib

    def prepare(self, a, bt, sa, sb, c):
        """Encodes the three tensor maps; returns the launch closure."""
        maps = []
        for t, dtype, bits, br, bc in ((a, TMA_U8, 8, BM, BK), (bt, TMA_U8, 8, self.bn, BK),
                                       (c, TMA_BF16, 16, BM, self.bn)):
            mp = self.map_new()
            st = self.encode(mp, dtype, bits, t.data_ptr(), t.shape[0], t.shape[1], t.stride(0),
                             br, bc)
            if st != 0:
                raise RuntimeError(f"{self.variant} encode: status {st}: {self.lib.error()}")
            maps.append(mp)
        grid = (sm_count(), 1, 1)
        return lambda: self.launch(grid, *maps, sa.data_ptr(), sb.data_ptr())


def sm_count():
    return torch.cuda.get_device_properties(0).multi_processor_count


def scaled_mm(a, bt, sa, sb, c, fast):
    """torch._scaled_mm into c (its out= form where this torch has one)."""
    kw = dict(scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, use_fast_accum=fast)
    try:
        torch._scaled_mm(a, bt.t(), out=c, **kw)
        return lambda: torch._scaled_mm(a, bt.t(), out=c, **kw)
    except TypeError:  # no out=: the copy is timed too (noted in the label)
        def run():
            r = torch._scaled_mm(a, bt.t(), **kw)
            c.copy_(r[0] if isinstance(r, tuple) else r)
        return run


def make_inputs(m, n, k):
    a = (torch.randn(m, k, device="cuda") * 2).to(FP8)
    bt = (torch.randn(n, k, device="cuda") * 2).to(FP8)
    sa = torch.tensor(0.75, device="cuda")
    sb = torch.tensor(1.5, device="cuda")
    ref = (a.double() @ bt.double().t()) * (sa.double() * sb.double())
    return a, bt, sa, sb, ref


def families(a, bt, sa, sb, ref, libdir):
    m, n = a.shape[0], bt.shape[0]
    fresh = lambda: torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    check = lambda c: H.expect_close(c, ref, TOL)
    fams = {}
    for v, (stem, _) in VARIANTS.items():
        if os.path.exists(f"{libdir}/lib{stem}.so"):
            fams[v] = H.Family([(stem, lambda c, g=Glc(libdir, v): g.prepare(a, bt, sa, sb, c))],
                               fresh, check)
    for name, fast in (("scaled_mm_fast", True), ("scaled_mm", False)):
        fams[name] = H.Family([(f"use_fast_accum={fast}",
                                lambda c, f=fast: scaled_mm(a, bt, sa, sb, c, f))], fresh, check)
    return fams


def report(rows):
    ratio = lambda r, x, y: (f"{r[x]['stats']['rate'] / r[y]['stats']['rate']:.3f}"
                             if r.get(x, {}).get("stats") and r.get(y, {}).get("stats") else "-")
    names = ["glc", "glc_precise", "scaled_mm_fast", "scaled_mm"]
    out = []
    for r in rows:
        res = r["results"]
        out.append([f"{r['M']}x{r['N']}x{r['K']}"] +
                   [H.cell(res[f]["stats"]) if f in res else "-" for f in names] +
                   [ratio(res, "glc", "scaled_mm_fast"), ratio(res, "glc_precise", "scaled_mm"),
                    ratio(res, "glc", "scaled_mm"), H.gpu_range(r["gpu"])])
    print("\nTFLOP/s: median of all timed launches [10th-90th percentile]")
    print("\n".join(H.table(["M x N x K"] + names +
                            ["glc/fast", "glc_precise/default", "glc/default", "GPU in the rounds"],
                            out)))


def bench(args, save):
    rows = []
    for (m, n, k) in args.shapes:
        t0 = time.time()
        print(f"e4m3 {m}x{n}x{k}:", flush=True)
        a, bt, sa, sb, ref = make_inputs(m, n, k)
        try:
            res, gpu = H.run_problem(families(a, bt, sa, sb, ref, args.libs), 2.0 * m * n * k,
                                     1e12, args)
        except Exception as e:  # a launch that fails while timed: the problem has no result
            print(f"  FAILED: {H.reason(e)}", flush=True)
            continue
        H.print_results(res, gpu, "TFLOP/s")
        print(f"  ({time.time() - t0:.0f} s)", flush=True)
        rows.append({"M": m, "N": n, "K": k, "results": res, "gpu": gpu})
        save(rows)
    report(rows)
    return rows


def check(libdir):
    """--check: both glc variants on many shapes; returns the number of failures."""
    shapes = [(128, 128, 128), (129, 264, 144), (1000, 1000, 1008), (255, 776, 2064),
              (1536, 1280, 8192), (4096, 4096, 4096), (8192, 8192, 8192)]
    fails = total = 0
    for v, (stem, _) in VARIANTS.items():
        if not os.path.exists(f"{libdir}/lib{stem}.so"):
            print(f"SKIP {v}: no lib{stem}.so")
            continue
        g = Glc(libdir, v)
        for (m, n, k) in shapes:
            a, bt, sa, sb, ref = make_inputs(m, n, k)
            outs, errs = [], []
            for _ in range(2):
                c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
                g.prepare(a, bt, sa, sb, c)()
                torch.cuda.synchronize()
                errs.append(H.rel_err(c, ref))
                outs.append(c)
            same = torch.equal(outs[0], outs[1])
            good = all(e <= TOL for e in errs) and same
            fails += not good
            total += 1
            print(f"{'PASS' if good else 'FAIL'} {v:11s} M={m:5d} N={n:5d} K={k:5d} "
                  f"rel_err={errs[0]:.2e},{errs[1]:.2e} same={same}", flush=True)
    print(f"check: {total - fails} passed, {fails} failed")
    return fails


def shape_list(text):
    return [tuple(int(x) for x in s.split("x")) for s in text.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libs", required=True, help="folder with libgemm_fp8{,_precise}.so")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--shapes", type=shape_list, default=SHAPES, help="MxNxK,... (default: 4096^3, 8192^3)")
    ap.add_argument("--warmup", type=int, default=10, help="warm-up launches per contestant and pass")
    ap.add_argument("--warmup-s", type=float, default=1.0, help="seconds of warm-up passes at least")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--reps", type=int, default=10, help="launches per contestant and round")
    ap.add_argument("--pick-reps", type=int, default=10, help="launches timed per configuration")
    ap.add_argument("--json")
    args = ap.parse_args()
    if H.DEVICE != "cuda":
        print("SKIP: no GPU")
        return 77
    torch.manual_seed(0)
    print(H.header())
    out = {"device": H.header()}

    def save(rows=None):
        if rows is not None:
            out["bench"] = rows
        if args.json:
            with open(args.json, "w") as f:
                json.dump(out, f, indent=1)
    if args.check:
        out["check_failures"] = check(args.libs)
        save()
    if args.bench:
        bench(args, save)
    return 1 if out.get("check_failures") else 0


if __name__ == "__main__":
    sys.exit(main())
