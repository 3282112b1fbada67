"""Shared machinery of the GPU benchmarks (bench/gemm.py, bench/bandwidth.py): not a script.

A benchmark is a list of problems; each problem has families of contestants
(glc's kernel, torch, a Triton or Gluon kernel with its configurations, ...).
A contestant configuration is a `build(out) -> launch` function: given an
output tensor, it returns a zero-argument closure that launches the kernel
writing into it.

  autotune()    checks every configuration of a family on a NaN-poisoned
                output (twice; an exception or a wrong result drops it, with
                the reason recorded), times the survivors briefly and picks
                the fastest;
  interleaved() times the picks of all families in rounds, every round
                running each contestant `reps` times back to back in a
                rotated order, each launch between its own CUDA events;
  summarize()   turns the launch times into a rate (TFLOP/s or GB/s): the
                median of all launches, the 10th-90th percentile range and
                the range of the per-round medians.

Without a GPU (the scripts' --smoke mode) tensors live on the CPU, Triton
kernels run in Triton's interpreter and launches are timed with the host
clock: that only tests the scripts.
"""
import collections
import ctypes
import statistics
import time

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


class CheckError(Exception):
    """A contestant computed a wrong result."""


def sync():
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def launch_times(fn, reps):
    """Times reps back-to-back launches of fn, each between its own events (ms)."""
    if DEVICE != "cuda":
        out = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            out.append((time.perf_counter() - t0) * 1e3)
        return out
    evs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
           for _ in range(reps)]
    for st, en in evs:
        st.record()
        fn()
        en.record()
    torch.cuda.synchronize()
    return [st.elapsed_time(en) for st, en in evs]


def rel_err(out, ref):
    """||out - ref|| / ||ref|| in float64; inf when out holds a NaN (an unwritten element)."""
    out = out.double()
    if torch.isnan(out).any():
        return float("inf")
    return ((out - ref).norm() / ref.norm()).item()


def expect_close(out, ref, tol):
    """A check: raises CheckError unless rel_err(out, ref) <= tol; returns the error as text."""
    e = rel_err(out, ref)
    if not e <= tol:
        raise CheckError(f"rel_err {e:.1e} > {tol:.0e}")
    return f"rel_err {e:.1e}"


def expect_equal(out, ref):
    """A check: raises CheckError unless out equals ref exactly."""
    if not torch.equal(out, ref):
        bad = (out != ref).sum().item()
        raise CheckError(f"{bad} of {out.numel()} elements differ")
    return "exact"


def run_checked(build, fresh_out, check, runs=2):
    """Launches build(out) `runs` times, poisoning out with NaN before each
    launch and checking it after; returns (launch, out, check text)."""
    out = fresh_out()
    launch = build(out)
    text = ""
    for _ in range(runs):
        out.fill_(float("nan"))
        launch()
        sync()
        text = check(out)
    return launch, out, text


def reason(exc):
    """A one-line reason for a dropped configuration."""
    msg = str(exc).strip().splitlines()
    first = msg[0][:100] if msg else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


Pick = collections.namedtuple("Pick", "family label build ms")


def autotune(family, configs, fresh_out, check, reps, log=print):
    """Picks the fastest correct configuration of one family for one problem.

    configs: [(label, build)]. Returns (Pick or None, records), one record
    {label, status, detail, ms} per configuration, status "ok" or "dropped"."""
    best, records = None, []
    for label, build in configs:
        try:
            launch, _, text = run_checked(build, fresh_out, check)
            ms = statistics.median(launch_times(launch, reps))
            records.append({"label": label, "status": "ok", "detail": text, "ms": ms})
            if best is None or ms < best.ms:
                best = Pick(family, label, build, ms)
        except Exception as e:  # a config that does not compile, launch or compute right
            records.append({"label": label, "status": "dropped", "detail": reason(e)})
    dropped = collections.Counter(r["detail"] for r in records if r["status"] == "dropped")
    ok = len(records) - sum(dropped.values())
    line = f"  {family}: {ok}/{len(records)} configurations passed"
    if best:
        line += f", pick {best.label} ({best.ms:.4f} ms)"
    for why, n in dropped.most_common():
        line += f"\n    dropped x{n}: {why}"
    log(line)
    return best, records


def gpu_state():
    """(SM clock in MHz, power in W) as NVML reads them now, or None."""
    if DEVICE != "cuda":
        return None
    try:
        return torch.cuda.clock_rate(), torch.cuda.power_draw() / 1000
    except Exception:  # no NVML binding: the state is not reported
        return None


def interleaved(contestants, warmup, warmup_s, rounds, reps):
    """contestants: name -> launch closure. Warms up (warmup launches of
    every contestant, repeated until warmup_s seconds have passed, so that
    the clocks settle), then runs rounds of reps launches of every
    contestant, the order rotated each round. Returns (name -> (all launch
    times, per-round medians) in ms, [(SM MHz, W) after each round])."""
    names = list(contestants)
    t0 = time.perf_counter()
    while True:
        for nm in names:
            for _ in range(warmup):
                contestants[nm]()
        sync()
        if time.perf_counter() - t0 >= warmup_s:
            break
    times = {nm: [] for nm in names}
    rmed = {nm: [] for nm in names}
    states = []
    for r in range(rounds):
        for i in range(len(names)):
            nm = names[(i + r) % len(names)]
            t = launch_times(contestants[nm], reps)
            times[nm] += t
            rmed[nm].append(statistics.median(t))
        st = gpu_state()
        if st:
            states.append(st)
    return {nm: (times[nm], rmed[nm]) for nm in names}, states


# One contestant family of a problem: configs [(label, build)], fresh_out() ->
# a NaN-filled output tensor, check(out) -> text, or raises CheckError.
Family = collections.namedtuple("Family", "configs fresh_out check")


def run_problem(families, work, scale, args, log=print):
    """Autotunes every family (args.pick_reps launches per configuration),
    times the picks interleaved (args.warmup, args.warmup_s, args.rounds,
    args.reps), then checks each pick's output of the timed launches again.
    Returns (family -> {pick, stats (see summarize; None when nothing
    passed), check, configs (the autotune records)}, the GPU's state over
    the rounds: {sm_mhz: [min, max], power_w: [min, max]} or None)."""
    result, launches, outs = {}, {}, {}
    for name, fam in families.items():
        pick, records = autotune(name, fam.configs, fam.fresh_out, fam.check, args.pick_reps, log)
        result[name] = {"pick": pick.label if pick else None, "stats": None, "configs": records}
        if pick:
            outs[name] = fam.fresh_out()
            launches[name] = pick.build(outs[name])
    if not launches:
        return result, None
    times, states = interleaved(launches, args.warmup, args.warmup_s, args.rounds, args.reps)
    for name, (ts, meds) in times.items():
        r = result[name]
        r["stats"] = summarize(ts, meds, work, scale)
        try:
            r["check"] = families[name].check(outs[name])
        except Exception as e:  # wrong after the timed launches: no rate for it
            r["check"] = reason(e)
            r["stats"] = None
            log(f"  {name}: WRONG after the timed launches: {r['check']}")
    gpu = {"sm_mhz": [min(m for m, _ in states), max(m for m, _ in states)],
           "power_w": [min(w for _, w in states), max(w for _, w in states)]} if states else None
    return result, gpu


def print_results(result, gpu, unit):
    """One line per family of run_problem's result: rate [10th-90th]
    {round medians} and the pick; then the GPU's clock and power range."""
    for name, r in result.items():
        s = r["stats"]
        what = f"{cell(s)} {{{s['rounds'][0]:.0f}-{s['rounds'][1]:.0f}}} {unit}" if s else "no result"
        print(f"  = {name}: {what}; pick {r['pick']}", flush=True)
    if gpu:
        print(f"  GPU after each round: SM {gpu_range(gpu)}", flush=True)


def gpu_range(gpu):
    """'1755-1980 MHz, 450-690 W' from run_problem's GPU state."""
    if not gpu:
        return "-"
    (m0, m1), (w0, w1) = gpu["sm_mhz"], gpu["power_w"]
    return f"{m0}-{m1} MHz, {w0:.0f}-{w1:.0f} W"


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


def summarize(times, round_medians, work, scale):
    """Rates work / time / scale (work in FLOP or bytes, times in ms): the
    median, [10th, 90th] percentile and [slowest, fastest] round median."""
    rate = lambda ms: work / (ms * 1e-3) / scale
    return {"rate": rate(statistics.median(times)), "ms": statistics.median(times),
            "p10_p90": [rate(pct(times, 0.9)), rate(pct(times, 0.1))],
            "rounds": [rate(max(round_medians)), rate(min(round_medians))], "n": len(times)}


def cell(s, spread=True):
    """A table cell: the median rate, then [10th-90th percentile]."""
    if s is None:
        return "-"
    text = f"{s['rate']:.1f}" if s["rate"] < 1000 else f"{s['rate']:.0f}"
    return text + (f" [{s['p10_p90'][0]:.0f}-{s['p10_p90'][1]:.0f}]" if spread else "")


def table(header, rows):
    """Markdown table lines."""
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + \
        ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


class GlcLib:
    """A shared library of glc kernel objects + libglrt, opened with ctypes."""

    def __init__(self, path):
        self.path = path
        self.lib = ctypes.CDLL(path)
        self.lib.glrt_last_error.restype = ctypes.c_char_p

    def has(self, name):
        return hasattr(self.lib, name)

    def launcher(self, name, argtypes):
        """The launcher `name` (stream, grid x, y, z, *args) as a function
        (grid, *args) on torch's current stream that raises on a bad status."""
        fn = getattr(self.lib, name)
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 3 + argtypes

        def call(grid, *args):
            status = fn(torch.cuda.current_stream().cuda_stream, *grid, *args)
            if status != 0:
                raise RuntimeError(f"{name}: status {status}: {self.error()}")
        return call

    def error(self):
        return self.lib.glrt_last_error().decode()


def header():
    """The device line printed first by every benchmark."""
    import triton
    dev = torch.cuda.get_device_name(0) if DEVICE == "cuda" else "CPU (smoke test only)"
    return f"{dev}, torch {torch.__version__}, triton {triton.__version__}"
