#!/bin/sh
# `make demo`: builds glc, compiles an example kernel to PTX, cubin, a host
# object and a header, shows its IR (the typed program) and layouts, and shows what a
# layout mistake looks like.
set -eu
cd "$(dirname "$0")/.."
make -s -j2 all
glc=build/glc
out=build/demo
mkdir -p "$out"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "glc --version"
$glc --version

step "Every example parses and type-checks"
for f in examples/*.gl; do
	$glc "$f" --emit=ir -o /dev/null
	echo "ok  $f"
done

step "examples/vector_add.gl as IR: every value with its type and layout (first 16 lines)"
$glc examples/vector_add.gl --emit=ir | head -n 16

step "Compile it: PTX, cubin (ptxas -arch=sm_90a), host object with launchers, header"
$glc examples/vector_add.gl --emit=ptx -o "$out/vector_add.ptx"
$glc examples/vector_add.gl --emit=cubin -o "$out/vector_add.cubin"
$glc examples/vector_add.gl -c -o "$out/vector_add.o" --time-passes
$glc examples/vector_add.gl --emit=header -o "$out/vector_add.h"
ls -l "$out"/vector_add.*
grep -m 3 -E '^\.(version|target)|^\.visible \.entry' "$out/vector_add.ptx"
echo "... 128-bit accesses in the PTX: $(grep -c -E 'ld\.global.*v4|st\.global.*v4' "$out/vector_add.ptx")"
sed -n '/^glrt_status/,/);/p' "$out/vector_add.h" | head -n 4

step "Its layout as bases (JSON): which element each register, lane and warp bit selects"
$glc layout 'BlockedLayout([4],[32],[4],[0])' --shape 512 --format=json

step "A blocked layout on a 16x16 tile, as an owner table"
$glc layout 'BlockedLayout([1,4],[8,4],[4,1],[1,0])' --shape 16,16 --format=text

step "The wgmma accumulator of a 64x16 tile (4 warps, instr_shape [16,16,16])"
$glc layout 'NVMMADistributedLayout([3,0],[4,1],[16,16,16])' --shape 64,16 --format=text

step "A 128-byte swizzled fp16 shared tile (the offset of each element)"
$glc layout 'NVMMASharedLayout(128, 16)' --shape 8,64 --format=text

step "Converting between two blocked layouts: the plan and its cost"
$glc layout --convert 'BlockedLayout([1,4],[8,4],[4,1],[1,0])' \
	'BlockedLayout([4,1],[4,8],[1,4],[0,1])' --shape 32,32 --dtype f16

step "A layout mistake is caught at compile time, with both layouts"
cat > "$out/clash.gl" <<'GL'
from triton.experimental.gluon import language as gl

A: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
B: gl.constexpr = gl.BlockedLayout([2], [32], [4], [0])

@gl.kernel(num_warps=4)
def k(x: gl.ptr[gl.f32]):
    a = gl.arange(0, 512, layout=A)
    b = gl.arange(0, 512, layout=B)
    gl.store(x + a, (a + b).to(gl.f32))
GL
$glc "$out/clash.gl" --emit=ir || echo "(exit status $?)"

step "A syntax error is reported with a caret"
printf 'def k(x):\n    y = (x +\n    return y\n' > "$out/bad.gl"
$glc "$out/bad.gl" || echo "(exit status $?)"
