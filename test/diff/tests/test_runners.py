"""The runners on fake inputs: glc's outcome classification (on a fake glc), the CPU
half's per-kernel retry, delta debugging on a toy predicate, and the GPU bundle's
manifest and prototype checks and self-contained package copy."""
import json
import os
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

from glcdiff import TOOLS_DIR, copy_package
from glcdiff.gen import generate
from glcdiff.runners import bundle, cpu_check, glc, shrink

# A fake glc: what it does is the first word after `#` in the file it is given, or,
# with --kernel NAME, what the line `# NAME: WORD` says (default ok).
FAKE_GLC = """\
#!{python}
import os, re, sys, time
path, args = sys.argv[1], sys.argv[2:]
text = open(path).read()
what = re.match(r"#\\s*(\\w+)", text).group(1)
if "--kernel" in args:
    m = re.search(r"# " + args[args.index("--kernel") + 1] + r": (\\w+)", text)
    what = m.group(1) if m else "ok"
if "-n" in args:   # a tl file: its kernel's `# kernel` line must be what -s and -w say
    n, s, w = (args[args.index(o) + 1] for o in ("-n", "-s", "-w"))
    what = "ok" if "# kernel " + n + ": " + s + "; -w " + w in text else "user"
if what == "user":
    sys.exit(sys.stderr.write(path + ":3:5: error: a user's mistake\\n") and 1)
if what == "ice":
    sys.exit(sys.stderr.write("glc: internal compiler error: invalid IR\\n") and 3)
if what == "marked":
    sys.exit(sys.stderr.write(path + ":1:1: error: internal error: bad\\n") and 1)
if what == "bare":
    sys.exit(sys.stderr.write("ptxas fatal: something\\n") and 1)
if what == "crash":
    os.kill(os.getpid(), 11)
if what == "slow":
    time.sleep(30)
"""


class Classification(unittest.TestCase):
    def test_classify(self):
        self.assertEqual(glc.classify(0, ""), "ok")
        self.assertEqual(glc.classify(1, "a.gl:1:2: error: no such name"), "user")
        self.assertEqual(glc.classify(1, "a.gl:1:2: error: internal error: x"), "internal")
        self.assertEqual(glc.classify(1, "error: no position"), "internal")
        self.assertEqual(glc.classify(3, "a.gl:1:2: error: x"), "internal")
        self.assertEqual(glc.classify(-11, ""), "internal")

    def test_signature_blurs_numbers_and_paths(self):
        a = glc.signature("user", "/tmp/x1/k.gl:3:4: error: shape [4, 8] is not [8]\n")
        b = glc.signature("user", "/tmp/y2/k.gl:9:1: error: shape [2, 16] is not [16]\n")
        self.assertEqual(a, b)
        self.assertEqual(a, "user: error: shape [N, N] is not [N]")


class FakeGlc(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.glc = os.path.join(cls.tmp.name, "glc")
        with open(cls.glc, "w") as f:
            f.write(FAKE_GLC.format(python=sys.executable))
        os.chmod(cls.glc, stat.S_IRWXU)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def source(self, text):
        """A .gl file of text in the temporary folder."""
        path = os.path.join(self.tmp.name, "k.gl")
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def test_outcomes(self):
        for what, want in [("ok", "ok"), ("user", "user"), ("ice", "internal"),
                           ("marked", "internal"), ("bare", "internal"), ("crash", "internal")]:
            with self.subTest(what=what):
                outcome, msg = glc.cubin(self.glc, self.source(f"# {what}\n"))
                self.assertEqual(outcome, want, msg)
        _, msg = glc.cubin(self.glc, self.source("# crash\n"))
        self.assertIn("killed by signal 11", msg)
        _, msg = glc.cubin(self.glc, self.source("# ice\n"))
        self.assertIn("exit status 3", msg)

    def test_timeout(self):
        outcome, msg = glc.run(self.glc, self.source("# slow\n"), [], timeout=1)
        self.assertEqual(outcome, "timeout")

    def test_cpu_check_retries_kernel_by_kernel(self):
        path = self.source("# user\n# k1: user\n# k2: ice\n")
        got = cpu_check.check_file(self.glc, path, ["k0", "k1", "k2"])
        self.assertEqual([(n, o) for n, o, _ in got], [("k0", "ok"), ("k1", "user"),
                                                       ("k2", "internal")])
        self.assertEqual(cpu_check.check_file(self.glc, self.source("# ok\n"), ["a", "b"]),
                         [("a", "ok", ""), ("b", "ok", "")])

    def test_tl_files_compile_kernel_by_kernel(self):
        path = os.path.join(self.tmp.name, "k.py")
        with open(path, "w") as f:
            f.write("# tl\n# kernel a: *fp32, i32; -w 4\n# kernel b: *i8; -w 2\n")
        got = cpu_check.check_file(self.glc, path, ["a", "b"])
        self.assertEqual([(n, o) for n, o, _ in got], [("a", "ok"), ("b", "ok")])


class Shrink(unittest.TestCase):
    def test_ddmin_finds_the_needed_items(self):
        calls = []

        def fails(items):
            calls.append(items)
            return {3, 17, 42} <= set(items)
        self.assertEqual(shrink.ddmin(list(range(64)), fails), [3, 17, 42])
        self.assertLess(len(calls), 400)

    def test_ddmin_one_item(self):
        self.assertEqual(shrink.ddmin(list(range(10)), lambda items: 9 in items), [9])

    def test_write_keeps_statements(self):
        k = generate.kernel(2, 1)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "out.gl")
            keep = generate.closure(k.stmts, set(range(len(k.stmts) - 1)))
            shrink.write(k, keep, path)
            with open(path) as f:
                self.assertIn(k.text(keep), f.read())
            with open(os.path.join(d, "out.json")) as f:
                self.assertEqual(json.load(f), [k.manifest(keep)])


HEADER = """\
/* k5_0: 128 threads per block. */
glrt_status
k5_0(glrt_stream stream, unsigned grid_x, unsigned grid_y, unsigned grid_z,
\tglrt_devptr x1,
\tint32_t n2,
\tfloat s3,
\tglrt_devptr y4);
"""   # as glc --emit=header writes a launcher


class Bundle(unittest.TestCase):
    MANIFEST = [{"name": "k5_0", "params": [
        {"name": "x1", "role": "in", "dtype": "f16"},
        {"name": "n2", "role": "scalar", "dtype": "i32"},
        {"name": "s3", "role": "scalar", "dtype": "f32"},
        {"name": "y4", "role": "out", "dtype": "f32"}]}]

    def header(self, d, text):
        """A launcher header written into folder d."""
        path = os.path.join(d, "k.h")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_prototypes_match_the_manifest(self):
        with tempfile.TemporaryDirectory() as d:
            bundle.check_prototypes(self.header(d, HEADER), self.MANIFEST)

    def test_prototype_mismatch(self):
        with tempfile.TemporaryDirectory() as d:
            h = self.header(d, HEADER.replace("int32_t n2", "int64_t n2"))
            with self.assertRaises(AssertionError):
                bundle.check_prototypes(h, self.MANIFEST)
            swapped = [dict(self.MANIFEST[0], params=self.MANIFEST[0]["params"][::-1])]
            with self.assertRaises(AssertionError):
                bundle.check_prototypes(self.header(d, HEADER), swapped)

    def test_entry_points_exist(self):
        for f in bundle.GPU_ENTRY_POINTS:
            self.assertTrue(os.path.isfile(os.path.join(TOOLS_DIR, f)), f)

    def test_package_copy_is_self_contained(self):
        """The copy a bundle carries imports from itself, with nothing of this tree."""
        with tempfile.TemporaryDirectory() as d:
            out = copy_package(d)
            self.assertFalse(any("__pycache__" in dirs for _, dirs, _ in os.walk(out)))
            code = ("import glcdiff, glcdiff.runners.run_gpu, glcdiff.oracles.interp; "
                    "print(glcdiff.__file__)")
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            p = subprocess.run([sys.executable, "-c", code], cwd=d, env=env,
                               capture_output=True, text=True, check=True)
            self.assertEqual(p.stdout.strip(), os.path.join(out, "__init__.py"))


if __name__ == "__main__":
    unittest.main()
