#!/bin/sh
# On the GPU machine (gcc, python3 with torch): the library from the
# bundle's objects, then the torch test. Exit status: test_torch.py's.
set -eu
cd "$(dirname "$0")"
gcc -shared -fPIC -I. -o libkernels.so lib.c vector_add.o scale.o add.o \
	-Wl,--whole-archive libglrt.a -Wl,--no-whole-archive -ldl -pthread
PYTHONPATH=. python3 test_torch.py
