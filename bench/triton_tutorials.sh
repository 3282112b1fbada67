#!/bin/sh
# Compiles the kernels of Triton's triton.language tutorials (python/tutorials/,
# the rows of bench/triton_tutorials.list) from the unmodified files with glc:
# bench/gluon_tutorials.sh with that list, same arguments and outputs.
#
#   sh bench/triton_tutorials.sh DIR [GLC] [OUT]
#
# DIR holds the files as they are (bench/triton_tutorials_fetch.sh DIR writes
# them where there is a network); with OUT, `python3 OUT/gluon_tutorials_run.py
# OUT DIR` runs the compiled rows against Triton on the GPU.
GLUON_LIST=$(dirname "$0")/triton_tutorials.list exec sh "$(dirname "$0")/gluon_tutorials.sh" "$@"
