"""What needs Triton 3.6 (skipped without it; make check's Python has none): Triton
compiles the Gluon translation of generated kernels (gl and auto modes), its
interpreter runs the tl mode's kernels on numpy buffers (test/tl/interp_launch.py),
and the oracle's triton.language translation (that needs torch too)."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

from glcdiff.gen import generate

HAVE_TRITON = importlib.util.find_spec("triton") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None


@unittest.skipUnless(HAVE_TRITON, "needs triton 3.6")
class GluonCompiles(unittest.TestCase):
    def test_generated_kernels(self):
        from glcdiff.runners import gluon_compile
        with tempfile.TemporaryDirectory() as d:
            path, = generate.generate_files(11, 0, 3, 3, d)
            n, failures = gluon_compile.check_file(path, d)
        self.assertEqual((n, failures), (3, []))

    def test_auto_mode(self):
        from glcdiff.runners import gluon_compile
        with tempfile.TemporaryDirectory() as d:
            path, = generate.generate_files(12, 0, 3, 3, d, "auto")
            n, failures = gluon_compile.check_file(path, d)
        self.assertEqual((n, failures), (3, []))


LAUNCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tl",
                      "interp_launch.py")
RUN_TL = """
import importlib.util, json, sys
import numpy as np
spec = importlib.util.spec_from_file_location("interp_launch", sys.argv[1])
il = importlib.util.module_from_spec(spec)
spec.loader.exec_module(il)
NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_, "i8": np.int8,
      "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u16": np.uint16,
      "u32": np.uint32, "u64": np.uint64, "bf16": np.uint16, "f8e4m3": np.uint8,
      "f8e5m2": np.uint8}
for man in json.load(open(sys.argv[2][:-3] + ".json")):
    rng, bufs, args = np.random.default_rng(man["index"]), [], []
    for p in man["params"]:
        if p["role"] == "scalar":
            args.append(p["value"])
            continue
        a = np.zeros(p["numel"], NP[p["dtype"]])
        if p["role"] == "in" and NP[p["dtype"]] is not np.uint8 and p["dtype"] != "bf16":
            k = rng.integers(round(p["lo"] / p["q"]), round(p["hi"] / p["q"]) + 1, p["numel"])
            a = (k * p["q"]).astype(NP[p["dtype"]])
        bufs.append(a)
        args.append(a.ctypes.data)
    try:
        il.launch(sys.argv[2], man["name"], *man["grid"], args)
        print("ran", man["name"])
    except Exception as e:
        print("failed", man["name"], repr(e).splitlines()[0][:300])
"""


@unittest.skipUnless(HAVE_TRITON, "needs triton 3.6")
class TlInterpreter(unittest.TestCase):
    def test_tl_kernels_run(self):
        """Every tl kernel runs, except where the interpreter itself has no bf16
        constants (oracles/interp_fixes.py supplies them under torch)."""
        with tempfile.TemporaryDirectory() as d:
            path, = generate.generate_files(1, 0, 8, 8, d, "tl")
            out = subprocess.run([sys.executable, "-c", RUN_TL, LAUNCH, path], cwd=d,
                                 capture_output=True, text=True, check=True).stdout
        lines = out.splitlines()
        self.assertEqual(len(lines), 8, out)
        ran = [ln for ln in lines if ln.startswith("ran ")]
        self.assertGreaterEqual(len(ran), 6, out)
        for ln in lines:
            if not ln.startswith("ran "):
                self.assertIn("bf16", ln)


@unittest.skipUnless(HAVE_TRITON and HAVE_TORCH, "needs triton 3.6 and torch")
class Interpreter(unittest.TestCase):
    def test_generated_kernels_run(self):
        from glcdiff.oracles import interp
        with tempfile.TemporaryDirectory() as d:
            path, = generate.generate_files(11, 0, 3, 3, d)
            scratch = os.path.join(d, "scratch")
            os.makedirs(scratch)
            n, failures = interp.check_file(path, scratch)
        self.assertEqual((n, failures), (3, []))


if __name__ == "__main__":
    unittest.main()
