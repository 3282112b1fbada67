#!/usr/bin/env python3
"""Seeds for fuzz_gluon: each Gluon test file (.py) once per kernel its RUN
lines compile (`-n NAME -s SIG...`), with the header line that
test/fuzz/fuzz_gluon.c reads (`# fuzz: NAME | SIG | ...`) on top; a file
without such a RUN line as it is.

usage: gluon_seeds.py OUTDIR FILE.py...
"""
import os
import re
import shlex
import sys


def kernels(text):
    """(name, [signatures]) for each distinct -n of the RUN lines."""
    seen = {}
    for line in text.splitlines():
        m = re.match(r"#\s*RUN:(.*)", line)
        if not m:
            continue
        try:
            args = shlex.split(m.group(1))
        except ValueError:
            continue
        name, sigs = None, []
        for i, a in enumerate(args[:-1]):
            if a in ("-n", "--kernel-name"):
                name = args[i + 1]
            elif a in ("-s", "--signature"):
                sigs.append(args[i + 1])
        if name and sigs and name not in seen:
            seen[name] = sigs[:4]
    return list(seen.items())


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        base = path.replace("/", "_")
        found = kernels(text)
        if not found:
            found = [(None, None)]
        for i, (name, sigs) in enumerate(found):
            head = "# fuzz: %s | %s\n" % (name, " | ".join(sigs)) if name else ""
            with open(os.path.join(out, "%s.%d.py" % (base, i)), "w") as f:
                f.write(head + text)


if __name__ == "__main__":
    main()
