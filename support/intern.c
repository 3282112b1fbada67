/* Open-addressing hash table of unique strings (FNV-1a). */
#include "support.h"

#include <string.h>

typedef struct Entry {
	const char *str;
	size_t len;
	uint32_t hash;
} Entry;

struct Interner {
	Arena *arena;
	Entry *slots;
	size_t cap, count;   /* cap is a power of two */
};

static uint32_t
hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

Interner *
intern_new(Arena *a)
{
	Interner *in = arena_alloc(a, sizeof *in);
	in->arena = a;
	in->cap = 256;
	in->slots = arena_alloc(a, in->cap * sizeof(Entry));
	return in;
}

static void
grow(Interner *in)
{
	size_t ncap = in->cap * 2;
	Entry *ns = arena_alloc(in->arena, ncap * sizeof(Entry));
	for (size_t i = 0; i < in->cap; i++) {
		Entry e = in->slots[i];
		if (!e.str)
			continue;
		size_t j = e.hash & (ncap - 1);
		while (ns[j].str)
			j = (j + 1) & (ncap - 1);
		ns[j] = e;
	}
	in->slots = ns;
	in->cap = ncap;
}

const char *
intern(Interner *in, const char *s, size_t n)
{
	if (2 * (in->count + 1) > in->cap)
		grow(in);
	uint32_t h = hash_bytes(s, n);
	size_t j = h & (in->cap - 1);
	for (; in->slots[j].str; j = (j + 1) & (in->cap - 1)) {
		Entry *e = &in->slots[j];
		if (e->hash == h && e->len == n && memcmp(e->str, s, n) == 0)
			return e->str;
	}
	in->slots[j] = (Entry){arena_strndup(in->arena, s, n), n, h};
	in->count++;
	return in->slots[j].str;
}

const char *
intern_cstr(Interner *in, const char *s)
{
	return intern(in, s, strlen(s));
}

size_t
intern_count(const Interner *in)
{
	return in->count;
}
