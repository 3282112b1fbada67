"""The differential tester's runs: glc (glc as a subprocess, outcomes classified),
cpu_check (the CPU half, in make check), bundle and run_gpu (the GPU half), shrink
(delta debugging) and gluon_compile (Triton compiles the translations)."""
