"""GEMM on an H200: glc's examples/gemm.gl, gemm_ws.gl and gemm_pp.gl against cuBLAS and the strongest public kernels.

C = A @ B, A (M x K) and B (K x N) row-major f16 or bf16, f32 accumulation,
C in the input dtype. One process, the same tensors for every contestant.

Contestants, each a family of configurations:
  glc          glc's kernels (variants gemm: grouped 1-D grid; gemm_ws:
               persistent, cooperative consumers; gemm_pp: persistent,
               ping-pong consumers on 128x128 tiles), run through ctypes on
               shared libraries (kernel object + bench/gemm_shim.c + libglrt,
               built by bench/run.sh as DIR/lib{VARIANT}_{f16,bf16}.so) on
               torch's stream, tensor maps encoded by glrt_tensor_map_encode_nvmma;
  glc_base     when the bundle has them (bench/bundle.sh BASE_GLC ...): an
               earlier commit's kernels, compiled by that commit's glc;
  cublas       torch.matmul;
  --anchors DIR: the baseline kernels kept outside the project (imported
               from DIR, never copied): Triton's classic tl.dot matmul
               (tutorial 03) and persistent TMA-descriptor matmul with and
               without warp specialization (tutorial 09), Gluon's pipelined,
               persistent and persistent pipelined WGMMA matmuls (Gluon
               tutorial 07), each with the configurations its module's
               candidates() lists.

--bench, per shape and dtype (bench/harness.py): every configuration of every
family is checked first, twice, against a float64 reference on fresh random
inputs with its output poisoned with NaN (a configuration that raises or is
wrong is reported and dropped, never timed); the survivors are timed with
--pick-reps launches and each family's fastest is its pick. The picks are
then warmed up and timed in --rounds interleaved rounds of --reps launches
each (order rotated per round, CUDA events around every launch), and their
outputs checked again. Reported: TFLOP/s = 2 M N K / time, the median of all
launches, the 10th-90th percentile range, the range of the round medians,
and each family's pick.

--check: glc's kernels on M, N, K from 128 to 8192 (with tails that are not
multiples of the tiles) against a float64 reference of fresh random inputs,
outputs poisoned with NaN; each case runs twice and both runs must pass and
agree bit for bit.

Usage: python3 bench/gemm.py --libs DIR [--anchors DIR] [--check] [--bench] [--json OUT.json]
       python3 bench/gemm.py --profile --libs DIR     (one launch of each, for ncu)
       python3 bench/gemm.py --smoke [--anchors DIR]  (no GPU: tests the script)
"""
import argparse
import ctypes
import importlib
import json
import os
import sys
import time

import torch

import harness as H

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
DTYPES = {v: k for k, v in NAMES.items()}
TOL = {torch.float16: 2e-3, torch.bfloat16: 1e-2}
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 512)]
TITLES = {"glc": "glc", "glc_base": "glc (base)", "cublas": "cuBLAS", "tl_matmul": "Triton tl.dot",
          "tl_persistent_desc": "Triton persistent TMA", "gluon_pipelined": "Gluon pipelined",
          "gluon_persistent": "Gluon persistent", "gluon_persistent_pipelined": "Gluon persistent pipelined"}


class Glc:
    """One glc GEMM launcher for one dtype and variant (see VARIANTS)."""

    def __init__(self, libdir, variant, dtype):
        self.variant, self.dtype = variant, dtype
        kernel, self.grid, self.bm, self.bn = VARIANTS[variant]
        lib = H.GlcLib(f"{libdir}/lib{variant}_{NAMES[dtype]}.so")
        self.launch = lib.launcher(kernel, [ctypes.c_void_p] * 3)
        self.map_new = lib.lib.gemm_shim_map_new
        self.map_new.restype = ctypes.c_void_p
        self.encode = lib.lib.gemm_shim_encode
        self.encode.restype = ctypes.c_int
        self.encode.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64] + \
            [ctypes.c_uint64] * 3 + [ctypes.c_uint32] * 2
        self.lib = lib

    def prepare(self, a, b, c):
        """Encodes three new tensor maps; returns the launch closure."""
        m, n = a.shape[0], b.shape[1]
        BM, BN = self.bm, self.bn
        maps = []
        for t, br, bc in ((a, BM, BK), (b, BK, BN), (c, BM, BN)):
            mp = self.map_new()
            st = self.encode(mp, TMA[self.dtype], t.data_ptr(), t.shape[0], t.shape[1], t.stride(0), br, bc)
            if st != 0:
                raise RuntimeError(f"{self.variant} encode: status {st}: {self.lib.error()}")
            maps.append(mp)
        tiles_m, tiles_n = (m + BM - 1) // BM, (n + BN - 1) // BN
        grid = {"tiles": (tiles_m * tiles_n, 1, 1), "tiles2d": (tiles_m, tiles_n, 1),
                "sms": (sm_count(), 1, 1)}[self.grid]
        return lambda: self.launch(grid, *maps)


def sm_count():
    return torch.cuda.get_device_properties(0).multi_processor_count if H.DEVICE == "cuda" else 4


def glc_variants(libdir, names):
    return [v for v in names if libdir and os.path.exists(f"{libdir}/lib{v}_f16.so")]


def load_anchors(path):
    """family -> [(label, factory(A, B, C, num_sms))] of the anchor modules in path."""
    sys.path.insert(0, os.path.abspath(path))
    fams = {}
    for mod in ("triton_gemm", "gluon_gemm"):
        try:
            fams.update(importlib.import_module(mod).candidates())
        except Exception as e:  # a module that does not import leaves its families out
            print(f"anchors: {mod} not loaded: {H.reason(e)}")
    import triton
    # The TMA-descriptor kernels allocate their descriptors' scratch through this.
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=H.DEVICE,
                                                                     dtype=torch.int8))
    return fams


def families(a, b, dtype, libdir, anchors):
    m, n = a.shape[0], b.shape[1]
    ref = a.double() @ b.double()
    fresh = lambda: torch.full((m, n), float("nan"), device=H.DEVICE, dtype=dtype)
    check = lambda c: H.expect_close(c, ref, TOL[dtype])
    glc = lambda vs: [(v, lambda c, g=Glc(libdir, v, dtype): g.prepare(a, b, c)) for v in vs]
    fams = {}
    for name, vs in (("glc", glc_variants(libdir, GLC_OWN)),
                     ("glc_base", glc_variants(libdir, [v for v in VARIANTS if v.startswith("base_")]))):
        if vs:
            fams[name] = H.Family(glc(vs), fresh, check)
    fams["cublas"] = H.Family([("torch.matmul", lambda c: lambda: torch.matmul(a, b, out=c))], fresh, check)
    sms = sm_count()
    for name, configs in anchors.items():
        fams[name] = H.Family([(label, lambda c, f=f: f(a, b, c, sms)) for label, f in configs], fresh, check)
    return fams


def best_of(r, prefix):
    """The fastest family whose name starts with prefix: (family, stats) or (None, None)."""
    got = [(f, x["stats"]) for f, x in r["results"].items() if f.startswith(prefix) and x["stats"]]
    return max(got, key=lambda fs: fs[1]["rate"]) if got else (None, None)


def report(rows):
    fams = []
    for r in rows:
        fams += [f for f in r["results"] if f not in fams]
    ratio = lambda x, y: f"{x['rate'] / y['rate']:.3f}" if x and y else "-"
    full, picks, short = [], [], []
    for r in rows:
        res = r["results"]
        glc = res.get("glc", {}).get("stats")
        cub = res.get("cublas", {}).get("stats")
        tri, tri_s = best_of(r, "tl_")
        glu, glu_s = best_of(r, "gluon_")
        what = [r["dtype"], f"{r['M']}x{r['N']}x{r['K']}"]
        full.append(what + [H.cell(res[f]["stats"]) if f in res else "-" for f in fams] +
                    [ratio(glc, cub), ratio(glc, tri_s), ratio(glc, glu_s), H.gpu_range(r["gpu"])])
        picks.append(what + [
            f"{res[f]['pick'] or 'none'} ({sum(c['status'] == 'ok' for c in res[f]['configs'])}/"
            f"{len(res[f]['configs'])})" if f in res else "-" for f in fams])
        pick = lambda f: f"{res[f]['stats']['rate']:.0f} ({TITLES.get(f, f)}: {res[f]['pick']})" if f else "-"
        short.append(what + [pick("glc") if glc else "-", f"{cub['rate']:.0f}" if cub else "-",
                      pick(tri), pick(glu), ratio(glc, cub), ratio(glc, tri_s), ratio(glc, glu_s)])
    heads = ["dtype", "M x N x K"] + [TITLES.get(f, f) for f in fams]
    print("\nTFLOP/s: median of all timed launches [10th-90th percentile]; ratios of medians, "
          "glc against cuBLAS and the fastest Triton and Gluon family")
    print("\n".join(H.table(heads + ["glc/cuBLAS", "glc/Triton", "glc/Gluon", "GPU in the rounds"], full)))
    print("\nPicked configurations (passed checks / configurations):")
    print("\n".join(H.table(heads, picks)))
    print("\nShort form (TFLOP/s, medians; family: pick):")
    print("\n".join(H.table(["dtype", "M x N x K", "glc", "cuBLAS", "best Triton", "best Gluon",
                             "glc/cuBLAS", "glc/Triton", "glc/Gluon"], short)))


def bench(args, anchors, save):
    """Every shape and dtype; save(rows) after each (a run cut short keeps
    what it measured)."""
    rows = []
    for dtype in [DTYPES[d] for d in args.dtypes.split(",")]:
        for (m, n, k) in args.shapes:
            t0 = time.time()
            print(f"{NAMES[dtype]} {m}x{n}x{k}:", flush=True)
            a = torch.randn(m, k, device=H.DEVICE).to(dtype)
            b = torch.randn(k, n, device=H.DEVICE).to(dtype)
            try:
                res, gpu = H.run_problem(families(a, b, dtype, args.libs, anchors), 2.0 * m * n * k, 1e12,
                                         args)
            except Exception as e:  # a launch that fails while timed: the problem has no result
                print(f"  FAILED: {H.reason(e)}", flush=True)
                continue
            H.print_results(res, gpu, "TFLOP/s")
            print(f"  ({time.time() - t0:.0f} s)", flush=True)
            rows.append({"dtype": NAMES[dtype], "M": m, "N": n, "K": k, "results": res, "gpu": gpu})
            save(rows)
    report(rows)
    return rows


def check(libdir):
    """--check: glc's own variants on many shapes; returns the number of failures."""
    shapes = [(128, 128, 128), (129, 264, 72), (1000, 1000, 1000), (255, 776, 2056),
              (1536, 1280, 8192), (8192, 8192, 512), (4096, 4096, 4096), (8192, 8192, 8192)]
    fails = total = 0
    for v in glc_variants(libdir, GLC_OWN):
        for dtype in (torch.float16, torch.bfloat16):
            g = Glc(libdir, v, dtype)
            for (m, n, k) in shapes:
                a = torch.randn(m, k, device="cuda").to(dtype)
                b = torch.randn(k, n, device="cuda").to(dtype)
                ref = a.double() @ b.double()
                outs, errs = [], []
                for _ in range(2):
                    c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
                    g.prepare(a, b, c)()
                    torch.cuda.synchronize()
                    errs.append(H.rel_err(c, ref))
                    outs.append(c)
                same = torch.equal(outs[0], outs[1])
                good = all(e <= TOL[dtype] for e in errs) and same
                fails += not good
                total += 1
                print(f"{'PASS' if good else 'FAIL'} {v:8s} {NAMES[dtype]:4s} M={m:5d} N={n:5d} K={k:5d} "
                      f"rel_err={errs[0]:.2e},{errs[1]:.2e} same={same}", flush=True)
    print(f"check: {total - fails} passed, {fails} failed")
    return fails


def profile(libdir, size):
    """--profile: one launch of each glc variant and of cuBLAS in f16 (for ncu)."""
    a, b, c = (torch.randn(size, size, device="cuda").half() for _ in range(3))
    for v in glc_variants(libdir, VARIANTS):
        Glc(libdir, v, torch.float16).prepare(a, b, c)()
    torch.matmul(a, b, out=c)
    torch.cuda.synchronize()


def shape_list(text):
    return [tuple(int(x) for x in s.split("x")) for s in text.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libs", help="folder with lib{VARIANT}_{f16,bf16}.so")
    ap.add_argument("--anchors", help="folder with the baseline modules triton_gemm.py and gluon_gemm.py")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--shapes", type=shape_list, default=SHAPES, help="MxNxK,... (default: the three)")
    ap.add_argument("--dtypes", default="f16,bf16")
    ap.add_argument("--warmup", type=int, default=10, help="warm-up launches per contestant and pass")
    ap.add_argument("--warmup-s", type=float, default=1.0, help="seconds of warm-up passes at least")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--reps", type=int, default=10, help="launches per contestant and round")
    ap.add_argument("--pick-reps", type=int, default=10, help="launches timed per configuration")
    ap.add_argument("--profile", action="store_true", help="one launch of each variant and of cuBLAS in f16")
    ap.add_argument("--profile-size", type=int, default=8192, help="M = N = K of the --profile launches")
    ap.add_argument("--smoke", action="store_true", help="no GPU: small shapes, Triton's interpreter")
    ap.add_argument("--json")
    args = ap.parse_args()
    if args.smoke:
        os.environ["TRITON_INTERPRET"] = "1"
        args.bench, args.shapes, args.warmup, args.warmup_s, args.rounds, args.reps, args.pick_reps = \
            True, [(128, 128, 64)], 1, 0, 2, 2, 1
    elif H.DEVICE != "cuda":
        print("SKIP: no GPU (--smoke tests the script without one)")
        return 77
    torch.manual_seed(0)
    anchors = load_anchors(args.anchors) if args.anchors else {}
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
        bench(args, anchors, save)
    if args.profile:
        profile(args.libs, args.profile_size)
    return 1 if out.get("check_failures") else 0


if __name__ == "__main__":
    sys.exit(main())
