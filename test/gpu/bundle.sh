#!/bin/sh
# bundle.sh GLC OUT: what `make gpu-bundle` runs on the build machine (it has
# LLVM, the GPU machine does not). Compiles the examples the GPU tests use,
# and the test kernels of test/gpu/*.gl, with GLC into OUT/kernels (.o, .h,
# .cubin, .ptx, and the time .gl -> cubin in compile-times.txt), then copies
# libglrt's sources, the GPU test drivers,
# the benchmarks and the host examples next to them. On the GPU machine,
# OUT/run.sh builds and runs everything.
#
# A file that glc cannot compile as a whole is retried one kernel at a time
# (EXAMPLE.KERNEL.o ...); a kernel that still fails is skipped with its first
# diagnostic, and its test reports SKIP.
set -u
GLC=$1
OUT=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
EXAMPLES="vector_add softmax reduce transpose cumsum histogram"
# GPU test kernels of test/gpu/*.gl compiled like the examples
TEST_KERNELS="scans atomics shapes fp4 tma_desc padded slices ws names auto cg_parity"

rm -rf "$OUT"
mkdir -p "$OUT/kernels" "$OUT/runtime" "$OUT/test" "$OUT/bench" "$OUT/host"
TIMES="$OUT/kernels/compile-times.txt"
printf '# glc wall time, .gl -> cubin (--emit=cubin), on %s\n' "$(uname -n)" >"$TIMES"

now() { date +%s.%N; }

# compile SRC STEM [--kernel K]: all four outputs as OUT/kernels/STEM.*;
# prints the first diagnostic line and fails if any step fails.
compile() {
	src=$1 stem=$2
	shift 2
	k="$OUT/kernels/$stem"
	t0=$(now)
	if ! "$GLC" "$src" "$@" --emit=cubin -o "$k.cubin" 2>"$k.err"; then
		echo "  skip $stem: $(head -n 1 "$k.err")"
		rm -f "$k".*
		return 1
	fi
	t1=$(now)
	"$GLC" "$src" "$@" --emit=ptx -o "$k.ptx" 2>>"$k.err" &&
		"$GLC" "$src" "$@" -c -o "$k.o" 2>>"$k.err" &&
		"$GLC" "$src" "$@" --emit=header -o "$k.h" 2>>"$k.err" || {
		echo "  skip $stem: $(head -n 1 "$k.err")"
		rm -f "$k".*
		return 1
	}
	rm -f "$k.err"
	awk -v s="$stem" -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%-36s %6.0f ms\n", s, (b - a) * 1000 }' >>"$TIMES"
	echo "  ok   $stem"
}

# renamed OBJ SYMBOL NAME SRC [FLAGS...]: SRC compiled by glc -c with FLAGS
# into OBJ, its launcher SYMBOL renamed NAME (so that one driver links
# several variants); prints ok, or skip with the first diagnostic line.
renamed() {
	o=$1 sym=$2 name=$3 src=$4
	shift 4
	if "$GLC" "$src" "$@" -c -o "$o.tmp" 2>"$o.err" &&
		objcopy --redefine-sym "$sym=$name" "$o.tmp" "$o"; then
		echo "  ok   $name"
	else
		echo "  skip $name: $(head -n 1 "$o.err")"
	fi
	rm -f "$o.tmp" "$o.err"
}

for ex in $EXAMPLES $TEST_KERNELS; do
	src="$ROOT/examples/$ex.gl"
	[ -f "$src" ] || src="$ROOT/test/gpu/$ex.gl"
	echo "$ex.gl:"
	compile "$src" "$ex" && continue
	# The kernels of the file, one at a time. Per-kernel headers share the
	# file's include guard: give each its own so a driver can include all.
	for kn in $(sed -n '/^@gl.kernel/{n;s/^def \([A-Za-z0-9_]*\).*/\1/p;}' "$src"); do
		if compile "$src" "$ex.$kn" --kernel "$kn"; then
			guard=$(echo "GLC_${ex}_H" | tr a-z A-Z)
			kguard=$(echo "GLC_${ex}_${kn}_H" | tr a-z A-Z)
			sed -i "s/\\b$guard\\b/$kguard/g" "$OUT/kernels/$ex.$kn.h"
		fi
	done
done

# The GEMMs of test_gemm.c: gemm.gl, gemm_ws.gl and gemm_pp.gl for f16 and bf16 as
# kernels/gemm.KERNEL_DTYPE.o, each launcher renamed to KERNEL_DTYPE so one
# driver links all six (no headers: the driver declares them).
echo "gemm.gl, gemm_ws.gl, gemm_pp.gl:"
for ex in gemm gemm_ws gemm_pp; do
	for dt in f16 bf16; do
		renamed "$OUT/kernels/gemm.${ex}_$dt.o" "$ex" "${ex}_$dt" "$ROOT/examples/$ex.gl" \
			-D DTYPE=gl.$dt
	done
done

# test_math.c and test_memory.c run kernels of their own (memory.gl with
# --debug, so that its device_assert stays in).
echo "test/gpu/math.gl, memory.gl:"
compile "$ROOT/test/gpu/math.gl" math
compile "$ROOT/test/gpu/memory.gl" memory --debug

# test_grid.c: test/gpu/grid.py compiled as compile.py compiles it, with a
# grid the launchers compute: an object (-c, launcher scale_rows) and the
# .c/.h pair that no -c or --emit gives (launcher scale_rows_c), which
# run.sh builds with gcc as a user would; the pair's header gets its own
# include guard so that a driver can include both.
echo "test/gpu/grid.py:"
grid() { # OUTPUT LAUNCHER [glc flags]
	o=$1 name=$2
	shift 2
	"$GLC" "$ROOT/test/gpu/grid.py" -n scale_rows -s "*fp32, *fp32, i32, i32, i32, fp32, 512" \
		-g "(n + BLOCK - 1) / BLOCK, m, 1" -on "$name" "$@" -o "$o" 2>"$o.err" &&
		echo "  ok   $name" || echo "  skip $name: $(head -n 1 "$o.err")"
	rm -f "$o.err"
}
grid "$OUT/kernels/grid.o" scale_rows -c
grid "$OUT/kernels/grid.h" scale_rows --emit=header
grid "$OUT/kernels/grid.pair.c" scale_rows_c
[ -f "$OUT/kernels/grid.pair.h" ] && sed -i 's/\bGLC_GRID_H\b/GLC_GRID_PAIR_H/g' "$OUT/kernels/grid.pair.h"

# py_kernel PY STEM KERNEL FN SIGNATURE [FLAGS...]: function FN of PY
# compiled as compile.py compiles it (-n, -s, -on, FLAGS) into
# kernels/STEM.KERNEL.o and .h (launcher STEM_KERNEL; the header gets its
# own include guard, as every header of PY has GLC_STEM_H).
py_kernel() {
	py=$1 pstem=$2 kn=$3 fn=$4 sig=$5
	shift 5
	o="$OUT/kernels/$pstem.$kn"
	set -- "$py" -n "$fn" -s "$sig" -on "${pstem}_$kn" "$@"
	if "$GLC" "$@" -c -o "$o.o" 2>"$o.err" && "$GLC" "$@" --emit=header -o "$o.h" 2>>"$o.err"; then
		guard=$(echo "GLC_${pstem}_H" | tr a-z A-Z)
		kguard=$(echo "GLC_${pstem}_${kn}_H" | tr a-z A-Z)
		sed -i "s/\\b$guard\\b/$kguard/g" "$o.h"
		echo "  ok   ${pstem}_$kn"
	else
		echo "  skip ${pstem}_$kn: $(head -n 1 "$o.err")"
		rm -f "$o.o" "$o.h"
	fi
	rm -f "$o.err"
}

# test_names.c: the kernels of test/gpu/names.py, compiled as compile.py
# compiles them (-n, -s with tensordesc<>, :16 and :1 entries, -w, -ns, -on,
# -o), each as kernels/names.KERNEL.o and .h (launcher names_KERNEL).
echo "test/gpu/names.py:"
names_py() { # KERNEL SIGNATURE
	py_kernel "$ROOT/test/gpu/names.py" names "$1" "$1" "$2" -w 4 -ns 3
}
names_py queries "*fp32:16, *fp32:16, *i32, i32"
names_py tma_wgmma "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64],gl.NVMMASharedLayout(128, 16)>, tensordesc<fp16[64,64]>, *fp32:16, *i32, i32:1, 64"

# test_tl.c, test_tl_std.c, ...: the triton.language kernels of
# test/gpu/tl*.py, one per "# kernel NAME[=FN]: SIGNATURE[; FLAGS]" line of
# the file, as kernels/STEM.NAME.o and .h (launcher STEM_NAME); `interp=no`
# among the flags is for test/tl/interp_gpu.sh only.
for py in "$ROOT"/test/gpu/tl*.py; do
	echo "test/gpu/$(basename "$py"):"
	sed -n 's/^# kernel \([A-Za-z0-9_=]*\): \(.*\)$/\1|\2/p' "$py" >"$OUT/kernels/lines"
	while IFS='|' read -r name rest; do
		sig=${rest%%;*} flags=
		case $rest in *";"*) flags=$(echo "${rest#*;}" | sed 's/interp=no//') ;; esac
		# shellcheck disable=SC2086
		py_kernel "$py" "$(basename "$py" .py)" "${name%%=*}" "${name#*=}" "$sig" $flags
	done <"$OUT/kernels/lines"
	rm -f "$OUT/kernels/lines"
done

# test_rowwise.c: gemv.gl and online_softmax.gl as they are, layernorm.gl
# and rmsnorm.gl once per BLOCK_N with the launchers renamed KERNEL_BLOCKN
# (no headers: the driver declares them).
echo "gemv.gl, online_softmax.gl, layernorm.gl, rmsnorm.gl:"
compile "$ROOT/examples/gemv.gl" rowwise.gemv
compile "$ROOT/examples/online_softmax.gl" rowwise.online_softmax
for ex in layernorm rmsnorm; do
	for bn in 1024 2048 4096 8192; do
		o="$OUT/kernels/rowwise.${ex}_$bn.o"
		if "$GLC" "$ROOT/examples/$ex.gl" -D BLOCK_N=$bn -c -o "$o.tmp" 2>"$o.err" &&
			objcopy --redefine-sym "${ex}_f16=${ex}_f16_$bn" \
				--redefine-sym "${ex}_bf16=${ex}_bf16_$bn" "$o.tmp" "$o"; then
			echo "  ok   ${ex}_$bn"
		else
			echo "  skip ${ex}_$bn: $(head -n 1 "$o.err")"
		fi
		rm -f "$o.tmp" "$o.err"
	done
done
# test_attention.c: examples/attention_fwd.gl per dtype, head dim and mask
# (bench/attention_variants.sh) as kernels/attention.NAME.o, the launcher
# renamed NAME (no headers: the driver declares them).
echo "attention_fwd.gl:"
sh "$ROOT/bench/attention_variants.sh" | while read -r name flags; do
	# shellcheck disable=SC2086
	renamed "$OUT/kernels/attention.$name.o" attention_fwd "$name" \
		"$ROOT/examples/attention_fwd.gl" $flags
done

# The fp8 GEMM of test_gemm_fp8.c: examples/gemm_fp8.gl as
# kernels/gemm_fp8.NAME.o with the launcher renamed gemm_fp8_NAME (bf16 and
# f16 output; per-K-tile f32 accumulation on 128 x 64 tiles).
echo "gemm_fp8.gl:"
for v in "bf16" "f16 -D OUT=gl.f16" "precise -D IMPRECISE=128 -D BN=64"; do
	set -- $v
	name=$1
	shift
	renamed "$OUT/kernels/gemm_fp8.$name.o" gemm_fp8 "gemm_fp8_$name" \
		"$ROOT/examples/gemm_fp8.gl" "$@"
done

# The tensor-core forms of test_mma.c: one object per V(...) entry of its
# VARIANTS table (name, kernel, glc flags), compiled from test/gpu/mma.gl as
# kernels/mma.NAME.o with the launcher renamed mma_NAME.
echo "test/gpu/mma.gl:"
sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$ROOT/test/gpu/test_mma.c" |
	grep -o 'V([a-z0-9_]*, [a-z0-9_]*,[[:space:]]*"[^"]*"' |
	sed 's/^V(\([a-z0-9_]*\), \([a-z0-9_]*\),[[:space:]]*"\([^"]*\)"/\1 \2 \3/' |
	while read -r name kernel flags; do
		# shellcheck disable=SC2086
		renamed "$OUT/kernels/mma.$name.o" "$kernel" "mma_$name" "$ROOT/test/gpu/mma.gl" \
			--kernel "$kernel" $flags
	done

cp "$ROOT"/runtime/*.c "$ROOT"/runtime/*.h "$OUT/runtime/"
cp "$ROOT"/test/gpu/*.c "$ROOT"/test/gpu/*.h "$OUT/test/"
mkdir -p "$OUT/test/unit"
cp "$ROOT"/test/unit/runtime_gpu.c "$ROOT"/test/unit/runtime_test.h \
	"$ROOT"/test/unit/check.h "$OUT/test/unit/"
cp "$ROOT"/test/gpu/run.sh "$OUT/run.sh"
cp "$ROOT"/bench/*.py "$OUT/bench/"
cp "$ROOT"/examples/host/*.c "$ROOT"/examples/host/*.cpp "$ROOT"/examples/host/*.py "$OUT/host/"
chmod +x "$OUT/run.sh"
echo "gpu bundle in $OUT (run $OUT/run.sh on the GPU machine)"
