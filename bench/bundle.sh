#!/bin/sh
# bundle.sh GLC OUT [BASE_GLC BASE_EXAMPLES]: on the build machine (it has
# LLVM), compiles the kernels the GPU benchmarks run into OUT/kernels:
#   examples/gemm.gl, gemm_ws.gl and gemm_pp.gl for f16 and bf16 as
#     VARIANT_DTYPE.o with .cubin, .ptx, the ptxas -v report and the time
#     .gl -> cubin (compile-times.txt), for bench/gemm.py;
#   examples/gemm_fp8.gl as gemm_fp8.o and gemm_fp8_precise.o (with .cubin,
#     .ptx, the ptxas -v report and the compile time), for bench/gemm_fp8.py;
#   vector_add.gl, swiglu.gl, transpose.gl, softmax.gl, reduce.gl,
#     cumsum.gl (and three more tilings of it) and histogram.gl, one object
#     each, for bench/bandwidth.py;
#   examples/attention_fwd.gl per dtype, head dim and mask as
#     attention_fwd_DTYPE_dD[_causal].o (with .cubin, .ptx, the ptxas -v
#     report and the compile time), for bench/attention.py;
#   gemv.gl and online_softmax.gl, one object each, and layernorm.gl and
#     rmsnorm.gl once per BLOCK_N (1024 ... 8192) with the launchers renamed
#     KERNEL_BLOCKN, for bench/rowwise.py;
# and copies libglrt's sources, bench/*.py, gemm_shim.c and run.sh next to
# them. With BASE_GLC and BASE_EXAMPLES (an earlier commit's glc and
# examples/, e.g. from `git archive`), that commit's GEMMs go in too as
# base_gemm, base_gemm_ws (and base_gemm_pp when that commit has
# gemm_pp.gl), so bench/gemm.py times before and after in the same rounds.
# With ANCHORS=DIR in the environment, DIR (the baseline kernels kept
# outside the project, ../shared/anchors) is copied to OUT/anchors for
# `gemm.py --anchors anchors`; OUT must then stay out of git (gpu-run/ is
# ignored).
# On the GPU machine: `sh OUT/run.sh gemm.py ARGS`, `sh OUT/run.sh
# bandwidth.py ARGS`, `sh OUT/run.sh rowwise.py ARGS` (see run.sh).
set -eu
GLC=$1
OUT=$2
BASE_GLC=${3:-}
BASE_EX=${4:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$OUT"
mkdir -p "$OUT/kernels" "$OUT/runtime"
TIMES="$OUT/kernels/compile-times.txt"
# variant: STEM GLC EXAMPLES-DIR EXAMPLE
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
	for dt in f16 bf16; do
		k="$OUT/kernels/${stem}_$dt"
		t0=$(date +%s.%N)
		"$glc" "$exdir/$ex.gl" -D DTYPE=gl.$dt --emit=cubin -o "$k.cubin"
		t1=$(date +%s.%N)
		awk -v s="${stem}_$dt" -v a="$t0" -v b="$t1" \
			'BEGIN { printf "%-14s .gl -> cubin %6.0f ms\n", s, (b - a) * 1000 }' >>"$TIMES"
		"$glc" "$exdir/$ex.gl" -D DTYPE=gl.$dt --emit=ptx -o "$k.ptx"
		"$glc" "$exdir/$ex.gl" -D DTYPE=gl.$dt -c -o "$k.o"
		ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1 ||
			/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1
	done
done
# examples/gemm_fp8.gl for bench/gemm_fp8.py: gemm_fp8 (all of K accumulated
# in the tensor cores, 128 x 128 tiles) and gemm_fp8_precise (f32 additions
# per K-tile, 128 x 64 tiles).
for v in "gemm_fp8" "gemm_fp8_precise -D IMPRECISE=128 -D BN=64"; do
	IFS=' '
	set -- $v
	k="$OUT/kernels/$1"
	shift
	t0=$(date +%s.%N)
	"$GLC" "$ROOT/examples/gemm_fp8.gl" "$@" --emit=cubin -o "$k.cubin"
	t1=$(date +%s.%N)
	awk -v s="$(basename "$k")" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%-14s .gl -> cubin %6.0f ms\n", s, (b - a) * 1000 }' >>"$TIMES"
	"$GLC" "$ROOT/examples/gemm_fp8.gl" "$@" --emit=ptx -o "$k.ptx"
	"$GLC" "$ROOT/examples/gemm_fp8.gl" "$@" -c -o "$k.o"
	ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1 ||
		/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1
done
# examples/attention_fwd.gl for bench/attention.py: one object per dtype,
# head dim and mask (bench/attention_variants.sh), the launcher renamed
# attention_fwd_DTYPE_dD[_causal] (with .cubin, .ptx, the ptxas -v report
# and the compile time).
sh "$ROOT/bench/attention_variants.sh" | while read -r name flags; do
	k="$OUT/kernels/$name"
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$GLC" "$ROOT/examples/attention_fwd.gl" $flags --emit=cubin -o "$k.cubin"
	t1=$(date +%s.%N)
	awk -v s="$name" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%-14s .gl -> cubin %6.0f ms\n", s, (b - a) * 1000 }' >>"$TIMES"
	# shellcheck disable=SC2086
	"$GLC" "$ROOT/examples/attention_fwd.gl" $flags --emit=ptx -o "$k.ptx"
	# shellcheck disable=SC2086
	"$GLC" "$ROOT/examples/attention_fwd.gl" $flags -c -o "$k.o.tmp"
	objcopy --redefine-sym "attention_fwd=$name" "$k.o.tmp" "$k.o"
	rm -f "$k.o.tmp"
	ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1 ||
		/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$k.ptx" -o /dev/null >"$k.ptxas.txt" 2>&1
done
for ex in vector_add swiglu transpose softmax reduce gemv online_softmax cumsum histogram; do
	"$GLC" "$ROOT/examples/$ex.gl" -c -o "$OUT/kernels/$ex.o"
done
for ex in layernorm rmsnorm; do
	for bn in 1024 2048 4096 8192; do
		o="$OUT/kernels/${ex}_$bn.o"
		"$GLC" "$ROOT/examples/$ex.gl" -D BLOCK_N=$bn -c -o "$o.tmp"
		objcopy --redefine-sym "${ex}_f16=${ex}_f16_$bn" --redefine-sym "${ex}_bf16=${ex}_bf16_$bn" \
			"$o.tmp" "$o"
		rm -f "$o.tmp"
	done
done
# cumsum.gl's other tilings as cumsum_VARIANT.o, the launcher renamed
# cumsum_rows_f32_VARIANT: bench/bandwidth.py autotunes over them.
for v in "b1024 -D BLOCK_N=1024" "r8 -D ROWS=8" "r8_b256 -D ROWS=8 -D BLOCK_N=256"; do
	IFS=' '
	set -- $v
	o="$OUT/kernels/cumsum_$1.o"
	name=$1
	shift
	"$GLC" "$ROOT/examples/cumsum.gl" "$@" -c -o "$o.tmp"
	objcopy --redefine-sym "cumsum_rows_f32=cumsum_rows_f32_$name" "$o.tmp" "$o"
	rm -f "$o.tmp"
done
cp "$ROOT"/runtime/*.c "$ROOT"/runtime/*.h "$OUT/runtime/"
cp "$ROOT"/bench/*.py "$ROOT"/bench/gemm_shim.c "$ROOT"/bench/run.sh "$OUT/"
if [ -n "${ANCHORS:-}" ]; then
	cp -r "$ANCHORS" "$OUT/anchors"
	chmod -R u+w "$OUT/anchors"
fi
cat "$TIMES"
