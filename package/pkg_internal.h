/*
 * package internals shared by its files: what the C launchers (launcher.c)
 * and the host object (object.c) both decide about a kernel's entries,
 * parameters and grid, and the names and types the generated C uses.
 */
#ifndef PKG_INTERNAL_H
#define PKG_INTERNAL_H

#include "package/package.h"

/* -- C names and types (c_names.c) ------------------------------------------ */

/* What goes before a parameter's name in the generated C: "" for most,
 * "glc_arg_" for a name C cannot take there (a keyword, a reserved
 * identifier, a launcher parameter such as stream or grid_x). */
const char *pkg_c_arg_prefix(const CgParam *p);
/* The C type the launcher uses for a parameter ("glrt_devptr", "int32_t",
 * "float", "uint16_t" for f16/bf16 bit patterns, ...). */
const char *pkg_param_ctype(const CgParam *p);

/* -- Launchers (launcher.c) ----------------------------------------------------- */

/* Whether a launcher checks parameter p (alignment or divisibility). */
bool pkg_param_checked(const CgParam *p);
/* The index in the package's kernel table of kernel i's generic entry
 * (fast false) or specialized entry (fast true: kernels[i].fast is set).
 * Each kernel's generic entry is followed by its specialized one. */
int pkg_entry_index(const PkgUnit *p, int i, bool fast);
/* Whether the specialized variant assumes more of parameter j than the
 * generic entry requires (the launcher tests it to pick the variant). */
bool pkg_param_specialized(const CgKernelSig *k, int j);

/* The rank of the descriptor whose extents are the parameters with this
 * map_param. */
int pkg_map_rank(const CgKernelSig *k, int map_param);

/* What a launcher checks of a parameter before launching. */
typedef enum PkgArgCheck {
	PKG_CHECK_RULE,   /* its alignment, divisibility, or a map not NULL */
	PKG_CHECK_RANK,   /* a tensor map has the rank of the kernel's descriptor */
	PKG_CHECK_I32,    /* a descriptor extent from a map fits the kernel's i32 */
} PkgArgCheck;

/* Appends the message a launcher of k records (glrt_invalid_argument) when
 * parameter q fails `check`: "k: x must be 16-byte aligned". */
void pkg_arg_error(const CgKernelSig *k, const CgParam *q, PkgArgCheck check, StrBuf *out);

/* Whether the launcher checks the divisor of grid node e (a / or %) at run
 * time: unless it is a constant other than 0 and -1. */
bool pkg_grid_checked(const CgGridExpr *e);
/* Appends the message of a launcher of k whose grid divides by zero (or
 * INT64_MIN by -1). */
void pkg_grid_error(const CgKernelSig *k, StrBuf *out);
/* Appends e as C-like text, with the parameters' names, in as few
 * parentheses as C precedence needs ("(n + 15) / 16"). */
void pkg_grid_print(const CgKernelSig *k, const CgGridExpr *e, StrBuf *out);

#endif
