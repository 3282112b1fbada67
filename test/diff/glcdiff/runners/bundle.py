"""Build the GPU bundle of the differential tester (on this machine: it has LLVM).

    python3 bundle.py --seed S --count N [--start I] [--per-file K] [--glc build/glc] --out DIR
                      [--mode gl|erased|auto|mix] [--add]

Generates kernels I .. I+N-1 of seed S (gen.py), compiles each file with glc into
an object and a header (a kernel glc cannot compile is dropped from its file
and listed in DIR/skipped.txt with glc's message), translates each file to
Gluon (gl2gluon.py; its signature must list the manifest's parameters; a
kernel written with its layouts erased is translated from its gl twin, which
Triton 3.6 can compile: glcdiff/gen/erase.py),
checks that a C file including every header compiles against glrt.h, and
copies libglrt's sources, the glcdiff package and its GPU-side entry points
(run_gpu.sh, run_gpu.py and the oracle's oracle.py) next to them: the bundle
needs nothing from this tree.
The objects travel packed in DIR/objects.tar.xz. With --add, the kernels join
the bundle already in DIR (e.g. a positive control: kernels of another seed
generated with DIFF_FEATURES naming known-defect switches, which must
disagree). On the GPU machine: `sh DIR/run_gpu.sh [run_gpu.py options]`.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from glcdiff import TOOLS_DIR, copy_package
from glcdiff.gen import erase
from glcdiff.gen import generate as gen
from glcdiff.runners import glc
from glcdiff.translate.gl2gluon import translate

# the entry points beside the package that the GPU machine runs
GPU_ENTRY_POINTS = ("run_gpu.sh", "run_gpu.py", "oracle.py")

def build_file(glc_path, path, kernels, skipped, mode="gl"):
    """Compile one generated file (kernels in mode) to PATH.o / PATH.h and its Gluon
    twin to PATH.py, dropping kernels glc rejects."""
    stem = os.path.splitext(path)[0]
    while kernels:
        outcome, msg = glc.run(glc_path, path, ["-c", "-o", stem + ".o"], timeout=300)
        if outcome == "ok":
            break
        bad = {k.index for k in kernels
               if glc.cubin(glc_path, path, kernel=k.name)[0] != "ok"} or {kernels[0].index}
        for k in kernels:
            if k.index in bad:
                skipped.append(f"seed {k.seed} kernel {k.index}: {glc.signature(outcome, msg)}")
        kernels = [k for k in kernels if k.index not in bad]
        if kernels:
            gen.write_file(path, kernels, mode=mode)
    if not kernels:
        for ext in (".gl", ".json", ".o"):
            if os.path.exists(stem + ext):
                os.remove(stem + ext)
        return
    subprocess.run([glc_path, path, "--emit=header", "-o", stem + ".h"], check=True)
    src, sigs = translate(gen.file_text(kernels, mode=mode, twin=True))
    with open(stem + ".py", "w") as f:
        f.write(src)
    mans = {m.name: [p["name"] for p in m.params] for m in kernels}
    for sig in sigs:
        names = [p["name"] for p in sig["params"]]
        assert names == mans[sig["name"]], f"{path}: {sig['name']}: signature {names}"


C_TYPES = {"i32": "int32_t", "i64": "int64_t", "f32": "float"}
PROTOTYPE = re.compile(r"^(\w+)\(glrt_stream stream, unsigned grid_x, unsigned grid_y, "
                       r"unsigned grid_z,(.*?)\);", re.M | re.S)


def check_prototypes(header, manifests):
    """The launchers' C parameters are the manifest's, in order and type (what
    run_gpu.py passes through ctypes)."""
    with open(header) as f:
        protos = {m.group(1): [p.split() for p in m.group(2).split(",")]
                  for m in PROTOTYPE.finditer(f.read())}
    for man in manifests:
        want = [["glrt_devptr" if p["role"] in ("in", "out") else C_TYPES[p["dtype"]], p["name"]]
                for p in man["params"]]
        assert protos.get(man["name"]) == want, f"{header}: {man['name']}: {protos.get(man['name'])}"


def check_headers(kdir, out):
    """Every header compiles in one C file against glrt.h, and its prototypes match
the manifests."""
    c = os.path.join(out, "headers.c")
    with open(c, "w") as f:
        for h in sorted(glob.glob(os.path.join(kdir, "*.h"))):
            f.write(f'#include "{os.path.basename(h)}"\n')
        f.write("int main(void) { return 0; }\n")
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-fsyntax-only", "-I", kdir,
                    "-I", os.path.join(glc.ROOT, "runtime"), c], check=True)
    os.remove(c)
    for h in glob.glob(os.path.join(kdir, "*.h")):
        with open(h[:-2] + ".json") as f:
            check_prototypes(h, json.load(f))


def main(argv=None):
    """Command line: see the module's docstring."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--glc", default=glc.DEFAULT_GLC)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--per-file", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", required=True)
    ap.add_argument("--mode", choices=erase.MODES, default="gl",
                    help="which layouts glc is left to infer (glcdiff/gen/erase.py)")
    ap.add_argument("--add", action="store_true",
                    help="add these kernels to the bundle in OUT instead of replacing it "
                         "(another seed, or other DIFF_FEATURES)")
    args = ap.parse_args(argv)
    kdir = os.path.join(args.out, "kernels")
    packed = os.path.join(args.out, "objects.tar.xz")
    if args.add and os.path.exists(packed):
        subprocess.run(["tar", "xJf", packed, "-C", kdir], check=True)
    else:
        shutil.rmtree(args.out, ignore_errors=True)
    paths = gen.generate_files(args.seed, args.start, args.count, args.per_file, kdir,
                               args.mode)
    skipped = []
    with ThreadPoolExecutor(args.jobs) as pool:
        jobs = []
        for path in paths:
            first = int(os.path.basename(path).split("_")[2].split(".")[0])
            n = min(args.per_file, args.start + args.count - first)
            ks = [gen.kernel(args.seed, i) for i in range(first, first + n)]
            jobs.append(pool.submit(build_file, args.glc, path, ks, skipped, args.mode))
        for j in jobs:
            j.result()
    check_headers(kdir, args.out)
    with open(os.path.join(args.out, "skipped.txt"), "a") as f:
        f.write("".join(s + "\n" for s in skipped))
    objs = sorted(os.path.basename(p) for p in glob.glob(os.path.join(kdir, "*.o")))
    subprocess.run(["tar", "cJf", packed, "-C", kdir] + objs,
                   check=True, env=dict(os.environ, XZ_OPT="-T0 -6"))
    for o in objs:
        os.remove(os.path.join(kdir, o))
    rt = os.path.join(args.out, "runtime")
    os.makedirs(rt, exist_ok=True)
    for f in glob.glob(os.path.join(glc.ROOT, "runtime", "*.[ch]")):
        shutil.copy(f, rt)
    copy_package(args.out)
    for f in GPU_ENTRY_POINTS:
        shutil.copy(os.path.join(TOOLS_DIR, f), args.out)
    print(f"bundle: {args.count - len(skipped)} kernels added ({len(skipped)} skipped), "
          f"{len(objs)} objects in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
