"""Runs the differential tester's own unit tests (test/diff/tests/test_*.py).

    python3 test/diff/tests/run.py [-v]

Standard library only: tests that need Triton skip when it cannot be imported.
Prints unittest's `Ran N tests` and exits 1 when one fails (make check counts them).
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))   # test/diff: the glcdiff package

if __name__ == "__main__":
    verbosity = 2 if "-v" in sys.argv[1:] else 1
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    result = unittest.TextTestRunner(verbosity=verbosity).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)
