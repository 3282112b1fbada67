"""glcdiff: glc's differential tester (random kernels through glc and through Triton's
Gluon, outputs compared), as a package.

    gen/        the seeded generator of .gl kernels and their manifests, in modes that
                leave layouts to inference (erase) or write triton.language
    translate/  .gl -> Gluon (gl2gluon), .gl -> triton.language (gl2tl with tl_shim
                for the oracle, gl2pytl plain)
    oracles/    third opinions: Triton's interpreter (interp) and Triton's own layout,
                shape, CGA and bank-conflict answers (layout, shape, cga, bank)
    runners/    glc as a subprocess (glc), the CPU half (cpu_check), the GPU bundle
                (bundle, run_gpu), the reducer (shrink), Triton's compile check
                (gluon_compile)
    dtypes      the dtype table every part shares

The command-line entry points are the files beside this folder (test/diff/*.py); each
runs one module's `main`. Nothing here changes sys.path: the entry points put
test/diff on it (or run `python3 -m glcdiff.runners.cpu_check` from test/diff).
"""
import os
import shutil

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
TOOLS_DIR = os.path.dirname(PACKAGE_DIR)   # test/diff, or a GPU bundle's top folder


def copy_package(dest):
    """Copy this package into dest/glcdiff (a GPU bundle: run_gpu.py and oracle.py
    there import it), without compiled caches; returns the new folder."""
    out = os.path.join(dest, "glcdiff")
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(PACKAGE_DIR, out, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return out
