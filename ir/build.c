/* Building the IR. */
#include "ir/ir.h"

#include <string.h>

void
ir_block_push(Arena *a, TBlock *b, TInst *i)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 8;
		TInst **p = arena_alloc(a, cap * sizeof *p);
		if (b->n)
			memcpy(p, b->insts, b->n * sizeof *p);
		b->insts = p;
		b->cap = cap;
	}
	b->insts[b->n++] = i;
}

void
ir_block_insert(Arena *a, TBlock *b, size_t at, TInst *i)
{
	ir_block_push(a, b, i);
	memmove(b->insts + at + 1, b->insts + at, (b->n - 1 - at) * sizeof *b->insts);
	b->insts[at] = i;
}
