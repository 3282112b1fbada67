# One budget bounds compile-time evaluation: --max-eval-steps (statements,
# calls, items made, copied or compared) and --max-eval-bytes (what the
# arena holds since evaluation began: values, scopes, the kernels built).
# Each case asked for work or memory without end inside every earlier
# limit and now stops where the budget runs out: a list that doubles grew
# until the OS killed glc, a dict built in a loop was quadratic, a string
# that doubles, a comprehension over a huge range, sorting in a loop, a
# call tree that doubles; 1 ** N looped N times (now at once).
# RUN: not %glc %s -n k -s "*i32, 0" --max-eval-bytes=10000000 2>&1 | FileCheck %s --check-prefix=DOUBLE
# DOUBLE: eval_budget.py:38:13: error: compile-time evaluation takes more than 10000000 bytes
# DOUBLE: eval_budget.py:81:31: note: 'doubling' is called here
# DOUBLE: note: the limit on bytes allocated by compile-time evaluation and the kernels it builds is 10000000; --max-eval-bytes=N raises it
# RUN: not %glc %s -n k -s "*i32, 0" 2>&1 | FileCheck %s --check-prefix=DEFAULT
# DEFAULT: eval_budget.py:38:13: error: compile-time evaluation
# RUN: not %glc %s -n k -s "*i32, 1" 2>&1 | FileCheck %s --check-prefix=DICT
# DICT: eval_budget.py:47:9: error: compile-time evaluation does not finish within 4194304 steps (does this loop end?)
# DICT: note: the limit on steps of compile-time evaluation is 4194304; --max-eval-steps=N raises it
# RUN: not %glc %s -n k -s "*i32, 2" 2>&1 | FileCheck %s --check-prefix=RANGE
# RANGE: eval_budget.py:54:28: error: compile-time evaluation takes more than 1073741824 bytes
# RUN: not %glc %s -n k -s "*i32, 3" --max-eval-bytes=10000000 2>&1 | FileCheck %s --check-prefix=STR
# STR: eval_budget.py:61:13: error: compile-time evaluation takes more than 10000000 bytes
# RUN: %glc %s -n k -s "*i32, 4" --emit=ir | FileCheck %s --check-prefix=POW
# POW: const 0 : i32
# RUN: not %glc %s -n k -s "*i32, 5" --max-eval-steps=1000000 2>&1 | FileCheck %s --check-prefix=SORT
# SORT: eval_budget.py:69:13: error: compile-time evaluation does not finish within 1000000 steps
# RUN: not %glc %s -n k -s "*i32, 6" --max-eval-steps=100000 2>&1 | FileCheck %s --check-prefix=CALLS
# CALLS: eval_budget.py:75:5: error: compile-time evaluation does not finish within 100000 steps
# RUN: not %glc %s -n k -s "*i32, 0" --max-eval-bytes=0 2>&1 | FileCheck %s --check-prefix=ZERO
# ZERO: error: --max-eval-bytes '0': expected a number from 1 to
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.constexpr_function
def doubling():
    a = [1]
    while True:
        a = a + a
    return a


@gluon.constexpr_function
def dict_grows():
    d = {}
    i = 0
    while True:
        d[i] = i
        i += 1
    return d


@gluon.constexpr_function
def big_range():
    return len([i for i in range(1000000000)])


@gluon.constexpr_function
def string_doubling():
    s = "ab"
    for i in range(100):
        s = s + s
    return s


@gluon.constexpr_function
def sorts(n):
    a = list(range(n))
    for i in range(n):
        a = sorted(a)
    return a


@gluon.constexpr_function
def fan(n):
    return 0 if n == 0 else fan(n - 1) + fan(n - 1)


@gluon.jit
def k(x, CASE: gl.constexpr):
    if CASE == 0:
        A: gl.constexpr = len(doubling())
    elif CASE == 1:
        A: gl.constexpr = len(dict_grows())
    elif CASE == 2:
        A: gl.constexpr = big_range()
    elif CASE == 3:
        A: gl.constexpr = len(string_doubling())
    elif CASE == 4:
        A: gl.constexpr = 1 ** 100000000000000 + (-1) ** 100000000000001 + 0 ** 1000000000000
    elif CASE == 5:
        A: gl.constexpr = len(sorts(20000))
    else:
        A: gl.constexpr = fan(30)
    gl.store(x, A)
