#!/bin/sh
# Builds the bundle of the torch package's GPU test (run here, where glc is):
# vector_add.gl and test/install/two_py's kernels (four specializations
# each, glc link's dispatchers), libglrt.a, python/glc and test_torch.py
# into OUT (default gpu-run/torch_glc). On the GPU machine: sh OUT/run.sh.
set -eu
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
GLC=${GLC:-$ROOT/build/glc}
OUT=${1:-$ROOT/gpu-run/torch_glc}
rm -rf "$OUT" && mkdir -p "$OUT"
cd "$OUT"
K=$ROOT/test/install/two_py
"$GLC" "$ROOT/examples/vector_add.gl" -c -o vector_add.o --manifest vector_add.json --no-cache
"$GLC" "$K/scale.py" -n scale_kernel -s "*fp32:16, *fp32:16, i32:16, 1024" -s "*fp32, *fp32, i32, 1024" \
	-s "*fp32:16, *fp32:16, i32:16, 256" -s "*fp32, *fp32, i32, 256" -c -o scale.o --manifest scale.json --no-cache
"$GLC" "$K/add.py" -n add_kernel -s "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" -s "*fp32, *fp32, *fp32, i32, 1024" \
	-s "*fp32:16, *fp32:16, *fp32:16, i32:16, 256" -s "*fp32, *fp32, *fp32, i32, 256" -c -o add.o --manifest add.json --no-cache
"$GLC" link vector_add.json scale.json add.json -o lib.c --header lib.h --manifest lib.json
cp "$ROOT/runtime/glrt.h" "$ROOT/build/libglrt.a" .
cp -r "$ROOT/python/glc" glc
cp "$ROOT/test/gpu/torch_glc/test_torch.py" "$ROOT/test/gpu/torch_glc/run.sh" .
echo "bundle in $OUT: copy it to the GPU machine and run: sh run.sh"
