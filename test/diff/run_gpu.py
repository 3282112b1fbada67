"""The GPU half of the differential tester (in a bundle).

A command-line entry point: runs glcdiff.runners.run_gpu.main (its docstring and --help
say how)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glcdiff.runners.run_gpu import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
