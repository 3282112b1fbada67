#!/bin/sh
# Compiles the kernels of Triton's Gluon tutorials and tests, unmodified,
# with glc and prints the table of docs/porting.md (file, kernel, signature,
# num_warps, result, cold compile time).
#
#   sh bench/gluon_tutorials.sh DIR [GLC]
#
# DIR holds the files as they are in Triton's python/tutorials/gluon/ and
# python/test/gluon/ (test_core.py); they are Triton's and stay out of this
# repository. GLC defaults to build/glc. Each compile is a fresh process
# (cold) writing an object (-c, through ptxas).
set -u
dir=${1:?usage: sh bench/gluon_tutorials.sh DIR [GLC]}
glc=${2:-build/glc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# file | kernel | signature | num_warps
kernels() {
	cat <<'LIST'
01-intro.py|copy_scalar_kernel|*fp32, *fp32|1
01-intro.py|memcpy_kernel|*fp32, *fp32, i32, 64|1
01-intro.py|memcpy_kernel_autotune|*fp32, *fp32, i32, 2048|1
02-layouts.py|memcpy_1d_kernel|*fp32:16, *fp32:16, i32, 2048, gl.BlockedLayout([4], [32], [4], [0])|4
03-async-copy.py|elementwise_add_kernel|*fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, 32, 64|4
03-async-copy.py|memcpy_1d_cpasync_kernel|*fp32, *fp32, i32, 128|4
03-async-copy.py|elementwise_add_cpasync_kernel|*fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, 32, 64, gl.SwizzledSharedLayout(1, 1, 1, [1, 0])|4
03-async-copy.py|elementwise_add_pipelined_kernel|*fp32, *fp32, *fp32, i32, i32, i32, i32, i32, i32, i32, i32, 32, 64, gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), 2|4
07-persistence.py|matmul_pipelined_kernel|tensordesc<fp16[128,64]>, tensordesc<fp16[64,256]>, tensordesc<fp16[128,256]>, WGMMA, 3, 8|8
07-persistence.py|persistent_matmul_kernel|tensordesc<fp16[128,64]>, tensordesc<fp16[64,256]>, tensordesc<fp16[128,256]>, WGMMA, PersistentTileScheduler, 3, 8|8
LIST
}

printf '| file | kernel | signature | num_warps | result | glc seconds |\n'
printf '|---|---|---|---|---|---|\n'
ok=0 total=0
kernels | while IFS='|' read -r file kernel sig warps; do
	total=$((total + 1))
	if [ ! -f "$dir/$file" ]; then
		printf '| %s | %s | `%s` | %s | file missing | |\n' "$file" "$kernel" "$sig" "$warps"
		echo "$ok $total" >"$out/count"
		continue
	fi
	start=$(date +%s.%N)
	if "$glc" "$dir/$file" -n "$kernel" -s "$sig" -w "$warps" -c -o "$out/k.o" \
		>"$out/log" 2>&1; then
		result=compiles
		ok=$((ok + 1))
	else
		result="error: $(grep -m1 'error:' "$out/log" | sed 's/.*error: //; s/|/\\|/g')"
	fi
	end=$(date +%s.%N)
	printf '| %s | %s | `%s` | %s | %s | %.2f |\n' "$file" "$kernel" "$sig" "$warps" \
		"$result" "$(echo "$end - $start" | bc)"
	echo "$ok $total" >"$out/count"
done
[ -f "$out/count" ] && read ok total <"$out/count" && echo && echo "$ok of $total kernels compile"
