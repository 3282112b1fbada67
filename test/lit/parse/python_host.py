# Host Python in a .py file parses (classes, comprehensions, lambdas, with,
# try, f-strings, star arguments, keyword-only parameters, for-else, Python's
# bracket continuation lines); host statements become Host nodes.
# RUN: %glc %s --emit=ast | FileCheck %s
# CHECK: Comp 31:13 list
# CHECK: Class 38:1 'Foo'
# CHECK: Param 40:24 '*args'
# CHECK: Param 40:36 '**kw'
# CHECK: Starred 41:26 '*'
# CHECK: value: Comp 42:18 dict
# CHECK: value: Set 43:18
# CHECK: value: Dict 44:18
# CHECK: Comp 45:22 generator
# CHECK: Host 46:9 'try'
# CHECK: Host 52:9 'with'
# CHECK: Host 54:9 'global'
# CHECK: Ellipsis 56:21
# CHECK: Param 61:23 '*'
# CHECK: value: Lambda 62:10
# CHECK: Host 66:9 'yield'
# CHECK: value: Comp 73:9 list
# CHECK: Int 79:1 2
import pytest, torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from functools import partial
from typing import Union

@triton.autotune(
    configs=[triton.Config({"XBLOCK": 2**i}, num_warps=1) for i in range(8, 14)],
    key=["xnumel"],
)
@gluon.jit
def memcpy_kernel(in_ptr, out_ptr, xnumel, XBLOCK: gl.constexpr):
    pid = gl.program_id(0)

class Foo(Base, metaclass=M):
    x: int = 3
    def __init__(self, *args, k=1, **kw):
        super().__init__(*args, **kw)
        self.d = {k: v for k, v in kw.items() if v}
        self.s = {1, 2, *args}
        self.e = {}
        self.g = sum(x * x for x in args)
        try:
            import foo
        except (ImportError, ValueError) as e:
            raise RuntimeError(f"bad {e!r:>10}") from e
        finally:
            pass
        with open("x") as f, open("y"):
            del f
        global GG
        a, *b = args
        return [*b, ...]

def grid(META):
    return (triton.cdiv(10, META["XBLOCK"]), )

def f(a, b=2, /, c=3, *, d, e=4):
    fn = lambda: memcpy(input, output)
    g = lambda x, y=2, *a, **k: x + y
    print(f"Time: {ms:.2f} ms", rb'\d', end="")
    for i in range(3):
        yield i
    else:
        pass
    while False:
        break
    else:
        pass
    x = [i for i in range(10) if i % 2 if i > 3 for j in range(i)]
    return x

if __name__ == "__main__":
    configs = [
  1,
2]
    print(f'{x["a"]}')
