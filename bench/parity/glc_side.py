"""The glc half of the code-parity harness (standard library only).

  compile_unit(glc, unit, work, outdir)  `glc SRC ARGV --emit=ptx` and `--emit=c`: outdir/ID.ptx and
                                         ID.c; returns None, or glc's message when it fails
  launchers(c_text)                      the launchers of an --emit=c file: {name: Launcher}
  entry_for(launcher, row_args)          the PTX entry the launcher runs for a row's arguments

A launcher's PTX entry is its kernel's generic one, or the `__spec` variant when the actual
arguments meet the variant's assumptions (each `NAME % 16 == 0` of the launcher's test; pointers
are 16-byte aligned on the GPU, as torch allocates them), as docs/runtime.md says.
"""
import os
import re
import subprocess

_TABLE = re.compile(r"static glrt_lazy_kernel (\w+)\[\d+\] = \{\n(.*?)\n\};", re.S)
_TABLE_ENTRY = re.compile(r'\{&\w+, "(\w+)", NULL\}')
_LAUNCHER = re.compile(r"^glrt_status\n(\w+)\(glrt_stream stream, unsigned grid_x, unsigned grid_y, "
                       r"unsigned grid_z,?(.*?)\)\n\{\n(.*?)\n\}", re.S | re.M)
_BLOCK = re.compile(r"glc_block\[3\] = \{(\d+), (\d+), (\d+)\}")
_FAST = re.compile(r"glc_fast = (.*?);", re.S)
_TERM = re.compile(r"^(\w+) % (\d+) == 0$")
_GET = re.compile(r"glrt_lazy_kernel_get\(&glc_kernel, &(\w+)\[(?:glc_fast \? (\d+) : (\d+)|(\d+))\]\)")
_LAUNCH = re.compile(r"glrt_launch\w*\(glc_kernel, glc_grid, glc_block, [^,]*, (\d+)u,")


class Launcher:
    """params: the C parameter names in order; threads; smem (dynamic bytes); generic and
    spec (None without a variant): PTX entry names; fast: [(param, divisor)] the variant assumes."""

    def __init__(self, params, threads, smem, generic, spec, fast):
        self.params, self.threads, self.smem = params, threads, smem
        self.generic, self.spec, self.fast = generic, spec, fast


def launchers(c_text):
    """{launcher name: Launcher} of glc's --emit=c output; raises ValueError on a form it cannot read."""
    tables = {m.group(1): _TABLE_ENTRY.findall(m.group(2)) for m in _TABLE.finditer(c_text)}
    out = {}
    for m in _LAUNCHER.finditer(c_text):
        name, params, body = m.group(1), m.group(2), m.group(3)
        names = [p.split()[-1].lstrip("*") for p in params.split(",") if p.strip()]
        block, get, launch = _BLOCK.search(body), _GET.search(body), _LAUNCH.search(body)
        if not (block and get and launch):
            raise ValueError(f"{name}: launcher not understood")
        table = tables[get.group(1)]
        fast, spec = [], None
        if get.group(2):
            spec, generic = table[int(get.group(2))], table[int(get.group(3))]
            for term in _FAST.search(body).group(1).split("&&"):
                t = _TERM.match(" ".join(term.split()))
                if not t:
                    raise ValueError(f"{name}: variant test {term.strip()!r} not understood")
                fast.append((t.group(1), int(t.group(2))))
        else:
            generic = table[int(get.group(4))]
        threads = int(block.group(1)) * int(block.group(2)) * int(block.group(3))
        out[name] = Launcher(names, threads, int(launch.group(1)), generic, spec, fast)
    return out


def scalar_values(launcher, row_args):
    """{C parameter: value} for the row's scalar arguments (None for pointers and descriptors)."""
    runtime = [a for a in row_args if not (isinstance(a, dict) and "constexpr" in a)]
    if len(runtime) != len(launcher.params):
        raise ValueError(f"{len(runtime)} runtime arguments for {len(launcher.params)} parameters")
    vals = {}
    for name, a in zip(launcher.params, runtime):
        if isinstance(a, (int, float)) and not isinstance(a, bool):
            vals[name] = a
        elif isinstance(a, dict) and "scalar" in a:
            vals[name] = a["scalar"]
        else:
            vals[name] = None
    return vals


def entry_for(launcher, row_args):
    """The PTX entry the launcher picks for the row's arguments (pointers are aligned)."""
    if launcher.spec is None:
        return launcher.generic
    vals = scalar_values(launcher, row_args)
    ok = all(vals[p] is None or vals[p] % d == 0 for p, d in launcher.fast)
    return launcher.spec if ok else launcher.generic


def compile_unit(glc, unit, work, outdir, env=None):
    """Writes outdir/ID.ptx and outdir/ID.c for the unit; None, or glc's message on failure."""
    src = os.path.join(work, unit["src"])
    base = os.path.join(outdir, unit["id"])
    for kind, out in (("ptx", base + ".ptx"), ("c", base + ".c")):
        p = subprocess.run([glc, src] + unit["argv"] + [f"--emit={kind}", "-o", out],
                           capture_output=True, text=True, env=env)
        if p.returncode != 0:
            return p.stderr.strip()[-2000:]
    return None


def build_object(glc, unit, work, out, env=None):
    """`glc SRC ARGV -c -o OUT` (with env, e.g. GLC_PTXAS); None, or glc's message."""
    p = subprocess.run([glc, os.path.join(work, unit["src"])] + unit["argv"] + ["-c", "-o", out],
                       capture_output=True, text=True, env=env)
    return None if p.returncode == 0 else p.stderr.strip()[-2000:]
