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
