#!/bin/sh
# run_gpu.sh [run_gpu.py options]: the GPU half of the differential tester, run
# on the GPU machine in a bundle made by bundle.py. Unpacks the kernel objects,
# builds libglrt from the bundled sources and one work/libNAME.so per object
# (kernels + libglrt) with gcc, then runs run_gpu.py (see its header). Its
# summary line `N kernels, N agree, N disagree, N errors` comes last.
set -eu
D=$(cd "$(dirname "$0")" && pwd)
W=$D/work
mkdir -p "$W"
tar xJf "$D/objects.tar.xz" -C "$D/kernels"
CFLAGS="-std=c11 -D_GNU_SOURCE -O2 -fPIC -I$D/runtime"
for f in "$D"/runtime/*.c; do
	gcc $CFLAGS -c "$f" -o "$W/rt_$(basename "$f" .c).o"
done
export W
ls "$D"/kernels/*.o | xargs -P "$(nproc)" -I{} sh -c \
	'gcc -shared -o "$W/lib$(basename {} .o).so" {} "$W"/rt_*.o -ldl -pthread'
echo "built $(ls "$W"/lib*.so | wc -l) kernel libraries"
exec python3 "$D/run_gpu.py" "$D" "$@"
