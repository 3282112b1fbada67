"""What needs Triton 3.6 (skipped without it; make check's Python has none): Triton
compiles the Gluon translation of generated kernels, and runs their triton.language
translation in its interpreter (that needs torch too)."""
import importlib.util
import os
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
