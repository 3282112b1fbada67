/* Unit tests of the compile cache's store (package/cache.c): SHA-256
 * against the FIPS 180-2 vectors, entries put and got back, and damaged or
 * foreign entries read as misses. */
#include "package/package.h"
#include "test/unit/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void
hex_of(const char *text, size_t len, char out[65])
{
	PkgHash h;
	pkg_hash_bytes(text, len, &h);
	pkg_hash_hex(&h, out);
}

static void
test_sha256_vectors(void)
{
	char hex[65];
	hex_of("", 0, hex);
	CHECK(strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == 0);
	hex_of("abc", 3, hex);
	CHECK(strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0);
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	hex_of(two, strlen(two), hex);
	CHECK(strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1") == 0);
	/* a million 'a's, fed in pieces through the running hash */
	Arena *a = arena_new();
	PkgHasher *h = pkg_hash_new(a);
	char block[1000];
	memset(block, 'a', sizeof block);
	for (int i = 0; i < 1000; i++)
		pkg_hash_add(h, block, sizeof block);
	PkgHash d;
	pkg_hash_done(h, &d);
	pkg_hash_hex(&d, hex);
	CHECK(strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0);
	arena_free(a);
}

static void
test_cache_roundtrip(void)
{
	Arena *a = arena_new();
	char dir[] = "/tmp/glc-test-cache-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char *root = arena_printf(a, "%s/c", dir);   /* made by the first put */
	PkgHash key, other;
	pkg_hash_bytes("key", 3, &key);
	pkg_hash_bytes("other", 5, &other);
	PkgCacheDep deps[2] = {{"k.py", {{1, 2, 3}}}, {"helpers.py", {{4, 5, 6}}}};
	PkgCacheEntry e = {deps, 2, {{(const unsigned char *)"k.o", 3},
	                             {(const unsigned char *)"\0obj\0", 5},
	                             {NULL, 0},
	                             {(const unsigned char *)"{}", 2}}};
	PkgCacheEntry got;
	CHECK(!pkg_cache_get(root, &key, a, &got));
	CHECK(pkg_cache_put(root, &key, &e, a));
	CHECK(pkg_cache_get(root, &key, a, &got));
	CHECK(got.n_deps == 2 && strcmp(got.deps[1].path, "helpers.py") == 0);
	CHECK(got.deps[1].hash.b[0] == 4 && got.deps[1].hash.b[2] == 6);
	CHECK(got.blobs[1].len == 5 && memcmp(got.blobs[1].data, "\0obj\0", 5) == 0);
	CHECK(got.blobs[2].len == 0 && got.blobs[3].len == 2);
	CHECK(!pkg_cache_get(root, &other, a, &got));
	/* a damaged entry (one byte flipped, or cut short) is a miss */
	char hex[65];
	pkg_hash_hex(&key, hex);
	char *path = arena_printf(a, "%s/%.2s/%s", root, hex, hex + 2);
	FILE *f = fopen(path, "r+b");
	CHECK(f != NULL);
	if (f) {
		fseek(f, 12, SEEK_SET);
		fputc('X', f);
		fclose(f);
	}
	CHECK(!pkg_cache_get(root, &key, a, &got));
	CHECK(pkg_cache_put(root, &key, &e, a));
	CHECK(truncate(path, 40) == 0);
	CHECK(!pkg_cache_get(root, &key, a, &got));
	char *cmd = arena_printf(a, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	arena_free(a);
}

int
main(void)
{
	RUN_TEST(test_sha256_vectors);
	RUN_TEST(test_cache_roundtrip);
	return check_summary();
}
