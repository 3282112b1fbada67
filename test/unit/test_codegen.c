/*
 * codegen's scaffolding: target validation, kernels built directly with the
 * builder helpers -> PTX that ptxas -arch=sm_90a accepts, line tables; and
 * package/ on what they build: ptxas failures as diagnostics, the header,
 * C launchers that compile, a reproducible host object whose launchers
 * check their arguments.
 */
#include "codegen/llvm/nvvm.h"
#include "package/package.h"
#include "runtime/glrt.h"
#include "test/unit/check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CG_TEST_BUILD
#define CG_TEST_BUILD "build"
#endif
#ifndef CG_TEST_LDFLAGS
#define CG_TEST_LDFLAGS ""
#endif

static Arena *A;
static Diags D;
static Sources *S;
static uint32_t FILE_ID;

static void
reset(void)
{
	if (A)
		arena_free(A);
	A = arena_new();
	S = src_new(A);
	diag_init(&D, A, S);
	static const char text[] = "# k.gl\n\ndef vadd(x, y, z, n):\n    i = pid\n"
	                           "    z[i] = x[i] + y[i]\n";
	FILE_ID = src_add(S, "k.gl", text, sizeof text - 1);
}

static bool
contains(CgBlob b, const char *needle)
{
	return b.data && strstr((const char *)b.data, needle) != NULL;
}

static CgTarget *
target(int opt, bool g)
{
	CgOptions o = {"sm_90a", opt, g, g, NULL, false};
	return cg_target_new(&o, &D);
}

static const CgParam VADD_PARAMS[] = {
	{"x", CG_PARAM_PTR, DT_F32, 16, 0, 0},
	{"y", CG_PARAM_PTR, DT_F32, 16, 0, 0},
	{"z", CG_PARAM_PTR, DT_F32, 16, 0, 0},
	{"n", CG_PARAM_SCALAR, DT_I32, 4, 0, 0},
};

static const CgKernelSig VADD = {
	.name = "vadd", .params = VADD_PARAMS, .n_params = 4, .num_warps = 4,
	.at = {1, 3, 1, 4},
};

/* z[i] = x[i] + y[i] for i = ctaid.x * 128 + tid.x < n, one element each. */
static void
build_vadd(CgModule *m)
{
	LLVMValueRef fn = cg_kernel_begin(m, &VADD);
	cg_set_loc(m, (SrcSpan){1, 4, 5, 3});
	LLVMValueRef i = LLVMBuildAdd(m->b, LLVMBuildMul(m->b, cg_sreg(m, CG_CTAID_X),
	                              LLVMConstInt(m->i32, 128, 0), ""), cg_sreg(m, CG_TID_X), "i");
	LLVMValueRef in = LLVMBuildICmp(m->b, LLVMIntSLT, i, LLVMGetParam(fn, 3), "");
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(m->ctx, fn, "body");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(m->ctx, fn, "done");
	LLVMBuildCondBr(m->b, in, body, done);
	LLVMPositionBuilderAtEnd(m->b, body);
	cg_set_loc(m, (SrcSpan){1, 5, 5, 4});
	LLVMValueRef idx = LLVMBuildSExt(m->b, i, m->i64, "");
	LLVMValueRef v[2];
	for (int k = 0; k < 2; k++) {
		LLVMValueRef p = LLVMBuildGEP2(m->b, m->f32, LLVMGetParam(fn, (unsigned)k), &idx, 1, "");
		v[k] = LLVMBuildLoad2(m->b, m->f32, p, "");
	}
	LLVMValueRef pz = LLVMBuildGEP2(m->b, m->f32, LLVMGetParam(fn, 2), &idx, 1, "");
	LLVMBuildStore(m->b, LLVMBuildFAdd(m->b, v[0], v[1], ""), pz);
	LLVMBuildBr(m->b, done);
	LLVMPositionBuilderAtEnd(m->b, done);
	LLVMBuildRetVoid(m->b);
}

/* Builds a module with `build`, runs it to PTX and returns it. */
static CgBlob
to_ptx(CgTarget *t, void (*build)(CgModule *), CgBlob *ir)
{
	CgModule m;
	CgBlob ptx = {0};
	cg_module_init(&m, t, "k", S, FILE_ID, A, &D);
	build(&m);
	if (cg_module_verify(&m) && cg_module_optimize(&m)) {
		if (ir)
			*ir = cg_module_ir(&m);
		cg_module_ptx(&m, &ptx);
	}
	cg_module_dispose(&m);
	return ptx;
}

static void
test_target_validation(void)
{
	reset();
	CgOptions bad = {"sm_80", 2, false, false, NULL, false};
	CHECK(cg_target_new(&bad, &D) == NULL);
	CHECK_EQ(1, D.errors);
	CHECK(strstr(D.first->msg, "unsupported target architecture 'sm_80'") != NULL);
	CgOptions olev = {"sm_90a", 4, false, false, NULL, false};
	CHECK(cg_target_new(&olev, &D) == NULL);
	CHECK_EQ(2, D.errors);
	CgTarget *t = target(3, false);
	CHECK(t != NULL);
	CHECK_STR("sm_90a", cg_target_arch(t));
	cg_target_free(t);
}

static void
test_vadd_ptx_assembles(void)
{
	reset();
	CgTarget *t = target(2, false);
	CgBlob ir = {0};
	CgBlob ptx = to_ptx(t, build_vadd, &ir);
	CHECK_EQ(0, D.errors);
	CHECK(contains(ir, "define ptx_kernel void @vadd(ptr addrspace(1) "));
	CHECK(contains(ir, "align 16 captures(none) %x"));
	CHECK(contains(ir, "\"nvvm.maxntid\"=\"128\""));
	CHECK(contains(ptx, ".target sm_90a"));
	CHECK(contains(ptx, ".version 8.0"));
	CHECK(contains(ptx, ".visible .entry vadd("));
	CHECK(contains(ptx, ".maxntid 128"));
	CHECK(contains(ptx, "ld.global.b32"));
	CHECK(contains(ptx, "st.global.b32"));
	CHECK(contains(ptx, "add.rn.f32") || contains(ptx, "add.f32"));
	CgBlob cubin = {0};
	CHECK(pkg_ptxas(&(PkgPtxas){.arch = "sm_90a"}, ptx, A, &D, &cubin));
	CHECK_EQ(0, D.errors);
	CHECK(cubin.len > 4 && memcmp(cubin.data, "\177ELF", 4) == 0);
	cg_target_free(t);
}

static void
test_line_info(void)
{
	reset();
	CgTarget *t = target(2, true);
	CgBlob ptx = to_ptx(t, build_vadd, NULL);
	CHECK_EQ(0, D.errors);
	CHECK(contains(ptx, ".file\t1 \"k.gl\"") || contains(ptx, ".file 1 \"k.gl\""));
	CHECK(contains(ptx, ".loc\t1 5 ") || contains(ptx, ".loc 1 5 "));
	CgBlob cubin = {0};
	CHECK(pkg_ptxas(&(PkgPtxas){.arch = "sm_90a"}, ptx, A, &D, &cubin));
	CHECK_EQ(0, D.errors);
	cg_target_free(t);
}

static const CgParam HOPPER_PARAMS[] = {
	{"desc", CG_PARAM_TENSOR_MAP, DT_F16, 0, 0, 0},
	{"out", CG_PARAM_PTR, DT_F32, 16, 0, 0},
};

/* Every Hopper helper once: TMA into shared memory through an mbarrier,
 * one wgmma, setmaxnreg, shuffles, a barrier, a TMA store. */
static void
build_hopper(CgModule *m)
{
	static const CgKernelSig sig = {
		.name = "hopper", .params = HOPPER_PARAMS, .n_params = 2, .num_warps = 4,
		.minctasm = 1, .at = {1, 3, 1, 4},
	};
	LLVMValueRef fn = cg_kernel_begin(m, &sig);
	LLVMValueRef smem = cg_shared_global(m, "tile", 64 * 64 * 2, 1024);
	LLVMValueRef bar = cg_shared_global(m, "bar", 8, 8);
	LLVMValueRef tmap = LLVMGetParam(fn, 0);
	cg_setmaxnreg(m, true, 232);
	cg_mbarrier_init(m, bar, LLVMConstInt(m->i32, 1, 0));
	cg_fence_mbarrier_init(m);
	cg_barrier(m);
	LLVMValueRef zero = LLVMConstInt(m->i32, 0, 0);
	LLVMValueRef coords[2] = {zero, cg_sreg(m, CG_CTAID_X)};
	cg_mbarrier_expect_tx(m, bar, LLVMConstInt(m->i32, 64 * 64 * 2, 0));
	cg_tma_load(m, smem, bar, tmap, coords, 2);
	cg_mbarrier_wait(m, bar, zero);
	LLVMValueRef desc = LLVMBuildZExt(m->b, LLVMBuildPtrToInt(m->b, smem, m->i32, ""),
	                                  m->i64, "");
	LLVMValueRef acc[32];
	cg_wgmma_fence(m);
	CgWgmma f16 = {64, DT_F16, DT_F16, DT_F32, false, false, false};
	CgWgmma bad = {12, DT_F16, DT_F16, DT_F32, false, false, false};
	CHECK(cg_wgmma_mma(m, &f16, NULL, desc, NULL, desc, LLVMConstInt(m->i1, 0, 0), acc));
	CHECK(cg_wgmma_mma(m, &f16, acc, desc, NULL, desc, LLVMConstInt(m->i1, 1, 0), acc));
	CHECK(!cg_wgmma_mma(m, &bad, NULL, desc, NULL, desc, LLVMConstInt(m->i1, 0, 0), acc));
	cg_wgmma_commit(m);
	cg_wgmma_wait(m, 0);
	LLVMValueRef s = acc[0];
	for (int i = 1; i < 32; i++)
		s = LLVMBuildFAdd(m->b, s, acc[i], "");
	s = LLVMBuildFAdd(m->b, s, cg_shfl(m, CG_SHFL_BFLY, s, LLVMConstInt(m->i32, 1, 0)), "");
	LLVMValueRef wide = LLVMBuildFPExt(m->b, s, m->f64, "");
	wide = cg_shfl(m, CG_SHFL_IDX, wide, cg_warp_id(m));
	s = LLVMBuildFPTrunc(m->b, wide, m->f32, "");
	LLVMValueRef h = LLVMBuildFPTrunc(m->b, s, m->f16, "");
	h = cg_shfl(m, CG_SHFL_DOWN, h, LLVMConstInt(m->i32, 2, 0));
	s = LLVMBuildFPExt(m->b, h, m->f32, "");
	LLVMValueRef idx = LLVMBuildZExt(m->b, cg_sreg(m, CG_TID_X), m->i64, "");
	LLVMBuildStore(m->b, s, LLVMBuildGEP2(m->b, m->f32, LLVMGetParam(fn, 1), &idx, 1, ""));
	cg_fence_async_shared(m);
	cg_barrier(m);
	cg_tma_store(m, tmap, smem, coords, 2);
	cg_tma_store_commit(m);
	cg_tma_store_wait(m, 0);
	LLVMBuildRetVoid(m->b);
}

static void
test_hopper_helpers_assemble(void)
{
	reset();
	CgTarget *t = target(3, false);
	CgBlob ir = {0};
	CgBlob ptx = to_ptx(t, build_hopper, &ir);
	CHECK_EQ(0, D.errors);
	CHECK(contains(ir, "ptr byval([128 x i8]) align 64 \"nvvm.grid_constant\" %desc"));
	CHECK(contains(ptx, ".param .align 64 .b8 hopper_param_0[128]"));
	CHECK(contains(ptx, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"));
	CHECK(contains(ptx, "cp.async.bulk.tensor.2d.shared::cluster.global"));
	CHECK(contains(ptx, "cp.async.bulk.tensor.2d.global.shared::cta"));
	CHECK(contains(ptx, "mbarrier.try_wait.parity"));
	CHECK(contains(ptx, "setmaxnreg.inc.sync.aligned.u32 \t232;"));
	CHECK(contains(ptx, "shfl.sync.bfly.b32"));
	CHECK(contains(ptx, "shfl.sync.idx.b32"));
	CHECK(contains(ptx, "shfl.sync.down.b32"));
	CHECK(contains(ptx, "bar.sync"));
	CHECK(contains(ptx, "fence.proxy.async.shared::cta"));
	CgBlob cubin = {0};
	CHECK(pkg_ptxas(&(PkgPtxas){.arch = "sm_90a"}, ptx, A, &D, &cubin));
	CHECK_EQ(0, D.errors);
	CHECK_EQ(0, D.warnings);
	cg_target_free(t);
}

/* The form table of wgmma.mma_async: operand families, accumulators,
 * majorness and the n of the 8-bit integer forms. */
static void
test_wgmma_forms(void)
{
	static const struct {
		CgWgmma f;
		bool ok;
	} cases[] = {
		{{256, DT_F16, DT_F16, DT_F32, false, true, true}, true},
		{{8, DT_F16, DT_F16, DT_F16, true, false, true}, true},
		{{64, DT_BF16, DT_BF16, DT_F16, false, false, false}, false},
		{{64, DT_F16, DT_BF16, DT_F32, false, false, false}, false},
		{{64, DT_F32, DT_F32, DT_F32, true, false, false}, true},
		{{64, DT_F32, DT_F32, DT_F32, false, false, true}, false},
		{{128, DT_F8E4M3, DT_F8E5M2, DT_F16, false, false, false}, true},
		{{128, DT_F8E4M3, DT_F8E4M3, DT_F32, false, true, false}, false},
		{{128, DT_F8E4M3, DT_I8, DT_F32, false, false, false}, false},
		{{24, DT_I8, DT_U8, DT_I32, true, false, false}, true},
		{{40, DT_U8, DT_U8, DT_I32, false, false, false}, false},
		{{48, DT_U8, DT_I8, DT_I32, false, false, false}, true},
		{{64, DT_I8, DT_I8, DT_F32, false, false, false}, false},
		{{264, DT_F16, DT_F16, DT_F32, false, false, false}, false},
		{{12, DT_F16, DT_F16, DT_F32, false, false, false}, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK_EQ(cases[i].ok, cg_wgmma_valid(&cases[i].f));
	CHECK_EQ(8, cg_wgmma_k(DT_F32));
	CHECK_EQ(32, cg_wgmma_k(DT_U8));
	CHECK_EQ(0, cg_wgmma_k(DT_F64));
}

static void
test_ptxas_failures(void)
{
	reset();
	static const char bad[] = ".version 8.0\n.target sm_90a\n.address_size 64\n"
	                          ".visible .entry k() { bogus.instruction; }\n";
	CgBlob cubin = {0};
	CHECK(!pkg_ptxas(&(PkgPtxas){.arch = "sm_90a"},
	                 (CgBlob){(const unsigned char *)bad, sizeof bad - 1}, A, &D, &cubin));
	CHECK_EQ(1, D.errors);
	CHECK_EQ(1, D.internal);
	CHECK(strstr(D.first->msg, "ptxas rejected the PTX that glc generated") != NULL);
	CHECK(D.first->notes && strstr(D.first->notes->msg, "bogus") != NULL);

	reset();
	setenv("GLC_PTXAS", "/nonexistent/ptxas", 1);
	CHECK(!pkg_ptxas(&(PkgPtxas){.arch = "sm_90a"},
	                 (CgBlob){(const unsigned char *)bad, sizeof bad - 1}, A, &D, &cubin));
	unsetenv("GLC_PTXAS");
	CHECK_EQ(1, D.errors);
	CHECK(strstr(D.first->msg, "cannot run ptxas '/nonexistent/ptxas'") != NULL);
}

static const CgParam MIXED_PARAMS[] = {
	{"a", CG_PARAM_PTR, DT_F16, 16, 0, 0},
	{"m", CG_PARAM_SCALAR, DT_I32, 16, 0, 0},
	{"scale", CG_PARAM_SCALAR, DT_F16, 0, 0, 0},
	{"map", CG_PARAM_TENSOR_MAP, DT_F16, 0, 0, 0},
	/* map's global extents: read from the map, not taken as arguments */
	{"map_shape0", CG_PARAM_SCALAR, DT_I32, 0, 4, 0},
	{"map_shape1", CG_PARAM_SCALAR, DT_I32, 0, 4, 1},
};

/* A kernel that builds two tensor maps: 256 bytes of global scratch per
 * program, a hidden last argument. */
static const CgParam SCRATCHY_PARAMS[] = {
	{"p", CG_PARAM_PTR, DT_F16, 0, 0, 0},
};

/* k_grid computes its grid: ((m + 15) / 16, u % d, (m - 120) / -4). */
static const CgParam GRID_PARAMS[] = {
	{"m", CG_PARAM_SCALAR, DT_I32, 0, 0, 0},
	{"u", CG_PARAM_SCALAR, DT_U32, 0, 0, 0},
	{"d", CG_PARAM_SCALAR, DT_I64, 0, 0, 0},
};
static const CgGridExpr G_M = {CG_GRID_PARAM, 0, 0, NULL, NULL};
static const CgGridExpr G_U = {CG_GRID_PARAM, 0, 1, NULL, NULL};
static const CgGridExpr G_D = {CG_GRID_PARAM, 0, 2, NULL, NULL};
static const CgGridExpr G_15 = {CG_GRID_CONST, 15, 0, NULL, NULL};
static const CgGridExpr G_16 = {CG_GRID_CONST, 16, 0, NULL, NULL};
static const CgGridExpr G_120 = {CG_GRID_CONST, 120, 0, NULL, NULL};
static const CgGridExpr G_MINUS4 = {CG_GRID_CONST, -4, 0, NULL, NULL};
static const CgGridExpr G_X1 = {CG_GRID_ADD, 0, 0, &G_M, &G_15};
static const CgGridExpr G_X = {CG_GRID_DIV, 0, 0, &G_X1, &G_16};
static const CgGridExpr G_Y = {CG_GRID_REM, 0, 0, &G_U, &G_D};
static const CgGridExpr G_Z1 = {CG_GRID_SUB, 0, 0, &G_M, &G_120};
static const CgGridExpr G_Z = {CG_GRID_DIV, 0, 0, &G_Z1, &G_MINUS4};

static PkgUnit
package(CgBlob ptx, CgBlob cubin)
{
	static CgKernelSig k[4];
	k[0] = VADD;
	k[1] = (CgKernelSig){.name = "mixed", .params = MIXED_PARAMS, .n_params = 6,
	                     .num_warps = 8, .cluster = {2, 1, 1}, .smem_bytes = 65536};
	k[2] = (CgKernelSig){.name = "k_scratch", .params = SCRATCHY_PARAMS, .n_params = 1,
	                     .num_warps = 4, .scratch_bytes = 256};
	k[3] = (CgKernelSig){.name = "k_grid", .params = GRID_PARAMS, .n_params = 3,
	                     .num_warps = 4, .grid = {&G_X, &G_Y, &G_Z}};
	static CgBlob image;
	image = cubin;
	return (PkgUnit){"k", k, 4, &image, cubin.len ? 1 : 0, NULL, ptx, "k.h", NULL, NULL};
}

static void
test_header_and_c(void)
{
	reset();
	static const unsigned char fake_cubin[] = {0x7f, 'E', 'L', 'F', 0, 255};
	static const char ptx[] = "// ptx\n";
	PkgUnit p = package((CgBlob){(const unsigned char *)ptx, sizeof ptx - 1},
	                      (CgBlob){fake_cubin, sizeof fake_cubin});
	StrBuf h = {0}, c = {0};
	pkg_emit_header(&p, &h);
	pkg_emit_launcher_c(&p, &c);
	CHECK(strstr(h.s, "#ifndef GLC_K_H") != NULL);
	CHECK(strstr(h.s, "glrt_status\nvadd(glrt_stream stream, unsigned grid_x, unsigned grid_y, "
	                  "unsigned grid_z,\n\tglrt_devptr x,\n\tglrt_devptr y,\n\tglrt_devptr z,"
	                  "\n\tint32_t n);") != NULL);
	CHECK(strstr(h.s, " * x: 16-byte aligned") != NULL);
	CHECK(strstr(h.s, " * n: a multiple of 4") != NULL);
	CHECK(strstr(h.s, "\tuint16_t scale,\n\tconst glrt_tensor_map *map);") != NULL);
	CHECK(strstr(c.s, "= {\n\t127,69,76,70,0,255,\n};") != NULL);
	CHECK(strstr(c.s, "glc_k_ptx[8] = {") != NULL);
	CHECK(strstr(c.s, "static const unsigned glc_cluster[3] = {2, 1, 1};") != NULL);
	CHECK(strstr(c.s, "return glrt_launch(glc_kernel, glc_grid, glc_block, glc_cluster, "
	                  "65536u, stream, glc_args);") != NULL);
	CHECK(strstr(c.s, "\tif (m % 16 != 0)\n\t\treturn glrt_invalid_argument(\"mixed: m must "
	                  "be a multiple of 16\");") != NULL);
	CHECK(strstr(c.s, "\tif (map->rank != 2)\n\t\treturn glrt_invalid_argument(\"mixed: map "
	                  "must be a tensor map of rank 2") != NULL);
	CHECK(strstr(c.s, "\tint32_t glc_extent5 = (int32_t)map->shape[1];\n") != NULL);
	CHECK(strstr(c.s, "\tglc_args[5] = &glc_extent5;\n") != NULL);
	CHECK(strstr(h.s, "/* k_scratch: 128 threads per block, 256 bytes of global scratch per "
	                  "program (allocated by libglrt for each launch). */") != NULL);
	CHECK(strstr(h.s, "k_scratch(glrt_stream stream, unsigned grid_x, unsigned grid_y, "
	                  "unsigned grid_z,\n\tglrt_devptr p);") != NULL);
	CHECK(strstr(c.s, "\tglc_args[1] = &glc_scratch;\n\treturn glrt_launch_scratch(glc_kernel, "
	                  "glc_grid, glc_block, NULL, 0u, stream, glc_args, 256u, &glc_scratch);")
	      != NULL);

	CHECK(strstr(h.s, " * Grid: (m + 15) / 16, u % d, (m - 120) / -4 (nothing is launched "
	                  "when one is 0). */\nglrt_status\nk_grid(glrt_stream stream,\n\tint32_t m,"
	                  "\n\tuint32_t u,\n\tint64_t d);") != NULL);
	CHECK(strstr(c.s, "\tint64_t glc_g2 = (int64_t)u;\n\tint64_t glc_g3 = (int64_t)d;\n"
	                  "\tif (glc_g3 == 0 || (glc_g3 == -1 && glc_g2 == INT64_MIN))\n\t\treturn "
	                  "glrt_invalid_argument(\"k_grid: the grid divides by zero (or INT64_MIN by "
	                  "-1)\");\n\tint64_t glc_g4 = glc_g2 % glc_g3;\n") != NULL);

	/* Both compile cleanly against the real glrt.h. */
	char dir[] = "/tmp/glc-test-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[256], cmd[1024];
	snprintf(path, sizeof path, "%s/k.h", dir);
	FILE *f = fopen(path, "w");
	fputs(h.s, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/k.c", dir);
	f = fopen(path, "w");
	fputs(c.s, f);
	fputs("#include \"k.h\"\n", f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "cc -std=c11 -Wall -Wextra -Werror -Iruntime -I%s -c -o %s/k.o %s",
	         dir, dir, path);
	CHECK_EQ(0, system(cmd));
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_EQ(0, system(cmd));
	CHECK_STR("vector_add", pkg_unit_name(A, "examples/vector_add.gl"));
	CHECK_STR("_2d_x", pkg_unit_name(A, "2d-x.gl"));
	buf_free(&h);
	buf_free(&c);
}

/* A C program calling the object's launchers with no driver available. */
static const char CALLER[] =
	"#include <stdio.h>\n#include \"glrt.h\"\n"
	"glrt_status vadd(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,\n"
	"                 glrt_devptr, int32_t);\n"
	"glrt_status mixed(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, int32_t,\n"
	"                  uint16_t, const glrt_tensor_map *);\n"
	"glrt_status k_scratch(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr);\n"
	"#define T(call) do { glrt_status s_ = call; \\\n"
	"    printf(\"%d %s\\n\", s_, s_ == GLRT_ERROR_INVALID_ARGUMENT ? glrt_last_error() : \"\"); \\\n"
	"    } while (0)\n"
	"int main(void) {\n"
	"    glrt_tensor_map map = {{0}}, bad_rank = {{0}}, huge = {{0}};\n"
	"    map.rank = 2; map.shape[0] = 64; map.shape[1] = 128;\n"
	"    bad_rank = map; bad_rank.rank = 3;\n"
	"    huge = map; huge.shape[1] = 0x80000000u;\n"
	"    T(vadd(0, 1, 1, 1, 0x1008, 0x2000, 0x3000, 64));  /* misaligned x */\n"
	"    T(vadd(0, 1, 1, 1, 0x1000, 0x2000, 0x3000, 66));  /* n % 4 */\n"
	"    T(vadd(0, 1, 1, 1, 0x1000, 0x2000, 0x3000, -64)); /* ok: no driver */\n"
	"    T(mixed(0, 2, 1, 1, 0x1000, 32, 0, NULL));        /* NULL map */\n"
	"    T(mixed(0, 2, 1, 1, 0x1000, 40, 0, &map));        /* m % 16 */\n"
	"    T(mixed(0, 2, 1, 1, 0x1000, 48, 0, &bad_rank));   /* map of rank 3 */\n"
	"    T(mixed(0, 2, 1, 1, 0x1000, 48, 0, &huge));       /* extent past i32 */\n"
	"    T(mixed(0, 2, 1, 1, 0x1000, 48, 0, &map));        /* ok: no driver */\n"
	"    T(k_scratch(0, 4, 2, 1, 0x1000));                 /* ok: no driver */\n"
	"    return 0;\n}\n";

/* Builds CALLER with the launchers in `launchers` (an object or C source)
 * and libglrt in dir, runs it without a driver, and checks what each call
 * returned and why. */
static void
run_caller(const char *dir, const char *launchers)
{
	char path[256], cmd[1024];
	snprintf(path, sizeof path, "%s/main.c", dir);
	FILE *f = fopen(path, "w");
	fputs(CALLER, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "cc -std=c11 %s -Iruntime -o %s/main %s %s %s/libglrt.a "
	         "-ldl -pthread && GLRT_LIBCUDA=/nonexistent/libcuda.so %s/main > %s/out",
	         CG_TEST_LDFLAGS, dir, path, launchers, CG_TEST_BUILD, dir, dir);
	CHECK_EQ(0, system(cmd));
	snprintf(path, sizeof path, "%s/out", dir);
	/* Each rejection says why in glrt_last_error(). */
	char out[2048] = {0};
	f = fopen(path, "r");
	if (f) {
		CHECK(fread(out, 1, sizeof out - 1, f) > 0);
		fclose(f);
	}
	CHECK_STR("1 vadd: x must be 16-byte aligned\n"
	          "1 vadd: n must be a multiple of 4\n"
	          "2 \n"
	          "1 mixed: map must not be NULL\n"
	          "1 mixed: m must be a multiple of 16\n"
	          "1 mixed: map must be a tensor map of rank 2 from glrt_tensor_map_encode_nvmma "
	          "(a failed encoding leaves rank 0)\n"
	          "1 mixed: dim 1 of the shape of map must fit in an i32\n"
	          "2 \n"
	          "2 \n", out);
}

/* A program calling k_scratch's launcher against the fake driver: the
 * launcher allocates 256 bytes per program (4 x 2 programs) on its stream,
 * passes the buffer as the hidden last argument and frees it. */
static const char FAKE_CALLER[] =
	"#include <dlfcn.h>\n#include <stdio.h>\n#include \"glrt.h\"\n"
	"#include \"test/unit/fake_libcuda.h\"\n"
	"glrt_status k_scratch(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr);\n"
	"glrt_status k_grid(glrt_stream, int32_t, uint32_t, int64_t);\n"
	"static void grid(FakeCuda *f, int32_t m, uint32_t u, int64_t d) {\n"
	"    int launches = f->launches;\n"
	"    f->capture_args = 0;  /* (its arguments are not all 8 bytes) */\n"
	"    glrt_status s = k_grid((glrt_stream)0x42, m, u, d);\n"
	"    printf(\"%d %s launched %d grid %u %u %u\\n\", s, s ? glrt_last_error() : \"\",\n"
	"           f->launches - launches, f->launch.gridDimX, f->launch.gridDimY,\n"
	"           f->launch.gridDimZ);\n"
	"}\n"
	"int main(int argc, char **argv) {\n"
	"    (void)argc;\n"
	"    if (glrt_init() != GLRT_SUCCESS) return 1;\n"
	"    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);\n"
	"    FakeCuda *(*get)(void) = lib ? (FakeCuda *(*)(void))dlsym(lib, \"fake_cuda\") : NULL;\n"
	"    if (!get) return 2;\n"
	"    FakeCuda *f = get();\n"
	"    f->capture_args = 2;\n"
	"    glrt_status s = k_scratch((glrt_stream)0x42, 4, 2, 1, 0x1000);\n"
	"    printf(\"%d launches %d allocs %d of %zu frees %d p %llx scratch %d stream %d\\n\", s,\n"
	"           f->launches, f->allocs_async, f->alloc_async_bytes, f->frees_async,\n"
	"           (unsigned long long)f->arg_words[0],\n"
	"           f->arg_words[1] == f->alloc_async_ptr && f->arg_words[1] != 0,\n"
	"           f->alloc_async_stream == (CUstream)0x42);\n"
	"    grid(f, 100, 0xffffffffu, 7);  /* u zero-extended: 4294967295 % 7 */\n"
	"    grid(f, -8, 1, 1);             /* x = 7 / 16 = 0: no launch */\n"
	"    grid(f, 100, 1, 0);            /* u % 0 */\n"
	"    grid(f, 100, 9, -2);           /* 9 % -2 = 1 */\n"
	"    grid(f, -40, 2, 3);            /* m sign-extended: x = -25 / 16 = -1 */\n"
	"    return 0;\n}\n";

/* Builds FAKE_CALLER with `launchers` and runs it on the fake driver. */
static void
run_fake_caller(const char *dir, const char *launchers)
{
	char path[256], cmd[1536], out[1024] = {0};
	snprintf(path, sizeof path, "%s/fake.c", dir);
	FILE *f = fopen(path, "w");
	fputs(FAKE_CALLER, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "cc -std=c11 -D_GNU_SOURCE %s -I. -Iruntime -o %s/fake %s %s "
	         "%s/libglrt.a -ldl -pthread && GLRT_LIBCUDA=%s/unit/fake_libcuda.so %s/fake "
	         "%s/unit/fake_libcuda.so > %s/fake.out", CG_TEST_LDFLAGS, dir, path, launchers,
	         CG_TEST_BUILD, CG_TEST_BUILD, dir, CG_TEST_BUILD, dir);
	CHECK_EQ(0, system(cmd));
	snprintf(path, sizeof path, "%s/fake.out", dir);
	f = fopen(path, "r");
	if (f) {
		CHECK(fread(out, 1, sizeof out - 1, f) > 0);
		fclose(f);
	}
	CHECK_STR("0 launches 1 allocs 1 of 2048 frees 1 p 1000 scratch 1 stream 1\n"
	          "0  launched 1 grid 7 3 5\n"
	          "0  launched 0 grid 7 3 5\n"
	          "1 k_grid: the grid divides by zero (or INT64_MIN by -1) launched 0 grid 7 3 5\n"
	          "0  launched 1 grid 7 1 5\n"
	          "1 glrt_launch: grid x dimension 4294967295 is outside 1..2147483647 launched 0 "
	          "grid 7 1 5\n", out);
}

static void
test_object(void)
{
	reset();
	CgTarget *t = target(2, false);
	CgBlob ptx = to_ptx(t, build_vadd, NULL);
	CgBlob cubin = {0};
	StrBuf usage = {0};
	CHECK(pkg_ptxas(&(PkgPtxas){.arch = "sm_90a", .usage = &usage}, ptx, A, &D, &cubin));
	/* -v: ptxas's report names the kernel and its registers; no warning. */
	CHECK(usage.s && strstr(usage.s, "registers") && strstr(usage.s, "vadd"));
	CHECK_EQ(0, D.warnings);
	buf_free(&usage);
	/* libglrt's image checks pass a real cubin (no driver here: it stops
	 * at loading the driver) and refuse it cut short. */
	glrt_module *gm = NULL;
	setenv("GLRT_LIBCUDA", "/nonexistent/libcuda.so", 1);
	CHECK_EQ(GLRT_ERROR_NO_DRIVER, glrt_module_load(&gm, cubin.data, cubin.len,
	                                                GLRT_IMAGE_CUBIN));
	CHECK_EQ(GLRT_ERROR_INVALID_ARGUMENT, glrt_module_load(&gm, cubin.data, cubin.len / 2,
	                                                       GLRT_IMAGE_CUBIN));
	unsetenv("GLRT_LIBCUDA");
	PkgUnit p = package(ptx, cubin);
	CgBlob o1 = {0}, o2 = {0};
	CHECK(pkg_emit_object(&p, A, &D, &o1));
	CHECK(pkg_emit_object(&p, A, &D, &o2));
	CHECK_EQ(0, D.errors);
	CHECK(o1.len > cubin.len + ptx.len);
	CHECK(o1.len == o2.len && memcmp(o1.data, o2.data, o1.len) == 0);
	CHECK(o1.len > 20 && memcmp(o1.data, "\177ELF", 4) == 0);
	CHECK(memmem(o1.data, o1.len, cubin.data, cubin.len) != NULL);
	CHECK(memmem(o1.data, o1.len, ptx.data, ptx.len + 1) != NULL);
	/* Link the object and call; the C launchers behave the same. */
	char dir[] = "/tmp/glc-test-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[256], cmd[1024];
	snprintf(path, sizeof path, "%s/k.o", dir);
	FILE *f = fopen(path, "wb");
	fwrite(o1.data, 1, o1.len, f);
	fclose(f);
	run_caller(dir, path);
	run_fake_caller(dir, path);
	StrBuf c = {0};
	pkg_emit_launcher_c(&p, &c);
	snprintf(path, sizeof path, "%s/k.c", dir);
	f = fopen(path, "w");
	fputs(c.s, f);
	fclose(f);
	buf_free(&c);
	run_caller(dir, path);
	run_fake_caller(dir, path);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_EQ(0, system(cmd));
	cg_target_free(t);
}

/* Negations are rewritten as statements only: comments, longer mnemonics
 * and 64-bit ones stay; guards are repeated on both halves. */
static void
test_ptx_negations(void)
{
	reset();
	static const char in[] =
	    "\tneg.s32 \t%r7, %r23;\n"
	    "// neg.s32 %r1, %r2;\n"
	    "/* x; neg.s16 %rs1, %rs2; */ neg.s64 \t%rd1, %rd2;\n"
	    "{ @!%p3 neg.s16 %rs4 , %rs4 ; neg.s32x %r1, %r2; }\n"
	    "\tneg.f32 \t%f1, %f2;\n";
	static const char want[] =
	    "\tnot.b32 \t%r7, %r23;\n\tadd.s32 \t%r7, %r7, 1;\n"
	    "// neg.s32 %r1, %r2;\n"
	    "/* x; neg.s16 %rs1, %rs2; */ neg.s64 \t%rd1, %rd2;\n"
	    "{ @!%p3 not.b16 \t%rs4, %rs4;\n\t@!%p3 add.s16 \t%rs4, %rs4, 1; neg.s32x %r1, %r2; }\n"
	    "\tneg.f32 \t%f1, %f2;\n";
	CgBlob ptx = {(const unsigned char *)in, sizeof in - 1};
	cg_ptx_rewrite_negations(A, &ptx);
	CHECK_STR(want, (const char *)ptx.data);
	CHECK(ptx.len == strlen(want));
	static const char none[] = "\tneg.s64 \t%rd1, %rd2;\n";
	CgBlob same = {(const unsigned char *)none, sizeof none - 1};
	cg_ptx_rewrite_negations(A, &same);
	CHECK(same.data == (const unsigned char *)none);
}

int
main(void)
{
	RUN_TEST(test_target_validation);
	RUN_TEST(test_vadd_ptx_assembles);
	RUN_TEST(test_line_info);
	RUN_TEST(test_hopper_helpers_assemble);
	RUN_TEST(test_wgmma_forms);
	RUN_TEST(test_ptxas_failures);
	RUN_TEST(test_header_and_c);
	RUN_TEST(test_object);
	RUN_TEST(test_ptx_negations);
	arena_free(A);
	return check_summary();
}
