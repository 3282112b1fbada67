"""Build the GPU bundle of the differential tester.

A command-line entry point: runs glcdiff.runners.bundle.main (its docstring and --help
say how)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glcdiff.runners.bundle import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
