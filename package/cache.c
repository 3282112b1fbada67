/*
 * The compile cache's store: entries named by a SHA-256 key (Nettle's, from
 * Debian's nettle-dev) under a folder, each holding the files a compilation
 * read (path and content hash, checked again on every hit) and the blobs it
 * produced. An entry is written to a temporary file in the cache folder and
 * renamed into place, so that concurrent builds see either no entry or a
 * whole one; a damaged or foreign entry (its trailing hash of everything
 * before it does not match) is a miss, never an error. The cache is best
 * effort: a failure to store is silent.
 *
 * An entry: "GLCCACHE1\n", u32 deps, per dep (u32 length, path, 32-byte
 * hash), u32 blobs, per blob (u64 length, bytes), then the SHA-256 of all
 * of that. Integers are little-endian.
 */
#include "package/pkg_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char MAGIC[] = "GLCCACHE1\n";

struct PkgHasher {
	struct sha256_ctx ctx;
};

PkgHasher *
pkg_hash_new(Arena *a)
{
	PkgHasher *h = arena_alloc(a, sizeof *h);
	sha256_init(&h->ctx);
	return h;
}

void
pkg_hash_add(PkgHasher *h, const void *data, size_t len)
{
	sha256_update(&h->ctx, len, data);
}

void
pkg_hash_done(PkgHasher *h, PkgHash *out)
{
	sha256_digest(&h->ctx, sizeof out->b, out->b);
}

void
pkg_hash_bytes(const void *data, size_t len, PkgHash *out)
{
	struct sha256_ctx c;
	sha256_init(&c);
	sha256_update(&c, len, data);
	sha256_digest(&c, sizeof out->b, out->b);
}

void
pkg_hash_hex(const PkgHash *h, char out[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", h->b[i]);
}

/* dir/ab/cdef...: the entry of key (the folder made when make_dir). */
static char *
entry_path(Arena *a, const char *dir, const PkgHash *key, bool make_dir)
{
	char hex[65];
	pkg_hash_hex(key, hex);
	char *sub = arena_printf(a, "%s/%.2s", dir, hex);
	if (make_dir) {
		mkdir(dir, 0777);
		mkdir(sub, 0777);
	}
	return arena_printf(a, "%s/%s", sub, hex + 2);
}

static void
put_u32(StrBuf *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		buf_putc(b, (char)(v >> (8 * i)));
}

static void
put_u64(StrBuf *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		buf_putc(b, (char)(v >> (8 * i)));
}

bool
pkg_cache_put(const char *dir, const PkgHash *key, const PkgCacheEntry *e, Arena *a)
{
	StrBuf b = {0};
	buf_puts(&b, MAGIC);
	put_u32(&b, (uint32_t)e->n_deps);
	for (size_t i = 0; i < e->n_deps; i++) {
		put_u32(&b, (uint32_t)strlen(e->deps[i].path));
		buf_puts(&b, e->deps[i].path);
		buf_putn(&b, (const char *)e->deps[i].hash.b, 32);
	}
	put_u32(&b, PKG_CACHE_BLOBS);
	for (int i = 0; i < PKG_CACHE_BLOBS; i++) {
		put_u64(&b, e->blobs[i].len);
		buf_putn(&b, (const char *)e->blobs[i].data, e->blobs[i].len);
	}
	PkgHash sum;
	pkg_hash_bytes(b.s, b.len, &sum);
	buf_putn(&b, (const char *)sum.b, 32);
	char *path = entry_path(a, dir, key, true);
	char *tmp = arena_printf(a, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	bool ok = fd >= 0;
	for (size_t done = 0; ok && done < b.len;) {
		ssize_t n = write(fd, b.s + done, b.len - done);
		ok = n > 0 || (n < 0 && errno == EINTR);
		done += n > 0 ? (size_t)n : 0;
	}
	if (fd >= 0)
		ok &= close(fd) == 0;
	ok = ok && rename(tmp, path) == 0;
	if (!ok && fd >= 0)
		unlink(tmp);
	buf_free(&b);
	return ok;
}

/* A reader over an entry's bytes; every take fails past the end. */
typedef struct Cursor {
	const unsigned char *p, *end;
} Cursor;

static bool
take(Cursor *c, size_t n, const unsigned char **out)
{
	if ((size_t)(c->end - c->p) < n)
		return false;
	*out = c->p;
	c->p += n;
	return true;
}

static bool
take_uint(Cursor *c, int bytes, uint64_t *v)
{
	const unsigned char *p;
	if (!take(c, (size_t)bytes, &p))
		return false;
	*v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		*v = *v << 8 | p[i];
	return true;
}

static bool
parse_entry(Arena *a, const unsigned char *data, size_t len, PkgCacheEntry *e)
{
	size_t m = sizeof MAGIC - 1;
	PkgHash sum;
	if (len < m + 32 || memcmp(data, MAGIC, m) != 0)
		return false;
	pkg_hash_bytes(data, len - 32, &sum);
	if (memcmp(sum.b, data + len - 32, 32) != 0)
		return false;
	Cursor c = {data + m, data + len - 32};
	uint64_t n, k;
	if (!take_uint(&c, 4, &n) || n > len)
		return false;
	e->n_deps = (size_t)n;
	e->deps = arena_alloc(a, (e->n_deps + 1) * sizeof *e->deps);
	for (size_t i = 0; i < e->n_deps; i++) {
		const unsigned char *p, *h;
		if (!take_uint(&c, 4, &k) || !take(&c, (size_t)k, &p) || !take(&c, 32, &h))
			return false;
		e->deps[i].path = arena_strndup(a, (const char *)p, (size_t)k);
		memcpy(e->deps[i].hash.b, h, 32);
	}
	if (!take_uint(&c, 4, &n) || n != PKG_CACHE_BLOBS)
		return false;
	for (int i = 0; i < PKG_CACHE_BLOBS; i++) {
		const unsigned char *p;
		if (!take_uint(&c, 8, &k) || !take(&c, (size_t)k, &p))
			return false;
		e->blobs[i] = (CgBlob){p, (size_t)k};
	}
	return c.p == c.end;
}

bool
pkg_cache_get(const char *dir, const PkgHash *key, Arena *a, PkgCacheEntry *e)
{
	memset(e, 0, sizeof *e);
	int fd = open(entry_path(a, dir, key, false), O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return false;
	bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	size_t len = ok ? (size_t)st.st_size : 0, got = 0;
	unsigned char *data = arena_alloc(a, len + 1);
	while (ok && got < len) {
		ssize_t n = read(fd, data + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		ok = n > 0;
		got += ok ? (size_t)n : 0;
	}
	close(fd);
	return ok && parse_entry(a, data, len, e);
}
