#!/usr/bin/env python3
"""Writes glc's libdevice tables from Triton 3.6's triton.language.extra.cuda
.libdevice module: sema/value/libdevice_table.c (the builtin rows, one per
function, with Triton's parameter names) and sema/builtins/libdevice_map.c
(per function, each argument-dtype combination Triton accepts, the
libdevice symbol it calls and the result dtype). Only the facts are taken:
the names, the dtypes and CUDA's libdevice symbols.

    python3 sema/builtins/gen_libdevice.py /path/to/triton/language/extra/cuda/libdevice.py
"""
import ast
import sys

SHORT = {"int32": "DT_I32", "int64": "DT_I64", "uint32": "DT_U32", "uint64": "DT_U64",
         "fp32": "DT_F32", "fp64": "DT_F64", "float32": "DT_F32", "float64": "DT_F64",
         "fp16": "DT_F16", "bf16": "DT_BF16", "int16": "DT_I16", "uint16": "DT_U16",
         "int8": "DT_I8", "uint8": "DT_U8", "int1": "DT_I1"}


def read(path):
    funcs = []
    for f in ast.parse(open(path, encoding="utf-8").read()).body:
        if not isinstance(f, ast.FunctionDef):
            continue
        params = [a.arg for a in f.args.args if a.arg != "_semantic"]
        table = next(n for n in ast.walk(f) if isinstance(n, ast.Dict))
        variants = []
        for k, v in zip(table.keys, table.values):
            args = [SHORT[e.args[0].value] for e in k.elts]
            variants.append((args, v.elts[0].value, SHORT[v.elts[1].args[0].value]))
        funcs.append((f.name, params, variants))
    return sorted(funcs)


def main():
    funcs = read(sys.argv[1])
    with open("sema/value/libdevice_table.c", "w", encoding="utf-8") as out:
        out.write("/*\n * The builtin rows of libdevice (tl.extra.cuda.libdevice, "
                  "triton.language.extra.libdevice\n * and Gluon's extra.libdevice), with "
                  "Triton 3.6's parameter names; written by\n * sema/builtins/gen_libdevice.py "
                  "(the symbols each calls are libdevice_map.c's).\n */\n")
        out.write('#include "sema/value/table.h"\n\nconst Builtin sema_libdevice_rows[] = {\n')
        for name, params, _ in funcs:
            ps = ", ".join(f'"{p}"' for p in params)
            out.write(f'\tFN("{name}", IN_LIBDEVICE, BF_LIBDEVICE, {ps}),\n')
        out.write("};\nconst size_t sema_libdevice_n_rows = "
                  "sizeof sema_libdevice_rows / sizeof *sema_libdevice_rows;\n")
    with open("sema/builtins/libdevice_map.c", "w", encoding="utf-8") as out:
        out.write("/*\n * libdevice's functions as Triton 3.6 calls them: for each function "
                  "(sorted by\n * name), every combination of argument dtypes it takes, the "
                  "libdevice symbol\n * (CUDA's libdevice.10.bc) and the result dtype; "
                  "written by\n * sema/builtins/gen_libdevice.py.\n */\n")
        out.write('#include "sema/builtins/builtins.h"\n\n#define V(n, k, a, b, c, d, r, s) '
                  '{n, k, {a, b, c, d}, r, s}\nconst LibdeviceVariant sema_libdevice_map[] = {\n')
        for name, params, variants in funcs:
            for args, sym, ret in variants:
                a = args + ["DT_VOID"] * (4 - len(args))
                out.write(f'\tV("{name}", {len(args)}, {", ".join(a)}, {ret}, "{sym}"),\n')
        out.write("};\n#undef V\nconst size_t sema_libdevice_n_map = "
                  "sizeof sema_libdevice_map / sizeof *sema_libdevice_map;\n")


if __name__ == "__main__":
    main()
