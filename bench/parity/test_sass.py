"""Unit tests of the code-parity harness's readers (standard library only; in `make check`):
sass.py on a checked-in `cuobjdump -sass` sample, sass.ptxas_report on a `ptxas -v` text,
ptx.ops / evidence on a PTX snippet, glc_side.launchers / entry_for on a launcher of glc's
--emit=c form.

    python3 bench/parity/test_sass.py
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import glc_side  # noqa: E402
import ptx  # noqa: E402
import sass  # noqa: E402

PTXAS_V = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k__spec' for 'sm_90a'
ptxas info    : Function properties for k__spec
    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 168 registers, used 2 barriers, 1024 bytes smem, 400 bytes cmem[0]
ptxas info    : Compile time = 3.492 ms
ptxas info    : Compiling entry function 'k' for 'sm_90a'
ptxas info    : Function properties for k
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 51 registers, used 0 barriers
"""

LAUNCHER_C = """static glrt_lazy_kernel glc_m_kernels[2] = {
\t{&glc_m_module, "k", NULL},
\t{&glc_m_module, "k__spec", NULL},
};
glrt_status
k(glrt_stream stream, unsigned grid_x, unsigned grid_y, unsigned grid_z,
\tglrt_devptr x,
\tint32_t n,
\tint32_t stride)
{
\tunsigned glc_grid[3] = {grid_x, grid_y, grid_z};
\tstatic const unsigned glc_block[3] = {128, 1, 1};
\tint glc_fast;
\tglc_fast = x % 16 == 0 &&
\t           n % 16 == 0 &&
\t           stride % 16 == 0;
\tglc_status = glrt_lazy_kernel_get(&glc_kernel, &glc_m_kernels[glc_fast ? 1 : 0]);
\treturn glrt_launch(glc_kernel, glc_grid, glc_block, NULL, 2048u, stream, glc_args);
}
"""


class Sass(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(HERE, "testdata", "sample.sass")) as f:
            self.fns = sass.functions(f.read())

    def test_functions(self):
        self.assertEqual(list(self.fns), ["sample_a", "sample_b"])
        self.assertEqual(len(self.fns["sample_a"]), 14)   # NOPs included
        ldg = self.fns["sample_b"][0]
        self.assertEqual((ldg.opcode, ldg.mods, ldg.guard), ("LDG", ["E", "128"], "@P6"))

    def test_classes_hopper(self):
        c = sass.counts(self.fns["sample_a"])
        self.assertEqual({k: v for k, v in c.items() if v},
                         {"GMMA": 2, "UTMA": 2, "SYNCS": 3, "BAR": 2, "STSM": 1, "INT": 2, "total": 12})

    def test_classes_and_widths(self):
        c = sass.counts(self.fns["sample_b"])
        for k, n in {"FFMA": 1, "FMUL": 1, "FADD": 1, "MUFU": 1, "SHFL": 1, "LDS": 1, "STS": 1,
                     "LDG": 3, "STG": 3, "LDL": 1, "STL": 1, "INT": 1, "CVT": 1, "FCMP": 1, "CTRL": 2,
                     "total": 20}.items():
            self.assertEqual(c[k], n, k)
        self.assertEqual(sass.widths(c, "LDG"), "128x1 32x1 16x1")
        self.assertEqual(sass.widths(c, "STG"), "128x1 64x1 32x1")

    def test_unknown_opcode_is_other(self):
        self.assertEqual(sass.classify(sass.Instr("FOO", [], "", "")), "OTHER")
        self.assertEqual(sass.classify(sass.Instr("UIADD3", [], "", "")), "INT")

    def test_ptxas_report(self):
        r = sass.ptxas_report(PTXAS_V)
        self.assertEqual(r["k__spec"], {"stack": 8, "spill_st": 4, "spill_ld": 12, "regs": 168,
                                        "barriers": 2, "smem": 1024})
        self.assertEqual(r["k"]["regs"], 51)
        self.assertEqual(r["k"]["smem"], 0)


PTX = """.visible .entry other(
)
{
	add.rn.f32 	%f1, %f2, %f3;
}
.visible .entry k(
	.param .u64 k_param_0
)
.maxntid 128
{
	.reg .b32 	%r<4>;
	@%p1 ld.shared.v4.b32 	{%r0, %r1, %r2, %r3}, [%rd4];
	st.shared.b32 	[%r5], %r1;
	add.rn.f16 	%rs1, %rs2, %rs3;   // a comment
	add.rn.f16x2 	%r1, %r2, %r3;
	fma.rn.f32 	%f1, %f2, %f3, %f4;
$L__BB0_1:
	ret;
}
"""


class Ptx(unittest.TestCase):
    def test_ops_of_one_entry(self):
        o = ptx.ops(PTX, "k")
        self.assertEqual(o, {"ld.shared.v4.b32": 1, "@shared64": 1, "st.shared.b32": 1, "add.rn.f16": 1,
                             "add.rn.f16x2": 1, "fma.rn.f32": 1, "ret": 1})
        self.assertEqual(ptx.ops(PTX, "missing"), {})

    def test_evidence(self):
        e = ptx.evidence(ptx.ops(PTX, "k"))
        self.assertEqual((e["f16 scalar"], e["f16x2"], e["fma.f32"], e["add.f32"]), (1, 1, 1, 0))
        self.assertEqual((e["ld.shared"], e["ld.shared.v4"], e["shared 64-bit addr"]), (1, 1, 1))


class Launchers(unittest.TestCase):
    def test_launcher_and_variant(self):
        la = glc_side.launchers(LAUNCHER_C)["k"]
        self.assertEqual((la.params, la.threads, la.smem), (["x", "n", "stride"], 128, 2048))
        self.assertEqual((la.generic, la.spec), ("k", "k__spec"))
        self.assertEqual(glc_side.entry_for(la, [{"tensor": [4]}, 64, 32]), "k__spec")
        self.assertEqual(glc_side.entry_for(la, [{"tensor": [4]}, 64, 1]), "k")
        self.assertEqual(glc_side.entry_for(la, [{"tensor": [4]}, {"constexpr": "8"}, 64, 16]), "k__spec")

    def test_unknown_test_is_refused(self):
        with self.assertRaises(ValueError):
            glc_side.launchers(LAUNCHER_C.replace("stride % 16 == 0", "stride > 0"))


if __name__ == "__main__":
    unittest.main()
