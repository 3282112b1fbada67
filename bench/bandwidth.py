"""Memory-bound kernels on a GPU: glc's examples against torch, Triton and a device copy, in one process.

For each job (one glc kernel on one size) four families run on the same
tensors: glc's kernel (a shared library from bench/run.sh or
test/gpu/run.sh, through ctypes on torch's stream), torch's op, a Triton
kernel written the way Triton's tutorials write the job
(bench/triton_kernels.py, autotuned over its configurations per job), and a
device-to-device copy (torch copy_) moving the same number of bytes, the
ceiling. bench/harness.py checks each configuration on a NaN-poisoned output
before it is timed (exact for the moves and the add; float64 references
for the rest), times the picks in interleaved rounds and checks their
outputs again afterwards. Bandwidth counts the bytes that must move: every
input read once, every output written once.

  vector_add_f32/_f16     z = x + y (n)                  torch.add
  swiglu_f32, _auto_f32   z = silu(x) * y (n f32)        torch.mul(F.silu(x), y)
  transpose_f32           dst = src^T (S x S f32)        dst.copy_(src.t())
  relayout_copy_f32       dst = src (S x S f32)          dst.copy_(src)
  softmax_f32/_f16        row softmax (R x 1024)         torch.softmax
  row_sum_f32, col_sum_f32  sums of a T x T f32 matrix   torch.sum(dim=1 / 0)
  cumsum_f32              row prefix sums (4096 x 8192)  torch.cumsum(dim=1)
  histogram_i32           16M int32 into 256 bins        torch.bincount(minlength=256)

Usage: python3 bench/bandwidth.py --libs DIR [--json OUT.json] [--only NAME] [sizes, timing options]
       python3 bench/bandwidth.py --smoke   (no GPU: tiny sizes, Triton's interpreter; tests the script)
"""
import argparse
import ctypes
import itertools
import json
import os
import sys

import torch

import harness as H

P = ctypes.c_uint64
I = ctypes.c_int32


def cdiv(a, b):
    return (a + b - 1) // b


class Jobs:
    """Builds each job's families; glc's launchers come from the libraries in libdir."""

    def __init__(self, libdir, triton_configs):
        self.libs = [H.GlcLib(os.path.join(libdir, f)) for f in sorted(os.listdir(libdir))
                     if f.startswith("lib") and f.endswith(".so") and f != "libglrt.so"] \
            if libdir else []
        self.triton = triton_configs

    def glc(self, name, argtypes, grid, args, prepare=None, label=None):
        """glc's family: one configuration (named label, else name), the
        kernel `name` launched on grid with args(out) (device pointers and
        integers), after prepare(out) when given; None when no library has
        it."""
        for lib in self.libs:
            if lib.has(name):
                call = lib.launcher(name, argtypes)

                def build(out):
                    argv = args(out)
                    if prepare:
                        return lambda: (prepare(out), call(grid, *argv))
                    return lambda: call(grid, *argv)
                return [(label or name, build)]
        return None

    def glc_configs(self, configs):
        """glc's family over several kernels or grids: configs are glc()'s
        argument tuples; None when no library has any of them."""
        found = [c for args in configs for c in (self.glc(*args) or [])]
        return found or None

    def families(self, glc, torch_op, triton_job, bind, fresh_out, check, nbytes):
        """glc, torch, Triton (triton_job's configurations, factories called
        as factory(*bind(out))) and the device copy of nbytes / 2 bytes."""
        fams = {}
        if glc is not None:
            fams["glc"] = H.Family(glc, fresh_out, check)
        fams["torch"] = H.Family([torch_op], fresh_out, check)
        fams["triton"] = H.Family([(label, lambda out, f=f: f(*bind(out)))
                                   for label, f in self.triton[triton_job]], fresh_out, check)
        src = torch.randn(nbytes // 8, device=H.DEVICE)
        fams["copy"] = H.Family([("copy_", lambda out: lambda: out.copy_(src))],
                                lambda: torch.full_like(src, float("nan")),
                                lambda out: H.expect_equal(out, src))
        return fams


def problems(jobs, a):
    """Yields (kernel, size text, bytes moved, families) for every job."""
    dev, nan = H.DEVICE, float("nan")
    F = torch.nn.functional
    for dt, name, block in ((torch.float32, "vector_add_f32", 2048), (torch.float16, "vector_add_f16", 4096)):
        n = a.n
        x, y = torch.randn(n, device=dev).to(dt), torch.randn(n, device=dev).to(dt)
        ref = x + y
        fresh = lambda x=x: torch.full_like(x, nan)
        glc = jobs.glc(name, [P, P, P, I], (cdiv(n, block), 1, 1),
                       lambda o, x=x, y=y, n=n: (x.data_ptr(), y.data_ptr(), o.data_ptr(), n))
        nbytes = 3 * n * x.element_size()
        yield (name, f"{n}", nbytes, jobs.families(
            glc, ("torch.add", lambda o, x=x, y=y: lambda: torch.add(x, y, out=o)), "vector_add",
            lambda o, x=x, y=y: (x, y, o), fresh, lambda o, ref=ref: H.expect_equal(o, ref), nbytes))
    n = a.n
    x, y = torch.randn(n, device=dev), torch.randn(n, device=dev)
    ref = F.silu(x.double()) * y.double()
    for name in ("swiglu_f32", "swiglu_auto_f32"):
        glc = jobs.glc(name, [P, P, P, I], (cdiv(n, 2048), 1, 1),
                       lambda o: (x.data_ptr(), y.data_ptr(), o.data_ptr(), n))
        yield (name, f"{n}", 3 * n * 4, jobs.families(
            glc, ("mul(silu(x), y)", lambda o: lambda: torch.mul(F.silu(x), y, out=o)), "swiglu",
            lambda o: (x, y, o), lambda: torch.full_like(x, nan),
            lambda o: H.expect_close(o, ref, 1e-5), 3 * n * 4))
    s = a.size
    src = torch.randn(s, s, device=dev)
    for name, transposed in (("transpose_f32", True), ("relayout_copy_f32", False)):
        want = src.t() if transposed else src
        glc = jobs.glc(name, [P, P, I, I, I, I], (cdiv(s, 64), cdiv(s, 64), 1),
                       lambda o: (src.data_ptr(), o.data_ptr(), s, s, src.stride(0), o.stride(0)))
        op = ("copy_(src.t())", lambda o: lambda: o.copy_(src.t())) if transposed else \
            ("copy_(src)", lambda o: lambda: o.copy_(src))
        yield (name, f"{s}x{s}", 2 * s * s * 4, jobs.families(
            glc, op, "transpose" if transposed else "copy", lambda o: (src, o),
            lambda: torch.full((s, s), nan, device=dev),
            lambda o, want=want: H.expect_equal(o, want), 2 * s * s * 4))
    r, c = a.softmax_rows, 1024
    for dt, name, tol in ((torch.float32, "softmax_f32", 1e-5), (torch.float16, "softmax_f16", 2e-3)):
        x = torch.randn(r, c, device=dev).to(dt)
        ref = torch.softmax(x.double(), 1)
        glc = jobs.glc(name, [P, P, I, I, I, I], (cdiv(r, 4), 1, 1),
                       lambda o, x=x: (x.data_ptr(), o.data_ptr(), r, c, x.stride(0), o.stride(0)))
        nbytes = 2 * r * c * x.element_size()
        yield (name, f"{r}x{c}", nbytes, jobs.families(
            glc, ("torch.softmax", lambda o, x=x: lambda: torch.softmax(x, 1, out=o)), "softmax",
            lambda o, x=x: (x, o), lambda x=x: torch.full_like(x, nan),
            lambda o, ref=ref, tol=tol: H.expect_close(o, ref, tol), nbytes))
    t = a.sum_size
    x = torch.randn(t, t, device=dev)
    for name, dim, grid in (("row_sum_f32", 1, (cdiv(t, 8), 1, 1)), ("col_sum_f32", 0, (cdiv(t, 128), 1, 1))):
        ref = x.double().sum(dim)
        glc = jobs.glc(name, [P, P, I, I, I], grid,
                       lambda o: (x.data_ptr(), o.data_ptr(), t, t, x.stride(0)))
        nbytes = (t * t + t) * 4
        yield (name, f"{t}x{t}", nbytes, jobs.families(
            glc, (f"torch.sum(dim={dim})", lambda o, dim=dim: lambda: torch.sum(x, dim, out=o)),
            name[:-4], lambda o: (x, o), lambda: torch.full((t, ), nan, device=dev),
            lambda o, ref=ref: H.expect_close(o, ref, 1e-5), nbytes))


def scan_and_histogram(jobs, a):
    """cumsum_f32 and histogram_i32: glc's examples/cumsum.gl (in four
    tilings) and histogram.gl (on 1 to 8 programs per SM)."""
    dev, nan = H.DEVICE, float("nan")
    m, n = a.cumsum_rows, a.cumsum_cols
    x = torch.randn(m, n, device=dev)
    ref = torch.cumsum(x.double(), 1)
    glc = jobs.glc_configs([(name, [P, P, I, I, I, I], (cdiv(m, rows), 1, 1),
                             lambda o: (x.data_ptr(), o.data_ptr(), m, n, x.stride(0), o.stride(0)))
                            for name, rows in (("cumsum_rows_f32", 4), ("cumsum_rows_f32_b1024", 4),
                                               ("cumsum_rows_f32_r8", 8), ("cumsum_rows_f32_r8_b256", 8))])
    yield ("cumsum_f32", f"{m}x{n}", 2 * m * n * 4, jobs.families(
        glc, ("torch.cumsum", lambda o: lambda: torch.cumsum(x, 1, out=o)), "cumsum", lambda o: (x, o),
        lambda: torch.full((m, n), nan, device=dev), lambda o: H.expect_close(o, ref, 1e-5), 2 * m * n * 4))
    n, bins = a.hist_n, 256
    v = torch.randint(0, bins, (n, ), device=dev, dtype=torch.int32)
    want = torch.bincount(v, minlength=bins).to(torch.int32)
    sms = torch.cuda.get_device_properties(0).multi_processor_count if dev == "cuda" else 4
    glc = jobs.glc_configs([("histogram_i32", [P, P, I], (per * sms, 1, 1),
                             lambda o: (v.data_ptr(), o.data_ptr(), n), lambda o: o.zero_(),
                             f"histogram_i32 {per}/SM") for per in (1, 2, 4, 8)])
    yield ("histogram_i32", f"{n} into {bins}", n * 4, jobs.families(
        glc, ("torch.bincount", lambda o: lambda: o.copy_(torch.bincount(v, minlength=bins))), "histogram",
        lambda o: (v, o), lambda: torch.full((bins, ), -1, dtype=torch.int32, device=dev),
        lambda o: H.expect_equal(o, want), n * 4))


def run_jobs(jobs, a):
    """Checks and times each (name, size, bytes moved, families) of jobs whose name
    contains a.only (when given), printing as it goes and rewriting a.json after each;
    then prints the table of all. Returns 0."""
    rows = []
    for name, size, nbytes, fams in jobs:
        if getattr(a, "only", None) and a.only not in name:
            continue
        print(f"{name} {size}:", flush=True)
        if "glc" not in fams:
            print(f"  glc: {name} not in any library of --libs")
        try:
            res, gpu = H.run_problem(fams, nbytes, 1e9, a)
        except Exception as e:  # a launch that fails while timed: the job has no result
            print(f"  FAILED: {H.reason(e)}", flush=True)
            continue
        H.print_results(res, gpu, "GB/s")
        rows.append((name, size, nbytes, res, gpu))
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"device": H.header(), "rows": [
                    {"kernel": n, "size": s, "bytes": b, "results": r, "gpu": g} for n, s, b, r, g in rows]},
                    f, indent=1)
    report(rows)
    return 0


def report(rows):
    """The markdown table: GB/s median [10th-90th percentile], ratios of medians."""
    print("\nGB/s: median of all timed launches [10th-90th percentile]; Triton: its picked configuration")
    head = ["kernel", "size", "MB moved", "glc", "torch", "Triton (pick)", "device copy",
            "glc/torch", "glc/Triton", "glc/copy", "GPU in the rounds"]
    body = []
    for name, size, nbytes, res, gpu in rows:
        st = {f: res[f]["stats"] if f in res else None for f in ("glc", "torch", "triton", "copy")}
        ratio = lambda f: f"{st['glc']['rate'] / st[f]['rate']:.3f}" if st["glc"] and st[f] else "-"
        tri = H.cell(st["triton"]) + (f" ({res['triton']['pick']})" if st["triton"] else "")
        body.append([name, size, f"{nbytes / 1e6:.0f}", H.cell(st["glc"]), H.cell(st["torch"]), tri,
                     H.cell(st["copy"]), ratio("torch"), ratio("triton"), ratio("copy"), H.gpu_range(gpu)])
    print("\n".join(H.table(head, body)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libs", help="folder with lib<example>.so (glc's kernels + libglrt)")
    ap.add_argument("--size", type=int, default=8192, help="S: transpose and copy are S x S")
    ap.add_argument("--n", type=int, default=1 << 28, help="vector_add and swiglu length")
    ap.add_argument("--softmax-rows", type=int, default=1 << 17)
    ap.add_argument("--sum-size", type=int, default=16384, help="T: the sums read a T x T matrix")
    ap.add_argument("--cumsum-rows", type=int, default=4096)
    ap.add_argument("--cumsum-cols", type=int, default=8192)
    ap.add_argument("--hist-n", type=int, default=1 << 24, help="histogram length (256 bins)")
    ap.add_argument("--only", help="run the jobs whose kernel name contains this text")
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
        a.size, a.n, a.softmax_rows, a.sum_size = 128, 4096, 64, 256
        a.cumsum_rows, a.cumsum_cols, a.hist_n = 8, 1000, 5000
        a.warmup, a.warmup_s, a.rounds, a.reps, a.pick_reps = 1, 0, 2, 2, 1
    import triton_kernels  # after TRITON_INTERPRET is set
    if H.DEVICE != "cuda" and not a.smoke:
        print("SKIP: no GPU (--smoke tests the script without one)")
        return 77
    torch.manual_seed(0)
    print(H.header())
    jobs = Jobs(a.libs, triton_kernels.candidates())
    return run_jobs(itertools.chain(problems(jobs, a), scan_and_histogram(jobs, a)), a)


if __name__ == "__main__":
    sys.exit(main())
