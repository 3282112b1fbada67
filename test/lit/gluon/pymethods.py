# Python's list, dict, str and int methods and its iteration builtins in
# compile-time functions; a list or dict is one object that every name
# bound to it sees change. Each expectation is a static_assert.
# RUN: %glc %s -n check -s "*i32" --emit=ir | FileCheck %s
# CHECK: kernel check(
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.constexpr_function
def lists():
    a = [3, 1]
    alias = a
    alias.append(4)
    a.extend((1, 5))
    a.insert(0, 9)
    last = a.pop()
    first = a.pop(0)
    a.reverse()
    b = a.copy()
    b.append(7)
    return [a, last, first, a.index(4), a.count(1), len(b), sorted(a), list(reversed(a))]


@gluon.constexpr_function
def dicts():
    d = {"m": 16, "n": 8}
    d.update({"n": 32, "k": 64})
    d.setdefault("k", 1)
    d.setdefault("w", 4)
    gone = d.pop("w")
    keys = [k for k, v in d.items() if v >= 32]
    return [sorted(d.values()), list(d.keys()), keys, d.get("z", 0), gone, "x".join(["a", "b", "c"])]


@gluon.constexpr_function
def iteration(xs):
    pairs = list(zip(xs, range(len(xs))))
    total = sum(i * x for i, x in enumerate(xs, 1))
    return [pairs, total, any(x > 7 for x in xs), all(x > 0 for x in xs), tuple(xs), (96).bit_length()]


@gluon.jit
def check(out):
    L: gl.constexpr = lists()
    gl.static_assert(L[0] == [1, 4, 1, 3] and L[1] == 5 and L[2] == 9)
    gl.static_assert(L[3] == 1 and L[4] == 2 and L[5] == 5)
    gl.static_assert(L[6] == [1, 1, 3, 4] and L[7] == [3, 1, 4, 1])
    D: gl.constexpr = dicts()
    gl.static_assert(D[0] == [16, 32, 64] and D[1] == ["m", "n", "k"] and D[2] == ["n", "k"])
    gl.static_assert(D[3] == 0 and D[4] == 4 and D[5] == "axbxc")
    I: gl.constexpr = iteration([4, 8, 2])
    gl.static_assert(I[0] == [(4, 0), (8, 1), (2, 2)] and I[1] == 26)
    gl.static_assert(I[2] and I[3] and I[4] == (4, 8, 2) and I[5] == 7)
    gl.store(out, I[1])
