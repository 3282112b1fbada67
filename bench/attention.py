"""Attention forward on Hopper: glc's examples/attention_fwd.gl against torch's SDPA backends.

O = softmax(scale * Q K^T) V for Q, K, V of shape [B, H, S, D] (contiguous,
f16 or bf16), causal or not, scale = 1/sqrt(D). One process, the same
tensors for every contestant:
  glc        attention_fwd_DTYPE_dD[_causal] (bench/bundle.sh compiles one
             object per variant, bench/run.sh links DIR/libNAME.so with
             libglrt and gemm_shim.c), launched through its generated
             launcher via ctypes on torch's stream, with rank-4 tensor maps
             encoded by glrt_tensor_map_encode_nvmma; it also writes the
             log-sum-exp, which is checked too;
  cudnn, flash, efficient
             torch.nn.functional.scaled_dot_product_attention inside
             sdpa_kernel(SDPBackend.CUDNN_ATTENTION / FLASH_ATTENTION /
             EFFICIENT_ATTENTION); a backend that refuses a shape is dropped
             with its reason.

Every contestant is checked first, twice (glc's output poisoned with NaN
before each launch), against a float64 reference of a sample of query rows
(every batch and head; the last row always) and dropped if wrong; then all
are warmed up and timed in interleaved rounds (bench/harness.py: order
rotated per round, CUDA events around every launch) and checked again.
TFLOP/s = 4 B H S^2 D / time, halved for causal; reported with the
10th-90th percentile range, the range of the round medians, the share of
the 989 TFLOP/s dense f16/bf16 peak and glc's ratio to the fastest backend.

Shapes: --shapes table (issue 24's: B4 H16 S8192 D64/128/256 f16, D128
bf16, B16 H16 S2048 D128 bf16), sweep (f16 D128 H16, S = 1k .. 16k at 32k
tokens: B = 32768 / S), or all.

Usage: python3 bench/attention.py --libs DIR [--shapes table|sweep|all]
                                  [--causal both|no|yes] [--json OUT.json]
"""
import argparse
import ctypes
import json
import math
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import harness as H

TMA = {torch.float16: 6, torch.bfloat16: 9}
NAMES = {torch.float16: "f16", torch.bfloat16: "bf16"}
TOL = {torch.float16: 2e-3, torch.bfloat16: 1e-2}
PEAK = 989.0
BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}
TABLE = [(torch.float16, 4, 16, 8192, 64), (torch.float16, 4, 16, 8192, 128),
         (torch.float16, 4, 16, 8192, 256), (torch.bfloat16, 4, 16, 8192, 128),
         (torch.bfloat16, 16, 16, 2048, 128)]
SWEEP = [(torch.float16, 32768 // s, 16, s, 128) for s in (1024, 2048, 4096, 8192, 16384)]
CHECK_ROWS = 96


class NvmmaLayout(ctypes.Structure):
    _fields_ = [("swizzle_bytes", ctypes.c_uint), ("element_bitwidth", ctypes.c_uint),
                ("transposed", ctypes.c_int)]


U64x4, U32x4 = ctypes.c_uint64 * 4, ctypes.c_uint32 * 4


class Glc:
    """glc's kernel for one dtype, head dim and mask."""

    def __init__(self, libdir, dtype, d, causal):
        self.name = f"attention_fwd_{NAMES[dtype]}_d{d}{'_causal' if causal else ''}"
        self.dtype, self.d = dtype, d
        self.bn = 128 if d <= 128 else 64  # the kernel's K/V block (its BN default)
        lib = H.GlcLib(f"{libdir}/lib{self.name}.so")
        self.launch = lib.launcher(self.name,
                                   [ctypes.c_void_p] * 4 + [ctypes.c_uint64, ctypes.c_float])
        self.map_new = lib.lib.gemm_shim_map_new
        self.map_new.restype = ctypes.c_void_p
        self.encode_fn = lib.lib.glrt_tensor_map_encode_nvmma
        self.encode_fn.restype = ctypes.c_int
        self.encode_fn.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint64,
                                   U64x4, U64x4, U32x4, ctypes.POINTER(NvmmaLayout), ctypes.c_int]
        self.layout = NvmmaLayout(128, 16, 0)
        self.lib = lib

    def encode(self, t, rows):
        """A tensor map of the [B, H, S, D] tensor t in blocks [1, 1, rows, D]."""
        mp = self.map_new()
        st = self.encode_fn(mp, TMA[self.dtype], 4, t.data_ptr(), U64x4(*t.shape),
                            U64x4(*t.stride()), U32x4(1, 1, rows, self.d),
                            ctypes.byref(self.layout), 0)
        if st != 0:
            raise RuntimeError(f"{self.name} encode: status {st}: {self.lib.error()}")
        return mp

    def prepare(self, q, k, v, out, lse, scale):
        """Encodes the four maps; returns the launch closure (it keeps them)."""
        b, h, s, _ = q.shape
        maps = [self.encode(q, 64), self.encode(k, self.bn), self.encode(v, self.bn),
                self.encode(out, 64)]
        grid = ((s + 127) // 128, h, b)
        return lambda: self.launch(grid, *maps, lse.data_ptr(), scale)


def reference(q, k, v, causal, scale, rows):
    """float64 O and LSE of the query rows `rows` (every batch and head)."""
    qs = q[:, :, rows].double()
    s = torch.matmul(qs, k.double().transpose(-1, -2)) * scale
    if causal:
        cols = torch.arange(k.shape[2], device=q.device)
        s = s.masked_fill(cols[None, :] > rows[:, None], float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    return torch.matmul(torch.exp(s - lse[..., None]), v.double()), lse


def families(q, k, v, causal, libdir):
    """harness families: glc, then one per SDPA backend."""
    dtype, (b, h, s, d) = q.dtype, q.shape
    scale = 1.0 / math.sqrt(d)
    gen = torch.Generator(device="cpu").manual_seed(s * d + causal)
    rows = torch.cat([torch.randperm(s - 1, generator=gen)[:CHECK_ROWS - 1], torch.tensor([s - 1])])
    rows = rows.sort().values.to(q.device)
    ref_o, ref_lse = reference(q, k, v, causal, scale, rows)
    fams = {}
    try:
        g = Glc(libdir, dtype, d, causal) if libdir else None
    except OSError as e:  # the variant's library is missing: no glc contestant
        print(f"  glc: not loaded: {H.reason(e)}")
        g = None
    if g:
        lse = torch.empty(b, h, s, device=q.device, dtype=torch.float32)

        def check_glc(out):
            text = H.expect_close(out[:, :, rows], ref_o, TOL[dtype])
            err = (lse[:, :, rows].double() - ref_lse).abs().max().item()
            if not err <= 1e-3:
                raise H.CheckError(f"LSE max abs err {err:.1e}")
            return f"{text}, LSE max abs err {err:.1e}"

        def build_glc(out):
            lse.fill_(float("nan"))
            return g.prepare(q, k, v, out, lse, scale)
        fams["glc"] = H.Family([(g.name, build_glc)], lambda: torch.full_like(q, float("nan")),
                               check_glc)
    for name, backend in BACKENDS.items():
        held = [None]

        def build(out, backend=backend, held=held):
            def launch():
                with sdpa_kernel(backend):
                    held[0] = F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
            return launch

        def check(out, held=held):
            return H.expect_close(held[0][:, :, rows], ref_o, TOL[dtype])
        fams[name] = H.Family([(name, build)], lambda: torch.empty(1, device=q.device), check)
    return fams


def bench(args, save):
    shapes = {"table": TABLE, "sweep": SWEEP, "all": TABLE + SWEEP}[args.shapes]
    masks = {"both": (False, True), "no": (False,), "yes": (True,)}[args.causal]
    rows = []
    for dtype, b, h, s, d in shapes:
        q, k, v = (torch.randn(b, h, s, d, device=H.DEVICE, dtype=dtype) for _ in range(3))
        for causal in masks:
            t0 = time.time()
            what = f"{NAMES[dtype]} B{b} H{h} S{s} D{d}{' causal' if causal else ''}"
            print(f"{what}:", flush=True)
            flop = 4.0 * b * h * s * s * d / (2 if causal else 1)
            res, gpu = H.run_problem(families(q, k, v, causal, args.libs), flop, 1e12, args)
            H.print_results(res, gpu, "TFLOP/s")
            rows.append({"dtype": NAMES[dtype], "B": b, "H": h, "S": s, "D": d, "causal": causal,
                         "results": {f: {"stats": r["stats"], "pick": r["pick"],
                                         "check": r.get("check"), "configs": r["configs"]}
                                     for f, r in res.items()},
                         "gpu": gpu, "seconds": time.time() - t0})
            save(rows)
        del q, k, v
        torch.cuda.empty_cache()
    return rows


def report(rows):
    heads = ["dtype", "B H S D", "causal", "glc", "cuDNN", "flash", "efficient", "glc/best",
             "glc % of peak", "GPU in the rounds"]
    lines = []
    for r in rows:
        res = r["results"]
        st = {f: res[f]["stats"] for f in res}
        best = max((st[f] for f in BACKENDS if st.get(f)), key=lambda x: x["rate"], default=None)
        glc = st.get("glc")
        shape = f"{r['B']} {r['H']} {r['S']} {r['D']}"
        lines.append([r["dtype"], shape, "yes" if r["causal"] else "no"] +
                     [H.cell(st.get(f)) for f in ("glc", "cudnn", "flash", "efficient")] +
                     [f"{glc['rate'] / best['rate']:.3f}" if glc and best else "-",
                      f"{100 * glc['rate'] / PEAK:.1f}" if glc else "-", H.gpu_range(r["gpu"])])
    print("\nTFLOP/s: median of all timed launches [10th-90th percentile]; glc/best: against the "
          "fastest SDPA backend")
    print("\n".join(H.table(heads, lines)))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--libs", help="folder of the libattention_fwd_*.so (bench/run.sh's work/)")
    ap.add_argument("--shapes", default="all", choices=("table", "sweep", "all"))
    ap.add_argument("--causal", default="both", choices=("both", "no", "yes"))
    ap.add_argument("--json")
    ap.add_argument("--pick-reps", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--warmup-s", type=float, default=0.5)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()
    print(H.header(), flush=True)

    def save(rows):
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"device": H.header(), "rows": rows}, f, indent=1)
    report(bench(args, save))


if __name__ == "__main__":
    main()
