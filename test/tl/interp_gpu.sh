#!/bin/sh
# interp_gpu.sh [GLC [STEM...]]: the GPU drivers of the tl kernels (test/gpu/test_tl*.c,
# kernels of test/gpu/tl*.py) run on this machine against Triton 3.6's
# interpreter instead of a GPU: a check of the drivers' references (and of
# the kernels being valid Triton) against Triton's own semantics. glc
# compiles each kernel's header only, so the launchers' prototypes are
# glc's; interp_launchers.py turns them into calls of the interpreter
# (interp_glrt.c, interp_launch.py). Kernel lines with `interp=no` get no
# launcher (the driver reports SKIP). Needs $PYTHON (default
# /opt/tv/bin/python) with triton and numpy, and its libpython. Prints
# each driver's PASS/FAIL lines; exits 1 if any driver failed. STEMs (tl,
# tl_std) pick drivers; all by default.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
GLC=${1:-$ROOT/build/glc}
[ $# -gt 0 ] && shift
PY=${PYTHON:-/opt/tv/bin/python}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
INC=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
LIB=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR"))')
VER=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
SITE=$("$PY" -c 'import site; print(site.getsitepackages()[0])')
status=0
for py in "$ROOT"/test/gpu/tl*.py; do
	stem=$(basename "$py" .py)
	if [ $# -gt 0 ]; then
		case " $* " in *" $stem "*) ;; *) continue ;; esac
	fi
	driver="$ROOT/test/gpu/test_$stem.c"
	[ -f "$driver" ] || continue
	headers=
	sed -n 's/^# kernel \([A-Za-z0-9_=]*\): \(.*\)$/\1|\2/p' "$py" >"$W/lines"
	while IFS='|' read -r name rest; do
		fn=${name#*=} name=${name%%=*} sig=${rest%%;*} flags=
		case $rest in *";"*) flags=${rest#*;} ;; esac
		case $flags in *interp=no*) continue ;; esac
		h="$W/$stem.$name.h"
		# shellcheck disable=SC2086
		if "$GLC" "$py" -n "$fn" -s "$sig" -on "${stem}_$name" $flags --emit=header -o "$h" \
			2>"$W/err"; then
			headers="$headers $h"
		else
			echo "glc: $stem.$name: $(head -n 1 "$W/err")"
		fi
	done <"$W/lines"
	# shellcheck disable=SC2086
	python3 "$ROOT/test/tl/interp_launchers.py" "$py" "$stem" $headers >"$W/$stem.launchers.c" &&
		gcc -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra -I"$ROOT/runtime" -I"$ROOT/test/gpu" \
			-I"$ROOT/test/tl" -I"$INC" "$driver" "$ROOT/test/gpu/gpu_test.c" \
			"$ROOT/test/tl/interp_glrt.c" "$W/$stem.launchers.c" -L"$LIB" "-lpython$VER" -lm \
			-Wl,-rpath,"$LIB" -o "$W/test_$stem" || { status=1; continue; }
	PYTHONPATH="$ROOT/test/tl:$SITE" GT_SEED=${GT_SEED:-1} "$W/test_$stem" || status=1
done
exit $status
