"""Translate a .gl file to plain triton.language (@triton.jit kernels).

A command-line entry point: runs glcdiff.translate.gl2pytl.main (its docstring and --help
say how)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glcdiff.translate.gl2pytl import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
