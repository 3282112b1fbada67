"""The GPU half of the differential tester: run every generated kernel through glc
and through Triton's Gluon on the same inputs and compare the outputs.

    python3 run_gpu.py BUNDLE [--jobs J] [--budget SECONDS] [--out DIR] [--only FILE ...]
                      [--save-cases none|disagree|all]

BUNDLE is a folder made by bundle.py and built by run_gpu.sh: kernels/NAME.json
(generator manifests), kernels/NAME.py (Gluon, from gl2gluon.py) and
work/libNAME.so (glc's object + libglrt). Files are spread over J worker
processes (spawned, one CUDA context and one TRITON_CACHE_DIR each). For each
kernel: inputs from the manifest's value ranges (torch, seeded by seed and
kernel index: `case seed` in the report), outputs poisoned with 0xFF bytes,
glc's launcher called through ctypes on torch's current stream, the Gluon
kernel launched with `k[grid](..., num_warps=N)`, then every output compared:
byte for byte ("exact") or with torch.isclose(rtol, atol) ("close").
A worker that hits a CUDA error (the context is lost) reports it and is
replaced; the file goes on in the new worker. After SECONDS no new file starts
and the summary is printed before the caller's time limit.
Writes DIR/results.jsonl (one line per kernel) and DIR/disagreements.txt;
prints `N kernels, N agree, N disagree, N errors` last. With --save-cases
(default: the disagreements) each kernel's inputs and both outputs go to
DIR/cases.tar (cases/NAME.pt), for the third opinion: oracle.py --cases
(Triton's interpreter; no GPU needed).
"""
import argparse
import ctypes
import json
import multiprocessing as mp
import os
import sys
import time

CTYPES = {"i32": ctypes.c_int32, "i64": ctypes.c_int64, "f32": ctypes.c_float}


def make_input(torch, p, gen, device="cuda"):
    """A tensor of p's dtype whose values are lo + k*q, uniformly random."""
    from glcdiff.dtypes import DTYPES
    d = DTYPES[p["dtype"]]
    lo, hi, q = p["lo"], p["hi"], p["q"]
    k = torch.randint(round(lo / q), round(hi / q) + 1, (p["numel"],), generator=gen,
                      device=device, dtype=torch.int64)
    if d.kind == "float":
        return (k.to(torch.float64) * q).to(getattr(torch, d.torch))
    if d.kind == "bool":
        return k.to(torch.bool)
    if d.kind == "uint" and d.bits > 8:
        signed = {16: torch.int16, 32: torch.int32, 64: torch.int64}[d.bits]
        return k.to(signed).view(getattr(torch, d.torch))
    return k.to(getattr(torch, d.torch))


def poisoned(torch, p, device="cuda"):
    """An output tensor for parameter p, every byte 0xFF."""
    from glcdiff.dtypes import DTYPES
    t = torch.empty(p["numel"], dtype=getattr(torch, DTYPES[p["dtype"]].torch), device=device)
    t.view(torch.uint8).fill_(0xFF)
    return t


def compare(torch, p, got, want, want_label="triton", got_label="glc"):
    """None when output `got` (glc's) matches `want` (Triton's), else a description."""
    def fmt(t, i):
        return hex(t.view(torch.uint8)[i].item()) if p["dtype"].startswith("f8") else t[i].item()

    if p["mode"] == "exact":
        a, b = (t.view(torch.uint8).view(p["numel"], -1) for t in (got, want))
        bad = (a != b).any(dim=1)
    else:
        f8 = p["dtype"].startswith("f8")   # f8 widens through f32
        a, b = ((t.float() if f8 else t).double() for t in (got, want))
        bad = ~torch.isclose(a, b, rtol=p["rtol"], atol=p["atol"], equal_nan=True)
    n = int(bad.sum().item())
    if n == 0:
        return None
    idx = bad.nonzero().flatten()[:8].tolist()
    pairs = ", ".join(f"[{i}] {got_label} {fmt(got, i)} {want_label} {fmt(want, i)}" for i in idx)
    return f"{p['name']} ({p['dtype']}, {p['mode']}): {n} of {p['numel']} differ: {pairs}"


def launcher(lib, man):
    """glc's C launcher of kernel man in lib, with its ctypes argument types."""
    fn = getattr(lib, man["name"])
    fn.restype = ctypes.c_int
    types = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]
    for p in man["params"]:
        types.append(ctypes.c_uint64 if p["role"] in ("in", "out") else CTYPES[p["dtype"]])
    fn.argtypes = types
    return fn


def synchronize(torch, who):
    """Waits for the GPU; a fault (the context is lost) is reported as who's."""
    try:
        torch.cuda.synchronize()
    except Exception as e:
        raise RuntimeError(f"{who}: {type(e).__name__}: CUDA error: "
                           f"{str(e).strip().splitlines()[0][:200]}") from None


def save_case(torch, path, stem, man, inputs, outs):
    """Keep one kernel's inputs and both compilers' outputs for oracle.py --cases."""
    torch.save({"file": stem, "man": man,
                "inputs": {name: t.cpu() for name, t in inputs.items()},
                "glc": {p["name"]: g.cpu() for p, g, _ in outs},
                "triton": {p["name"]: t.cpu() for p, _, t in outs}}, path)


def run_case(torch, lib, module, man, save=None):
    """('agree'|'disagree'|'error', detail) for one kernel. save: None, or
    (mode, folder, stem): mode "disagree" or "all" says which kernels'
    inputs and outputs go to folder/NAME.pt."""
    case_seed = man["seed"] * 1_000_003 + man["index"]
    gen = torch.Generator(device="cuda")
    gen.manual_seed(case_seed)
    glc_args, tri_args, outs, inputs = [], [], [], {}
    for p in man["params"]:
        if p["role"] == "in":
            t = inputs[p["name"]] = make_input(torch, p, gen)
            glc_args.append(t.data_ptr())
            tri_args.append(t)
        elif p["role"] == "out":
            g, t = poisoned(torch, p), poisoned(torch, p)
            glc_args.append(g.data_ptr())
            tri_args.append(t)
            outs.append((p, g, t))
        else:
            glc_args.append(p["value"])
            tri_args.append(p["value"])
    grid = man["grid"]
    stream = torch.cuda.current_stream().cuda_stream
    status = launcher(lib, man)(stream, grid[0], grid[1], grid[2], *glc_args)
    if status != 0:
        lib.glrt_last_error.restype = ctypes.c_char_p
        return "error", f"glc launch: status {status}: {lib.glrt_last_error().decode()}"
    synchronize(torch, "glc")
    try:
        getattr(module, man["name"])[tuple(grid)](*tri_args, num_warps=man["num_warps"])
    except Exception as e:  # Triton compile errors have many types
        return "error", f"triton: {type(e).__name__}: {str(e).strip().splitlines()[-1][:300]}"
    synchronize(torch, "triton")
    diffs = [d for d in (compare(torch, p, g, t) for p, g, t in outs) if d]
    if save and (diffs or save[0] == "all"):
        save_case(torch, os.path.join(save[1], man["name"] + ".pt"), save[2], man, inputs, outs)
    if diffs:
        return "disagree", f"case seed {case_seed}; " + "; ".join(diffs)
    return "agree", ""


def worker(bundle, wid, tasks, results, save):
    """Run files from `tasks` until None; post (kind, ...) messages to `results`."""
    os.environ["TRITON_CACHE_DIR"] = os.path.join(bundle, "work", f"triton-cache-{wid}")
    import importlib.util
    import torch
    while True:
        task = tasks.get()
        if task is None:
            return
        stem, first = task
        results.put(("start", wid, stem, first))
        kdir = os.path.join(bundle, "kernels")
        with open(os.path.join(kdir, stem + ".json")) as f:
            mans = json.load(f)
        try:
            lib = ctypes.CDLL(os.path.join(bundle, "work", f"lib{stem}.so"))
            spec = importlib.util.spec_from_file_location(stem, os.path.join(kdir, stem + ".py"))
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except Exception as e:
            for man in mans[first:]:
                results.put(("case", wid, stem, man["name"], "error", f"setup: {e}"))
            results.put(("done", wid, stem))
            continue
        for k in range(first, len(mans)):
            man = mans[k]
            try:
                outcome, detail = run_case(torch, lib, module, man,
                                           save and (save[0], save[1], stem))
            except Exception as e:
                outcome, detail = "error", f"{type(e).__name__}: {e}"[:600]
            results.put(("case", wid, stem, man["name"], outcome, detail))
            if outcome == "error" and ("CUDA" in detail or "illegal" in detail):
                results.put(("lost", wid, stem, k + 1))
                return
        results.put(("done", wid, stem))


def main(argv=None):
    """Command line: see the module's docstring; exit status 1 on a disagreement or error."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle")
    ap.add_argument("--jobs", type=int, default=min(16, os.cpu_count() or 1))
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--only", nargs="+", metavar="FILE",
                    help="run only these files of the bundle (stems, e.g. diff_5_16)")
    ap.add_argument("--save-cases", choices=("none", "disagree", "all"), default="disagree",
                    help="keep inputs and outputs in OUT/cases.tar for oracle.py --cases "
                         "(default: the disagreements)")
    args = ap.parse_args(argv)
    save = None
    if args.save_cases != "none":
        save = (args.save_cases, os.path.join(os.path.abspath(args.out), "cases"))
        os.makedirs(save[1], exist_ok=True)
    deadline = time.monotonic() + args.budget
    bundle = os.path.abspath(args.bundle)
    stems = sorted(f[:-5] for f in os.listdir(os.path.join(bundle, "kernels"))
                   if f.endswith(".json") and os.path.exists(
                       os.path.join(bundle, "work", f"lib{f[:-5]}.so"))
                   and (not args.only or f[:-5] in args.only))
    names = {}
    for s in stems:
        with open(os.path.join(bundle, "kernels", s + ".json")) as f:
            names[s] = [m["name"] for m in json.load(f)]
    ctx = mp.get_context("spawn")
    tasks, results = ctx.Queue(), ctx.Queue()
    for s in stems:
        tasks.put((s, 0))
    procs, current = {}, {}
    os.makedirs(args.out, exist_ok=True)
    tally = {"agree": 0, "disagree": 0, "error": 0}
    log = open(os.path.join(args.out, "results.jsonl"), "w")
    dis = open(os.path.join(args.out, "disagreements.txt"), "w")
    state = {"done": 0, "next_wid": 0}

    def start():
        wid = state["next_wid"]
        state["next_wid"] += 1
        procs[wid] = ctx.Process(target=worker, args=(bundle, wid, tasks, results, save),
                                 daemon=True)
        procs[wid].start()

    def record(stem, name, outcome, detail):
        tally[outcome] += 1
        log.write(json.dumps({"file": stem, "kernel": name, "outcome": outcome,
                              "detail": detail}) + "\n")
        log.flush()
        if outcome != "agree":
            line = f"{outcome.upper()} {stem} {name}: {detail}"
            print(line, flush=True)
            dis.write(line + "\n")
            dis.flush()

    def resume(stem, nxt):
        """Requeue the rest of a file whose worker went away."""
        if nxt < len(names[stem]):
            tasks.put((stem, nxt))
        else:
            state["done"] += 1

    for _ in range(args.jobs):
        start()
    while state["done"] < len(stems) and time.monotonic() < deadline:
        try:
            msg = results.get(timeout=1.0)
        except Exception:
            for wid, p in list(procs.items()):
                if not p.is_alive() and p.exitcode not in (0, None):
                    del procs[wid]
                    if wid in current:   # crashed inside a kernel: that kernel is an error
                        stem, k = current.pop(wid)
                        record(stem, names[stem][k], "error",
                               f"worker died (exit status {p.exitcode})")
                        resume(stem, k + 1)
                    start()
            continue
        kind, wid = msg[0], msg[1]
        if kind == "start":
            current[wid] = [msg[2], msg[3]]
        elif kind == "case":
            record(*msg[2:])
            current[wid][1] += 1
        elif kind == "lost":
            current.pop(wid, None)
            resume(msg[2], msg[3])
            start()
        elif kind == "done":
            current.pop(wid, None)
            state["done"] += 1
    done = state["done"]
    for _ in procs:
        tasks.put(None)
    for p in procs.values():
        p.join(timeout=10 if done == len(stems) else 0)
        if p.is_alive():
            p.terminate()
    if save:   # one file to carry back instead of one per kernel
        import shutil
        import tarfile
        with tarfile.open(os.path.join(args.out, "cases.tar"), "w") as tar:
            tar.add(save[1], arcname="cases")
        shutil.rmtree(save[1])
    total = sum(tally.values())
    if done < len(stems):
        print(f"budget of {args.budget:.0f} s spent: {len(stems) - done} of {len(stems)} files "
              f"not finished")
    print(f"{total} kernels, {tally['agree']} agree, {tally['disagree']} disagree, "
          f"{tally['error']} errors")
    return 1 if tally["disagree"] or tally["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
