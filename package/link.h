/*
 * glc link's internals, shared by its reader (link.c: manifests into
 * kernels grouped by dispatch name, checked) and its writer (link_emit.c:
 * the dispatchers' C, the one header, the library's manifest).
 */
#ifndef PKG_LINK_H
#define PKG_LINK_H

#include "package/pkg_internal.h"

/* A launcher parameter as a manifest gives it. */
typedef struct LinkParam {
	const char *name, *c_name, *kind, *dtype, *ctype;
	uint32_t divisibility;   /* what the launcher requires; 1: nothing */
	int rank;                /* tensor maps */
} LinkParam;

/* A constexpr of a specialization; value_int is its value when it is an
 * integer (True and False are 1 and 0). */
typedef struct LinkConstexpr {
	const char *name, *value;
	bool is_int;
	int64_t value_int;
} LinkConstexpr;

/* One launcher of one object: a specialization of its kernel. */
typedef struct LinkSpec {
	const char *kernel, *symbol;
	bool computed_grid;
	int threads;
	uint32_t smem_bytes, scratch_bytes;
	LinkParam *params;
	int n_params;
	LinkConstexpr *cx;
	int n_cx;
	SrcSpan at;              /* its entry in the manifest */
	int n_conditions;        /* the dispatcher's tests that pick it */
} LinkSpec;

/* The specializations of one kernel, most specialized first, and the
 * constexprs whose values tell them apart (the dispatcher's extra integer
 * arguments, in the order first met). */
typedef struct LinkGroup {
	const char *name;
	LinkSpec **specs;
	int n_specs;
	const char **keys;
	int n_keys;
	bool dispatch;           /* false: one launcher already named `name` */
} LinkGroup;

typedef struct LinkSet {
	LinkGroup *groups;
	int n_groups;
} LinkSet;

/* The C name of dispatcher argument `key` (a constexpr's name, prefixed
 * where C cannot take it bare). */
const char *link_key_c_name(Arena *a, const char *key);
/* The index of key in s's constexprs, -1 when s has none of that name. */
int link_cx_index(const LinkSpec *s, const char *key);

/* Writes the dispatchers and their header (guard from header's name) and
 * the library's manifest. */
void link_emit_c(const LinkSet *set, const char *header, Arena *a, StrBuf *out);
void link_emit_header(const LinkSet *set, const char *header, Arena *a, StrBuf *out);
void link_emit_manifest(const LinkSet *set, Arena *a, StrBuf *out);

#endif
