/* Bump allocation in chained blocks; everything is released at once. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK_SIZE = 64 * 1024, ALIGN = 16 };

typedef struct Block Block;
struct Block {
	Block *prev;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

struct Arena {
	Block *head;
	size_t total;
};

static void *
xcalloc(size_t n)
{
	void *p = calloc(1, n);
	if (!p)
		fatal_error(FATAL_OUT_OF_MEMORY, "an arena block could not be allocated");
	return p;
}

Arena *
arena_new(void)
{
	return xcalloc(sizeof(Arena));
}

void
arena_free(Arena *a)
{
	if (!a)
		return;
	for (Block *b = a->head, *prev; b; b = prev) {
		prev = b->prev;
		free(b);
	}
	free(a);
}

void *
arena_alloc(Arena *a, size_t size)
{
	if (size > SIZE_MAX / 2)
		fatal_error(FATAL_OUT_OF_MEMORY, "an allocation would pass SIZE_MAX");
	size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (size == 0)
		size = ALIGN;
	Block *b = a->head;
	if (!b || b->size - b->used < size) {
		/* Large requests get a block of their own, placed behind the
		 * current one so that the current block keeps serving. */
		size_t cap = size > BLOCK_SIZE / 4 ? size : BLOCK_SIZE;
		Block *nb = xcalloc(sizeof(Block) + cap);
		nb->size = cap;
		if (b && cap != BLOCK_SIZE) {
			nb->prev = b->prev;
			b->prev = nb;
		} else {
			nb->prev = b;
			a->head = nb;
		}
		b = nb;
	}
	void *p = b->data + b->used;
	b->used += size;
	a->total += size;
	return p;
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (n)
		memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *
arena_vprintf(Arena *a, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		n = 0;
	char *p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
arena_printf(Arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

size_t
arena_used(const Arena *a)
{
	return a->total;
}

void
vec_reserve_(Arena *a, void **data, size_t *cap, size_t elem, size_t len, size_t need)
{
	if (need <= *cap)
		return;
	size_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	if (ncap > SIZE_MAX / 2 / elem)
		fatal_error(FATAL_OUT_OF_MEMORY, "a vector would pass SIZE_MAX");
	void *nd = arena_alloc(a, ncap * elem);
	if (len)
		memcpy(nd, *data, len * elem);
	*data = nd;
	*cap = ncap;
}
