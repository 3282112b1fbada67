#!/bin/sh
# `make install` into a temporary prefix (and through DESTDIR), then the
# consumers an installed glc must serve, built with no path into this tree:
# the host examples through pkg-config (examples/host/Makefile, C and C++)
# and through CMake's find_package(glc) (examples/host/CMakeLists.txt), and
# issue 26's target (test/install/two_py: two .py files, four
# specializations each, one glc run per source, a rebuild when an imported
# file changes), with Ninja and with Makefiles. The programs run: without a
# GPU they exit 77 (the examples) or check what the dispatchers return.
# Usage: test/install/run.sh [BUILD_DIR]; prints one line per check and
# exits non-zero on the first failure.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-build}
MAKE=${MAKE:-make}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
runs() { # a program that exits 0 or, without a GPU, 77
	rc=0
	"$@" >"$tmp/out" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || { cat "$tmp/out"; echo "FAIL: $* exited $rc"; exit 1; }
}

prefix=$tmp/prefix
$MAKE -s -C "$ROOT" B="$B" install PREFIX="$prefix" >/dev/null
for f in bin/glc lib/libglrt.a lib/libglrt.so lib/libglrt.so.0 include/glc/glrt.h \
         share/man/man1/glc.1 lib/pkgconfig/glc.pc lib/cmake/glc/glcConfig.cmake \
         lib/cmake/glc/glcConfigVersion.cmake; do
	[ -e "$prefix/$f" ] || { echo "FAIL: make install left out $f"; exit 1; }
done
ok "make install PREFIX: every file"
$MAKE -s -C "$ROOT" B="$B" install PREFIX=/opt/glc DESTDIR="$tmp/stage" >/dev/null
[ -x "$tmp/stage/opt/glc/bin/glc" ] && grep -q '^prefix=/opt/glc$' "$tmp/stage/opt/glc/lib/pkgconfig/glc.pc" \
	|| { echo "FAIL: make install DESTDIR"; exit 1; }
ok "make install DESTDIR: staged, glc.pc names PREFIX"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
cp -r "$ROOT/examples/host" "$tmp/host"
cp "$ROOT/examples/vector_add.gl" "$tmp/vector_add.gl"
$MAKE -s -C "$tmp/host" OUT="$tmp/host-make" >/dev/null
runs "$tmp/host-make/vector_add_c"
runs "$tmp/host-make/vector_add_cpp"
ok "pkg-config: C and C++ examples built and run"

gen_ninja=
command -v ninja >/dev/null && gen_ninja="-G Ninja"
cmake -S "$tmp/host" -B "$tmp/host-cmake" $gen_ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/host-cmake" >/dev/null
runs "$tmp/host-cmake/vector_add_c"
runs "$tmp/host-cmake/vector_add_cpp"
ok "CMake find_package(glc): C and C++ examples built and run"

two_py() { # $1 = a CMake generator
	src=$tmp/two_py-$2
	cp -r "$ROOT/test/install/two_py" "$src"
	cmake -S "$src" -B "$src/build" -G "$1" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
	cmake --build "$src/build" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
	n=$(grep -c 'glc .*\.py' "$tmp/log" || true)
	[ "$n" -eq 2 ] || { cat "$tmp/log"; echo "FAIL: $1: $n glc runs for two sources"; exit 1; }
	"$src/build/main" >"$tmp/out" || { cat "$tmp/out"; echo "FAIL: $1: main"; exit 1; }
	grep -q 'scale_kernel: no specialization takes these arguments' "$tmp/out" ||
		grep -q 'add_kernel: no specialization takes these arguments' "$tmp/out" ||
		{ cat "$tmp/out"; echo "FAIL: $1: the dispatcher's message"; exit 1; }
	cmake --build "$src/build" >"$tmp/log" 2>&1
	! grep -q 'glc .*\.py' "$tmp/log" || { cat "$tmp/log"; echo "FAIL: $1: rebuilt with no change"; exit 1; }
	sleep 1
	printf '\n# changed\n' >>"$src/helpers.py"
	cmake --build "$src/build" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
	grep -q 'glc .*scale\.py' "$tmp/log" && ! grep -q 'glc .*add\.py' "$tmp/log" ||
		{ cat "$tmp/log"; echo "FAIL: $1: helpers.py changed: scale.py's object alone must be rebuilt"; exit 1; }
	"$src/build/main" >/dev/null
	ok "CMake ($1): two .py files, 4 specializations each, 2 glc runs, dispatchers, rebuild on an import; two -D specializations of a .gl kernel"
}
[ -n "$gen_ninja" ] && two_py Ninja ninja
two_py "Unix Makefiles" make
echo "install: all checks passed"
