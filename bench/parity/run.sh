#!/bin/sh
# run.sh [parity_gpu.py options]: the GPU half of the code-parity harness, in a folder made by
# `bench/parity/parity.py --bundle DIR`. Unpacks the glc objects and Triton's kernel cache (compiled
# on the build machine; the JIT finds them there or compiles again), builds libglrt from the bundled
# sources and one work/libU.so per glc object (obj/U.o: CUDA's ptxas; obj/U.p128.o: Triton's) with
# gcc, then times every row (parity_gpu.py; results in $OUT/results.json, default DIR/out).
set -eu
D=$(cd "$(dirname "$0")" && pwd)
W=$D/work
mkdir -p "$W"
tar xJf "$D/obj.tar.xz" -C "$D"
[ ! -f "$D/triton-cache.tar.xz" ] || [ -d "$D/triton-cache" ] || tar xJf "$D/triton-cache.tar.xz" -C "$D"
CFLAGS="-std=c11 -D_GNU_SOURCE -O2 -fPIC -I$D/runtime"
for f in "$D"/runtime/*.c; do
	gcc $CFLAGS -c "$f" -o "$W/rt_$(basename "$f" .c).o"
done
export W
ls "$D"/obj/*.o | xargs -P "$(nproc)" -I{} sh -c \
	'gcc -shared -o "$W/lib$(basename {} .o).so" {} "$W"/rt_*.o -ldl -pthread'
echo "built $(ls "$W"/lib*.so | wc -l) kernel libraries"
exec python3 "$D/parity_gpu.py" "$D" --out "${OUT:-$D/out}" "$@"
