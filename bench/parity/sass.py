"""SASS and ptxas report reading for the code-parity harness (standard library only).

  functions(text)       `cuobjdump -sass` output -> {function: [Instr]}, in order
  classify(instr)       an instruction's class (CLASSES), e.g. "FFMA", "LDG", "INT"
  counts(instrs)        {class: count} plus "total" (NOPs left out) and the global
                        access widths: "LDG.128", "STG.32", ... (bits per thread)
  ptxas_report(text)    `ptxas -v` standard error -> {function: {"regs", "spill_st",
                        "spill_ld", "stack", "smem", "barriers"}}

The classes follow issue 23's list: float math (FFMA, FMUL, FADD), MUFU, SHFL,
shared memory (LDS, STS, LDSM, STSM), global memory (LDG, STG, with widths),
local memory (LDL, STL: spills), BAR, SYNCS (mbarriers), GMMA (HGMMA and its
fp8/int8 twins), UTMA (UTMALDG, UTMASTG and the other tensor-memory-access
ops), then the rest grouped so a difference can be read off the table: INT
(integer and address arithmetic, compares, selects), CVT (conversions), HALF
(packed f16/bf16 math), FCMP (float compares, min/max, selects), CPASYNC
(LDGSTS), ATOM (atomics and reductions), MOV (moves, constant and special-register
reads), CTRL (branches, exit, warp votes and syncs, fences, setmaxnreg) and OTHER.
"""
import re

CLASSES = ["FFMA", "FMUL", "FADD", "MUFU", "SHFL", "LDS", "STS", "LDSM", "STSM", "LDG", "STG",
           "LDL", "STL", "BAR", "SYNCS", "GMMA", "UTMA", "CPASYNC", "ATOM", "INT", "CVT", "HALF",
           "FCMP", "MOV", "CTRL", "OTHER"]

_BY_OPCODE = {
    "FFMA": "FFMA", "FFMA32I": "FFMA", "FMUL": "FMUL", "FMUL32I": "FMUL", "FADD": "FADD",
    "FADD32I": "FADD", "MUFU": "MUFU", "SHFL": "SHFL", "LDS": "LDS", "STS": "STS", "LDSM": "LDSM",
    "STSM": "STSM", "LDG": "LDG", "STG": "STG", "LDL": "LDL", "STL": "STL", "BAR": "BAR",
    "SYNCS": "SYNCS", "HGMMA": "GMMA", "QGMMA": "GMMA", "IGMMA": "GMMA", "BGMMA": "GMMA",
    "WARPGROUP": "GMMA", "UTMALDG": "UTMA", "UTMASTG": "UTMA", "UTMAPF": "UTMA", "UTMACCTL": "UTMA",
    "UTMACMDFLUSH": "UTMA", "UBLKCP": "UTMA", "UBLKRED": "UTMA", "LDGSTS": "CPASYNC",
    "LDGDEPBAR": "CPASYNC", "DEPBAR": "CPASYNC", "ATOM": "ATOM", "ATOMG": "ATOM", "ATOMS": "ATOM",
    "RED": "ATOM", "REDG": "ATOM", "REDUX": "ATOM",
    "F2F": "CVT", "F2I": "CVT", "I2F": "CVT", "F2FP": "CVT", "I2FP": "CVT", "F2IP": "CVT",
    "FRND": "CVT", "I2I": "CVT", "I2IP": "CVT",
    "HADD2": "HALF", "HMUL2": "HALF", "HFMA2": "HALF", "HMNMX2": "HALF", "HSETP2": "HALF",
    "HSET2": "HALF", "HADD2_32I": "HALF", "HFMA2_32I": "HALF", "HMUL2_32I": "HALF",
    "FSETP": "FCMP", "FSET": "FCMP", "FMNMX": "FCMP", "FSEL": "FCMP", "FCHK": "FCMP",
    "MOV": "MOV", "MOV32I": "MOV", "UMOV": "MOV", "S2R": "MOV", "S2UR": "MOV", "CS2R": "MOV",
    "LDC": "MOV", "ULDC": "MOV", "R2UR": "MOV", "R2P": "MOV", "P2R": "MOV", "PLOP3": "MOV",
    "UPLOP3": "MOV", "UP2UR": "MOV", "VOTEU": "CTRL", "VOTE": "CTRL",
    "BRA": "CTRL", "BRX": "CTRL", "EXIT": "CTRL", "RET": "CTRL", "CALL": "CTRL", "BSSY": "CTRL",
    "BSYNC": "CTRL", "WARPSYNC": "CTRL", "BMOV": "CTRL", "YIELD": "CTRL", "BREAK": "CTRL",
    "ELECT": "CTRL", "UELECT": "CTRL", "ACQBULK": "CTRL", "USETMAXREG": "CTRL", "NANOSLEEP": "CTRL",
    "MEMBAR": "CTRL", "FENCE": "CTRL", "ERRBAR": "CTRL", "CCTL": "CTRL",
}
_INT_OPCODES = {"IMAD", "IADD3", "IADD", "IADD32I", "LEA", "LOP3", "LOP", "LOP32I", "SHF", "SHL", "SHR",
                "ISETP", "IMNMX", "IABS", "PRMT", "SEL", "FLO", "POPC", "BREV", "IDP", "IMUL", "IMUL32I",
                "ISCADD", "BMSK", "SGXT", "VIADD", "VIMNMX", "VIADDMNMX", "VIMNMX3", "UIADD3", "UIMAD",
                "ULEA", "ULOP3", "ULOP", "ULOP32I", "USHF", "UISETP", "USEL", "UPRMT", "UFLO", "UPOPC",
                "UBMSK", "USGXT", "UIMNMX", "UVIADD", "UVIMNMX"}

# `/*0120*/  @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;  /* 0x... */`
_INSTR = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)"
                    r"((?:\.[A-Za-z0-9_]+)*)\s*([^;]*);")
_FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")


class Instr:
    """One SASS instruction: opcode ("LDG"), modifiers (["E", "128"]), operand text,
    predicate guard ("@!P0" or "")."""
    __slots__ = ("opcode", "mods", "operands", "guard")

    def __init__(self, opcode, mods, operands, guard):
        self.opcode, self.mods, self.operands, self.guard = opcode, mods, operands, guard

    def __repr__(self):
        return " ".join(filter(None, [self.guard, ".".join([self.opcode] + self.mods), self.operands]))


def functions(text):
    """{function name: [Instr, ...]} of `cuobjdump -sass` text, instructions in address order."""
    out, cur = {}, None
    for line in text.splitlines():
        m = _FUNCTION.match(line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = _INSTR.match(line)
        if m and cur is not None:
            mods = [x for x in m.group(4).split(".") if x]
            cur.append(Instr(m.group(3), mods, m.group(5).strip(), (m.group(2) or "").strip()))
    return out


def classify(ins):
    """The class (one of CLASSES) of instruction ins."""
    op = ins.opcode
    if op in _BY_OPCODE:
        return _BY_OPCODE[op]
    if op in _INT_OPCODES:
        return "INT"
    if op.startswith("U") and op[1:] in _BY_OPCODE:   # uniform-datapath twins (UMOV, ...)
        return _BY_OPCODE[op[1:]]
    return "OTHER"


_WIDTH = {"U8": 8, "S8": 8, "U16": 16, "S16": 16, "64": 64, "128": 128}


def access_bits(ins):
    """Bits per thread of a global or shared load/store (LDG/STG/LDS/STS): 8 .. 128."""
    for m in ins.mods:
        if m in _WIDTH:
            return _WIDTH[m]
    return 32


def counts(instrs):
    """{class: count, "total": count without NOPs, "LDG.<bits>"/"STG.<bits>": count} of a function."""
    c = {k: 0 for k in CLASSES}
    c["total"] = 0
    for ins in instrs:
        if ins.opcode == "NOP":
            continue
        k = classify(ins)
        c[k] += 1
        c["total"] += 1
        if k in ("LDG", "STG"):
            w = f"{k}.{access_bits(ins)}"
            c[w] = c.get(w, 0) + 1
    return c


def widths(c, kind):
    """"128x4 32x2": the per-thread widths of c's LDG or STG (kind), widest first."""
    ws = sorted(((int(k.split(".")[1]), n) for k, n in c.items() if k.startswith(kind + ".")),
                reverse=True)
    return " ".join(f"{w}x{n}" for w, n in ws)


_PTXAS_FN = re.compile(r"Function properties for (\S+)\s*\n\s*(\d+) bytes stack frame, (\d+) bytes spill "
                       r"stores, (\d+) bytes spill loads\s*\n(?:.*\n)*?.*?Used (\d+) registers"
                       r"(?:, used (\d+) barriers)?(?:, (\d+) bytes smem)?")


def ptxas_report(text):
    """{function: {"regs", "spill_st", "spill_ld", "stack", "smem" (static), "barriers"}} of `ptxas -v`."""
    out = {}
    for m in _PTXAS_FN.finditer(text):
        out[m.group(1)] = {"stack": int(m.group(2)), "spill_st": int(m.group(3)),
                           "spill_ld": int(m.group(4)), "regs": int(m.group(5)),
                           "barriers": int(m.group(6) or 0), "smem": int(m.group(7) or 0)}
    return out
