#!/bin/sh
# gemm_bundle.sh GLC OUT: on the build machine (it has LLVM), compiles
# examples/gemm.gl (3 and 4 stages) and gemm_ws.gl for f16 and bf16 into OUT/kernels (.o, .h,
# .cubin, .ptx, ptxas -v reports, compile times .gl -> cubin), and copies
# libglrt's sources and the GEMM benchmark next to them. On the GPU machine
# OUT/gemm_run.sh builds the shared libraries, checks and times.
set -eu
GLC=$1
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$OUT"
mkdir -p "$OUT/kernels" "$OUT/runtime"
TIMES="$OUT/kernels/compile-times.txt"
# variant STEM EXAMPLE [-D ...]: gemm (3 stages), gemm_s4 (4 stages), gemm_ws.
for v in "gemm gemm" "gemm_s4 gemm -D STAGES=4" "gemm_ws gemm_ws"; do
	set -- $v
	stem=$1 ex=$2
	shift 2
	for dt in f16 bf16; do
		k="$OUT/kernels/${stem}_$dt"
		t0=$(date +%s.%N)
		"$GLC" "$ROOT/examples/$ex.gl" "$@" -D DTYPE=gl.$dt --emit=cubin -o "$k.cubin"
		t1=$(date +%s.%N)
		awk -v s="${stem}_$dt" -v a="$t0" -v b="$t1" \
			'BEGIN { printf "%-12s .gl -> cubin %6.0f ms\n", s, (b - a) * 1000 }' >>"$TIMES"
		"$GLC" "$ROOT/examples/$ex.gl" "$@" -D DTYPE=gl.$dt --emit=ptx -o "$k.ptx"
		"$GLC" "$ROOT/examples/$ex.gl" "$@" -D DTYPE=gl.$dt -c -o "$k.o"
		"$GLC" "$ROOT/examples/$ex.gl" "$@" -D DTYPE=gl.$dt --emit=header -o "$k.h"
		ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1 ||
			/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1
	done
done
cp "$ROOT"/runtime/*.c "$ROOT"/runtime/*.h "$OUT/runtime/"
cp "$ROOT"/bench/gemm.py "$ROOT"/bench/gemm_shim.c "$ROOT"/bench/gemm_run.sh "$OUT/"
chmod +x "$OUT/gemm_run.sh"
cat "$TIMES"
