"""What the translators of .gl files (gl2gluon.py, gl2tl.py, gl2pytl.py) read and rewrite in
the Python syntax tree of a .gl file: `gl.` attributes, glc's dtype spellings,
`gl.kernel` decorators, module constants and typed parameters.
"""
import argparse
import ast
import sys

from glcdiff.dtypes import DTYPES, SPELLINGS

GL_NAMES = ("gl", "ttgl")


def is_gl_attr(node, attr):
    """True when node is `gl.ATTR` (or `ttgl.ATTR`)."""
    return (isinstance(node, ast.Attribute) and node.attr == attr
            and isinstance(node.value, ast.Name) and node.value.id in GL_NAMES)


def dtype_of(node):
    """The canonical dtype name of `gl.<dtype>`, or None."""
    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in GL_NAMES and node.attr in SPELLINGS):
        return SPELLINGS[node.attr]
    return None


class DtypeRenamer(ast.NodeTransformer):
    """glc dtype spellings -> Gluon's (`gl.f16` -> `gl.float16`), everywhere in the tree."""

    def visit_Attribute(self, node):
        """Rename `gl.<dtype>`; leave every other attribute as it is."""
        self.generic_visit(node)
        name = dtype_of(node)
        if name is not None:
            node.attr = DTYPES[name].gluon
        return node


def kernel_warps(decorator):
    """num_warps of a `gl.kernel` decorator (4 when not given), or None if it is not one."""
    if is_gl_attr(decorator, "kernel"):
        return 4
    if isinstance(decorator, ast.Call) and is_gl_attr(decorator.func, "kernel"):
        for kw in decorator.keywords:
            if kw.arg == "num_warps":
                return ast.literal_eval(kw.value)
        return 4
    return None


def is_jit(fn):
    """True when def fn is decorated `@gl.jit` (a device function)."""
    return any(is_gl_attr(d, "jit") for d in fn.decorator_list)


def module_constant(stmt):
    """`X: gl.constexpr = E` -> `X = gl.constexpr(E)`."""
    call = ast.Call(func=ast.Attribute(value=ast.Name(id="gl", ctx=ast.Load()),
                                       attr="constexpr", ctx=ast.Load()),
                    args=[stmt.value], keywords=[])
    return ast.Assign(targets=[stmt.target], value=call, lineno=stmt.lineno)


def is_module_constant(stmt):
    """True for a module-level `X: gl.constexpr = E`."""
    return (isinstance(stmt, ast.AnnAssign) and is_gl_attr(stmt.annotation, "constexpr")
            and stmt.value is not None)


def redecorate(fn, decorator):
    """Give def fn the one decorator `NAME.jit` (decorator is NAME) and drop its type
    annotations, except `gl.constexpr` ones, and its return annotation."""
    fn.decorator_list = [ast.Attribute(value=ast.Name(id=decorator, ctx=ast.Load()),
                                       attr="jit", ctx=ast.Load())]
    fn.returns = None
    for arg in fn.args.args:
        if arg.annotation is not None and not is_gl_attr(arg.annotation, "constexpr"):
            arg.annotation = None


def translator_main(translate, doc, argv=None):
    """The command line of a .gl translator: FILE [-o OUT]; writes translate(FILE's text) to OUT
    or standard output. doc is the translator module's docstring (its first line is the help)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("-o", "--output", help="the module (default: standard output)")
    args = ap.parse_args(argv)
    with open(args.file) as f:
        src = translate(f.read())
    if args.output:
        with open(args.output, "w") as f:
            f.write(src)
    else:
        sys.stdout.write(src)
    return 0
