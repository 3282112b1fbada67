"""Layouts left to inference: the modes in which a generated kernel's text is written.

  gl      every tensor is made with its layout (the generator's own text);
  erased  tensor constructors (gl.arange, gl.full, gl.zeros) and shared-memory loads
          lose their layout, so glc's AutoLayout inference must find each one from
          the accesses and from whatever the tensor meets. Triton 3.6 cannot compile
          that (its Gluon resolves AutoLayout only from gl.set_auto_layout and from
          the concrete layout an operation meets, never from loads), so the GPU half
          runs the kernel's gl twin on the Triton side (`triton_mode`);
  auto    constructors without a layout or with `layout=gl.AutoLayout()`, pinned by
          gl.set_auto_layout at random points: on the constructor, or on the offsets
          a site builds from its aranges (inference then runs backward through the
          arithmetic, broadcasts and expand_dims to the aranges). Valid Gluon: both
          compilers infer;
  mix     each kernel in one of the three, drawn from a stream of its own.

A choice never touches the generator's own random stream: the gl text is the same in
every mode, and each statement's choices come from a stream named by the kernel and
the statement's first definition, so shrinking (dropping statements) keeps them.
"""
import random
import re

from glcdiff.gen.features import enabled

MODES = ("gl", "erased", "auto", "mix")
KERNEL_MODES = ("gl", "erased", "auto")

ARANGE = re.compile(r"^(\w+) = gl\.arange\(0, (\d+), layout=(.+)\)$")
CONSTRUCTOR = re.compile(r"^(\w+) = (gl\.(?:full|zeros)\(.*), layout=(.+)\)$")
SMEM_LOAD = re.compile(r"^(\w+) = ((?!gl\.)\w+.*)\.load\((.+)\)$")   # not gl.load
OFFSETS = re.compile(r"^(o\d+) = (pid \* .+)$")
AUTO = "gl.AutoLayout()"


def kernel_mode(seed, index, mode):
    """The mode kernel (seed, index) is written in: mode itself, or for "mix" one of
    gl, erased and auto (the same for the same kernel)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r} (one of {', '.join(MODES)})")
    if mode != "mix":
        return mode
    return random.Random(f"{seed}:{index}:mode").choice(KERNEL_MODES)


def triton_mode(mode):
    """The mode of the text Triton's Gluon compiles for a kernel written in mode."""
    return "gl" if mode == "erased" else mode


def rewrite(stmt, mode, seed, index, erasable=None):
    """The lines of statement stmt (a kernel.Stmt) in a kernel mode; in erased mode
    only the constructors that define a name of erasable (plan's) lose their layout."""
    if mode == "gl" or not any("layout=" in ln or ".load(" in ln for ln in stmt.lines):
        return stmt.lines
    if mode == "erased":
        return [_erased(ln) if _defined(ln) in (erasable or ()) else ln for ln in stmt.lines]
    rng = random.Random(f"{seed}:{index}:{mode}:{min(stmt.defs, default='')}")
    if stmt.layout is not None:
        return _auto_site(stmt, rng)
    return [_auto_constructor(ln, rng) for ln in stmt.lines]


# Operations whose result's layout glc derives from their operand's at once, so that
# an operand left to inference is an error (sema/builtins/shape.c): the eraser keeps
# the layouts such an operand flows from.
DERIVING = re.compile(r"\bgl\.(?:reshape|permute|join)\(|\.split\(\)")
REDUCTION = re.compile(r"\bgl\.(?:sum|max|min|reduce)\(")
NAME = re.compile(r"[A-Za-z_]\w*")


def _defined(line):
    """The name an assignment line defines, or None."""
    m = re.match(r"\s*(\w+) (?:\+|-|\*)?= ", line)
    return m.group(1) if m else None


def _flows(lines, sources):
    """({name: the erased sources its layout flows from}, {name: how many reductions
    of a value left to inference it went through}): every operation but
    gl.convert_layout passes its operands' layouts on."""
    flows, depth = {}, {}
    for _ in range(2):                          # twice: loops carry names back
        for ln in lines:
            d = _defined(ln)
            rhs = ln.split("=", 1)[-1] if d else ln
            reads = [n for n in NAME.findall(rhs) if flows.get(n)]
            got = set().union(*(flows[n] for n in reads))
            deep = max((depth.get(n, 0) for n in reads), default=0)
            if d in sources:
                got, deep = {d}, 0
            elif rhs.lstrip().startswith("gl.convert_layout("):
                got, deep = set(), 0
            if d and got:
                flows[d] = flows.get(d, set()) | got
                depth[d] = max(depth.get(d, 0), deep + len(REDUCTION.findall(rhs)))
    return flows, depth


def _kept(lines, flows, depth):
    """The erased sources that must keep their layout: those an operand of a deriving
    operation flows from, and (while the nested_slice_inference feature is off)
    those of a value that meets one reduced twice (found/013)."""
    keep = set()
    for ln in lines:
        reads = NAME.findall(ln.split("=", 1)[-1] if _defined(ln) else ln)
        if DERIVING.search(ln):
            keep |= set().union(*(flows.get(n, set()) for n in reads))
        if not enabled("nested_slice_inference") and any(
                depth.get(n, 0) >= 2 for n in reads):
            keep |= set().union(*(flows.get(n, set()) for n in reads
                                  if depth.get(n, 0) < 2))
    return keep


def plan(stmts):
    """The names of the constructors (and shared-memory loads) that erased mode leaves
    to inference: all of them but those _kept says glc cannot infer."""
    lines = [ln for s in stmts for ln in s.lines]
    sources = {d for ln in lines if (d := _defined(ln)) and _erased(ln) != ln}
    while True:
        keep = _kept(lines, *_flows(lines, sources)) & sources
        if not keep:
            return sources
        sources -= keep


def _erased(line):
    """line without the layout of a constructor or a shared-memory load."""
    m = ARANGE.match(line)
    if m:
        return f"{m.group(1)} = gl.arange(0, {m.group(2)})"
    m = CONSTRUCTOR.match(line)
    if m:
        return f"{m.group(1)} = {m.group(2)})"
    m = SMEM_LOAD.match(line)
    if m:
        return f"{m.group(1)} = {m.group(2)}.load()"
    return line


def _no_layout(rng):
    """The keyword a constructor left to inference gets: none, or AutoLayout()."""
    return "" if rng.random() < 0.5 else f", layout={AUTO}"


def _auto_site(stmt, rng):
    """A site's aranges and offsets (kernel.site) in auto mode: as they were, each
    arange pinned where it is made, or the aranges unknown and the offsets pinned."""
    how = rng.choice(["keep", "aranges", "offsets", "offsets"])
    out = []
    for line in stmt.lines:
        a, o = ARANGE.match(line), OFFSETS.match(line)
        if how == "aranges" and a:
            line = (f"{a.group(1)} = gl.set_auto_layout(gl.arange(0, {a.group(2)}"
                    f"{_no_layout(rng)}), {a.group(3)})")
        elif how == "offsets" and a:
            line = f"{a.group(1)} = gl.arange(0, {a.group(2)}{_no_layout(rng)})"
        elif how == "offsets" and o:
            line = f"{o.group(1)} = gl.set_auto_layout({o.group(2)}, {stmt.layout})"
        out.append(line)
    return out


def _auto_constructor(line, rng):
    """gl.full / gl.zeros in auto mode: as it was, or unknown and pinned at once."""
    m = CONSTRUCTOR.match(line)
    if not m or rng.random() < 0.3:
        return line
    return f"{m.group(1)} = gl.set_auto_layout({m.group(2)}{_no_layout(rng)}), {m.group(3)})"
