"""Layouts left to inference (glcdiff/gen/erase.py): the modes, which layouts the
eraser leaves out and which it must keep, the pins of auto mode, and the Triton twin."""
import ast
import re
import unittest

from glcdiff.gen import erase, features, generate
from glcdiff.gen.kernel import Stmt

KERNELS = [generate.kernel(seed, i) for seed in (1, 4) for i in range(24)]
CONSTRUCTOR = re.compile(r"gl\.(?:arange|full|zeros)\(")


def body(text):
    """The lines of a kernel's text after its `def`."""
    lines = text.splitlines()
    return lines[next(i for i, ln in enumerate(lines) if ln.startswith("def ")) + 1:]


class Modes(unittest.TestCase):
    def test_kernel_mode(self):
        for m in ("gl", "erased", "auto"):
            self.assertEqual(erase.kernel_mode(1, 2, m), m)
        mixed = [erase.kernel_mode(9, i, "mix") for i in range(60)]
        self.assertEqual(set(mixed), {"gl", "erased", "auto"})
        self.assertEqual(mixed, [erase.kernel_mode(9, i, "mix") for i in range(60)])
        with self.assertRaises(ValueError):
            erase.kernel_mode(1, 2, "none")

    def test_triton_mode(self):
        self.assertEqual([erase.triton_mode(m) for m in erase.KERNEL_MODES],
                         ["gl", "gl", "auto"])

    def test_gl_is_the_generators_text(self):
        for k in KERNELS[:8]:
            self.assertEqual(k.text(mode="gl"), k.text())

    def test_every_mode_parses_and_keeps_the_statements(self):
        for k in KERNELS:
            for m in erase.KERNEL_MODES:
                with self.subTest(kernel=k.name, mode=m):
                    text = k.text(mode=m)
                    ast.parse(text)
                    self.assertEqual(len(body(text)), len(body(k.text())))


class Erased(unittest.TestCase):
    def test_layouts_left_out(self):
        left = kept = 0
        for k in KERNELS:
            erasable = erase.plan(k.stmts)
            for ln in body(k.text(mode="erased")):
                ln = ln.strip()
                if not CONSTRUCTOR.search(ln) and ".load(" not in ln:
                    continue
                name = ln.split(" = ")[0]
                if name in erasable:
                    left += 1
                    self.assertNotIn("layout=", ln)
                    self.assertFalse(re.search(r"\.load\(.+\)$", ln) and "gl.load(" not in ln,
                                     ln)
                elif "layout=" in ln:
                    kept += 1
        self.assertGreater(left, 10 * kept)   # most layouts go

    def test_manifest_and_twin(self):
        k = KERNELS[3]
        man, = generate.manifests([k], mode="erased")
        self.assertEqual(man, dict(k.manifest(), mode="erased"))
        self.assertEqual(generate.manifests([k]), [k.manifest()])
        twin = generate.file_text([k], mode="erased", twin=True)
        self.assertEqual(body(twin), body(generate.file_text([k])))
        auto = generate.file_text([k], mode="auto")
        self.assertEqual(generate.file_text([k], mode="auto", twin=True), auto)


def stmt(*lines, layout=None):
    """A statement of lines defining the names they assign."""
    return Stmt(list(lines), {ln.split(" = ")[0].strip() for ln in lines if " = " in ln}, layout)


L = "gl.BlockedLayout([1, 1], [4, 8], [2, 1], [1, 0])"


class Plan(unittest.TestCase):
    def test_a_deriving_operation_keeps_its_sources(self):
        stmts = [stmt(f"a = gl.full([4, 8], 1, gl.i32, layout={L})"),
                 stmt(f"b = gl.full([4, 8], 2, gl.i32, layout={L})"),
                 stmt("c = a + 1"),
                 stmt("d = gl.permute(c, [1, 0])"),
                 stmt("e = b * 2")]
        self.assertEqual(erase.plan(stmts), {"b"})

    def test_convert_layout_cuts_the_flow(self):
        stmts = [stmt(f"a = gl.full([4, 8], 1, gl.i32, layout={L})"),
                 stmt(f"c = gl.convert_layout(a, {L})"),
                 stmt("d = gl.reshape(c, [32])")]
        self.assertEqual(erase.plan(stmts), {"a"})

    def test_twice_reduced_values_meet_known_layouts(self):
        r3 = "gl.BlockedLayout([1, 1, 1], [2, 4, 4], [2, 1, 1], [2, 1, 0])"
        s1 = "gl.SliceLayout(0, gl.SliceLayout(1, " + r3 + "))"
        stmts = [stmt(f"a = gl.full([4, 4, 4], 1, gl.i32, layout={r3})"),
                 stmt("s = gl.sum(gl.min(a, axis=1), axis=0)"),
                 stmt(f"w = gl.arange(0, 4, layout={s1})"),
                 stmt("t = s + w")]
        self.assertEqual(erase.plan(stmts), {"a", "w"})   # glc infers w (found/013)
        with features.overridden({"nested_slice_inference": False}):
            self.assertEqual(erase.plan(stmts), {"a"})   # w keeps its layout

    def test_smem_loads_are_sources(self):
        stmts = [stmt(f"v = smem1.index(2).load({L})"), stmt("w = gl.load(x + o)")]
        self.assertEqual(erase.plan(stmts), {"v"})
        self.assertEqual(erase.rewrite(stmts[0], "erased", 1, 1, {"v"}),
                         ["v = smem1.index(2).load()"])
        self.assertEqual(erase.rewrite(stmts[1], "erased", 1, 1, {"w"}), ["w = gl.load(x + o)"])


class Auto(unittest.TestCase):
    def test_every_unknown_is_pinned(self):
        pins = 0
        for k in KERNELS:
            for s in k.stmts:
                lines = erase.rewrite(s, "auto", k.seed, k.index)
                pins += sum("gl.set_auto_layout(" in ln for ln in lines)
                for ln in lines:
                    if not CONSTRUCTOR.search(ln) or "gl.set_auto_layout(" in ln:
                        continue
                    if re.search(r"layout=(?!gl\.AutoLayout\(\))", ln):
                        continue
                    # an arange left unknown: its site's offsets are pinned
                    self.assertIsNotNone(s.layout, ln)
                    self.assertTrue(any(o.split(" = ")[1].startswith("gl.set_auto_layout(pid")
                                        for o in lines), lines)
        self.assertGreater(pins, 50)

    def test_choices_survive_shrinking(self):
        k = KERNELS[5]
        full = body(k.text(mode="auto"))
        keep = generate.closure(k.stmts, set(range(1, len(k.stmts))))
        for line in body(k.text(keep, mode="auto")):
            self.assertIn(line, full)


if __name__ == "__main__":
    unittest.main()
