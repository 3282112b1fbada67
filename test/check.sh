#!/bin/sh
# glc's whole test suite (`make check`): the Python tools' own unit tests (the
# code-parity harness's SASS, PTX and launcher readers, bench/parity/test_sass.py;
# the differential tester's, test/diff/tests), build, unit tests and lit goldens on
# the normal build, `make install` into a temporary prefix with C and C++
# consumers built through pkg-config and CMake (test/install/run.sh), the same
# again on the ASan+UBSan build, then a bounded fuzz
# run of the front end and the CPU half of the differential tester (generated
# kernels through glc, some with layouts left to inference: DIFF_SECONDS, default
# 60, of seed DIFF_SEED, default 1).
# Each stage adds to one tally; the last line printed is `N passed, N failed` and
# the exit status is non-zero when anything failed.
set -u
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
JOBS=${JOBS:--j2}
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-22/bin}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
DIFF_SECONDS=${DIFF_SECONDS:-60}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

tally() { # $1 = passed, $2 = failed, $3 = what
	passed=$((passed + $1))
	failed=$((failed + $2))
	echo "== $3: $1 passed, $2 failed"
}

build() { # $1 = build folder, $2 = SAN value, $3... = targets
	b=$1 san=$2
	shift 2
	if $MAKE -s $JOBS B="$b" SAN="$san" "$@" >"$log" 2>&1; then
		tally 1 0 "build $b"
		return 0
	fi
	cat "$log"
	tally 0 1 "build $b"
	return 1
}

unit() { # $1 = build folder
	for t in "$1"/unit/test_*; do
		[ -x "$t" ] || continue
		"$t" >"$log" 2>&1
		rc=$?
		line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
		if [ -z "$line" ]; then
			cat "$log"
			tally 0 1 "unit $(basename "$t") (no summary, exit $rc)"
			continue
		fi
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed*}
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
		[ "$f" -eq 0 ] || cat "$log"
		tally "$p" "$f" "unit $(basename "$t")"
	done
}

lit() { # $1 = glc binary, $2 = label, $3 = 1 for the ASan build (test/lit/bound.sh),
       # $4 = extra glc flags
	GLC="$1" GLC_ASAN="${3:-}" GLC_FLAGS="${4:-}" LLVM_BIN="$LLVM_BIN" \
		python3 "$LLVM_BIN/lit" -sv test/lit >"$log" 2>&1
	grep -E '^(FAIL|UNRESOLVED|TIMEOUT|XPASS): ' "$log" || true
	counts=$(awk '
		/^ *Passed *:/ { p += $(NF-1) }
		/^ *Expectedly Failed *:/ { p += $(NF-1) }
		/^ *Failed *:/ { f += $(NF-1) }
		/^ *Unresolved *:/ { f += $(NF-1) }
		/^ *Timed Out *:/ { f += $(NF-1) }
		/^ *Unexpectedly Passed *:/ { f += $(NF-1) }
		END { print p + 0, f + 0 }' "$log")
	set -- $counts "$2"
	if [ "$1" -eq 0 ] && [ "$2" -eq 0 ]; then
		tail -n 20 "$log"
		tally 0 1 "lit $3 (no tests ran)"
		return
	fi
	[ "$2" -eq 0 ] || grep -E -A40 '^\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\*\* TEST' "$log" | head -n 200
	tally "$1" "$2" "lit $3"
}

fuzz() { # every fuzz target, FUZZ_SECONDS split between them
	if ! $MAKE -s fuzz-build >"$log" 2>&1; then
		cat "$log"
		tally 0 1 "fuzz build"
		return
	fi
	n=$(ls build/fuzz/fuzz_* | wc -l)
	secs=$((FUZZ_SECONDS / n))
	[ "$secs" -ge 10 ] || secs=10
	for t in build/fuzz/fuzz_*; do
		name=${t##*/}
		mkdir -p "build/fuzz/corpus-$name"
		own=
		[ -d "build/fuzz/seeds-$name" ] && own="build/fuzz/seeds-$name"
		if "$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=0 "build/fuzz/corpus-$name" test/fuzz/corpus \
			build/fuzz/seeds $own >"$log" 2>&1; then
			tally 1 0 "$name (${secs}s)"
		else
			tail -n 60 "$log"
			tally 0 1 "$name"
		fi
	done
}

diff_cpu() { # generated kernels must compile or get a user diagnostic (test/diff/), a
	# third of them with their layouts erased and a third pinned by set_auto_layout
	# (--mode mix), so that glc's layout inference is compiled every run
	if python3 test/diff/cpu_check.py --glc build/glc --seed "${DIFF_SEED:-1}" \
		--seconds "$DIFF_SECONDS" --mode mix >"$log" 2>&1; then
		tally 1 0 "differential tester, CPU half: $(tail -n 1 "$log")"
	else
		grep -v '^  feature' "$log" | tail -n 40
		tally 0 1 "differential tester, CPU half"
	fi
}

pyunit() { # $1 = a unittest script (standard library only)
	python3 "$1" >"$log" 2>&1
	rc=$?
	n=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in .*/\1/p' "$log")
	f=$(sed -n 's/^FAILED (\(.*\))$/\1/p' "$log" | tr ',' '\n' |
		sed -n 's/^ *\(failures\|errors\)=\([0-9]*\)$/\2/p' | awk '{ s += $1 } END { print s + 0 }')
	if [ "$rc" -eq 0 ] && [ -n "$n" ]; then
		tally "$n" 0 "python unit tests $1"
	else
		cat "$log"
		if [ -n "$n" ] && [ "$f" -gt 0 ]; then
			tally $((n - f)) "$f" "python unit tests $1"
		else
			tally 0 1 "python unit tests $1"
		fi
	fi
}

install_check() { # make install into a temporary prefix; consumers via pkg-config and CMake
	if sh test/install/run.sh build >"$log" 2>&1; then
		tally 1 0 "install: $(grep -c '^ok:' "$log") checks (test/install/run.sh)"
	else
		cat "$log"
		tally 0 1 "install (test/install/run.sh)"
	fi
}

pyunit bench/parity/test_sass.py
pyunit test/diff/tests/run.py
if python3 test/layering.py --sizes >"$log" 2>&1; then
	tally 1 0 "layering"
else
	cat "$log"
	tally 0 1 "layering"
fi
if build build "" all unit; then
	unit build
	lit "$PWD/build/glc" "normal build"
	install_check
fi
if build build/asan 1 all unit; then
	unit build/asan
	lit "$PWD/build/asan/glc" "asan+ubsan build, --verify-each" 1 --verify-each
fi
fuzz
[ -x build/glc ] && diff_cpu

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
