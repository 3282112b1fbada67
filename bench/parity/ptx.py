"""PTX instruction counts of one entry function (standard library only), the evidence the
code-parity analysis reads next to the SASS counts.

  ops(ptx_text, entry)   {mnemonic: count} of the entry's body, e.g. {"fma.rn.f32": 12,
                         "ld.shared.v4.f32": 8, "shfl.sync.bfly.b32": 5}; predicates dropped;
                         "@shared64" counts the shared accesses through 64-bit address registers
  EVIDENCE               the (label, mnemonic prefixes) pairs the tables show
"""
import collections
import re

_INSTR = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][a-z0-9_]*(?:\.[A-Za-z0-9_:]+)*)\b")

EVIDENCE = [("fma.f32", ("fma.rn.f32", "fma.rn.ftz.f32")), ("mul.f32", ("mul.rn.f32", "mul.f32")),
            ("add.f32", ("add.rn.f32", "add.f32", "sub.rn.f32", "sub.f32")),
            ("div/rcp.rn.f32", ("div.rn.f32", "rcp.rn.f32")), ("div.full.f32", ("div.full.f32",)),
            ("f16 scalar", ("add.rn.f16 ", "mul.rn.f16 ", "add.f16 ", "mul.f16 ", "add.rn.bf16 ",
                            "mul.rn.bf16 ")),
            ("f16x2", ("add.f16x2", "mul.f16x2", "fma.rn.f16x2", "add.rn.f16x2", "add.rn.bf16x2",
                       "mul.rn.bf16x2", "fma.rn.bf16x2", "add.bf16x2")),
            ("cvt f16 scalar", ("cvt.rn.f16.f32", "cvt.rn.bf16.f32")),
            ("cvt f16x2", ("cvt.rn.f16x2.f32", "cvt.rn.bf16x2.f32")),
            ("shfl.bfly", ("shfl.sync.bfly",)), ("shfl.idx", ("shfl.sync.idx",)),
            ("ld.shared", ("ld.shared",)), ("st.shared", ("st.shared",)),
            ("ld.shared.v4", ("ld.shared.v4",)), ("st.shared.v4", ("st.shared.v4",)),
            ("ldmatrix", ("ldmatrix",)), ("stmatrix", ("stmatrix",)),
            ("cp.async.bulk.tensor", ("cp.async.bulk.tensor",)), ("bar.sync", ("bar.sync", "barrier.sync")),
            ("shared 64-bit addr", ("@shared64",)), ("bra", ("bra",)), ("mul.wide", ("mul.wide",))]


def body(ptx_text, entry):
    """The text of the entry's body, or None."""
    m = re.search(r"\.entry\s+" + re.escape(entry) + r"\s*\(", ptx_text)
    if not m:
        return None
    start = ptx_text.index("{", ptx_text.index(")", m.end()))
    depth = 0
    for i in range(start, len(ptx_text)):
        c = ptx_text[i]
        depth += c == "{"
        depth -= c == "}"
        if depth == 0:
            return ptx_text[start + 1:i]
    return None


def ops(ptx_text, entry):
    """{mnemonic: count} of the entry's instructions ({} when the entry is missing)."""
    text = body(ptx_text, entry) or ""
    out = collections.Counter()
    for line in text.splitlines():
        line = line.split("//")[0]
        m = _INSTR.match(line)
        if m and not line.strip().startswith((".reg", ".local", ".shared", ".param")):
            out[m.group(1)] += 1
            if m.group(1).startswith(("ld.shared", "st.shared")) and "[%rd" in line:
                out["@shared64"] += 1   # a shared access through a 64-bit address register
    return dict(out)


def evidence(op_counts):
    """{label: count} of EVIDENCE for an ops() result (a prefix ending in a space matches exactly)."""
    out = {}
    for label, prefixes in EVIDENCE:
        out[label] = sum(n for k, n in op_counts.items()
                         if any(k == p.strip() if p.endswith(" ") else k.startswith(p) for p in prefixes))
    return out
