"""Third opinions on glc's answers: interp (a kernel run by Triton's interpreter, with
interp_fixes for its bf16/fp8 and atomics), and Triton's own layout computations
checked against glc's (layout, shape, cga, bank). All need Triton 3.6."""
