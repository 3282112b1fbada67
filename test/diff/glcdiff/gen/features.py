"""The generator's feature switches: the one place that turns a feature off.

Every feature the generator can use has a switch here. A switch is off only
while glc (or Triton's Gluon) has a known defect in that feature; its reason
names the reproducer in test/diff/found/ (listed in test/diff/FOUND.md), so the
switch goes back on when the defect is fixed. `DIFF_FEATURES=name,-name` in the
environment turns switches on or off for one run (e.g. to check a fix:
`DIFF_FEATURES=smem_permute python3 cpu_check.py`).
"""
import contextlib
import os

# name -> (on?, why it is off)
SWITCHES = {
    "slice_layouts": (True, ""),
    "nvmma_layouts": (True, ""),
    "dot_layouts": (True, ""),
    "nvmma_shared": (True, ""),
    "shared_linear": (True, ""),
    "padded_shared": (True, ""),
    "shared_memory": (True, ""),
    "smem_index": (True, ""),
    "smem_slice": (True, ""),
    "smem_strided_slice": (True, ""),
    "smem_permute": (True, ""),
    "smem_reinterpret": (True, ""),
    "narrow_vector_access": (True, ""),
    "loops": (True, ""),
    "while_loops": (True, ""),
    "device_functions": (True, ""),
    "loop_tuples": (True, ""),
    "runtime_if": (True, ""),
    "bool_memory": (True, ""),
    "f8_memory": (True, ""),
    "scalar_reduce": (True, ""),
    "rank3": (True, ""),
    "promotion_quirks": (True, ""),
    "scans": (True, ""),
    "user_reduce": (True, ""),
    "shape_ops": (True, ""),
    "gather": (True, ""),
    "histogram": (True, ""),
    "atomics": (True, ""),
    # erase.py: leave to inference the layouts that meet a value reduced twice
    "nested_slice_inference": (True, ""),
}


def _from_environment():
    """{name: on?} from DIFF_FEATURES (`name` turns a switch on, `-name` off)."""
    out = {}
    for item in os.environ.get("DIFF_FEATURES", "").split(","):
        item = item.strip()
        if item:
            out[item.lstrip("-")] = not item.startswith("-")
    return out


OVERRIDES = _from_environment()   # this run's DIFF_FEATURES
for _name in OVERRIDES:
    if _name not in SWITCHES:
        raise SystemExit(f"DIFF_FEATURES: unknown feature {_name!r} "
                         "(see test/diff/glcdiff/gen/features.py)")


@contextlib.contextmanager
def overridden(switches):
    """Within the block, {name: on?} overrides this run's switches (the tl mode turns
    shared_memory off: triton.language has none)."""
    saved = dict(OVERRIDES)
    OVERRIDES.update(switches)
    try:
        yield
    finally:
        OVERRIDES.clear()
        OVERRIDES.update(saved)


def enabled(name):
    """Whether the generator may use feature `name` in this run."""
    return OVERRIDES.get(name, SWITCHES[name][0])


def disabled_list():
    """[(name, reason)] of the switches that are off in this run."""
    return [(n, r) for n, (_, r) in SWITCHES.items() if not enabled(n)]
