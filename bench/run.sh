#!/bin/sh
# run.sh SCRIPT [ARGS]: on the GPU machine, in a bundle made by bench/bundle.sh.
# The first time, builds libglrt and one shared library per kernel object
# (kernel + gemm_shim + libglrt) into BUNDLE/work/libSTEM.so and prints the
# GEMM kernels' SASS evidence (HGMMA, UTMALDG, local-memory traffic; the
# disassembly stays in work/) and their ptxas -v reports. Then runs
# `python3 BUNDLE/SCRIPT --libs BUNDLE/work ARGS`, e.g.
#   sh run.sh gemm.py --bench --anchors anchors --json $OUT/gemm.json
#   sh run.sh bandwidth.py --json $OUT/bandwidth.json
#   sh run.sh attention.py --json $OUT/attention.json
# With NCU=1 (SCRIPT gemm.py), then profiles one launch of each GEMM variant
# and of cuBLAS at NCU_SIZE^3 (8192) f16 with ncu (sections with their
# details, then the tensor-pipe, shared-memory and stall metrics that this
# ncu knows) into $OUT/ncu.txt and ncu_metrics.txt ($OUT, else work/).
set -u
D=$(cd "$(dirname "$0")" && pwd)
W=$D/work
L=${OUT:-$W}
SCRIPT=$1
shift
mkdir -p "$W" "$L"
if [ ! -f "$W/built" ]; then
	CFLAGS="-std=c11 -D_GNU_SOURCE -O2 -fPIC -I$D/runtime"
	for f in "$D"/runtime/*.c; do
		gcc $CFLAGS -c "$f" -o "$W/$(basename "$f" .c).o" || exit 1
	done
	gcc $CFLAGS -c "$D/gemm_shim.c" -o "$W/gemm_shim.o" || exit 1
	for k in "$D"/kernels/*.o; do
		gcc -shared -o "$W/lib$(basename "$k" .o).so" "$k" "$W/gemm_shim.o" "$W"/error.o \
			"$W"/driver.o "$W"/module.o "$W"/launch.o "$W"/tensor_map.o "$W"/memory.o "$W"/image.o \
			-ldl -pthread || exit 1
	done
	echo "== SASS (cuobjdump --dump-sass): opcode counts"
	for c in "$D"/kernels/*.cubin; do
		s="$W/$(basename "$c" .cubin).sass"
		cuobjdump --dump-sass "$c" >"$s" 2>&1
		printf '%-14s' "$(basename "$c" .cubin)"
		for op in HGMMA UTMALDG UTMASTG 'STS ' STSM LDL STL USETMAXREG SYNCS.PHASECHK; do
			printf ' %s=%s' "$op" "$(grep -c "$op" "$s")"
		done
		echo
	done
	echo "== ptxas -v"
	grep -h "registers\|spill" "$D"/kernels/*.ptxas.txt
	cat "$D/kernels/compile-times.txt"
	touch "$W/built"
fi
python3 "$D/$SCRIPT" --libs "$W" "$@"
rc=$?
[ "${NCU:-0}" = 1 ] || exit $rc
P="python3 $D/gemm.py --libs $W --profile --profile-size ${NCU_SIZE:-8192}"
ncu --clock-control none -k 'regex:gemm|nvjet|sm90' --print-details all --section SpeedOfLight \
	--section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
	--section WarpStateStats --section SchedulerStats --section Occupancy \
	--section LaunchStats $P >"$L/ncu.txt" 2>&1
ncu --query-metrics >"$W/query.txt" 2>&1
want="sm__pipe_tensor_op_gmma_cycles_active sm__inst_executed_pipe_tensor_op_gmma
sm__pipe_tensor_op_hmma_cycles_active l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
sm__sass_inst_executed_op_shared_st lts__t_sector_hit_rate dram__throughput gpu__time_duration
smsp__cycles_active"
for st in barrier long_scoreboard wait math_pipe_throttle mio_throttle short_scoreboard \
	lg_throttle membar sleeping dispatch_stall no_instruction selected not_selected \
	math_dependency tex_throttle drain branch_resolving misc; do
	want="$want smsp__average_warps_issue_stalled_${st}_per_issue_active"
done
metrics=
for mname in $want; do
	grep -qw "$mname" "$W/query.txt" || continue
	case $mname in
	*_per_issue_active) sfx=.ratio ;;
	*hit_rate) sfx=.pct ;;
	*cycles_active | dram__throughput) sfx=.avg.pct_of_peak_sustained_active ;;
	*) sfx=.sum ;;
	esac
	metrics="$metrics${metrics:+,}$mname$sfx"
done
echo "== ncu metrics: $metrics"
ncu --clock-control none -k 'regex:gemm|nvjet|sm90' --metrics "$metrics" $P >"$L/ncu_metrics.txt" 2>&1
grep -i "gemm\|nvjet\|sm90\|gmma\|bank\|stalled\|hit_rate\|dram\|duration\|shared_st\|error" "$L/ncu_metrics.txt" | head -150
exit $rc
