#!/usr/bin/env python3
"""Writes the deeply nested inputs of nesting_limits.test into OUTDIR:
blocks.ir (257 nested ifs in IR), inlined.gl (three functions of 90 nested
ifs calling each other: 270 blocks deep once inlined), indent.gl (101
levels of indentation), lists.gl (2001 nested list displays), and
ok.gl/ok.ir at the limits (100 levels of indentation, 256 blocks of IR).
usage: nesting.py OUTDIR"""
import os
import sys

HEAD = "from triton.experimental.gluon import language as gl\n\n"


def ifs(depth, body, indent=4):
    lines = [" " * (indent + i) + "if n > %d:" % i for i in range(depth)]
    return "\n".join(lines + [" " * (indent + depth) + body]) + "\n"


def ir_blocks(depth):
    s = ["kernel k(x: ptr<i32>, n: i32) num_warps=4 total_warps=4 smem=0 {",
         "  %0 = param x : ptr<i32>", "  %1 = param n : i32", "  %2 = const 0 : i32",
         "  %3 = gt %1, %2 : i1"]
    s += ["if %3 {"] * depth + ["store %0, %1"] + ["}"] * depth + ["}"]
    return "\n".join(s) + "\n"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    files = {
        "blocks.ir": ir_blocks(257),
        "ok.ir": ir_blocks(256),
        "inlined.gl": HEAD + "@gl.jit\ndef h(x, n):\n" + ifs(90, "gl.store(x, n)") +
        "\n@gl.jit\ndef g(x, n):\n" + ifs(90, "h(x, n)") +
        "\n@gl.kernel(num_warps=4)\ndef k(x: gl.ptr[gl.i32], n: gl.i32):\n" + ifs(90, "g(x, n)"),
        "indent.gl": HEAD + "@gl.kernel(num_warps=4)\ndef k(x: gl.ptr[gl.i32], n: gl.i32):\n" +
        ifs(100, "gl.store(x, n)"),
        "ok.gl": HEAD + "@gl.kernel(num_warps=4)\ndef k(x: gl.ptr[gl.i32], n: gl.i32):\n" +
        ifs(99, "gl.store(x, n)"),
        "lists.gl": "X = " + "[" * 2001 + "1" + "]" * 2001 + "\n",
    }
    for name, text in files.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
