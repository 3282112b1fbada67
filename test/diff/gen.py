"""Write random .gl kernels and their manifests.

A command-line entry point: runs glcdiff.gen.generate.main (its docstring and --help
say how)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glcdiff.gen.generate import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
