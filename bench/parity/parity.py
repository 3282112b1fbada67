"""Code parity of glc against Triton 3.6 (issue 23): every kernel both compile, SASS per kernel.

    PY bench/parity/parity.py [--out build/parity] [--tutorials DIR] [--gen-seed S --gen-count N]
                              [--results bench/RESULTS.md] [--bundle DIR] [--times FILE] [--jobs J]

PY is a Python with triton 3.6 (on the build machine /opt/tv/bin/python; no GPU, no torch needed).
The kernels (rows.py): the 33 rows of bench/gluon_tutorials.list (Triton's Gluon tutorials and
test_core, read from --tutorials, default gpu-run/tut-src, git-ignored), the examples of
bench/parity/examples.list with their Gluon twins (test/diff/gl2gluon.py), and kernels 0..N-1 of
test/diff/gen.py's seed S (default 1 and 100), translated the same way.

For each kernel glc writes PTX (and the C of its launcher, which says which entry the row's arguments
select and how much dynamic shared memory it asks for); Triton compiles it through its JIT exactly as
its launch on the GPU would (triton_side.py). Both PTX files are then assembled by the same ptxas,
CUDA's (the one glc runs, /usr/local/cuda/bin/ptxas) and Triton's bundled one, with the same
options (`-arch=sm_90a -v`), disassembled with `cuobjdump -sass` and counted by class (sass.py).
The table (markdown, OUT/parity.md, and every number in OUT/parity.json) compares glc and Triton at
CUDA's ptxas; the summary repeats the medians at Triton's ptxas, and checks that Triton's own cubin
(its bundled ptxas with -lineinfo) has the counts of the re-assembled one. --results replaces the
section between `<!-- parity:begin -->` and `<!-- parity:end -->` of that file with the table.

--bundle DIR writes what the GPU machine needs to time both compilers on the same inputs
(parity_gpu.py; `sh DIR/run.sh` there); --times FILE (its results.json, brought back) adds the
times to the table.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench"))

import glc_side  # noqa: E402
import ptx  # noqa: E402
import report  # noqa: E402
import rows as R  # noqa: E402
import sass  # noqa: E402
from glcdiff import copy_package  # noqa: E402  (rows put test/diff on the path)

CUDA_PTXAS = "/usr/local/cuda/bin/ptxas"


def triton_bin():
    import triton
    return os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")


def tool_version(path):
    out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"V(\d+\.\d+\.\d+)", out)
    return m.group(1) if m else "?"


def innermost(e):
    """The message of the deepest exception e was raised from (Triton wraps its errors)."""
    while (e.__cause__ or e.__context__) is not None:
        e = e.__cause__ or e.__context__
    lines = str(e).strip().splitlines()
    return f"{type(e).__name__}: {lines[-1] if lines else ''}"[:300]


def forked(fn, items, jobs, timeout, errdir):
    """Runs fn(item) for every item in forked children, jobs at a time (Triton can abort or hang);
    returns {item id: None or the error text}."""
    pending, running, result = list(items), {}, {}
    while pending or running:
        while pending and len(running) < jobs:
            item = pending.pop(0)
            err = os.path.join(errdir, item["id"] + ".err")
            pid = os.fork()
            if pid == 0:
                try:
                    fn(item)
                    code = 0
                except BaseException as e:
                    with open(err, "w") as f:
                        f.write(innermost(e) + "\n" + traceback.format_exc()[-4000:])
                    code = 1
                os._exit(code)
            running[pid] = (item, err, time.monotonic())
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            for p, (item, err, t0) in list(running.items()):
                if time.monotonic() - t0 > timeout:
                    os.kill(p, 9)
            time.sleep(0.05)
            continue
        item, err, _ = running.pop(pid)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            result[item["id"]] = None
        elif os.path.exists(err):
            result[item["id"]] = open(err).read()
        else:
            result[item["id"]] = f"killed (status {status})"
    return result


def assemble(ptxas, cuobjdump, ptx, cubin):
    """(ptxas -v report, {function: counts}) of ptx assembled to cubin by ptxas."""
    p = subprocess.run([ptxas, "-arch=sm_90a", "-v", ptx, "-o", cubin], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{ptxas} {ptx}: {p.stderr.strip()[-1000:]}")
    return sass.ptxas_report(p.stdout + p.stderr), disassemble(cuobjdump, cubin)


def disassemble(cuobjdump, cubin):
    text = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True, check=True).stdout
    return {fn: sass.counts(ins) for fn, ins in sass.functions(text).items()}


def side(report_, fns, entry, smem_dyn):
    """One compiler's numbers for one kernel entry."""
    r = report_.get(entry)
    if r is None or entry not in fns:
        raise KeyError(f"entry {entry} not in the cubin")
    return {"entry": entry, "regs": r["regs"], "spill_st": r["spill_st"], "spill_ld": r["spill_ld"],
            "stack": r["stack"], "smem": r["smem"] + smem_dyn, "counts": fns[entry]}


def collect(a, work):
    rows, units = [], []
    parts = [R.cases(os.path.join(HERE, "cases"), work)] if a.cases else \
        [R.tutorials(os.path.join(ROOT, "bench", "gluon_tutorials.list"), a.tutorials, work),
         R.examples(os.path.join(HERE, "examples.list"), work), R.generated(a.gen_seed, a.gen_count, work)]
    for part in parts:
        rows += part[0]
        units += part[1]
    if a.only:
        rows = [r for r in rows if any(o in r["id"] for o in a.only)]
        units = [u for u in units if any(u["id"] == r["unit"] for r in rows)]
    return rows, units


def compile_glc(a, units, work, gdir):
    with ThreadPoolExecutor(a.jobs) as pool:
        errs = dict(zip([u["id"] for u in units],
                        pool.map(lambda u: glc_side.compile_unit(a.glc, u, work, gdir), units)))
    launchers = {}
    for u in units:
        if errs[u["id"]] is None:
            with open(os.path.join(gdir, u["id"] + ".c")) as f:
                launchers[u["id"]] = glc_side.launchers(f.read())
    return errs, launchers


def compile_triton(a, rows, work, tdir):
    import triton_side
    triton_side.install_cpu_env()
    os.environ["TRITON_CACHE_DIR"] = os.path.join(a.out, "triton-cache")
    import triton.experimental.gluon.language  # noqa: F401  (imported once, before the forks)
    return forked(lambda r: triton_side.compile_row(r, work, tdir), rows, a.jobs, 900, tdir)


def measure(a, rows, glc_errs, launchers, tri_errs, gdir, tdir, adir):
    """The per-kernel records: both sides at both ptxas versions."""
    tb = triton_bin()
    cuobjdump = os.path.join(tb, "cuobjdump")
    ptxases = {"cuda": CUDA_PTXAS, "triton": os.path.join(tb, "ptxas")}
    jobs = []
    for u in sorted({r["unit"] for r in rows if glc_errs.get(r["unit"]) is None}):
        for k, p in ptxases.items():
            jobs.append((os.path.join(gdir, u + ".ptx"), os.path.join(adir, f"{u}.glc.{k}.cubin"), p))
    for r in rows:
        if tri_errs.get(r["id"]) is None:
            for k, p in ptxases.items():
                jobs.append((os.path.join(tdir, r["id"] + ".ptx"), os.path.join(adir, f"{r['id']}.tri.{k}.cubin"), p))
    with ThreadPoolExecutor(a.jobs) as pool:
        done = dict(zip([j[1] for j in jobs], pool.map(
            lambda j: _try(assemble, j[2], cuobjdump, j[0], j[1]), jobs)))
    records = []
    for r in rows:
        rec = {k: r[k] for k in ("id", "origin", "label", "num_warps", "unit")}
        rec["int_args"] = [a if isinstance(a, int) and not isinstance(a, bool) else None for a in r["args"]]
        records.append(rec)
        if glc_errs.get(r["unit"]) is not None:
            rec["error"] = "glc: " + glc_errs[r["unit"]].splitlines()[-1]
            continue
        if tri_errs.get(r["id"]) is not None:
            rec["error"] = "triton: " + tri_errs[r["id"]].splitlines()[0]
            continue
        la = launchers[r["unit"]][r["launcher"]]
        with open(os.path.join(tdir, r["id"] + ".json")) as f:
            meta = json.load(f)
        rec["triton_meta"] = meta
        try:
            entry = glc_side.entry_for(la, r["args"])
            for k in ptxases:
                g, t = done[os.path.join(adir, f"{r['unit']}.glc.{k}.cubin")], \
                    done[os.path.join(adir, f"{r['id']}.tri.{k}.cubin")]
                if isinstance(g, Exception) or isinstance(t, Exception):
                    raise g if isinstance(g, Exception) else t
                rec[k] = {"glc": side(g[0], g[1], entry, la.smem),
                          "triton": side(t[0], t[1], meta["name"], meta["shared"])}
            rec["ptx"] = {"glc": ptx_evidence(os.path.join(gdir, r["unit"] + ".ptx"), entry),
                          "triton": ptx_evidence(os.path.join(tdir, r["id"] + ".ptx"), meta["name"])}
            rec["glc_generic"] = entry == la.generic and la.spec is not None
            native = disassemble(cuobjdump, os.path.join(tdir, r["id"] + ".cubin"))[meta["name"]]
            rec["triton_native_same"] = native == rec["triton"]["triton"]["counts"]
        except Exception as e:  # a record without numbers says why
            rec["error"] = f"{type(e).__name__}: {e}"
    return records


def ptx_evidence(path, entry):
    with open(path) as f:
        return ptx.evidence(ptx.ops(f.read(), entry))


def _try(fn, *args):
    try:
        return fn(*args)
    except Exception as e:
        return e


def bundle(a, rows, units, work, dest):
    """The GPU run's folder: glc objects (CUDA's and Triton's ptxas), Gluon sources, rows, runners."""
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(os.path.join(dest, "obj"))   # packed below; unpacked into dest by run.sh
    for d in ("tut", "ex", "gen"):
        if os.path.isdir(os.path.join(work, d)):
            shutil.copytree(os.path.join(work, d), os.path.join(dest, d))
    env128 = dict(os.environ, GLC_PTXAS=os.path.join(triton_bin(), "ptxas"))
    jobs = [(u, os.path.join(dest, "obj", u["id"] + ".o"), None) for u in units] + \
        [(u, os.path.join(dest, "obj", u["id"] + ".p128.o"), env128) for u in units]
    with ThreadPoolExecutor(a.jobs) as pool:
        errs = list(pool.map(lambda j: glc_side.build_object(a.glc, j[0], work, j[1], j[2]), jobs))
    bad = [j[0]["id"] for j, e in zip(jobs, errs) if e]
    with open(os.path.join(dest, "rows.jsonl"), "w") as f:
        for r in rows:
            if r["unit"] not in bad:
                f.write(json.dumps(r) + "\n")
    os.makedirs(os.path.join(dest, "runtime"))
    for f in os.listdir(os.path.join(ROOT, "runtime")):
        if f.endswith((".c", ".h")):
            shutil.copy(os.path.join(ROOT, "runtime", f), os.path.join(dest, "runtime"))
    for f in (os.path.join(HERE, "parity_gpu.py"), os.path.join(HERE, "run.sh"), os.path.join(HERE, "triton_side.py"),
              os.path.join(ROOT, "bench", "gluon_tutorials_run.py")):
        shutil.copy(f, dest)
    copy_package(dest)   # test/diff's glcdiff: parity_gpu.py uses its run_gpu
    # the device call carries at most 64 MiB: the objects and Triton's kernels travel packed
    xz = dict(os.environ, XZ_OPT="-T0 -6")
    objs = sorted(os.listdir(os.path.join(dest, "obj")))
    subprocess.run(["tar", "cJf", os.path.join(dest, "obj.tar.xz"), "-C", os.path.join(dest, "obj")] + objs,
                   check=True, env=xz)
    shutil.rmtree(os.path.join(dest, "obj"))
    if os.path.isdir(os.path.join(a.out, "triton-cache")):
        subprocess.run(["tar", "cJf", os.path.join(dest, "triton-cache.tar.xz"), "-C", a.out, "triton-cache"],
                       check=True, env=xz)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(dest) for f in fs)
    print(f"bundle: {len(rows)} rows, {len(units)} glc units ({len(bad)} failed), {size / 2**20:.1f} MiB in {dest}")


def run(a):
    """Compiles, assembles and counts every row: (records, environment)."""
    work, gdir, tdir, adir = (os.path.join(a.out, d) for d in ("src", "glc", "triton", "asm"))
    for d in (work, gdir, tdir, adir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    rows, units = collect(a, work)
    t0 = time.monotonic()
    glc_errs, launchers = compile_glc(a, units, work, gdir)
    t1 = time.monotonic()
    tri_errs = compile_triton(a, rows, work, tdir)
    t2 = time.monotonic()
    records = measure(a, rows, glc_errs, launchers, tri_errs, gdir, tdir, adir)
    print(f"glc {t1 - t0:.0f} s, Triton {t2 - t1:.0f} s, ptxas and counting {time.monotonic() - t2:.0f} s",
          file=sys.stderr)
    tb = triton_bin()
    env = {"cuda_ptxas": tool_version(CUDA_PTXAS), "triton_ptxas": tool_version(os.path.join(tb, "ptxas")),
           "gen": f"seed {a.gen_seed}, kernels 0..{a.gen_count - 1}",
           "glc_commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                        text=True).stdout.strip()}
    if a.bundle:
        bundle(a, rows, units, work, os.path.abspath(a.bundle))
    return records, env


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "parity"))
    ap.add_argument("--glc", default=os.path.join(ROOT, "build", "glc"))
    ap.add_argument("--tutorials", default=os.path.join(ROOT, "gpu-run", "tut-src"),
                    help="Triton's tutorial files at the list's commits (default gpu-run/tut-src)")
    ap.add_argument("--gen-seed", type=int, default=1)
    ap.add_argument("--gen-count", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="+", help="rows whose id contains one of these")
    ap.add_argument("--results", help="replace the parity section of this markdown file")
    ap.add_argument("--bundle", help="write the GPU run's folder here")
    ap.add_argument("--times", help="results.json of the GPU run (parity_gpu.py)")
    ap.add_argument("--cases", action="store_true",
                    help="the reproducers of bench/parity/cases/ instead (OUT defaults to build/parity-cases)")
    ap.add_argument("--report-only", action="store_true",
                    help="no counting: the table from OUT/parity.json (with --times, --results; "
                         "--bundle compiles the GPU folder's objects again)")
    a = ap.parse_args(argv)
    if a.cases and a.out == ap.get_default("out"):
        a.out = os.path.join(ROOT, "build", "parity-cases")
    a.out = os.path.abspath(a.out)
    if a.report_only:
        with open(os.path.join(a.out, "parity.json")) as f:
            saved = json.load(f)
        records, env = saved["records"], saved["env"]
        if a.bundle:   # the GPU folder again, from the sources of the kernels (no counting)
            work = os.path.join(a.out, "src")
            shutil.rmtree(work, ignore_errors=True)
            bundle(a, *collect(a, work), work, os.path.abspath(a.bundle))
    else:
        records, env = run(a)
    times = None
    if a.times:
        with open(a.times) as f:
            times = json.load(f)
    with open(os.path.join(a.out, "parity.json"), "w") as f:
        json.dump({"env": env, "records": records, "times": times}, f, indent=1)
    md = report.cases_markdown(records) if a.cases else report.markdown(records, env, times)
    with open(os.path.join(a.out, "parity.md"), "w") as f:
        f.write(md)
    if a.results:
        report.replace_section(a.results, md)
    print(md if a.cases else report.summary_text(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
