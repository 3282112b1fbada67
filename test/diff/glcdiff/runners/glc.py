"""Run glc on a file and classify the outcome.

Outcomes: "ok" (exit 0), "user" (exit 1 with a `file:line:col: error:`
diagnostic and no "internal error"), "internal" (anything else: another exit
status, a signal, a crash, "internal error" in the message, invalid LLVM IR or
a ptxas rejection without a source position), "timeout".
"""
import os
import re
import subprocess

from glcdiff.translate.gl2pytl import kernel_lines

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
DEFAULT_GLC = os.path.join(ROOT, "build", "glc")
USER_DIAG = re.compile(r"^\S+:\d+:\d+: error:", re.M)


def classify(rc, text):
    """The outcome ("ok", "user" or "internal") of glc's exit status rc and
    standard error text."""
    if rc == 0:
        return "ok"
    if rc == 1 and USER_DIAG.search(text) and "internal error" not in text:
        return "user"
    return "internal"


def run(glc, path, args, timeout=120):
    """(outcome, message) of `glc PATH ARGS`; message is glc's standard error."""
    try:
        p = subprocess.run([glc, path] + list(args), capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", f"glc ran for more than {timeout} s"
    text = p.stderr
    if p.returncode < 0:
        text += f"\nglc killed by signal {-p.returncode}"
    elif classify(p.returncode, text) == "internal":
        text += f"\nglc exit status {p.returncode}"
    return classify(p.returncode, text), text


def signature(outcome, message):
    """A short key for 'fails the same way': the outcome and the first error line,
    with line numbers, numbers and names of temporary files blurred."""
    first = next((ln for ln in message.splitlines() if "error" in ln), message[:200])
    first = re.sub(r"^\S+:\d+:\d+: ", "", first)
    first = re.sub(r"/tmp/\S+", "TMP", first)
    first = re.sub(r"\d+", "N", first)
    return f"{outcome}: {first.strip()}"


def cubin(glc, path, kernel=None, timeout=60):
    """Compile PATH (or one kernel of it) to a cubin that is thrown away. A .py file
    is triton.language (gen.py --mode tl): its kernel is compiled as Triton's
    compile.py would, with the signature and warps of its `# kernel` line."""
    args = ["--emit=cubin", "-o", os.devnull]
    if path.endswith(".py"):
        with open(path) as f:
            sig, warps = kernel_lines(f.read())[kernel]
        args += ["-n", kernel, "-s", sig, "-w", str(warps)]
    elif kernel:
        args += ["--kernel", kernel]
    return run(glc, path, args, timeout)
