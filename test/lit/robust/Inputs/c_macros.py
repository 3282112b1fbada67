#!/usr/bin/env python3
"""The macros of the headers glc's generated C includes (<stddef.h>,
<stdint.h>, <stdbool.h>), as the C and C++ compilers here define them,
against glc's names check (codegen/c_names.c): every macro that is not a
reserved identifier must be refused as a kernel name (its launcher would
be macro-expanded) and renamed as a parameter name, so that the header and
the C compile as C and C++.

usage: c_macros.py OUTDIR GLC...   Prints one summary line per check.
"""
import os
import shutil
import subprocess
import sys

HEADERS = "#include <stddef.h>\n#include <stdint.h>\n#include <stdbool.h>\n"
COMPILERS = [("cc", ["-std=c99"]), ("cc", ["-std=c11"]), ("cc", ["-std=c2x"]),
             ("c++", ["-std=c++17", "-x", "c++"]), ("clang", ["-std=c2x"]),
             ("clang++", ["-std=c++17", "-x", "c++"])]
RUNTIME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..",
                       "runtime")


def macros(out):
    src = os.path.join(out, "headers.c")
    with open(src, "w") as f:
        f.write(HEADERS)
    names = set()
    for cc, flags in COMPILERS:
        if not shutil.which(cc):
            continue
        r = subprocess.run([cc] + flags + ["-dM", "-E", src], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            name = line.split()[1].split("(")[0]
            if not name.startswith("_"):
                names.add(name)
    return sorted(names)


def main():
    out, glc = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    names = macros(out)
    head = "from triton.experimental.gluon import language as gl\n"
    kernels = os.path.join(out, "kernels.gl")
    with open(kernels, "w") as f:
        f.write(head)
        for n in names:
            f.write("@gl.kernel(num_warps=4)\ndef %s(x: gl.ptr[gl.f32]):\n"
                    "    gl.store(x, 1.0)\n" % n)
    r = subprocess.run(glc + [kernels, "--emit=header", "--max-errors=0"],
                       capture_output=True, text=True)
    missed = [n for n in names if "kernel name '%s' cannot name its C launcher" % n
              not in r.stderr]
    print("kernel names: %d of %d macros refused%s" % (len(names) - len(missed), len(names),
          "; missed: " + " ".join(missed) if missed else ""))
    params = os.path.join(out, "params.gl")
    with open(params, "w") as f:
        f.write(head + "@gl.kernel(num_warps=4)\ndef k(x: gl.ptr[gl.i32], %s):\n"
                "    gl.store(x, %s)\n" % (", ".join("%s: gl.i32" % n for n in names),
                                           " + ".join(names)))
    ok = 0
    for emit, ext in (("header", "h"), ("c", "c")):
        path = os.path.join(out, "k." + ext)
        subprocess.run(glc + [params, "--emit=" + emit, "-o", path], check=True)
    checks = [(cc, flags) for cc, flags in COMPILERS if shutil.which(cc)]
    for cc, flags in checks:
        r = subprocess.run([cc] + flags + ["-Wall", "-Werror", "-I" + RUNTIME, "-I" + out,
                            "-c", os.path.join(out, "k.c"), "-o", os.path.join(out, "k.o"),
                            "-include", os.path.join(out, "k.h")],
                           capture_output=True, text=True)
        ok += r.returncode == 0
        if r.returncode:
            print(r.stderr[:2000])
    print("parameter names: the C compiles with %d of %d compilers" % (ok, len(checks)))


if __name__ == "__main__":
    main()
