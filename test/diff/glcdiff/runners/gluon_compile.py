"""Compile translated kernels with Triton's Gluon for sm_90a, without a GPU.

    python3 gluon_compile.py FILE.gl [FILE.gl ...]

Needs a Python with triton 3.6 (not part of `make check`; a developer check that
the translations are Gluon that Triton accepts). Each kernel of each file is
translated (gl2gluon.py) and compiled with `triton.compile` for target
cuda:90; prints one line per failure and a last line `N compiled, N failed`.
"""
import importlib.util
import os
import re
import sys
import tempfile

from glcdiff.translate.gl2gluon import translate

TRITON_TYPES = {"i1": "i1", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64",
                "u8": "u8", "u16": "u16", "u32": "u32", "u64": "u64",
                "f16": "fp16", "bf16": "bf16", "f32": "fp32", "f64": "fp64",
                "f8e4m3": "fp8e4nv", "f8e5m2": "fp8e5"}


def load_module(path, name):
    """Import a translated Gluon file (Triton reads the kernels' source from it)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def triton_signature(sig, module):
    """(signature, constexprs) for GluonASTSource from a gl2gluon signature entry."""
    types, constexprs = {}, {}
    for p in sig["params"]:
        if p["kind"] == "ptr":
            types[p["name"]] = "*" + TRITON_TYPES[p["dtype"]]
        elif p["kind"] == "scalar":
            types[p["name"]] = TRITON_TYPES[p["dtype"]]
        elif p["kind"] == "constexpr":
            types[p["name"]] = "constexpr"
            constexprs[p["name"]] = eval(p["default"], vars(module))
        else:
            raise ValueError(f"{p['kind']} parameters need a GPU to build")
    return types, constexprs


def compile_kernel(module, sig):
    """Compile one kernel for sm_90a; raises whatever Triton raises."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    types, constexprs = triton_signature(sig, module)
    src = GluonASTSource(getattr(module, sig["name"]), types, constexprs=constexprs)
    return triton.compile(src, target=GPUTarget("cuda", 90, 32),
                          options={"num_warps": sig["num_warps"]})


def _isolated(fn, *args):
    """Run fn(*args) in a forked child (Triton aborts on some errors); returns
    None on success, else the error text."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        try:
            fn(*args)
            msg = b""
        except Exception as e:  # Triton's errors have many types
            msg = f"{type(e).__name__}: {e}".encode()
        os.write(wr, msg[-4000:])
        os._exit(0)
    os.close(wr)
    with os.fdopen(rd, "rb") as f:
        msg = f.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return f"Triton crashed (signal {os.WTERMSIG(status)})"
    return msg or None


def check_file(path, tmpdir):
    """[(kernel, error text)] for the kernels of one .gl file that Triton rejects."""
    with open(path) as f:
        src, sigs = translate(f.read())
    stem = os.path.splitext(os.path.basename(path))[0]
    py = os.path.join(tmpdir, stem + ".py")
    with open(py, "w") as f:
        f.write(src)
    module = load_module(py, "gl2gluon_" + stem)
    failures = []
    for sig in sigs:
        err = _isolated(compile_kernel, module, sig)
        if err:
            failures.append((sig["name"], err))
    return len(sigs), failures


def first_line(err):
    """The informative line of a Triton error: its message, not the echoed source."""
    lines = [ln.strip() for ln in err.splitlines() if ln.strip()]
    if lines and lines[0].startswith("CompilationError"):
        return lines[0] + " " + lines[-1][:300]
    for ln in lines:
        if re.search(r"(Error|error|LLVM ERROR|crashed)", ln) and not ln.startswith("^"):
            return ln[:300]
    return lines[0][:300] if lines else ""


def main(argv=None):
    """Command line: FILE.gl ... [-v]; exit status 1 when Triton rejects a kernel."""
    argv = sys.argv[1:] if argv is None else argv
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    ok = bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in argv:
            n, failures = check_file(path, tmp)
            for name, err in failures:
                print(f"{path}:{name}: {first_line(err)}")
                if verbose:
                    print("    " + "\n    ".join(err.splitlines()[-25:]))
            ok += n - len(failures)
            bad += len(failures)
    print(f"{ok} compiled, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
