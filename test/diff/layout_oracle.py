"""glc's linear layouts against Triton's.

A command-line entry point: runs glcdiff.oracles.layout.main (its docstring and --help
say how)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glcdiff.oracles.layout import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
