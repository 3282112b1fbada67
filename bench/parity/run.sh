#!/bin/sh
# run.sh [parity_gpu.py options]: the GPU half of the code-parity harness, in a folder made by
# `bench/parity/parity.py --bundle DIR`. Unpacks glc's objects (U.o: CUDA's ptxas; U.p128.o:
# Triton's) and Triton's kernel cache (compiled on the build machine; the JIT finds its kernels
# there or compiles them again), then runs parity_gpu.py, which links each object with libglrt
# and times every row (results in $OUT/results.json, default DIR/out).
set -eu
D=$(cd "$(dirname "$0")" && pwd)
tar xJf "$D/obj.tar.xz" -C "$D"
[ ! -f "$D/triton-cache.tar.xz" ] || [ -d "$D/triton-cache" ] || tar xJf "$D/triton-cache.tar.xz" -C "$D"
exec python3 "$D/parity_gpu.py" "$D" --out "${OUT:-$D/out}" "$@"
