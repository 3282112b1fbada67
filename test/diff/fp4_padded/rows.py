#!/usr/bin/env python3
"""The rows of a gluon_tutorials.list (bench/gluon_tutorials.sh's format) that
run fp4pad.py's kernel, NVMMASharedLayout(fp4_padded=True) buffers written and
read from registers and dumped whole, through glc and through Triton 3.6:
swizzles 0, 32, 64 and 128, transposed or not, six shapes, the dump of the
elements' bytes or of twice as many (the padding); and buffer 1 of a rank-3
one read back through its permuted view. Shapes whose contiguous dim
holds fewer fp4 values than a swizzle row has bytes are left out: Triton
("Block shape is too small") and glc both refuse them.

    python3 test/diff/fp4_padded/rows.py > /tmp/fp4.list
    GLUON_LIST=/tmp/fp4.list RUNS=1 sh bench/gluon_tutorials.sh test/diff/fp4_padded build/glc gpu-run/fp4
    # on the GPU machine:
    python3 gpu-run/fp4/gluon_tutorials_run.py gpu-run/fp4 test/diff/fp4_padded

Standard library only.
"""
import itertools
import json

SHAPES = [(16, 64), (64, 32), (32, 128), (128, 16), (8, 256), (256, 8)]


def row(kernel, r, c, dump, consts):
    """One list row: x random bytes of an [r, c] buffer, outputs of r * c and
    dump bytes, the constexprs after the three pointers."""
    out = [{"tensor": [n], "dtype": "uint8", "fill": "empty", "out": True} for n in (r * c, dump)]
    return json.dumps({
        "file": "fp4pad.py", "commit": "glc", "kernel": kernel,
        "signature": "*u8, *u8, *u8, " + ", ".join(consts), "num_warps": 4, "grid": [1],
        "args": [{"tensor": [r * c], "dtype": "uint8", "fill": "randint"}] + out
        + [{"constexpr": v} for v in consts],
        "check": "exact"})


def main():
    print("# fp4_padded buffers: glc against Triton 3.6 (test/diff/fp4_padded/rows.py)")
    for sw, t, (r, c) in itertools.product([0, 32, 64, 128], [False, True], SHAPES):
        if 2 * (r if t else c) < sw:
            continue
        for n in (r * c, 2 * r * c):
            print(row("fp4pad_kernel", r, c, n, [str(sw), str(t), str(r), str(c), str(n)]))
    for sw, t, (r, c) in itertools.product([32, 64, 128], [False, True], SHAPES[:4]):
        if 2 * (r if t else c) >= sw:
            print(row("fp4pad_views_kernel", r, c, r * c, [str(sw), str(t), str(r), str(c)]))


if __name__ == "__main__":
    main()
