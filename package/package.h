/*
 * package: the host side of a compilation, below the driver and above code
 * generation: the cubin that ptxas assembles from the PTX, and the typed C
 * launchers that embed the images and call libglrt, as C text, as a header
 * of their prototypes, or as a host object built through LLVM's host
 * backend. Everything it writes follows the kernel signatures codegen gives
 * (codegen/codegen.h).
 *
 * Every failure (ptxas missing, a kernel name C cannot export) is a
 * diagnostic and a false return; ptxas rejecting glc's PTX, or LLVM failing
 * on the host object, is an internal compiler error.
 */
#ifndef PACKAGE_H
#define PACKAGE_H

#include "codegen/codegen.h"

/* -- ptxas -------------------------------------------------------------------- */

/* How ptxas runs: for arch; with no_fmad, --fmad=false (no contraction of
 * mul and add, as Triton passes for enable_fp_fusion=False); with usage not
 * NULL, with -v, its report (each kernel's registers, spills, stack, shared
 * and constant memory) appended to *usage instead of becoming a warning. */
typedef struct PkgPtxas {
	const char *arch;
	bool no_fmad;
	StrBuf *usage;
	/* with n_entries > 0, only these entries (ptxas -e): a cubin of them
	 * alone; runs of other entries of one PTX may go on at once in other
	 * threads, each with its own arena and diagnostics */
	const char *const *entries;
	int n_entries;
} PkgPtxas;

/* Assembles PTX into a cubin with ptxas (found on PATH, then at
 * /usr/local/cuda/bin/ptxas; $GLC_PTXAS overrides both) as o says. Its
 * complaints become an error with ptxas's text as a note; a missing ptxas is
 * an error saying where it was looked for. */
bool pkg_ptxas(const PkgPtxas *o, CgBlob ptx, Arena *a, Diags *d, CgBlob *cubin);

/* -- Launchers ------------------------------------------------------------------ */

/* What goes into the launcher source, header and object of one .gl file. */
typedef struct PkgUnit {
	const char *unit;      /* C identifier naming the file's statics ("vector_add") */
	const CgKernelSig *kernels;
	int n_kernels;
	const CgBlob *cubins;  /* the images ptxas assembled: none (the driver
	                          JITs the PTX), one, or one per group of
	                          kernels (ptxas runs in parallel, see
	                          pkg_ptxas_entries) */
	int n_cubins;
	const int *image_of;   /* with n_cubins > 1: kernel i's image; each
	                          image gets a lazy module, all share the PTX */
	CgBlob ptx;            /* NUL-terminated */
	const char *header;    /* the header's path, whose base name gives its
	                          include guard; NULL or "-": the guard comes
	                          from unit and the launchers' names */
	const char *group;     /* the name glc link dispatches every kernel of
	                          the unit under (a .py kernel's -on or -n, a
	                          renamed .gl kernel's own name); NULL: each
	                          kernel's name */
	const TProgram *prog;  /* the program (constexpr values for the
	                          manifest); may be NULL */
} PkgUnit;

/* The C identifier for a file path: its base name without extension, with
 * non-identifier bytes replaced by '_' (allocated in a). */
const char *pkg_unit_name(Arena *a, const char *path);

/* Checks that every kernel's name can be its launcher's exported C symbol:
 * a C/C++ identifier that is not reserved, not glc's or glrt's, not a C
 * library or POSIX function, and not another kernel's. Reports each that
 * cannot at the kernel's definition; false if any. Run it before the three
 * emitters below. */
bool pkg_check_symbols(const PkgUnit *p, Arena *a, Diags *d);

/* `--emit=header`: include guard (GLC_<header's name>_H, so that the
 * headers of two outputs can be included together), #include "glrt.h", and
 * per kernel the
 * prototype of its launcher with a comment on launch shape and the
 * alignment/divisibility each argument must have. */
void pkg_emit_header(const PkgUnit *p, StrBuf *out);

/* `--emit=c`: the images as byte arrays, a lazily loaded glrt module, and
 * the launcher definitions. Compiles as C99/C11 against glrt.h. */
void pkg_emit_launcher_c(const PkgUnit *p, StrBuf *out);

/* `--manifest`: the launchers as JSON for glc link and the Python package
 * (package/manifest.c describes the format). */
void pkg_emit_manifest(const PkgUnit *p, StrBuf *out);

/* `-c`: the same launchers and images as an ELF object for the host
 * (x86-64), emitted through LLVM's host backend; byte-identical across
 * runs. The object references glrt_lazy_kernel_get, glrt_launch and
 * glrt_invalid_argument. */
bool pkg_emit_object(const PkgUnit *p, Arena *a, Diags *d, CgBlob *obj);

/* -- The compile cache's store (cache.c) --------------------------------------- */

/* A SHA-256 digest, and a running hash. */
typedef struct PkgHash {
	unsigned char b[32];
} PkgHash;
typedef struct PkgHasher PkgHasher;
PkgHasher *pkg_hash_new(Arena *a);
void pkg_hash_add(PkgHasher *h, const void *data, size_t len);
void pkg_hash_done(PkgHasher *h, PkgHash *out);
void pkg_hash_bytes(const void *data, size_t len, PkgHash *out);
/* The digest as 64 lower-case hex digits and a NUL. */
void pkg_hash_hex(const PkgHash *h, char out[65]);

/* A file a cached compilation read, and the hash of its content then. */
typedef struct PkgCacheDep {
	const char *path;
	PkgHash hash;
} PkgCacheDep;

enum { PKG_CACHE_BLOBS = 4 };

/* What a cache entry holds: the files read and PKG_CACHE_BLOBS blobs (the
 * driver's outputs). */
typedef struct PkgCacheEntry {
	PkgCacheDep *deps;
	size_t n_deps;
	CgBlob blobs[PKG_CACHE_BLOBS];
} PkgCacheEntry;

/* Stores e under key in the cache folder dir (made if missing), atomically
 * (a temporary file renamed into place); false when it could not be
 * stored, which callers ignore. */
bool pkg_cache_put(const char *dir, const PkgHash *key, const PkgCacheEntry *e, Arena *a);
/* The entry of key, read into a; false when there is none or it is
 * damaged (a miss). The caller checks the dependencies' hashes. */
bool pkg_cache_get(const char *dir, const PkgHash *key, Arena *a, PkgCacheEntry *e);

/* The ptxas pkg_ptxas would run ($GLC_PTXAS, else the first on PATH, else
 * the CUDA default), without running it; for the cache's key. */
const char *pkg_ptxas_path(Arena *a);

/* -- glc link (link.c, link_emit.c) --------------------------------------------- */

/* What glc link writes: the dispatchers' C, the header of the library (every
 * launcher and dispatcher), the library's manifest. */
typedef struct PkgLinkOut {
	StrBuf c, header, manifest;
} PkgLinkOut;

/* Links the manifests that files (ids in src) hold into one library, as
 * link.c describes; header is the header's path (the C includes it by its
 * base name, the guard comes from it). Errors point into the manifests;
 * false if any. */
bool pkg_link(const Sources *src, const uint32_t *files, size_t n, const char *header,
              Arena *a, Diags *d, PkgLinkOut *out);

#endif
