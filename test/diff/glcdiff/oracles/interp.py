"""The differential tester's third opinion: kernels run by Triton's interpreter.

    python3 oracle.py --cases CASES --kernels KERNELS [--jobs J]   # settle disagreements
    python3 oracle.py --check DIR [--jobs J]                       # translation coverage

Triton's interpreter runs triton.language on numpy: no layouts, no shared memory,
no code generation, so where glc and Triton's Gluon disagree it says what the
program means (gl2tl.py translates the .gl file; tl_shim.py stands in for what
Gluon adds to triton.language). It shares Gluon's front end (promotion, casts,
the reduction and scan definitions), so it checks code generation, not
Triton's language rules.

--cases: CASES holds one NAME.pt per kernel, saved by run_gpu.py --save-cases
(the manifest, the inputs, glc's and Triton's outputs); KERNELS holds the
generated .gl files (the bundle's kernels/). Each case gets a verdict line:
  glc-right   every output of glc is the interpreter's, and some of Triton's are not
              (for "close" outputs: glc within the generator's tolerance, Triton not)
  glc-wrong   some output of glc is not the interpreter's, even within the tolerance
              the interpreter's exact math needs (the detail says which)
  agree       glc, Triton and the interpreter agree (cases saved with --save-cases all)
  no-verdict  the interpreter failed, or glc and Triton differ only within the
              interpreter's tolerance
and last `oracle: N cases, N agree, N glc-right, N glc-wrong, N no-verdict`. Exit
status 1 when any case is glc-wrong. CASES is a folder of NAME.pt files or the
cases.tar run_gpu.py packs them into.
--check: every generated kernel of DIR (.gl or, in the tl mode, .py + .json as
gen.py writes them, e.g. a gen.py -o folder) must translate and run under the interpreter on random
inputs (torch, CPU); last line `oracle: N kernels, N ran, N failed`.
Needs torch and triton 3.6 (e.g. a venv with triton==3.6.0; no GPU).
"""
import os
os.environ["TRITON_INTERPRET"] = "1"   # before triton is imported anywhere

import argparse   # noqa: E402
import importlib.util   # noqa: E402
import json   # noqa: E402
import sys   # noqa: E402
from concurrent.futures import ProcessPoolExecutor   # noqa: E402



from glcdiff.dtypes import DTYPES   # noqa: E402
from glcdiff.translate.gl2tl import translate   # noqa: E402


def _module(gl_path, scratch):
    """The translated module of a generated .gl file (written into scratch), or the
    module of a generated .py file (gen.py --mode tl: triton.language already)."""
    stem = os.path.splitext(os.path.basename(gl_path))[0]
    py = gl_path if gl_path.endswith(".py") else os.path.join(scratch, stem + "_tl.py")
    if not os.path.exists(py):
        with open(gl_path) as f:
            src = translate(f.read())
        with open(py + f".{os.getpid()}", "w") as f:
            f.write(src)
        os.replace(py + f".{os.getpid()}", py)   # other workers may read it now
    spec = importlib.util.spec_from_file_location(stem + "_tl", py)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _failure(e):
    """One line for an exception raised inside an interpreted kernel."""
    import traceback
    where = next((f"{os.path.basename(t.filename)}:{t.lineno}"
                  for t in reversed(traceback.extract_tb(e.__traceback__))
                  if t.filename.endswith("_tl.py")
                  or os.path.basename(t.filename).startswith("diff_")), "?")
    text = str(e).strip().splitlines()
    return f"{where}: {type(e).__name__}: {text[-1][:300] if text else ''}"


def interpret(torch, module, man, inputs):
    """The interpreter's outputs {name: tensor} for kernel man on inputs {name: tensor}."""
    from glcdiff.runners.run_gpu import poisoned
    args, outs = [], {}
    for p in man["params"]:
        if p["role"] == "in":
            args.append(inputs[p["name"]].clone())
        elif p["role"] == "out":
            outs[p["name"]] = poisoned(torch, p, "cpu")
            args.append(outs[p["name"]])
        else:
            args.append(p["value"])
    import triton
    from glcdiff.oracles import interp_fixes
    interp_fixes.apply()
    triton.knobs.compilation.front_end_debugging = True   # raise the kernel's own exception
    getattr(module, man["name"])[tuple(man["grid"])](*args)
    return outs


def _against_interpreter(torch, p, got, want, label, loose=True):
    """run_gpu.compare of a compiler's output with the interpreter's, where the
    interpreter is no model of the GPU: numpy's min/max order -0.0 and +0.0 by
    argument position (PTX's min/max put -0.0 first), so zeros compare equal;
    and exp, log, sqrt and division are numpy's correctly rounded ones, not
    the GPU's approximations (2 ulp of f32, grown by later cancellation), so a
    "close" output may differ by 2^-19 relative to itself or to its largest
    magnitude (when loose; else the generator's own tolerance)."""
    from glcdiff.runners.run_gpu import compare
    if DTYPES[p["dtype"]].kind == "float":
        zero = torch.zeros((), dtype=got.dtype)
        got, want = (torch.where(t == 0, zero, t) if t.dtype.itemsize > 1 else t
                     for t in (got, want))
    if p["mode"] == "close" and loose:
        finite = want.double()[torch.isfinite(want.double())]
        scale = finite.abs().max().item() if finite.numel() else 0.0
        p = dict(p, rtol=max(p["rtol"], 2.0 ** -19), atol=max(p["atol"], 2.0 ** -19 * scale))
    return compare(torch, p, got, want, "interp", label)


def settle(case_path, kernels, scratch):
    """(verdict, name, detail) for one saved case."""
    import torch
    from glcdiff.runners.run_gpu import compare
    case = torch.load(case_path)
    man = case["man"]
    try:
        module = _module(os.path.join(kernels, case["file"] + ".gl"), scratch)
        want = interpret(torch, module, man, case["inputs"])
    except Exception as e:
        return "no-verdict", man["name"], "interpreter: " + _failure(e)
    glc_bad, tri_bad = [], []
    for p in man["params"]:
        if p["role"] != "out":
            continue
        got, tri, ref = case["glc"][p["name"]], case["triton"][p["name"]], want[p["name"]]
        d = _against_interpreter(torch, p, got, ref, "glc")
        glc_bad += [d] if d else []
        strict = _against_interpreter(torch, p, tri, ref, "triton", loose=False)
        if strict and not _against_interpreter(torch, p, got, ref, "glc", loose=False):
            tri_bad.append(strict)
    if glc_bad:
        return "glc-wrong", man["name"], "; ".join(glc_bad)
    if tri_bad:
        return "glc-right", man["name"], "triton: " + "; ".join(tri_bad)
    same = all(not compare(torch, p, case["glc"][p["name"]], case["triton"][p["name"]])
               for p in man["params"] if p["role"] == "out")
    if same:
        return "agree", man["name"], "glc, Triton and the interpreter agree on every output"
    return "no-verdict", man["name"], ("glc and Triton differ within the tolerance the "
                                       "interpreter's exact math needs")


def check_file(gl_path, scratch):
    """(kernels, failures) for one generated file, on random CPU inputs."""
    import torch
    from glcdiff.runners.run_gpu import make_input
    with open(os.path.splitext(gl_path)[0] + ".json") as f:
        mans = json.load(f)
    try:
        module = _module(gl_path, scratch)
    except Exception as e:
        return len(mans), [f"{gl_path}: translation: {type(e).__name__}: {e}"]
    failures = []
    for man in mans:
        gen = torch.Generator()
        gen.manual_seed(man["seed"] * 1_000_003 + man["index"])
        inputs = {p["name"]: make_input(torch, p, gen, "cpu")
                  for p in man["params"] if p["role"] == "in"}
        try:
            interpret(torch, module, man, inputs)
        except Exception as e:
            failures.append(f"{man['name']} ({_failure(e)})")
    return len(mans), failures


def main(argv=None):
    """Command line: see the module's docstring."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--cases", help="saved cases (run_gpu.py --save-cases)")
    mode.add_argument("--check", metavar="DIR", help="generated kernels to run once each")
    ap.add_argument("--kernels", help="the .gl files of the cases (the bundle's kernels/)")
    ap.add_argument("--scratch", default=None, help="where translations go (default: a temp dir)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    import tempfile
    scratch = args.scratch or tempfile.mkdtemp(prefix="oracle-")
    os.makedirs(scratch, exist_ok=True)
    with ProcessPoolExecutor(args.jobs) as ex:
        if args.check:
            files = sorted(os.path.join(args.check, f) for f in os.listdir(args.check)
                           if f.endswith((".gl", ".py")))
            total = failed = 0
            for n, fails in ex.map(check_file, files, [scratch] * len(files)):
                total, failed = total + n, failed + len(fails)
                for f in fails:
                    print("FAIL", f, flush=True)
            print(f"oracle: {total} kernels, {total - failed} ran, {failed} failed")
            return 1 if failed else 0
        if not args.kernels:
            ap.error("--cases needs --kernels")
        folder = args.cases
        if os.path.isfile(folder):   # run_gpu.py's cases.tar
            import tarfile
            folder = os.path.join(scratch, "cases")
            with tarfile.open(args.cases) as tar:
                tar.extractall(scratch, filter="data")
        cases = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".pt"))
        tally = {"agree": 0, "glc-right": 0, "glc-wrong": 0, "no-verdict": 0}
        n = len(cases)
        for verdict, name, detail in ex.map(settle, cases, [args.kernels] * n, [scratch] * n):
            tally[verdict] += 1
            print(f"{verdict} {name}: {detail}", flush=True)
    print(f"oracle: {len(cases)} cases, {tally['agree']} agree, {tally['glc-right']} glc-right, "
          f"{tally['glc-wrong']} glc-wrong, {tally['no-verdict']} no-verdict")
    return 1 if tally["glc-wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
