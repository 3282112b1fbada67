#!/usr/bin/env python3
"""Random PTX kernels of min/max chains, for ptxas's handling of negations
(test/diff/FOUND.md, 012; codegen/llvm/ptx_negate.c).

Each kernel f<i>(x, y) loads eight 32-bit inputs per thread, turns them into
values of the chosen type, applies 4 to 16 random operations (neg, not, abs,
min/max signed and unsigned, add/sub, add of a constant, shift), and stores
the last value (reduced to 32 bits). Built with ptxas -O3 and -O0, the two
cubins must agree on every thread (compare.c); --rewrite writes each integer
`neg` as `not` + 1, as glc does for 16 and 32 bits (64-bit ones too here).

    python3 gen.py --seed 1 --count 400 --type s32 > k.ptx
    python3 gen.py --seed 1 --count 400 --type s32 --rewrite > k_rw.ptx

Standard library only.
"""
import argparse
import random

INT_OPS = {"unary": ["neg", "neg", "not", "abs"], "minmax": ["min.s", "max.s", "min.u", "max.u"]}
F32_OPS = {"unary": ["neg.f32", "neg.f32", "abs.f32"],
           "minmax": ["min.f32", "max.f32", "min.NaN.f32", "max.NaN.f32"]}


def widen(bits, reg, raw, rnd):
    """The statement that makes value reg of the type from input word raw."""
    if bits == "f32":
        return f"cvt.rn.f32.s32 {reg}, {raw};"
    if bits == 16:
        return f"cvt.u16.u32 {reg}, {raw};"
    if bits == 64:
        return f"cvt.s64.s32 {reg}, {raw}; shl.b64 {reg}, {reg}, {rnd.choice([0, 31, 33])};"
    return f"mov.b32 {reg}, {raw};"


def operation(bits, dst, pick, rnd):
    """One random operation writing dst."""
    kind = rnd.random()
    if bits == "f32":
        if kind < 0.3:
            return f"{rnd.choice(F32_OPS['unary'])} {dst}, {pick()};"
        if kind < 0.8:
            return f"{rnd.choice(F32_OPS['minmax'])} {dst}, {pick()}, {pick()};"
        return f"{rnd.choice(['add.rn.f32', 'sub.rn.f32'])} {dst}, {pick()}, {pick()};"
    if kind < 0.25:
        op = rnd.choice(INT_OPS["unary"])
        return f"{op}.{'b' if op == 'not' else 's'}{bits} {dst}, {pick()};"
    if kind < 0.75:
        return f"{rnd.choice(INT_OPS['minmax'])}{bits} {dst}, {pick()}, {pick()};"
    if kind < 0.85:
        return f"{rnd.choice(['add', 'sub'])}.s{bits} {dst}, {pick()}, {pick()};"
    if kind < 0.92:
        return f"add.s{bits} {dst}, {pick()}, {rnd.randint(-5, 5)};"
    return f"shl.b{bits} {dst}, {pick()}, {rnd.randint(1, 3)};"


def store(bits, last):
    """Statements that store the last value as one 32-bit word."""
    if bits == 16:
        return f"cvt.u32.u16 %t1, {last}; st.global.b32 [%py], %t1;"
    if bits == 64:
        return (f"cvt.u32.u64 %t1, {last}; shr.u64 %o, {last}, 32; cvt.u32.u64 %t2, %o; "
                "xor.b32 %t1, %t1, %t2; st.global.b32 [%py], %t1;")
    return f"mov.b32 %t1, {last}; st.global.b32 [%py], %t1;"


def kernel(i, bits, rnd, rewrite):
    vals = [f"%v{n}" for n in range(8)]
    body = ["mov.u32 %t0, %tid.x; mov.u32 %t1, %ctaid.x; mov.u32 %t2, %ntid.x;",
            "mad.lo.u32 %t0, %t1, %t2, %t0;",
            "ld.param.u64 %px, [px]; ld.param.u64 %py, [py];",
            "mul.wide.u32 %o, %t0, 32; add.s64 %px, %px, %o;",
            "mul.wide.u32 %o, %t0, 4; add.s64 %py, %py, %o;",
            "ld.global.v4.b32 {%w0, %w1, %w2, %w3}, [%px];",
            "ld.global.v4.b32 {%w4, %w5, %w6, %w7}, [%px+16];"]
    body += [widen(bits, v, f"%w{n}", rnd) for n, v in enumerate(vals)]

    def pick():
        return rnd.choice(vals[-6:]) if rnd.random() < 0.7 else rnd.choice(vals)

    for _ in range(rnd.randint(4, 16)):
        dst = f"%v{len(vals)}"
        op = operation(bits, dst, pick, rnd)
        if rewrite and op.startswith("neg.s"):
            w = op.split()[0][5:]
            src = op.split(",")[1].strip(" ;")
            op = f"not.b{w} {dst}, {src}; add.s{w} {dst}, {dst}, 1;"
        body.append(op)
        vals.append(dst)
    body.append(store(bits, vals[-1]))
    vtype = ".f32" if bits == "f32" else f".b{bits}"
    head = (f".visible .entry f{i}(.param .u64 px, .param .u64 py)\n{{\n"
            f".reg .b32 %t<3>;\n.reg .b32 %w<8>;\n.reg .b64 %px, %py, %o;\n"
            f".reg {vtype} %v<{len(vals)}>;")
    return head + "\n" + "\n".join("\t" + b for b in body) + "\n\tret;\n}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--type", choices=["s16", "s32", "s64", "f32"], default="s32")
    ap.add_argument("--rewrite", action="store_true", help="integer neg as not + 1")
    a = ap.parse_args()
    bits = "f32" if a.type == "f32" else int(a.type[1:])
    rnd = random.Random(a.seed)
    print(".version 8.0\n.target sm_90a\n.address_size 64")
    for i in range(a.count):
        print(kernel(i, bits, rnd, a.rewrite))


if __name__ == "__main__":
    main()
