"""The code-parity table as markdown (standard library only): summary, per-class totals, the worst
kernels and one row per kernel, from parity.py's records (and parity_gpu.py's times).

  markdown(records, env, times)   the section's text, between the two markers
  replace_section(path, text)     puts it into a file between `<!-- parity:begin -->` and
                                  `<!-- parity:end -->` (appended at the top if the file has none)
  cases_markdown(records)         the reproducers' table: every SASS class and PTX count that is not
                                  zero on both sides
  summary_text(records)           a few lines for the terminal

"Exceeds" is issue 23's rule: glc's count of a class is more than 5% above Triton's (any count
above a zero). Ratios are glc / Triton; times are microseconds per launch (median of the rounds).
"""
import statistics

import sass

BEGIN, END = "<!-- parity:begin -->", "<!-- parity:end -->"
TABLE_CLASSES = ["FFMA", "FMUL", "FADD", "MUFU", "SHFL", "LDS", "STS", "LDSM", "STSM", "LDG", "STG",
                 "BAR", "SYNCS", "GMMA", "UTMA", "INT"]
SUM_CLASSES = TABLE_CLASSES + ["LDL", "STL", "CPASYNC", "ATOM", "CVT", "HALF", "FCMP", "MOV", "CTRL",
                               "OTHER", "total"]
ORIGINS = ("tutorial", "example", "generated")


def exceeds(g, t):
    return g > t * 1.05


def ok(records):
    return [r for r in records if "error" not in r]


def ratio(g, t):
    return g / t if t else (1.0 if g == 0 else float("inf"))


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def fmt_ratio(x):
    return "inf" if x == float("inf") else f"{x:.2f}"


def pair(g, t, flag=None):
    cell = f"{g}/{t}"
    return f"**{cell}**" if (exceeds(g, t) if flag is None else flag) else cell


def widths_cell(gc, tc, kind):
    gw, tw = sass.widths(gc, kind), sass.widths(tc, kind)
    if gw == tw:
        return pair(gc[kind], tc[kind])
    return pair(f"{gc[kind]} ({gw or '-'})", f"{tc[kind]} ({tw or '-'})", exceeds(gc[kind], tc[kind]))


def stats(records, ptxas):
    """Medians and counts over the kernels, at one ptxas ("cuda" or "triton")."""
    rs = ok(records)
    g = [r[ptxas]["glc"] for r in rs]
    t = [r[ptxas]["triton"] for r in rs]
    regs_r = [ratio(a["regs"], b["regs"]) for a, b in zip(g, t)]
    ins_r = [ratio(a["counts"]["total"], b["counts"]["total"]) for a, b in zip(g, t)]
    return {"n": len(rs), "regs_glc": med([a["regs"] for a in g]), "regs_tri": med([b["regs"] for b in t]),
            "regs_ratio": med(regs_r), "regs_le": sum(a["regs"] <= b["regs"] for a, b in zip(g, t)),
            "ins_ratio": med(ins_r), "ins_le": sum(x <= 1.0 for x in ins_r),
            "ins_over": sum(x > 1.05 for x in ins_r),
            "spill_glc": sum(a["spill_st"] + a["spill_ld"] > 0 for a in g),
            "spill_tri": sum(b["spill_st"] + b["spill_ld"] > 0 for b in t),
            "smem_more": sum(a["smem"] > b["smem"] for a, b in zip(g, t))}


def time_of(times, rid):
    if not times:
        return None
    return times.get("rows", {}).get(rid)


def summary_lines(records, env, times):
    s, s2 = stats(records, "cuda"), stats(records, "triton")
    rs = ok(records)
    by = {o: sum(r["origin"] == o for r in rs) for o in ORIGINS}
    at = f" (glc at {env['glc_commit']})" if env.get("glc_commit") else ""
    out = [f"{s['n']} kernels compared{at} ({by['tutorial']} tutorial and test_core rows, {by['example']} examples, "
           f"{by['generated']} generated: {env['gen']}); "
           f"{len(records) - len(rs)} left out (below).", ""]
    out += ["| at ptxas | median regs glc / Triton | median regs ratio | kernels glc regs <= Triton "
            "| median SASS ratio | kernels <= 1.0x | kernels > 1.05x | spilling glc / Triton "
            "| more smem than Triton |",
            "|---|---|---|---|---|---|---|---|---|"]
    for name, st in ((f"CUDA {env['cuda_ptxas']} (glc's)", s), (f"Triton's {env['triton_ptxas']}", s2)):
        out.append(f"| {name} | {st['regs_glc']:g} / {st['regs_tri']:g} | {st['regs_ratio']:.2f} "
                   f"| {st['regs_le']} of {st['n']} | {st['ins_ratio']:.2f} | {st['ins_le']} | {st['ins_over']} "
                   f"| {st['spill_glc']} / {st['spill_tri']} | {st['smem_more']} |")
    same = sum(r.get("triton_native_same") for r in rs)
    out += ["", f"Triton's own cubin (its ptxas {env['triton_ptxas']}, -lineinfo) has the counts of its PTX "
            f"re-assembled here at that ptxas in {same} of {len(rs)} kernels."]
    if times:
        tr = [(r, time_of(times, r["id"])) for r in rs]
        tr = [(r, t) for r, t in tr if t and t.get("glc_us") and t.get("triton_us")]
        if tr:
            speed = [t["triton_us"] / t["glc_us"] for _, t in tr]
            slow = [r["id"] for (r, t), x in zip(tr, speed) if x < 0.98]
            same = [t["triton_us"] / t["glc128_us"] for _, t in tr if t.get("glc128_us")]
            bad = [f"{i} ({times['rows'][i]['status']})" for i in times.get("rows", {})
                   if times["rows"][i].get("status") != "agree"]
            out += ["", f"Times ({times.get('device', '?')}): {len(tr)} kernels timed; median speed of glc "
                    f"relative to Triton {med(speed):.3f}x (Triton's time / glc's; {med(same):.3f}x with glc's "
                    f"PTX assembled by Triton's ptxas); {len(slow)} below 0.98x"
                    + (f": {', '.join(slow)}" if slow else "") + "."]
            if bad:
                out += ["", f"Not agreeing or not timed: {', '.join(bad)}."]
            hashes = [r["triton_meta"]["hash"] == (time_of(times, r["id"]) or {}).get("triton_hash") for r in rs]
            out += ["", f"Triton's kernels timed on the GPU are the ones counted here (same JIT hash) in "
                    f"{sum(hashes)} of {len(rs)} kernels."]
    return out


def cause_lines(records):
    """The cause tags: what each means, on how many kernels it holds, and how many of the kernels
    where glc exceeds Triton in some class have no cause but the warp-id shuffle."""
    rs = ok(records)
    tags = {r["id"]: causes(r) for r in rs}
    over = [r for r in rs if any(exceeds(r["cuda"]["glc"]["counts"][k], r["cuda"]["triton"]["counts"][k])
                                 for k in SUM_CLASSES[:-1])]
    bare = [r["id"] for r in over if not set(tags[r["id"]]) - {"warpid"}]
    text = [(t, d) for t, d, _ in CAUSES] + list(NOTE_TEXT.items())
    out = ["Causes (column `causes`; read off both PTX files by `report.py`; what each means, its reproducer and its "
           "counts: the analysis below): " + "; ".join(f"`{t}` {d} ({sum(t in v for v in tags.values())})" for t, d in text)
           + ".", "",
           f"{len(over)} kernels exceed Triton by more than 5% in some class; {len(over) - len(bare)} of them "
           f"have a cause besides `warpid`" + (f"; the others: {', '.join(bare)}." if bare else ".")]
    return out


def class_lines(records):
    rs = ok(records)
    out = ["| class | glc total | Triton total | ratio | kernels where glc exceeds Triton by > 5% |",
           "|---|---|---|---|---|"]
    for k in SUM_CLASSES:
        g = sum(r["cuda"]["glc"]["counts"][k] for r in rs)
        t = sum(r["cuda"]["triton"]["counts"][k] for r in rs)
        n = [r["id"] for r in rs if exceeds(r["cuda"]["glc"]["counts"][k], r["cuda"]["triton"]["counts"][k])]
        out.append(f"| {k} | {g} | {t} | {fmt_ratio(ratio(g, t))} | {len(n)} |")
    return out


# Causes read off each kernel's PTX (ptx.py's evidence, glc/Triton), worst first; the numbers
# name the defects of bench/RESULTS.md's analysis and bench/parity/cases/.
CAUSES = [
    ("div", "IEEE `/` (div.rn.f32, rcp.rn.f32)", lambda g, t, r: g["div/rcp.rn.f32"] > t["div/rcp.rn.f32"]),
    ("fma", "no contraction", lambda g, t, r: t["fma.f32"] > g["fma.f32"]),
    ("shfl", "more shuffles", lambda g, t, r: g["shfl.bfly"] > max(t["shfl.bfly"] * 1.05, t["shfl.bfly"] + 1)),
    ("smem", "narrower shared accesses", lambda g, t, r: (t["ldmatrix"] + t["stmatrix"] > g["ldmatrix"] + g["stmatrix"])
     or t["ld.shared.v4"] + t["st.shared.v4"] > g["ld.shared.v4"] + g["st.shared.v4"]),
    ("f16x2", "unpacked f16/bf16 math or conversions", lambda g, t, r: (g["f16 scalar"] > 0 and t["f16x2"] > g["f16x2"])
     or (g["cvt f16 scalar"] > 0 and t["cvt f16x2"] > g["cvt f16x2"])),
    ("shflcvt", "conversions by one shuffle per element", lambda g, t, r: g["shfl.idx"] > t["shfl.idx"] + 1),
    ("generic", "generic entry (run-time vector/scalar choice)", lambda g, t, r: r.get("glc_generic")),
    ("one", "Triton specialized an argument == 1", lambda g, t, r: specialized_one(r)),
    ("tma", "TMA boxes from one thread", lambda g, t, r: g["cp.async.bulk.tensor"] > t["cp.async.bulk.tensor"]),
    ("addr64", "64-bit shared-memory addresses", lambda g, t, r: g["shared 64-bit addr"] > t["shared 64-bit addr"]),
    ("bar", "more barriers", lambda g, t, r: g["bar.sync"] > t["bar.sync"]),
    ("branch", "branches where Triton predicates", lambda g, t, r: g["bra"] > t["bra"] + 2),
    ("warpid", "warp-id shuffle", lambda g, t, r: g["shfl.idx"] > t["shfl.idx"]),
]
# Causes read by hand (bench/RESULTS.md), where the PTX counts above do not show them.
NOTES = {"t01": ["unroll"], "t02": ["unroll"], "t32": ["deadstore"], "t30": ["fdividef"]}
NOTE_TEXT = {"unroll": "loop unrolled completely (trip count <= 64)",
             "deadstore": "Triton drops a shared store nothing reads",
             "fdividef": "fast_dividef as div.full.f32 (Triton: div.approx.ftz.f32)"}


def specialized_one(r):
    """Whether Triton's JIT made a runtime integer argument (== 1) a constant."""
    sig = list(r.get("triton_meta", {}).get("signature", {}).values())
    return any(a == 1 and s == "constexpr" for a, s in zip(r.get("int_args", []), sig))


def causes(r):
    """The CAUSES tags that hold for a record."""
    g, t = r["ptx"]["glc"], r["ptx"]["triton"]
    return [tag for tag, _, test in CAUSES if test(g, t, r)] + NOTES.get(r["id"], [])


def kernel_row(r, times):
    g, t = r["cuda"]["glc"], r["cuda"]["triton"]
    gc, tc = g["counts"], t["counts"]
    cells = [r["id"], r["label"], str(r["num_warps"]), pair(g["regs"], t["regs"]),
             pair(g["spill_st"] + g["spill_ld"], t["spill_st"] + t["spill_ld"]), pair(g["smem"], t["smem"]),
             pair(gc["total"], tc["total"]), fmt_ratio(ratio(gc["total"], tc["total"]))]
    for k in TABLE_CLASSES:
        cells.append(widths_cell(gc, tc, k) if k in ("LDG", "STG") else pair(gc[k], tc[k]))
    cells.append(" ".join(causes(r)))
    tm = time_of(times, r["id"])
    if times is not None:
        cells.append(f"{tm['glc_us']:.2f}/{tm['triton_us']:.2f}" if tm and tm.get("glc_us") else
                     (tm or {}).get("status", "-"))
    return "| " + " | ".join(cells) + " |"


def table_lines(records, times):
    head = ["id", "kernel", "warps", "regs", "spill B", "smem B", "SASS", "ratio"] + TABLE_CLASSES + ["causes"]
    if times is not None:
        head.append("us glc/Triton")
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for o in ORIGINS:
        out += [kernel_row(r, times) for r in ok(records) if r["origin"] == o]
    return out


def worst_lines(records, n=12):
    rs = sorted(ok(records), key=lambda r: -ratio(r["cuda"]["glc"]["counts"]["total"],
                                                 r["cuda"]["triton"]["counts"]["total"]))
    out = []
    for r in rs[:n]:
        g, t = r["cuda"]["glc"]["counts"], r["cuda"]["triton"]["counts"]
        over = [f"{k} {g[k]}/{t[k]}" for k in SUM_CLASSES[:-1] if exceeds(g[k], t[k]) and g[k] - t[k] >= 4]
        out.append(f"- `{r['id']}` {r['label']}: {g['total']}/{t['total']} "
                   f"({fmt_ratio(ratio(g['total'], t['total']))}x); over: {', '.join(over) or '-'}")
    return out


def markdown(records, env, times):
    bad = [r for r in records if "error" in r]
    lines = [BEGIN, "", "Generated by `bench/parity/parity.py` (do not edit between the markers). Counts are "
             f"SASS instructions (NOPs left out) of both compilers' PTX assembled by CUDA's ptxas "
             f"{env['cuda_ptxas']} (`-arch=sm_90a`), glc/Triton per cell, **bold** where glc exceeds Triton "
             "by more than 5%; regs and spills from `ptxas -v`; smem = static + dynamic bytes per program; "
             "glc's entry is the one its launcher picks for the row's arguments (`__spec` where they meet "
             "its assumptions); Triton's is what its JIT compiles for those arguments.", ""]
    lines += summary_lines(records, env, times) + [""] + class_lines(records) + [""] + cause_lines(records) + [""]
    lines += ["Largest SASS ratios:", ""] + worst_lines(records) + [""]
    if bad:
        lines += ["Left out:", ""] + [f"- `{r['id']}` {r['label']}: {r['error']}" for r in bad] + [""]
    lines += ["<details><summary>Per kernel</summary>", ""] + table_lines(records, times)
    lines += ["", "</details>", "", END]
    return "\n".join(lines) + "\n"


def replace_section(path, text):
    with open(path) as f:
        cur = f.read()
    if BEGIN in cur and END in cur:
        new = cur[:cur.index(BEGIN)] + text.rstrip("\n") + cur[cur.index(END) + len(END):]
    else:
        new = text + "\n" + cur
    with open(path, "w") as f:
        f.write(new)


def summary_text(records):
    s = stats(records, "cuda")
    return (f"{s['n']} kernels: median regs glc {s['regs_glc']:g} Triton {s['regs_tri']:g} (ratio "
            f"{s['regs_ratio']:.2f}), median SASS ratio {s['ins_ratio']:.2f}, {s['ins_over']} kernels over 1.05x")


def cases_markdown(records):
    """One line per reproducer kernel: SASS total, the non-zero classes, the PTX evidence."""
    out = ["| case | regs | SASS | SASS classes (glc/Triton) | PTX (glc/Triton) |", "|---|---|---|---|---|"]
    for r in records:
        if "error" in r:
            out.append(f"| {r['label']} | | | {r['error']} | |")
            continue
        g, t = r["cuda"]["glc"], r["cuda"]["triton"]
        cls = [f"{k} {pair(g['counts'][k], t['counts'][k])}" for k in sass.CLASSES
               if g["counts"][k] or t["counts"][k]]
        for k in ("LDG", "STG"):
            if g["counts"][k] or t["counts"][k]:
                cls.append(f"{k} widths {sass.widths(g['counts'], k) or '-'} / {sass.widths(t['counts'], k) or '-'}")
        ev = [f"{k} {v}/{r['ptx']['triton'][k]}" for k, v in r["ptx"]["glc"].items() if v or r["ptx"]["triton"][k]]
        out.append(f"| {r['label']} | {pair(g['regs'], t['regs'])} | {pair(g['counts']['total'], t['counts']['total'])} "
                   f"| {', '.join(cls)} | {', '.join(ev)} |")
    return "\n".join(out) + "\n"
