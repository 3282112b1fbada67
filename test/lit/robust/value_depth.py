# Compile-time values that hold themselves or nest deeper than 1000 levels
# (SEMA_MAX_VALUE_DEPTH) are walked without overflowing the stack: a list
# inside itself prints as [...] and equals itself (as in Python), two such
# lists compared are an error at the comparison, a list nested 5000 deep
# prints its first 1000 levels, and carrying one through runtime control
# flow is an error (printing and the checker's walks overflowed the stack).
# RUN: %glc %s -n k -s "*i32, i32, 0" --emit=ir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SELF
# SELF: value_depth.py:46:9: note: static_print: [1, [...]] True
# RUN: not %glc %s -n k -s "*i32, i32, 1" --emit=ir -o /dev/null 2>&1 | FileCheck %s --check-prefix=CMP
# CMP: value_depth.py:48:27: error: cannot compare values nested more than 1000 deep (does a list contain itself?)
# RUN: %glc %s -n k -s "*i32, i32, 2" --emit=ir -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEEP
# DEEP: value_depth.py:50:9: note: static_print: {{\[\[\[\[\[\[\[\[}}
# RUN: not %glc %s -n k -s "*i32, i32, 3" --emit=ir -o /dev/null 2>&1 | FileCheck %s --check-prefix=VARS
# VARS: value_depth.py:53:9: error: 'a' holds values nested more than 1000 deep (does a list contain itself?), which runtime control flow cannot carry
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.constexpr_function
def self_list():
    a = [1]
    a.append(a)
    return a


@gluon.constexpr_function
def nested(n):
    a = []
    for i in range(n):
        a = [a]
    return a


@gluon.constexpr_function
def nested_tensor_tuple(n, t):
    a = (t,)
    for i in range(n):
        a = (a,)
    return a


@gluon.jit
def k(x, n, CASE: gl.constexpr):
    if CASE == 0:
        A: gl.constexpr = self_list()
        gl.static_print(A, A == A)
    elif CASE == 1:
        B: gl.constexpr = self_list() == self_list()
    elif CASE == 2:
        gl.static_print(nested(5000))
    else:
        a = nested_tensor_tuple(2000, n)
        if n > 0:
            a = nested_tensor_tuple(2000, n + 1)
    gl.store(x, 1)
