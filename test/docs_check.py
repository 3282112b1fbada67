#!/usr/bin/env python3
"""Checks that the documentation names only things that exist.

Usage: docs_check.py --glc GLC [--root DIR] [FILE.md ...]

Reads README.md, docs/*.md and the README.md files under test/ and bench/
(or the files given) and fails, one `file:line: error:` per finding, when
  - a relative markdown link points at no file;
  - a code span names a repository path (`sema/eval/calls.c`, `test/gpu/*.gl`)
    that matches no file, or a bare C or Python source name (`lower.c`) that
    no file of the tree has;
  - a code span that runs glc (`glc ...`, `build/glc ...`) uses an option
    that `glc --help` does not list;
  - a code span names `gl.NAME` (or `tl.`, `tma.`, `mbarrier.`) where NAME is
    neither a name of Triton 3.6's Gluon surface (test/coverage/surface.txt)
    nor one glc's sema spells anywhere;
and when docs/usage.md leaves out an option that `glc --help` lists, or the man page
docs/glc.1 one (its limits, --max-*=N, excepted: the page points at --help for them).
Bare names are looked up only for C sources (`.c .h .y .re`) outside code
blocks, minus the C library's and CUDA's headers and the names docs use for
what glc writes (`vector_add.h`); Python names are often Triton's or a user's.
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys

TOP_DIRS = ("bench", "codegen", "dist", "docs", "driver", "examples", "ir", "layout", "lexer",
            "package", "parser", "passes", "runtime", "sema", "support", "test", ".ci")
# Headers of the C library and CUDA, and files glc, the bundles or a user write.
NOT_OURS = {"stdio.h", "stdlib.h", "stddef.h", "stdint.h", "stdbool.h", "string.h", "cuda.h",
            "math.h", "limits.h", "dlfcn.h", "pthread.h", "vector_add.h", "gemm.h", "scale.c",
            "scale.h", "OUT.c", "OUT.h", "FILE.c", "FILE.h", "NAME.h", "NAME.c", "matmul.c",
            "matmul.h", "k.h", "main.c", "lib.h", "lib.c"}
NAMESPACES = ("gl", "tl", "tma", "mbarrier", "ttgl")
# Gluon's own submodules, named in the docs as where a name comes from.
SUBMODULES = {"_core", "_layouts", "_math", "_standard", "_semantic"}

SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./*{}-]*)" % "|".join(re.escape(d) for d in TOP_DIRS))
BARE = re.compile(r"(?<![\w./<-])([A-Za-z_][\w-]*\.(?:c|h|y|re))(?![\w/>])")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
BUILTIN = re.compile(r"(?<![\w.])(%s)\.([A-Za-z_]\w*)" % "|".join(NAMESPACES))


def help_options(glc):
    text = subprocess.run(shlex.split(glc) + ["--help"], capture_output=True, text=True).stdout
    opts = set(OPTION.findall(text))
    opts |= {"-O0", "-O1", "-O2", "-O3", "-o", "-c", "-D", "-I", "-g", "-v", "-n", "-s",
             "-w", "-on", "-MD", "-MF"}
    return text, opts


def tree_files(root):
    """The base names of the files git tracks (of all files, outside a git checkout):
    what a build or a test wrote must not make a name in the docs look real."""
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout:
        return {os.path.basename(f) for f in out.stdout.split("\n") if f}
    names = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", "build", "gpu-bundle", "gpu-run")]
        names.update(filenames)
    return names


def sema_names(root):
    words = set()
    for pat in ("sema/**/*.c", "sema/**/*.py", "sema/**/*.h"):
        for f in glob.glob(os.path.join(root, pat), recursive=True):
            text = open(f, encoding="utf-8", errors="replace").read()
            words.update(re.findall(r'"([A-Za-z_]\w*)', text))
            words.update(re.findall(r"^\s*def\s+(\w+)", text, re.M))
            words.update(re.findall(r"^(\w+)\s*=", text, re.M))
    surface = os.path.join(root, "test/coverage/surface.txt")
    for line in open(surface, encoding="utf-8"):
        parts = line.split()
        if len(parts) == 2 and not line.startswith("#"):
            words.add(parts[1].split(".")[-1])
    return words


def path_exists(root, p):
    p = p.rstrip(".,:;")
    if "{" in p or not p:
        return True
    full = os.path.join(root, p)
    if "*" in p:
        return bool(glob.glob(full))
    return os.path.exists(full)


def check_file(root, md, opts, files, builtins, errors):
    rel = os.path.relpath(md, root)
    in_fence = False
    for no, line in enumerate(open(md, encoding="utf-8"), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        where = "%s:%d" % (rel, no)
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target) or target.startswith("#") or "/" not in target and "." not in target.strip("."):
                continue
            t = target.split("#")[0]
            if t and not os.path.exists(os.path.join(os.path.dirname(md), t)):
                errors.append("%s: error: link to a missing file: %s" % (where, target))
        spans = [line] if in_fence else SPAN.findall(line)
        for span in spans:
            for p in PATH.findall(span):
                if not path_exists(root, p):
                    errors.append("%s: error: no such path: %s" % (where, p))
            for b in ([] if in_fence else BARE.findall(span)):
                if b not in files and b not in NOT_OURS:
                    errors.append("%s: error: no file of the tree is named %s" % (where, b))
            words = span.split()
            runs_glc = bool(words) and words[0] in ("glc", "build/glc", "$(GLC)", "$GLC")
            if runs_glc:
                for o in OPTION.findall(span):
                    if o.split("=")[0] not in opts:
                        errors.append("%s: error: glc has no option %s" % (where, o))
            for ns, name in BUILTIN.findall(span):
                if name not in builtins and name not in SUBMODULES:
                    errors.append("%s: error: %s.%s is neither Gluon's nor glc's" % (where, ns, name))


def man_page_missing(root, help_text):
    """Every option of `glc --help` but its limits must be in docs/glc.1."""
    man = os.path.join(root, "docs/glc.1")
    if not os.path.exists(man):
        return ["docs/glc.1: error: the man page is missing"]
    text = re.sub(r"\\f[BIRP]", "", open(man, encoding="utf-8").read()).replace("\\-", "-")
    head, _, tail = help_text.partition("\nLimits (")
    rest = tail.partition("\n\n")[2]
    errors = []
    for o in sorted(set(OPTION.findall(head + "\n" + rest))):
        if o.startswith("--") and re.search("[A-Z]", o):
            continue   # --max-LIMIT=N
        if not re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", text):
            errors.append("docs/glc.1: error: `glc --help` lists %s, the man page does not" % o)
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glc", required=True)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    root = a.root
    help_text, opts = help_options(a.glc)
    mds = a.files or ([os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs/*.md")))
                      + sorted(glob.glob(os.path.join(root, "test/**/README.md"), recursive=True))
                      + sorted(glob.glob(os.path.join(root, "bench/**/README.md"), recursive=True)))
    files = tree_files(root)
    builtins = sema_names(root)
    errors = []
    for md in mds:
        check_file(root, md, opts, files, builtins, errors)
    usage = os.path.join(root, "docs/usage.md")
    if not a.files and os.path.exists(usage):
        text = open(usage, encoding="utf-8").read()
        for o in sorted(set(OPTION.findall(help_text))):
            if o.startswith("--") and not re.search("[A-Z]", o) and o not in text:
                errors.append("docs/usage.md: error: `glc --help` lists %s, usage.md does not" % o)
    if not a.files:
        errors += man_page_missing(root, help_text)
    for e in errors:
        print(e)
    print("docs: %d files, %d errors" % (len(mds), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
