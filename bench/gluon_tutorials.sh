#!/bin/sh
# Compiles the kernels of Triton's Gluon tutorials and tests listed in
# bench/gluon_tutorials.list, from the unmodified files, with glc, and prints
# the table of docs/porting.md (file, kernel, signature, num_warps, result,
# glc seconds: the median of RUNS cold compiles, each a fresh process writing
# an object through ptxas) and the median over the kernels that compile.
#
#   sh bench/gluon_tutorials.sh DIR [GLC] [OUT]
#
# DIR holds the files as they are in Triton's python/tutorials/gluon/ and
# python/test/gluon/ (test_core.py), at the commits the list names; they are
# Triton's and stay out of this repository. GLC defaults to build/glc. With
# OUT, each row's object and header are kept there as OUT/NN.o and OUT/NN.h
# (NN: the row's index in the list, from 0), with the list, libglrt's
# sources and bench/gluon_tutorials_run.py, which runs them there against
# Triton (`python3 OUT/gluon_tutorials_run.py OUT DIR`). RUNS (default 3)
# sets the compiles per kernel. GLUON_LIST names another list of the same
# form (test/diff/fp4_padded/rows.py writes one; bench/triton_tutorials.sh
# passes bench/triton_tutorials.list, Triton's triton.language tutorials). A
# row's "out_name" names its launcher (-on, as compile.py's --out-name), its
# launch's "num_stages" is given as compile.py's -ns.
set -u
dir=${1:?usage: sh bench/gluon_tutorials.sh DIR [GLC] [OUT]}
glc=${2:-build/glc}
keep=${3:-}
runs=${RUNS:-3}
list=${GLUON_LIST:-$(dirname "$0")/gluon_tutorials.list}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$keep" ]; then
	mkdir -p "$keep/runtime"
	cp "$list" "$keep/gluon_tutorials.list"
	cp "$(dirname "$0")/gluon_tutorials_run.py" "$(dirname "$0")/gluon_tutorials_triton_time.py" \
		"$keep/"
	cp "$(dirname "$0")"/../runtime/*.c "$(dirname "$0")"/../runtime/*.h "$keep/runtime/"
fi

# index, file, kernel, signature, num_warps, launcher name, num_stages: one tab-separated
# line per row
python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
for i, r in enumerate(rows):
    print("\t".join([str(i), r["file"], r["kernel"], r["signature"], str(r["num_warps"]),
                     r.get("out_name", r["kernel"].replace(".", "_")),
                     str(r.get("launch", {}).get("num_stages", 3))]))
' "$list" >"$tmp/rows"

printf '| file | kernel | signature | num_warps | result | glc seconds |\n'
printf '|---|---|---|---|---|---|\n'
tab=$(printf '\t')
while IFS="$tab" read -r i file kernel sig warps out stages; do
	if [ ! -f "$dir/$file" ]; then
		printf '| %s | %s | `%s` | %s | file missing | |\n' "$file" "$kernel" "$sig" "$warps"
		continue
	fi
	: >"$tmp/times"
	result=compiles
	r=0
	while [ "$r" -lt "$runs" ]; do
		start=$(date +%s.%N)
		if ! "$glc" "$dir/$file" -n "$kernel" -on "$out" -s "$sig" -w "$warps" -ns "$stages" -c -o "$tmp/k.o" \
			>"$tmp/log" 2>&1; then
			result="error: $(grep -m1 'error:' "$tmp/log" | sed 's/.*error: //; s/|/\\|/g')"
			break
		fi
		end=$(date +%s.%N)
		echo "$end - $start" | bc >>"$tmp/times"
		r=$((r + 1))
	done
	secs=
	if [ "$result" = compiles ]; then
		secs=$(sort -n "$tmp/times" | sed -n "$(((runs + 1) / 2))p")
		echo "$secs" >>"$tmp/medians"
		echo "$file $kernel" >>"$tmp/ok"
		if [ -n "$keep" ]; then
			nn=$(printf '%02d' "$i")
			cp "$tmp/k.o" "$keep/$nn.o"
			"$glc" "$dir/$file" -n "$kernel" -on "$out" -s "$sig" -w "$warps" -ns "$stages" --emit=header \
				-o "$keep/$nn.h" >/dev/null 2>&1
		fi
		secs=$(printf '%.3f' "$secs")
	fi
	printf '| %s | %s | `%s` | %s | %s | %s |\n' "$file" "$kernel" "$sig" "$warps" "$result" \
		"$secs"
done <"$tmp/rows"

rows=$(wc -l <"$tmp/rows")
ok=$(cat "$tmp/ok" 2>/dev/null | wc -l)
kernels=$(cut -f2,3 "$tmp/rows" | sort -u | wc -l)
ok_kernels=$(sort -u "$tmp/ok" 2>/dev/null | wc -l)
echo
echo "$ok of $rows rows compile: $ok_kernels of $kernels kernels"
[ -s "$tmp/medians" ] && echo "median glc seconds per kernel (cold, -c): $(sort -n "$tmp/medians" |
	sed -n "$((($(wc -l <"$tmp/medians") + 1) / 2))p")"
exit 0
