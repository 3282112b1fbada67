"""The GPU half of the code-parity harness: every row timed through glc and through Triton 3.6 on
the same inputs (on the GPU machine; torch and triton there).

    python3 parity_gpu.py BUNDLE [--out DIR] [--rounds 15] [--reps 20] [--budget 200] [--jobs 12]
                          [--only ID ...]

BUNDLE is `parity.py --bundle`'s folder, unpacked by run.sh: U.o (glc's object of unit U, assembled
by CUDA's ptxas) and U.p128.o (the same PTX assembled by Triton's bundled ptxas, as Triton's own
kernels are), each linked here with libglrt into work/libU.so and work/libU.p128.so
(bench/gluon_tutorials_run.py's build), rows.jsonl, the Gluon sources, triton-cache/.

First every row's Triton kernel is compiled by `jit.warmup` in --jobs processes into the shared
TRITON_CACHE_DIR (stand-in tensors: the launch's specialization, no GPU memory), so the timed
process only loads them. Then row by row, in one process: the inputs are made once (seeded by the
row), each contestant gets its own outputs, poisoned with 0xFF (zeros where the row says so, e.g.
a histogram); glc (CUDA's ptxas), glc (Triton's ptxas) and Triton each run once and every output
is compared with Triton's (byte for byte, or within the row's tolerance); then each contestant's
`--reps` launches are captured in a CUDA graph and the graphs replayed in `--rounds` interleaved
rounds (order rotated each round), each replay between CUDA events. A row's time is the median
over rounds of replay time / reps (microseconds per launch); a contestant whose launch cannot be
captured is timed with events around direct launches instead ("events"). After --budget seconds
no new row starts. Writes OUT/results.json ({"device", "rows": {id: {"status", "detail",
"glc_us", "glc128_us", "triton_us", "timing", "triton_hash"}}}) and prints one line per row.
"""
import argparse
import ctypes
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def read_rows(bundle, only):
    with open(os.path.join(bundle, "rows.jsonl")) as f:
        rows = [json.loads(line) for line in f]
    return [r for r in rows if not only or any(o in r["id"] for o in only)]


def _warm_one(args):
    bundle, row = args
    import triton_side
    try:
        ck = triton_side.warmup(row, bundle)
        return row["id"], None, ck.metadata.hash
    except Exception as e:  # the row is reported, the others go on
        return row["id"], f"{type(e).__name__}: {str(e).strip().splitlines()[-1][:300] if str(e).strip() else ''}", None


def warm_all(bundle, rows, jobs):
    """{row id: (error or None, Triton kernel hash)} after compiling every row into the cache."""
    ctx = mp.get_context("spawn")
    with ctx.Pool(jobs) as pool:
        return {rid: (err, h) for rid, err, h in pool.imap_unordered(_warm_one, [(bundle, r) for r in rows])}


class Inputs:
    """A row's tensors: the inputs (shared by all contestants) and per-contestant outputs."""

    def __init__(self, torch, gl, ns, row, seed):
        import gluon_tutorials_run as tut
        from glcdiff.runners import run_gpu
        self.torch, self.row, self.specs = torch, row, []
        gen = torch.Generator(device="cuda")
        gen.manual_seed(seed)
        for a in row["args"]:
            if isinstance(a, dict) and ("tensor" in a or "desc" in a):
                spec = a.get("desc", a)
                if spec.get("out"):
                    self.specs.append((a, spec, None))
                elif "gen" in a:
                    self.specs.append((a, spec, run_gpu.make_input(torch, a["gen"], gen)))
                else:
                    self.specs.append((a, spec, tut.make_tensor(torch, spec, gen)))
            else:
                self.specs.append((a, None, None))
        self.tut, self.run_gpu, self.gl, self.ns = tut, run_gpu, gl, ns

    def outputs(self):
        """Fresh outputs: {arg index: tensor}, poisoned (or as the spec's fill says)."""
        outs = {}
        for i, (a, spec, t) in enumerate(self.specs):
            if spec is not None and spec.get("out"):
                if "gen" in a:
                    outs[i] = self.run_gpu.poisoned(self.torch, a["gen"])
                else:
                    outs[i] = self.tut.make_tensor(self.torch, spec, None)
        return outs

    def tensors(self, outs):
        return [outs.get(i, t) for i, (_, _, t) in enumerate(self.specs)]

    def triton_args(self, outs):
        from triton.experimental.gluon.nvidia.hopper import TensorDescriptor
        args = []
        for (a, spec, _), t in zip(self.specs, self.tensors(outs)):
            if spec is None:
                args.append(a["scalar"] if isinstance(a, dict) and "scalar" in a else
                            eval(a["constexpr"], self.ns) if isinstance(a, dict) else a)
            elif "desc" in a:
                args.append(TensorDescriptor.from_tensor(t, a["block"], self.tut.nvmma_layout(self.gl, a, self.ns)))
            else:
                args.append(t)
        return args

    def glc_args(self, lib, outs, keep):
        """(argtypes, values) for glc's launcher; tensor maps are appended to keep."""
        types, vals = [], []
        for (a, spec, _), t in zip(self.specs, self.tensors(outs)):
            if spec is None:
                if isinstance(a, dict) and "constexpr" in a:
                    continue
                dt = a.get("dtype", "i32") if isinstance(a, dict) else "i32"
                v = a["scalar"] if isinstance(a, dict) else a
                c = {"i32": ctypes.c_int32, "i64": ctypes.c_int64, "f32": ctypes.c_float}[dt]
                types.append(c)
                vals.append(c(v))
            elif "desc" in a:
                keep.append(self.tut.tensor_map(lib, t, a, self.tut.nvmma_layout(self.gl, a, self.ns)))
                types.append(ctypes.c_void_p)
                vals.append(ctypes.c_void_p(keep[-1].addr))
            else:
                types.append(ctypes.c_uint64)
                vals.append(ctypes.c_uint64(t.data_ptr()))
        return types, vals

    def compare(self, got, want):
        """None when every output of got matches want's, else a description."""
        torch = self.torch
        for i, g in got.items():
            a, spec, _ = self.specs[i]
            t = want[i]
            if "gen" in a:
                d = self.run_gpu.compare(torch, a["gen"], g, t)
            elif self.row["check"] == "exact":
                d = None if torch.equal(g.view(torch.uint8), t.view(torch.uint8)) else "differs"
            else:
                ok = torch.allclose(g.double(), t.double(), rtol=self.row.get("rtol", 1e-3),
                                    atol=self.row.get("atol", 1e-2), equal_nan=True)
                d = None if ok else "differs"
            if d:
                diff = (g.double() - t.double()).abs().nan_to_num(float("inf"))
                return f"output {i}: {d}; max |glc - triton| {diff.max().item():.3g}"
        return None


def glc_launcher(bundle, unit, suffix, name, types):
    lib = ctypes.CDLL(os.path.join(bundle, "work", f"lib{unit}{suffix}.so"))
    fn = getattr(lib, name)
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint] + types
    return lib, fn


def time_contestants(torch, launches, rounds, reps):
    """{name: (median microseconds per launch, "graph" | "events")} for launches {name: fn()}."""
    graphs, how = {}, {}
    for name, fn in launches.items():
        try:
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g, capture_error_mode="thread_local"):
                for _ in range(reps):
                    fn()
            g.replay()
            torch.cuda.synchronize()
            graphs[name], how[name] = g.replay, "graph"
        except Exception:
            torch.cuda.synchronize()
            graphs[name], how[name] = (lambda fn=fn: [fn() for _ in range(reps)]), "events"
    names = list(graphs)
    samples = {n: [] for n in names}
    for rnd in range(rounds):
        order = names[rnd % len(names):] + names[:rnd % len(names)]
        evs = []
        for n in order:
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            graphs[n]()
            e.record()
            evs.append((n, s, e))
        torch.cuda.synchronize()
        for n, s, e in evs:
            samples[n].append(s.elapsed_time(e) * 1e3 / reps)
    return {n: (statistics.median(samples[n]), how[n]) for n in names}


def run_row(torch, gl, bundle, row, cache, a):
    import gluon_tutorials_run as tut
    path = os.path.join(bundle, row["py"])
    if path not in cache:
        skipped = []
        cache[path] = tut.load_module(path, skipped)
    ns, tree = cache[path]
    kernel = tut.kernel_object(ns, tree, path, row["kernel"])
    inp = Inputs(torch, gl, ns, row, seed=zlib.crc32(row["id"].encode()))
    grid = (list(row["grid"]) + [1, 1])[:3]
    stream = lambda: ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    outs, launches, keep = {}, {}, []
    for name, suffix in (("glc", ""), ("glc128", ".p128")):
        outs[name] = inp.outputs()
        lib, fn = glc_launcher(bundle, row["unit"], suffix, row["launcher"], [])
        types, vals = inp.glc_args(lib, outs[name], keep)
        fn.argtypes = fn.argtypes[:4] + types

        def launch(fn=fn, vals=vals, lib=lib):
            st = fn(stream(), grid[0], grid[1], grid[2], *vals)
            if st != 0:
                lib.glrt_last_error.restype = ctypes.c_char_p
                raise RuntimeError(f"glc launch: status {st}: {lib.glrt_last_error().decode()}")
        launches[name] = launch
    outs["triton"] = inp.outputs()
    targs = inp.triton_args(outs["triton"])
    launches["triton"] = lambda: kernel[tuple(row["grid"])](*targs, num_warps=row["num_warps"],
                                                            **row.get("launch", {}))
    for name in ("glc", "glc128", "triton"):
        launches[name]()
        torch.cuda.synchronize()
    res = {"status": "agree", "detail": ""}
    for name in ("glc", "glc128"):
        d = inp.compare(outs[name], outs["triton"])
        if d:
            res = {"status": "disagree", "detail": f"{name}: {d}"}
            break
    t = time_contestants(torch, launches, a.rounds, a.reps)
    res.update({f"{n}_us": v[0] for n, v in t.items()})
    res["timing"] = {n: v[1] for n, v in t.items()}
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--budget", type=float, default=200)
    ap.add_argument("--jobs", type=int, default=12)
    ap.add_argument("--only", nargs="+")
    a = ap.parse_args()
    bundle = os.path.abspath(a.bundle)
    os.environ["TRITON_CACHE_DIR"] = os.path.join(bundle, "triton-cache")
    deadline = time.monotonic() + a.budget
    import gluon_tutorials_run as tut
    t0 = time.monotonic()
    tut.build(bundle)   # work/libU.so: each glc object with libglrt
    print(f"glc: {len(os.listdir(os.path.join(bundle, 'work')))} files built in {time.monotonic() - t0:.0f} s",
          flush=True)
    rows = read_rows(bundle, a.only)
    t0 = time.monotonic()
    warm = warm_all(bundle, rows, a.jobs)
    print(f"Triton: {len(rows)} kernels compiled or loaded in {time.monotonic() - t0:.0f} s", flush=True)
    sys.path.insert(0, os.path.join(bundle, "tut"))   # the tutorials import each other by module name
    import torch
    import triton
    from triton.experimental.gluon import language as gl
    results, cache = {}, {}
    for row in rows:
        err, h = warm[row["id"]]
        if err:
            results[row["id"]] = {"status": "error", "detail": f"triton: {err}"}
        elif time.monotonic() > deadline:
            results[row["id"]] = {"status": "not timed", "detail": "budget spent"}
        else:
            try:
                results[row["id"]] = run_row(torch, gl, bundle, row, cache, a)
            except Exception as e:
                results[row["id"]] = {"status": "error", "detail": f"{type(e).__name__}: {str(e)[:300]}"}
            torch.cuda.empty_cache()
        results[row["id"]]["triton_hash"] = h
        r = results[row["id"]]
        times = " ".join(f"{n} {r[n + '_us']:.2f}" for n in ("glc", "glc128", "triton") if n + "_us" in r)
        print(f"{row['id']} {row['label']}: {r['status']} {r['detail']} {times}", flush=True)
    dev = torch.cuda.get_device_properties(0)
    out = {"device": f"{dev.name}, torch {torch.__version__}, triton {triton.__version__}", "rows": results}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(out, f, indent=1)
    n = len(results)
    agree = sum(r["status"] == "agree" for r in results.values())
    print(f"{n} rows, {agree} agree, {sum(r['status'] == 'disagree' for r in results.values())} disagree, "
          f"{sum(r['status'] == 'error' for r in results.values())} errors, "
          f"{sum(r['status'] == 'not timed' for r in results.values())} not timed")


if __name__ == "__main__":
    main()
