#!/bin/sh
# gemm_bundle.sh GLC OUT [BASE_GLC BASE_EXAMPLES]: on the build machine (it
# has LLVM), compiles examples/gemm.gl, gemm_ws.gl and gemm_pp.gl for f16
# and bf16 into
# OUT/kernels (.o, .h, .cubin, .ptx, ptxas -v reports, compile times .gl ->
# cubin), and copies libglrt's sources and the GEMM benchmark next to them.
# With BASE_GLC and BASE_EXAMPLES (an earlier commit's glc and examples/,
# e.g. from `git archive`), that commit's kernels go in too as base_gemm and
# base_gemm_ws (and base_gemm_pp when that commit has gemm_pp.gl), so
# bench/gemm.py times before and after in the same rounds.
# On the GPU machine OUT/gemm_run.sh builds the shared libraries, checks and
# times.
set -eu
GLC=$1
OUT=$2
BASE_GLC=${3:-}
BASE_EX=${4:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$OUT"
mkdir -p "$OUT/kernels" "$OUT/runtime"
TIMES="$OUT/kernels/compile-times.txt"
# variant: STEM GLC EXAMPLES-DIR EXAMPLE [-D NAME=VALUE ...]
variants="gemm $GLC $ROOT/examples gemm|gemm_ws $GLC $ROOT/examples gemm_ws"
variants="$variants|gemm_pp $GLC $ROOT/examples gemm_pp"
[ -n "$BASE_GLC" ] && variants="$variants|base_gemm $BASE_GLC $BASE_EX gemm|base_gemm_ws $BASE_GLC $BASE_EX gemm_ws"
[ -n "$BASE_GLC" ] && [ -f "$BASE_EX/gemm_pp.gl" ] &&
	variants="$variants|base_gemm_pp $BASE_GLC $BASE_EX gemm_pp"
IFS='|'
for v in $variants; do
	IFS=' '
	set -- $v
	stem=$1 glc=$2 exdir=$3 ex=$4
	shift 4
	for dt in f16 bf16; do
		k="$OUT/kernels/${stem}_$dt"
		t0=$(date +%s.%N)
		"$glc" "$exdir/$ex.gl" -D DTYPE=gl.$dt "$@" --emit=cubin -o "$k.cubin"
		t1=$(date +%s.%N)
		awk -v s="${stem}_$dt" -v a="$t0" -v b="$t1" \
			'BEGIN { printf "%-14s .gl -> cubin %6.0f ms\n", s, (b - a) * 1000 }' >>"$TIMES"
		"$glc" "$exdir/$ex.gl" -D DTYPE=gl.$dt "$@" --emit=ptx -o "$k.ptx"
		"$glc" "$exdir/$ex.gl" -D DTYPE=gl.$dt "$@" -c -o "$k.o"
		"$glc" "$exdir/$ex.gl" -D DTYPE=gl.$dt "$@" --emit=header -o "$k.h"
		ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1 ||
			/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1
	done
done
cp "$ROOT"/runtime/*.c "$ROOT"/runtime/*.h "$OUT/runtime/"
cp "$ROOT"/bench/gemm.py "$ROOT"/bench/gemm_shim.c "$ROOT"/bench/gemm_run.sh "$OUT/"
chmod +x "$OUT/gemm_run.sh"
cat "$TIMES"
