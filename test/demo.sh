#!/bin/sh
# `make demo`: builds glc, runs it over the example kernels and shows their
# layouts. Code generation (PTX/cubin/.o) is not implemented yet; the demo
# says so and stops after the front end and the layout tool.
set -eu
cd "$(dirname "$0")/.."
make -s -j2 all
glc=build/glc
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "glc --version"
$glc --version

step "Every example parses"
for f in examples/*.gl; do
	$glc "$f" --emit=ast >/dev/null
	echo "ok  $f"
done

step "The AST of examples/vector_add.gl (first 25 lines)"
$glc examples/vector_add.gl --emit=ast | head -n 25

step "A blocked layout: who owns which element of a 16x16 tile"
$glc layout 'BlockedLayout([1,4],[8,4],[4,1],[1,0])' --shape 16,16 --format=text

step "Its bases as JSON"
$glc layout 'BlockedLayout([1,4],[8,4],[4,1],[1,0])' --shape 32,16 --format=json

step "The wgmma accumulator of a 64x16 tile (4 warps, instr_shape [16,16,16])"
$glc layout 'NVMMADistributedLayout([3,0],[4,1],[16,16,16])' --shape 64,16 --format=text

step "A 128-byte swizzled fp16 shared tile (offsets of each element)"
$glc layout 'NVMMASharedLayout(128, 16)' --shape 8,64 --format=text

step "Converting between two blocked layouts"
$glc layout --convert 'BlockedLayout([1,4],[8,4],[4,1],[1,0])' \
	'BlockedLayout([4,1],[4,8],[1,4],[0,1])' --shape 32,32 --dtype f16

step "A syntax error is reported with a caret"
printf 'def k(x):\n    y = (x +\n    return y\n' > build/demo_bad.gl
$glc build/demo_bad.gl || echo "(exit status $?)"

step "Not yet: code generation"
$glc examples/vector_add.gl --emit=ptx || echo "(exit status $?)"
echo
echo "The front end and the layout algebra work; PTX/cubin/.o generation comes next (see README)."
