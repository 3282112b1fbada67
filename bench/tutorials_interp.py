"""Runs the rows of a tutorial list (bench/triton_tutorials.list's form) under Triton 3.6's
interpreter, without a GPU or torch: a check that each row is a launch Triton accepts
(signature, arguments, grid) and of what the kernel computes on the row's inputs.

    TRITON_INTERPRET=1 /opt/tv/bin/python bench/tutorials_interp.py LIST TUTDIR [--only N ...]

Inputs are numpy arrays filled as gluon_tutorials_run.py fills them (same kinds, numpy's
generator), handed to the interpreter through test/tl/interp_launch.py's Ptr; outputs start
as 0xFF bytes. Rows with a numpy reference (REFS: all of
bench/triton_tutorials.list's kernels) have their outputs compared with it (|triton -
numpy| within the row's atol, default 1e-2, plus 1e-2 relative); the others print each
output's share of finite values. Prints one line per row and last
`N rows, N agree, N differ, N errors`.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "tl"))
import interp_launch as il  # noqa: E402  (sets TRITON_INTERPRET and patches triton first)
import numpy as np  # noqa: E402
import gluon_tutorials_run as run  # noqa: E402

NP = {"float16": np.float16, "float32": np.float32, "int32": np.int32, "int64": np.int64}
TY = {"float16": "fp16", "float32": "fp32", "int32": "i32", "int64": "i64"}


def make_array(spec, rng):
    shape, dt, fill = spec["tensor"], NP[spec["dtype"]], spec["fill"]
    if fill == "empty":
        return np.full(shape, 0xFF, np.uint8).view(dt) if dt().itemsize == 1 else \
            np.frombuffer(b"\xff" * (int(np.prod(shape)) * dt().itemsize), dt).reshape(shape).copy()
    if fill == "values":
        return np.array(spec["values"], dt).reshape(shape)
    if fill in ("zeros", "ones"):
        return getattr(np, fill)(shape, dt)
    if fill == "randint":
        return rng.integers(0, 100, shape).astype(dt)
    a = rng.random(shape) if fill == "rand" else rng.standard_normal(shape)
    if fill == "randn_nonzero":
        a[a == 0] = 1.0
    return a.astype(dt)


def make_args(ns, row, seed):
    """(the interpreter's arguments, {index: array} of every tensor argument, arrays to keep)."""
    rng = np.random.default_rng(seed)
    args, arrays, keep = [], {}, []
    for i, a in enumerate(row["args"]):
        if isinstance(a, int) and not isinstance(a, bool):
            args.append(a)
        elif "scalar" in a:
            args.append(a["scalar"])
        elif "constexpr" in a:
            args.append(eval(a["constexpr"], ns))
        elif "group" in a:
            parts = [make_array(s, rng) for s in a["group"]]
            keep.extend(parts)
            table = np.array([p.ctypes.data for p in parts], np.int64)
            arrays[i] = parts
            keep.append(table)
            args.append(il.Ptr(table.ctypes.data, "i64"))
        elif "desc" in a:
            raise NotImplementedError("descriptor arguments")
        else:
            arr = make_array(a, rng)
            arrays[i] = arr
            args.append(il.Ptr(arr.ctypes.data, TY[a["dtype"]]))
    return args, arrays, keep


def _softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _attention(q, k, v, scale, causal):
    s = (q.astype(np.float64) @ np.swapaxes(k, -1, -2).astype(np.float64)) * scale
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v.astype(np.float64)


def _layer_norm(x, w, b, eps):
    x = x.astype(np.float64)
    mu, var = x.mean(1, keepdims=True), x.var(1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def _mm(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


def _layer_norm_bwd(t, groups):
    """Tutorial 05's dx and the partial sums of dw and db over the rows of each lock group."""
    x, dy, w = (t[k].astype(np.float64) for k in (4, 1, 5))
    mean, rstd = t[6].astype(np.float64)[:, None], t[7].astype(np.float64)[:, None]
    xhat = (x - mean) * rstd
    wdy = w * dy
    c1 = (xhat * wdy).mean(1, keepdims=True)
    c2 = wdy.mean(1, keepdims=True)
    rows = np.arange(x.shape[0]) % groups
    dw = np.stack([(dy * xhat)[rows == g].sum(0) for g in range(groups)])
    db = np.stack([dy[rows == g].sum(0) for g in range(groups)])
    return (wdy - (xhat * c1 + c2)) * rstd, dw, db


# kernel: reference(arrays, row args) -> {output argument index: expected values} for the
# rows checked against numpy
REFS = {
    "add_kernel": lambda t, a: {2: t[0].astype(np.float64) + t[1]},
    "softmax_kernel": lambda t, a: {0: _softmax(t[1].astype(np.float64))},
    "matmul_kernel": lambda t, a: {2: _mm(t[0], t[1]) if "leaky" not in str(a[-1]) else
                                   np.where(_mm(t[0], t[1]) >= 0, _mm(t[0], t[1]), 0.01 * _mm(t[0], t[1]))},
    "matmul_kernel_persistent": lambda t, a: {2: _mm(t[0], t[1])},
    "_layer_norm_fwd_fused": lambda t, a: {1: _layer_norm(t[0], t[2], t[3], a[8]["scalar"])},
    "_layer_norm_bwd_dx_fused": lambda t, a: dict(zip((0, 2, 3), _layer_norm_bwd(t, t[2].shape[0]))),
    "_layer_norm_bwd_dwdb": lambda t, a: {2: t[0].astype(np.float64).sum(0), 3: t[1].astype(np.float64).sum(0)},
    "_attn_fwd": lambda t, a: {5: _attention(t[0], t[1], t[2], a[3]["scalar"], a[-1]["constexpr"] == "3")},
    "_attn_bwd_preprocess": lambda t, a: {2: (t[0].astype(np.float64) * t[1]).sum(-1)},
    "grouped_matmul_kernel": lambda t, a: {2: [_mm(x, y) for x, y in zip(t[0], t[1])]},
    "grouped_matmul_tma_kernel": lambda t, a: {2: [_mm(x, y.T) for x, y in zip(t[0], t[1])]},
}


def check_row(ns, tree, path, i, row):
    kernel = run.kernel_object(ns, tree, path, row["kernel"])
    args, arrays, keep = make_args(ns, row, 1000 + i)
    kernel[tuple(row["grid"])](*args)
    if row["kernel"] not in REFS:
        outs = [arrays[k] for k, a in enumerate(row["args"]) if isinstance(a, dict) and a.get("out")]
        return "ran", " ".join(f"{np.isfinite(o.astype(np.float64)).mean():.3f}" for o in outs) + " finite"
    worst, pairs = 0.0, []
    for k, want in REFS[row["kernel"]](arrays, row["args"]).items():
        got = arrays[k]
        pairs += list(zip(got, want)) if isinstance(got, list) else [(got, want)]
    for g, w in pairs:
        g = g.astype(np.float64)
        tol = row.get("atol", 1e-2) + 1e-2 * np.abs(w)
        bad = ~(np.abs(g - w) <= tol)
        worst = max(worst, float(np.nanmax(np.where(np.isfinite(g), np.abs(g - w), np.inf))))
        if bad.any():
            return "differ", f"{int(bad.sum())} elements off, max |triton - numpy| {worst:.3g}"
    return "agree", f"max |triton - numpy| {worst:.3g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("list")
    ap.add_argument("tutdir")
    ap.add_argument("--only", type=int, nargs="*")
    a = ap.parse_args()
    rows = run.read_rows(a.list)
    tally = {"agree": 0, "ran": 0, "differ": 0, "error": 0}
    cache = {}
    for i, row in enumerate(rows):
        if a.only is not None and i not in a.only:
            continue
        path = os.path.join(a.tutdir, row["file"])
        try:
            ns, tree, _ = run.load_cached(cache, path)
            outcome, detail = check_row(ns, tree, path, i, row)
        except Exception as e:
            outcome, detail = "error", f"{type(e).__name__}: {str(e).strip()[:300]}"
        tally[outcome] += 1
        print(f"{i:02d} {row['file']} {row['kernel']}: {outcome} {detail}", flush=True)
    print(f"{sum(tally.values())} rows, {tally['agree']} agree, {tally['ran']} ran without a reference, "
          f"{tally['differ']} differ, {tally['error']} errors")


if __name__ == "__main__":
    main()
