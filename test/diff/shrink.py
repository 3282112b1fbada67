"""Shrink a failing generated kernel to a reproducer.

A command-line entry point: runs glcdiff.runners.shrink.main (its docstring and --help
say how)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glcdiff.runners.shrink import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
