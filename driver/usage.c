/* The text of `glc --help` (docs/usage.md is its long form, checked against it). */
#include "driver/driver.h"

#include <stdio.h>

void
drv_usage(StrBuf *out)
{
	buf_puts(out,
	    "usage: glc FILE.gl|FILE.ir [-o OUT] [--emit=KIND] [-c] [-D NAME=VALUE]... [--kernel NAME]\n"
	    "       glc FILE.py -n KERNEL -s SIGNATURE... [-w N] [-on NAME] [-g X,Y,Z] [-I DIR]...\n"
	    "                   [--header FILE] [-MD|-MMD [-MF FILE] [-MP] [-MT T] [-MQ T]]\n"
	    "                   [--arch sm_90a] [-O0|-O1|-O2|-O3] [-g] [--debug]\n"
	    "                   [--diag-format=text|json]\n"
	    "                   [--max-errors=N] [--max-LIMIT=N]... [-v] [--verbose] [--time-passes]\n"
	    "                   [--print-after=PASS]... [--print-after-all]\n"
	    "                   [--split-input-file] [--verify-diagnostics]\n"
	    "       glc layout LAYOUT --shape D0,D1,... [--format=text|json|matrix|svg]\n"
	    "       glc layout --convert SRC DST --shape D0,D1,... [--dtype f16]\n"
	    "       glc --help | --version\n"
	    "\n"
	    "Compiles Gluon-like .gl GPU kernels for NVIDIA Hopper (sm_90a). A .ir file\n"
	    "(what --emit=ir prints) goes straight to code generation.\n"
	    "\n"
	    "  --emit=KIND        tokens, ast, ir (or typed), llvm, ptx, cubin, c, header or obj\n"
	    "  -c                 same as --emit=obj: a .o with the cubin and launchers\n"
	    "  -o OUT             output file (default: standard output for text); a .py\n"
	    "                     file without -c or --emit writes OUT.c and OUT.h, as\n"
	    "                     compile.py does (OUT's extension replaced)\n"
	    "  -D NAME=VALUE      override the constexpr parameter NAME of the kernels\n"
	    "  --kernel NAME      compile only the kernel NAME (also -n, --kernel-name)\n"
	    "  -s SIGNATURE       a .py kernel's parameters, as triton/tools/compile.py takes\n"
	    "                     them: \"*fp16:16, i32, 1024\" (repeatable: one launcher each)\n"
	    "  -w N               number of warps of a .py kernel (default 4; --num-warps)\n"
	    "  -on NAME           name the launchers NAME (NAME_0, NAME_1, ... for several\n"
	    "                     -s of a .py kernel) instead of after the kernel; a .gl\n"
	    "                     file's one kernel (--kernel); --out-name\n"
	    "  -g X,Y,Z           (--grid) the .py kernel's launchers compute the grid from\n"
	    "                     their arguments: integer expressions over its integer\n"
	    "                     and constexpr parameters with + - * / % and parentheses\n"
	    "                     (-g is this when its next argument is not an option, an\n"
	    "                     existing file or a .py, .gl or .ir name)\n"
	    "  -I DIR             look for imported .py files in DIR too\n"
	    "  --header FILE      with -c or --emit=c: also write the launchers' header, from\n"
	    "                     the same compilation (its include guard from FILE's name)\n"
	    "  -MD, -MMD          write a make/ninja depfile of every file read (OUT.d)\n"
	    "  -MF FILE           the depfile's name (implies -MD)\n"
	    "  -MP                a rule without prerequisites for each file read but the\n"
	    "                     input, so that make survives a deleted import\n"
	    "  -MT T, -MQ T       the depfile's target instead of OUT (repeatable; -MQ\n"
	    "                     quotes make's special characters)\n"
	    "  --arch ARCH        target architecture; only sm_90a is supported\n"
	    "  -O0..-O3           LLVM optimization level (default -O3)\n"
	    "  -g                 line information (.loc) pointing at .gl lines, as\n"
	    "                     nvcc -lineinfo (the code is optimized as without -g);\n"
	    "                     keeps device assertions as --debug does\n"
	    "  --debug            keep device assertions (gl.device_assert, assert on runtime\n"
	    "                     values), which are compiled out otherwise, as in Triton\n"
	    "  -v                 print each kernel's registers, spills, stack, shared and\n"
	    "                     constant memory (ptxas -v, as nvcc -Xptxas -v) on\n"
	    "                     standard error, for outputs that run ptxas\n"
	    "  --verbose          --emit=ir also prints every layout's bases\n"
	    "  --time-passes      print how long each stage and pass took (standard error)\n"
	    "  --print-after=PASS print the IR after PASS on standard error (repeatable);\n"
	    "                     passes: layout-infer, verify, smem-plan, cvt-plan,\n"
	    "                     specialize, axis\n"
	    "  --print-after-all  print the IR after every pass\n"
	    "  --verify-each      run the IR verifier after every pass (for glc's own tests)\n"
	    "  --diag-format=F    diagnostics as GCC-style text (default) or JSON\n"
	    "  --max-errors=N     stop reporting after N errors (default 50, 0: no limit)\n"
	    "  --split-input-file compile each case of the input (split at lines // -----\n"
	    "                     or # -----) on its own\n"
	    "  --verify-diagnostics  succeed iff the diagnostics are exactly those the\n"
	    "                     input expects in comments (expected-error@+1 {{text}})\n"
	    "\n"
	    "An option that the input or the output asked for would ignore is an error\n"
	    "(-w, -ns, -s, -I and -g X,Y,Z are for .py files).\n"
	    "\n"
	    "Limits (passing one is an error that names it; see docs/limits.md):\n");
	Limits def = limits_default();
	for (int i = 0; i < LIM_COUNT_; i++) {
		char opt[40];
		snprintf(opt, sizeof opt, "--%s=N", limit_name((LimitId)i));
		buf_printf(out, "  %-24s %s (default %llu)\n", opt, limit_what((LimitId)i),
		           (unsigned long long)def.max[i]);
	}
	buf_puts(out,
	    "\n"
	    "glc layout prints a layout (Gluon constructor syntax, e.g.\n"
	    "'BlockedLayout([1,4],[8,4],[4,1],[1,0])') fitted to --shape: its owner table\n"
	    "(text), bases (json), F2 matrix (matrix) or a picture (svg). With --convert it\n"
	    "prints the conversion map from SRC to DST and how it is lowered.\n"
	    "\n"
	    "Exit status: 0 success, 1 errors in the input (a limit passed included),\n"
	    "2 bad usage, 3 internal compiler error (a bug in glc), 4 out of memory.\n");
}

