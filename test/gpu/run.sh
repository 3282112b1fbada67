#!/bin/sh
# run.sh: the GPU test suite, run on the GPU machine from a bundle made by
# `make gpu-bundle` (test/gpu/bundle.sh copies this script to its top).
#
# Builds libglrt from the bundled sources, every test driver with gcc
# against the bundled kernel objects, and work/lib<example>.so (kernels +
# libglrt, for Python: bench/bandwidth.py --libs work), then runs: the example
# drivers (gemm_fp8, attention, cumsum and histogram included), the tensor-core forms of
# test_mma.c, the math, memory and row-wise tests and the operation tests
# test_scans.c, test_atomics.c, test_shapes.c, test_fp4.c, test_tma_desc.c,
# test_padded.c, test_slices.c, test_ws.c, test_grid.c, test_names.c and the
# triton.language tests test_tl.c, test_tl_std.c and test_tl_mem.c, and
# test_cg_parity.c (the arithmetic and reductions of issue 23) (one
# PASS/FAIL line per check; test_grid.c's kernels come from a .py file, as
# an object and as C built here; test_names.c's from names.gl and names.py;
# test_tl*.c's from test/gpu/tl*.py, one object per kernel),
# the C and C++ host examples, the Python ctypes example and
# libglrt against the real driver (test/unit/runtime_gpu.c). Prints
# `N passed, N failed, N skipped` last and exits 1 on any failure, 77 when
# everything was skipped (no GPU), else 0.
# Logs and binaries go to $GPU_WORK (default: BUNDLE/work).
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=${GPU_WORK:-$D/work}
CC=${CC:-gcc}
CXX=${CXX:-g++}
CFLAGS="-std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -I$D/runtime -I$D/test"
LIBS="$W/libglrt.a -ldl -pthread -lm"
pass=0 fail=0 skip=0

mkdir -p "$W"
for f in "$D"/runtime/*.c; do
	$CC $CFLAGS -fPIC -c "$f" -o "$W/$(basename "$f" .c).o" || exit 1
done
rm -f "$W/libglrt.a"
ar rcs "$W/libglrt.a" "$W"/error.o "$W"/driver.o "$W"/module.o "$W"/launch.o \
	"$W"/tensor_map.o "$W"/memory.o "$W"/image.o || exit 1
$CC $CFLAGS -c "$D/test/gpu_test.c" -o "$W/gpu_test.o" || exit 1

# tally NAME RC LOG: adds the PASS/FAIL/SKIP lines of LOG; a driver that
# failed without a FAIL line (crash, runtime error) is one failure more.
tally() {
	p=$(grep -c '^PASS ' "$3")
	f=$(grep -c '^FAIL ' "$3")
	s=$(grep -c '^SKIP ' "$3")
	if [ "$2" -ne 0 ] && [ "$2" -ne 77 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $1: exit status $2"
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

# The C of compile.py-style pairs (kernels/NAME.pair.c: grid.py without -c),
# built here as a user builds it, to be linked like an object.
for c in "$D"/kernels/*.pair.c; do
	[ -f "$c" ] || continue
	$CC $CFLAGS -c "$c" -o "${c%.c}.o" || { echo "FAIL building $c"; fail=$((fail + 1)); }
done

# The example drivers, each linked with whatever its example compiled to
# (the whole file, or single kernels); every header found is included so
# the compiler checks the driver's launcher prototypes against glc's.
for t in vector_add softmax reduce transpose gemm gemm_fp8 attention mma math memory rowwise \
	cumsum histogram scans atomics shapes fp4 tma_desc padded slices ws grid names auto tl tl_std \
	tl_mem tl_mix cg_parity; do
	objs=$(ls "$D/kernels/$t.o" "$D/kernels/$t".*.o 2>/dev/null)
	incs=
	for h in $(ls "$D/kernels/$t.h" "$D/kernels/$t".*.h 2>/dev/null); do
		incs="$incs -include $h"
	done
	log="$W/test_$t.log"
	# shellcheck disable=SC2086
	if $CC $CFLAGS $incs "$D/test/test_$t.c" "$W/gpu_test.o" $objs $LIBS \
		-o "$W/test_$t" >"$log" 2>&1; then
		"$W/test_$t" >"$log" 2>&1
		rc=$?
	else
		rc=1
	fi
	cat "$log"
	tally "test_$t" "$rc" "$log"
	# For Python (the ctypes example, bench/): the kernels plus all of
	# libglrt, whose functions Python calls too.
	# shellcheck disable=SC2086
	[ -n "$objs" ] && $CC -shared -o "$W/lib$t.so" $objs -Wl,--whole-archive \
		"$W/libglrt.a" -Wl,--no-whole-archive -ldl -pthread
done

# The host examples: C, C++, and Python through ctypes on libvector_add.so.
host() {
	name=$1
	shift
	log="$W/$name.log"
	"$@" >"$log" 2>&1
	rc=$?
	cat "$log"
	case $rc in
	0) echo "PASS $name" ;;
	77) echo "SKIP $name: no GPU" ;;
	*) echo "FAIL $name: exit status $rc" ;;
	esac >>"$log"
	tail -n 1 "$log"
	tally "$name" 0 "$log"
}
VA="$D/kernels/vector_add"
if [ -f "$VA.o" ]; then
	$CC $CFLAGS -I"$D/kernels" "$D/host/vector_add.c" "$VA.o" $LIBS \
		-o "$W/host_c" && host host_c "$W/host_c"
	$CXX -std=c++17 -O2 -Wall -Wextra -Werror -I"$D/runtime" -I"$D/kernels" \
		"$D/host/vector_add.cpp" "$VA.o" $LIBS -o "$W/host_cpp" &&
		host host_cpp "$W/host_cpp"
	host host_ctypes python3 "$D/host/vector_add_ctypes.py" "$W/libvector_add.so"
else
	echo "SKIP host examples: vector_add.gl did not compile"
	skip=$((skip + 1))
fi

# libglrt against the real driver (test/unit/runtime_gpu.c): its own PTX,
# assembled here by ptxas; check.h's "N passed, N failed" line is tallied.
log="$W/runtime_gpu.log"
if $CC $CFLAGS -I"$D" "$D/test/unit/runtime_gpu.c" $LIBS -o "$W/runtime_gpu" >"$log" 2>&1 &&
	"$W/runtime_gpu" --dump-ptx >"$W/runtime_gpu.ptx" 2>>"$log" &&
	ptxas -arch=sm_90a "$W/runtime_gpu.ptx" -o "$W/runtime_gpu.cubin" >>"$log" 2>&1; then
	"$W/runtime_gpu" --gpu "$W/runtime_gpu.cubin" >>"$log" 2>&1
	rc=$?
else
	rc=1
fi
cat "$log"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
p=${line%% passed*}
f=${line#*passed, }
f=${f%% failed*}
case $rc in
0 | 1) [ -n "$line" ] || { p=0 f=1; } ;;
77) p=0 f=0 skip=$((skip + 1)) ;;
*) p=${p:-0} f=$((${f:-0} + 1)); echo "FAIL runtime_gpu: exit status $rc" ;;
esac
pass=$((pass + p)) fail=$((fail + f))

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -ne 0 ] && exit 1
[ "$pass" -eq 0 ] && exit 77
exit 0
