"""Translate a .gl file back to Gluon Python: the inverse of docs/porting.md's edits.

    python3 gl2gluon.py FILE.gl [-o OUT.py] [--signature OUT.json]

The .gl syntax is Python's, so the file is parsed with `ast` and rewritten:
  - `@gl.kernel(num_warps=N)` / `@gl.kernel` -> `@gluon.jit` (N, default 4, is
    recorded in the signature for the launch: `k[grid](..., num_warps=N)`);
    `@gl.jit` -> `@gluon.jit`;
  - typed kernel parameters lose their type (`x: gl.ptr[gl.f16]` -> `x`), except
    `NAME: gl.constexpr = V`, which stays; return annotations are dropped;
  - module-level `X: gl.constexpr = E` -> `X = gl.constexpr(E)`;
  - glc's dtype spellings -> Gluon's (`gl.f16` -> `gl.float16`, `gl.f8e4m3` ->
    `gl.float8e4nv`, ...), on `gl.` and `ttgl.`;
  - `from triton.experimental import gluon` is added.
The signature (`--signature`) is JSON: for each kernel its name, num_warps and
parameters in order, each {"name", "kind": "ptr"|"scalar"|"constexpr"|"tensor_desc",
"dtype" (glc spelling), and for tensor_desc "block_shape"/"layout", for
constexpr "default" (source text)}.
"""
import argparse
import ast
import json
import sys

from dtypes import DTYPES, SPELLINGS

GL_NAMES = ("gl", "ttgl")
GLUON_IMPORT = "from triton.experimental import gluon"


def _is_gl_attr(node, attr):
    """True when node is `gl.ATTR` (or `ttgl.ATTR`)."""
    return (isinstance(node, ast.Attribute) and node.attr == attr
            and isinstance(node.value, ast.Name) and node.value.id in GL_NAMES)


def _dtype_of(node):
    """The canonical dtype name of `gl.<dtype>`, or None."""
    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in GL_NAMES and node.attr in SPELLINGS):
        return SPELLINGS[node.attr]
    return None


def _gluon_jit():
    return ast.Attribute(value=ast.Name(id="gluon", ctx=ast.Load()), attr="jit", ctx=ast.Load())


class _Renamer(ast.NodeTransformer):
    """glc dtype spellings -> Gluon's, everywhere in the tree."""

    def visit_Attribute(self, node):
        self.generic_visit(node)
        name = _dtype_of(node)
        if name is not None:
            node.attr = DTYPES[name].gluon
        return node


def _kernel_warps(decorator):
    """num_warps of a `gl.kernel` decorator, or None if it is not one."""
    if _is_gl_attr(decorator, "kernel"):
        return 4
    if isinstance(decorator, ast.Call) and _is_gl_attr(decorator.func, "kernel"):
        for kw in decorator.keywords:
            if kw.arg == "num_warps":
                return ast.literal_eval(kw.value)
        return 4
    return None


def _param_signature(arg, default):
    """One parameter's signature entry from its annotation (a kernel's)."""
    ann = arg.annotation
    entry = {"name": arg.arg}
    if ann is None:
        raise ValueError(f"kernel parameter {arg.arg} has no type")
    if _is_gl_attr(ann, "constexpr"):
        entry["kind"] = "constexpr"
        entry["default"] = ast.unparse(default) if default is not None else None
    elif _dtype_of(ann) is not None:
        entry.update(kind="scalar", dtype=_dtype_of(ann))
    elif isinstance(ann, ast.Subscript) and _is_gl_attr(ann.value, "ptr"):
        entry.update(kind="ptr", dtype=_dtype_of(ann.slice))
    elif isinstance(ann, ast.Subscript) and _is_gl_attr(ann.value, "tensor_desc"):
        dtype, block, layout = ann.slice.elts
        entry.update(kind="tensor_desc", dtype=_dtype_of(dtype),
                     block_shape=ast.unparse(block), layout=ast.unparse(layout))
    else:
        raise ValueError(f"kernel parameter {arg.arg}: unknown type {ast.unparse(ann)}")
    return entry


def _defaults(args):
    """Each positional parameter's default node (None where it has none)."""
    pad = len(args.args) - len(args.defaults)
    return [None] * pad + list(args.defaults)


def _translate_function(fn, signatures):
    """Rewrite one def in place; record it in signatures if it is a kernel."""
    warps = None
    for dec in fn.decorator_list:
        warps = warps or _kernel_warps(dec)
    is_jit = any(_is_gl_attr(d, "jit") for d in fn.decorator_list)
    if warps is None and not is_jit:
        return
    if warps is not None:
        params = [_param_signature(a, d) for a, d in zip(fn.args.args, _defaults(fn.args))]
        signatures.append({"name": fn.name, "num_warps": warps, "params": params})
    fn.decorator_list = [_gluon_jit()]
    fn.returns = None
    for arg in fn.args.args:
        if arg.annotation is not None and not _is_gl_attr(arg.annotation, "constexpr"):
            arg.annotation = None


def _module_constant(stmt):
    """`X: gl.constexpr = E` -> `X = gl.constexpr(E)`."""
    call = ast.Call(func=ast.Attribute(value=ast.Name(id="gl", ctx=ast.Load()),
                                       attr="constexpr", ctx=ast.Load()),
                    args=[stmt.value], keywords=[])
    return ast.Assign(targets=[stmt.target], value=call, lineno=stmt.lineno)


def translate(source):
    """(Gluon Python source, signature list) for the .gl source text."""
    tree = ast.parse(source)
    signatures = []
    body = []
    for stmt in tree.body:
        if (isinstance(stmt, ast.AnnAssign) and _is_gl_attr(stmt.annotation, "constexpr")
                and stmt.value is not None):
            stmt = _module_constant(stmt)
        elif isinstance(stmt, ast.FunctionDef):
            _translate_function(stmt, signatures)
        body.append(stmt)
    tree.body = [ast.parse(GLUON_IMPORT).body[0]] + body
    tree = ast.fix_missing_locations(_Renamer().visit(tree))
    header = "# Generated by test/diff/gl2gluon.py from a .gl file; do not edit.\n"
    return header + ast.unparse(tree) + "\n", signatures


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("-o", "--output", help="the Gluon module (default: standard output)")
    ap.add_argument("--signature", help="write the kernels' signatures as JSON here")
    args = ap.parse_args(argv)
    with open(args.file) as f:
        src, sigs = translate(f.read())
    if args.output:
        with open(args.output, "w") as f:
            f.write(src)
    else:
        sys.stdout.write(src)
    if args.signature:
        with open(args.signature, "w") as f:
            json.dump(sigs, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
