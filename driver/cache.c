/*
 * The compile cache (docs/building.md): a compilation whose outputs depend
 * only on its inputs is looked up, before anything is compiled, under a
 * SHA-256 key of everything that decides them: glc's version and binary
 * (its size and time, so that a rebuilt glc misses), LLVM's version, the
 * ptxas it would run (path, size, time), the current folder, the whole
 * command line and the input's bytes. An entry also lists every file the
 * compilation read (imported modules) with its content hash; a hit needs
 * each to be unchanged. A clean compilation (no diagnostic at all) is
 * stored; one that warns is compiled again each time, so its warnings show.
 * The store (package/cache.c) is safe under concurrent builds.
 *
 * The folder is $GLC_CACHE_DIR, else $XDG_CACHE_HOME/glc, else
 * ~/.cache/glc; --no-cache, or outputs that report on the compilation
 * itself (--time-passes, -v, --print-after, --verify-diagnostics,
 * --split-input-file, the front end's stages), bypass it.
 */
#include "driver/driver.h"
#include "package/package.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GLC_VERSION
#define GLC_VERSION "0.1.0"
#endif

/* The cache folder; NULL when none can be named. */
static const char *
cache_dir(Arena *a)
{
	const char *dir = getenv("GLC_CACHE_DIR");
	if (dir && *dir)
		return dir;
	const char *xdg = getenv("XDG_CACHE_HOME");
	if (xdg && *xdg)
		return arena_printf(a, "%s/glc", xdg);
	const char *home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	char *cache = arena_printf(a, "%s/.cache", home);
	mkdir(cache, 0777);
	return arena_printf(a, "%s/glc", cache);
}

static bool
cacheable(const Options *o)
{
	return !o->no_cache && o->emit != EMIT_TOKENS && o->emit != EMIT_AST &&
	       o->emit != EMIT_IR && !o->time_passes && !o->resource_usage &&
	       !o->print_after.len && !o->print_after_all && !o->verify_diags && !o->split_input;
}

/* A file's identity for the key: size and modification time ("-" when it
 * cannot be read). */
static void
hash_file_id(PkgHasher *h, const char *path)
{
	struct stat st;
	char id[96];
	if (stat(path, &st) == 0)
		snprintf(id, sizeof id, "%lld:%lld.%09ld", (long long)st.st_size,
		         (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
	else
		snprintf(id, sizeof id, "-");
	pkg_hash_add(h, path, strlen(path) + 1);
	pkg_hash_add(h, id, strlen(id) + 1);
}

static void
hash_str(PkgHasher *h, const char *s)
{
	pkg_hash_add(h, s, strlen(s) + 1);
}

bool
drv_cache_begin(const Options *o, Arena *a, const Sources *src, uint32_t file, DrvCache *c)
{
	memset(c, 0, sizeof *c);
	if (!cacheable(o) || !(c->dir = cache_dir(a)))
		return false;
	PkgHasher *h = pkg_hash_new(a);
	hash_str(h, "glc compile cache 1");
	hash_str(h, GLC_VERSION);
	hash_file_id(h, "/proc/self/exe");
	hash_str(h, cg_llvm_version());
	hash_file_id(h, pkg_ptxas_path(a));
	char cwd[4096];
	hash_str(h, getcwd(cwd, sizeof cwd) ? cwd : "?");
	for (int i = 0; i < o->argc; i++)
		hash_str(h, o->argv[i]);
	pkg_hash_add(h, "\n", 1);
	pkg_hash_add(h, src_text(src, file), src_len(src, file));
	pkg_hash_done(h, &c->key);
	return c->on = true;
}

/* The content of the regular file at path into *b if its hash is still
 * want; false otherwise (changed, gone, unreadable, over the input limit). */
static bool
unchanged(const char *path, const PkgHash *want, uint64_t max, StrBuf *b)
{
	struct stat st;
	FILE *f = stat(path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= max
	          ? fopen(path, "rb") : NULL;
	if (!f)
		return false;
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && b->len <= max)
		buf_putn(b, chunk, n);
	bool ok = !ferror(f) && b->len <= max;
	fclose(f);
	PkgHash got;
	pkg_hash_bytes(b->s ? b->s : "", b->len, &got);
	return ok && memcmp(got.b, want->b, sizeof got.b) == 0;
}

bool
drv_cache_lookup(const Options *o, DrvCache *c, Arena *a, Sources *src, uint32_t file,
                 DrvCacheOut *w)
{
	PkgCacheEntry e;
	if (!c->on || !pkg_cache_get(c->dir, &c->key, a, &e) || e.n_deps == 0 ||
	    strcmp(e.deps[0].path, src_path(src, file)) != 0)
		return false;
	/* every other file it read, unchanged; then registered as the
	 * compilation would have (for the depfile and the outputs' check) */
	StrBuf *texts = arena_alloc(a, e.n_deps * sizeof *texts);
	bool hit = true;
	for (size_t i = 1; i < e.n_deps && hit; i++)
		hit = unchanged(e.deps[i].path, &e.deps[i].hash, o->limits.max[LIM_INPUT_BYTES],
		                &texts[i]);
	for (size_t i = 1; i < e.n_deps; i++) {
		if (hit)
			src_add(src, e.deps[i].path, texts[i].s ? texts[i].s : "", texts[i].len);
		buf_free(&texts[i]);
	}
	if (!hit)
		return false;
	if (e.blobs[0].len)
		*w->path = arena_strndup(a, (const char *)e.blobs[0].data, e.blobs[0].len);
	StrBuf *bufs[3] = {w->out, w->header, w->manifest};
	for (int i = 0; i < 3; i++)
		buf_putn(bufs[i], (const char *)e.blobs[i + 1].data, e.blobs[i + 1].len);
	return true;
}

void
drv_cache_store(DrvCache *c, Arena *a, const Sources *src, const DrvCacheOut *w)
{
	if (!c->on)
		return;
	VEC(PkgCacheDep) deps = {0};
	const char *last = NULL;
	for (uint32_t f = 1;; f++) {
		const char *p = src_path(src, f);
		if (strcmp(p, "<unknown>") == 0)
			break;
		bool pseudo = p[0] == '<' && f != 1;   /* <-s ...>; the input may be <stdin> */
		if (pseudo || (last && strcmp(p, last) == 0))
			continue;
		PkgCacheDep dep = {p, {{0}}};
		pkg_hash_bytes(src_text(src, f), src_len(src, f), &dep.hash);
		vec_push(a, &deps, dep);
		last = p;
	}
	const char *path = *w->path ? *w->path : "";
	PkgCacheEntry e = {deps.data, deps.len, {
		{(const unsigned char *)path, strlen(path)},
		{(const unsigned char *)w->out->s, w->out->len},
		{(const unsigned char *)w->header->s, w->header->len},
		{(const unsigned char *)w->manifest->s, w->manifest->len}}};
	pkg_cache_put(c->dir, &c->key, &e, a);
}
