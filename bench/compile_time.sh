#!/bin/sh
# Compile-time benchmark (CPU): for every example, the best of N runs of each
# stage as `glc --time-passes` reports it (front end, sema, LLVM codegen,
# ptxas), and the sum over all examples. Usage: bench/compile_time.sh [GLC] [N]
set -eu
cd "$(dirname "$0")/.."
glc=${1:-build/glc}
n=${2:-20}
printf '%-24s %12s %10s %14s %10s\n' example "parse (ms)" "sema (ms)" "codegen (ms)" "ptxas (ms)"
for f in examples/*.gl; do
	i=0
	while [ "$i" -lt "$n" ]; do
		"$glc" "$f" --emit=cubin --time-passes -o /dev/null 2>&1 | grep '^glc: time:' || true
		i=$((i + 1))
	done | awk -v name="$(basename "$f")" '
		# Each line: "glc: time: STAGE V ms, STAGE V ms, ..."; keep the best V per stage.
		function keep(k, v) { if (!(k in best) || v < best[k]) best[k] = v }
		{
			sub(/^glc: time: /, "")
			n = split($0, part, ", ")
			for (i = 1; i <= n; i++) {
				w = split(part[i], word, " ")
				stage = part[i] ~ /parse/ ? "p" : part[i] ~ /^sema/ ? "s" : part[i] ~ /^codegen/ ? "c" : part[i] ~ /^ptxas/ ? "x" : ""
				if (stage != "")
					keep(stage, word[w - 1] + 0)
			}
		}
		END {
			if (!("x" in best)) { printf "%-24s %12.3f %10.3f %14s\n", name, best["p"], best["s"], "(no cubin)"; exit }
			printf "%-24s %12.3f %10.3f %14.1f %10.1f\n", name, best["p"], best["s"], best["c"], best["x"]
		}'
done | tee /tmp/glc_compile_time.$$
awk 'NF == 5 { p += $2; s += $3; c += $4; x += $5 } END { printf "%-24s %12.3f %10.3f %14.1f %10.1f\n", "all examples", p, s, c, x }' /tmp/glc_compile_time.$$
rm -f /tmp/glc_compile_time.$$
