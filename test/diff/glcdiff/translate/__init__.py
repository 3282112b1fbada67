"""Translators of .gl files: gl2gluon (to Triton's Gluon, for the GPU half), gl2tl
(to triton.language, for Triton's interpreter) with tl_shim (the `gl` namespace the
interpreter runs), gl2pytl (to plain triton.language: the generator's tl mode), and
gl_ast (the syntax-tree rewrites they share)."""
