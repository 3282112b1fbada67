# lit configuration for glc's golden tests (tokens, AST, typed program,
# diagnostics, layouts, IR). The glc under test comes from $GLC (check.sh sets
# it to the normal build, then to the ASan+UBSan build).
import os
import shutil
import lit.formats

config.name = "glc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".gl", ".test", ".py", ".ir"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
glc = os.environ.get("GLC", os.path.join(root, "build", "glc"))
llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")

# $GLC_FLAGS go with every glc command (check.sh passes --verify-each for the
# ASan+UBSan build: the IR verifier after every pass).
glc_flags = os.environ.get("GLC_FLAGS", "")
config.substitutions.append(("%glc", (glc + " " + glc_flags).strip()))
# %bound CMD...: CMD under a time and memory bound (see bound.sh).
config.substitutions.append(("%bound", "sh " + os.path.join(config.test_source_root, "bound.sh")))
config.substitutions.append(("%examples", os.path.join(root, "examples")))
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, "/usr/local/cuda/bin", config.environment.get("PATH", os.environ.get("PATH", ""))])
# The compile cache: a folder of this run's own (emptied at the start), so
# that no test sees a cache another run filled.
cache = os.path.join(os.path.dirname(__file__), "Output", "glc-cache")
shutil.rmtree(cache, ignore_errors=True)
config.environment["GLC_CACHE_DIR"] = cache
# `REQUIRES: asan` for tests whose failure only the sanitizers show.
if os.environ.get("GLC_ASAN"):
    config.available_features.add("asan")
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "HOME", "GLC_ASAN"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
