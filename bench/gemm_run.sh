#!/bin/sh
# gemm_run.sh [gemm.py arguments]: on the GPU machine, in a bundle made by
# gemm_bundle.sh: builds libglrt and one shared library per kernel variant
# (kernel object + shim + libglrt), prints the SASS evidence (HGMMA,
# UTMALDG, local-memory traffic) and runs bench/gemm.py (checks, then
# timings). Logs go to $OUT when set.
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$D/work
L=${OUT:-$W}
mkdir -p "$W" "$L"
CFLAGS="-std=c11 -D_GNU_SOURCE -O2 -fPIC -I$D/runtime"
for f in "$D"/runtime/*.c; do
	gcc $CFLAGS -c "$f" -o "$W/$(basename "$f" .c).o" || exit 1
done
gcc $CFLAGS -c "$D/gemm_shim.c" -o "$W/gemm_shim.o" || exit 1
for k in "$D"/kernels/*.o; do
	n=$(basename "$k" .o)
	gcc -shared -o "$W/lib$n.so" "$k" "$W/gemm_shim.o" "$W"/error.o "$W"/driver.o \
		"$W"/module.o "$W"/launch.o "$W"/tensor_map.o "$W"/memory.o -ldl -pthread || exit 1
done
echo "== SASS (cuobjdump --dump-sass): opcode counts"
for c in "$D"/kernels/*.cubin; do
	cuobjdump --dump-sass "$c" >"$L/$(basename "$c" .cubin).sass" 2>&1
	printf '%-14s' "$(basename "$c" .cubin)"
	for op in HGMMA UTMALDG UTMASTG STS STSM LDL STL USETMAXREG SYNCS.PHASECHK; do
		printf ' %s=%s' "$op" "$(grep -c "$op" "$L/$(basename "$c" .cubin).sass")"
	done
	echo
done
echo "== ptxas -v"
grep -h "registers\|spill" "$D"/kernels/*.ptxas.txt
cat "$D/kernels/compile-times.txt"
python3 "$D/gemm.py" --libs "$W" "$@"
