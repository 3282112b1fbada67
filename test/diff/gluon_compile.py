"""Compile the Gluon translations with Triton, no GPU.

A command-line entry point: runs glcdiff.runners.gluon_compile.main (its docstring and --help
say how)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glcdiff.runners.gluon_compile import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
