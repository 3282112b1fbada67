# compile.py's -g/--grid "X,Y,Z": the launchers take no grid arguments and
# compute it from theirs (integer parameters; constexprs substituted), in the
# header, the C launchers and the object alike; each launcher of several -s.
# RUN: %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "(M + BLOCK - 1) / BLOCK, N % 3 * -2, flag + 1" --emit=header -o - | FileCheck %s --check-prefix=HDR
# HDR: /* scale: 128 threads per block.
# HDR-NEXT: * Grid: (M + 64 - 1) / 64, N % 3 * -2, flag + 1 (nothing is launched when one is 0). */
# HDR-NEXT: glrt_status
# HDR-NEXT: scale(glrt_stream stream,
# HDR-NEXT: 	glrt_devptr x_ptr,
# HDR-NEXT: 	float a,
# HDR-NEXT: 	int32_t M,
# HDR-NEXT: 	uint32_t N,
# HDR-NEXT: 	bool flag);
# RUN: %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "(M + BLOCK - 1) / BLOCK, N % 3 * -2, flag + 1" --emit=c -o - | FileCheck %s --check-prefix=C
# C: scale(glrt_stream stream,
# C: unsigned glc_grid[3];
# C: int64_t glc_g0 = (int64_t)((uint64_t)(int64_t)M + (uint64_t)INT64_C(64));
# C-NEXT: int64_t glc_g1 = (int64_t)((uint64_t)glc_g0 - (uint64_t)INT64_C(1));
# C-NEXT: int64_t glc_g2 = glc_g1 / INT64_C(64);
# C-NEXT: glc_grid[0] = (unsigned)glc_g2;
# C-NEXT: int64_t glc_g3 = (int64_t)N % INT64_C(3);
# C-NEXT: int64_t glc_g4 = (int64_t)((uint64_t)glc_g3 * (uint64_t)INT64_C(-2));
# C-NEXT: glc_grid[1] = (unsigned)glc_g4;
# C-NEXT: int64_t glc_g5 = (int64_t)((uint64_t)(int64_t)flag + (uint64_t)INT64_C(1));
# C-NEXT: glc_grid[2] = (unsigned)glc_g5;
# C-NEXT: if (glc_grid[0] == 0 || glc_grid[1] == 0 || glc_grid[2] == 0)
# C-NEXT: return GLRT_SUCCESS;
# C-NEXT: glc_status = glrt_lazy_kernel_get(
#
# A divisor that may be 0 (or -1 under INT64_MIN) is checked before dividing.
# RUN: %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" --grid "M / (N - 1), 1, 1" --emit=c -o - | FileCheck %s --check-prefix=DIV
# DIV: int64_t glc_g0 = (int64_t)((uint64_t)(int64_t)N - (uint64_t)INT64_C(1));
# DIV-NEXT: int64_t glc_g1 = (int64_t)M;
# DIV-NEXT: if (glc_g0 == 0 || (glc_g0 == -1 && glc_g1 == INT64_MIN))
# DIV-NEXT: return glrt_invalid_argument("scale: the grid divides by zero (or INT64_MIN by -1)");
# DIV-NEXT: int64_t glc_g2 = glc_g1 / glc_g0;
#
# Several -s: each launcher computes the grid; a constexpr in one is folded.
# RUN: %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -s "*fp32, fp32, 128, u32, i1, 64" --grid=M/BLOCK,N,1 --emit=header -o - | FileCheck %s --check-prefix=TWO
# TWO: * Grid: M / 64, N, 1 (nothing
# TWO: scale_0(glrt_stream stream,
# TWO-NEXT: glrt_devptr x_ptr,
# TWO: * Grid: 2, N, 1 (nothing
# TWO: scale_1(glrt_stream stream,
# TWO-NEXT: glrt_devptr x_ptr,
#
# The object exports the same launchers (its host IR is checked against a
# fake driver by test/unit/test_codegen.c).
# RUN: %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -s "*fp32, fp32, 128, u32, i1, 64" -g "M/BLOCK,N,1" -c -o %t.o
# RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
# OBJ-DAG: T scale_0
# OBJ-DAG: T scale_1
# OBJ-DAG: U glrt_launch
#
# -g followed by an option, the input or nothing is glc's line information.
# RUN: %glc -g %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g --emit=header -o - | FileCheck %s --check-prefix=LINES
# LINES: scale(glrt_stream stream, unsigned grid_x, unsigned grid_y, unsigned grid_z,
#
# RUN: %glc --help | FileCheck %s --check-prefix=HELP
# HELP: -g X,Y,Z           (--grid) the .py kernel's launchers compute the grid from
#
# Errors name the option and the problem.
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "M/16" 2>&1 | FileCheck %s --check-prefix=ONE
# ONE: glc: error: -g 'M/16': expected three expressions (x, y, z), not 1
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "M,N,1,1" 2>&1 | FileCheck %s --check-prefix=FOUR
# FOUR: glc: error: -g 'M,N,1,1': expected three expressions (x, y, z), not more
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" --grid "K,1,1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# UNKNOWN: glc: error: --grid 'K,1,1': unknown name 'K': scale has no parameter of that name
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "x_ptr,1,1" 2>&1 | FileCheck %s --check-prefix=PTR
# PTR: glc: error: -g 'x_ptr,1,1': 'x_ptr' is a pointer parameter of scale, not an integer
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "a,1,1" 2>&1 | FileCheck %s --check-prefix=FLOAT
# FLOAT: glc: error: -g 'a,1,1': 'a' is a f32 parameter of scale, not an integer
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "(M+1,1,1" 2>&1 | FileCheck %s --check-prefix=PAREN
# PAREN: glc: error: -g '(M+1,1,1': expected ')' at ',1,1'
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "M*,1,1" 2>&1 | FileCheck %s --check-prefix=OPERAND
# OPERAND: glc: error: -g 'M*,1,1': expected a number, a parameter or '(' at ',1,1'
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "M N,1,1" 2>&1 | FileCheck %s --check-prefix=COMMA
# COMMA: glc: error: -g 'M N,1,1': expected ',' at 'N,1,1'
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "1024u,1,1" 2>&1 | FileCheck %s --check-prefix=SUFFIX
# SUFFIX: glc: error: -g '1024u,1,1': '1024u' is not a decimal integer from 0 to 9223372036854775807
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "010,1,1" 2>&1 | FileCheck %s --check-prefix=OCTAL
# OCTAL: glc: error: -g '010,1,1': '010': write integers in decimal without a leading 0 (C would read 010 as octal)
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "M/(BLOCK-64),1,1" 2>&1 | FileCheck %s --check-prefix=ZERO
# ZERO: glc: error: -g 'M/(BLOCK-64),1,1': the constant divisor is 0
# RUN: not %glc %s -n scale -s "*fp32, fp32, i32, u32, i1, 64" -g "1,1,1" --grid=2,2,2 2>&1 | FileCheck %s --check-prefix=TWICE
# TWICE: glc: error: --grid '2,2,2': the grid was already given ('1,1,1')
# RUN: not %glc %examples/vector_add.gl -g "1,1,1" 2>&1 | FileCheck %s --check-prefix=GL
# GL: glc: error: -g '1,1,1': a grid applies to the launchers of a .py file; those of {{.*}}vector_add.gl take the grid when called
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def scale(x_ptr, a, M, N, flag, BLOCK: gl.constexpr):
    off = M * 2 + N
    gl.store(x_ptr + off, a)
