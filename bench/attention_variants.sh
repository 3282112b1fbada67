#!/bin/sh
# attention_variants.sh: the variants of examples/attention_fwd.gl that the
# GPU test (test/gpu/bundle.sh) and the benchmark (bench/bundle.sh) compile,
# one line each: the launcher's name, attention_fwd_DTYPE_dD[_causal], then
# the glc flags that make it.
for dt in f16 bf16; do
	for d in 64 128 256; do
		for causal in False True; do
			name=attention_fwd_${dt}_d$d
			[ $causal = True ] && name=${name}_causal
			echo "$name -D DTYPE=gl.$dt -D HEAD_D=$d -D CAUSAL=$causal"
		done
	done
done
