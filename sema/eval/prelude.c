/*
 * glc's tl prelude: triton.language's standard library (softmax, argmax,
 * sort, flip, the random numbers, block pointers, ...) written in tl, in
 * the files of sema/prelude/, which the build embeds (embed.sh). The
 * files are read, parsed and bound once per compilation, when a tl
 * namespace first lacks a name; each is a module of its own, registered
 * in the source table as "<tl>/FILE" so that diagnostics can quote it.
 * Names starting with '_' are the prelude's own helpers: only builtins
 * reach them (sema_prelude_func).
 */
#include "sema/eval/eval.h"

#include <string.h>

/* The embedded files (the generated prelude_text.c). */
typedef struct PreludeFile {
	const char *name;
	const char *text;
	size_t len;
} PreludeFile;
extern const PreludeFile sema_prelude_files[];
extern const size_t sema_prelude_n_files;

/* The tensor methods that are prelude functions (Triton's
 * _tensor_member_fn of standard.py and core.py). */
static const char *const methods[] = {
	"argmax", "argmin", "flip", "sigmoid", "softmax", "sort", "topk", "advance",
};

static void
load(Check *ck)
{
	if (ck->prelude_read)
		return;
	ck->prelude_read = true;
	ck->prelude = arena_alloc(ck->a, sema_prelude_n_files * sizeof *ck->prelude);
	SemaModule *saved = ck->mod;
	Frame *saved_fr = ck->fr;
	for (size_t i = 0; i < sema_prelude_n_files; i++) {
		const PreludeFile *f = &sema_prelude_files[i];
		uint32_t file = src_add(ck->src, arena_printf(ck->a, "<tl>/%s", f->name), f->text,
		                        f->len);
		const Node *ast = parse_module(ck->a, ck->in, ck->src, file, ck->d, NULL);
		if (!ast)
			continue;
		SemaModule *m = arena_alloc(ck->a, sizeof *m);
		*m = (SemaModule){.name = f->name, .ast = ast, .file = file, .python = true};
		ck->prelude[ck->n_prelude++] = m;
		ck->mod = m;
		ck->fr = NULL;
		sema_module_bind(ck, m);
	}
	ck->mod = saved;
	ck->fr = saved_fr;
}

/* The value the prelude binds to name (forced), or NULL. */
static Value *
find(Check *ck, const char *name)
{
	load(ck);
	const char *id = intern(ck->in, name, strlen(name));
	for (size_t i = 0; i < ck->n_prelude; i++) {
		SemaModule *saved = ck->mod;
		Frame *saved_fr = ck->fr;
		ck->mod = ck->prelude[i];
		ck->fr = NULL;
		Binding *b = sema_local_find(ck, id);
		Value *v = b ? (b->v && b->v->kind == VAL_LAZY ? sema_force_lazy(ck, b) : b->v) : NULL;
		ck->mod = saved;
		ck->fr = saved_fr;
		if (v)
			return v;
	}
	return NULL;
}

/* The prelude files that are modules of tl (tl.standard, tl.random,
 * tl.target_info); the others only lend their names. */
static const char *const modules[] = {"standard", "random", "target_info"};

Value *
sema_prelude_member(Check *ck, const Builtin *ns, const char *name, SrcSpan at)
{
	if (!ck || !sema_builtin_has_prelude(ns) || name[0] == '_')
		return NULL;
	load(ck);
	for (size_t k = 0; k < sizeof modules / sizeof *modules; k++)
		for (size_t i = 0; strcmp(name, modules[k]) == 0 && i < ck->n_prelude; i++)
			if (strncmp(ck->prelude[i]->name, name, strlen(name)) == 0 &&
			    strcmp(ck->prelude[i]->name + strlen(name), ".py") == 0) {
				Value *m = sema_new_value(&ck->ev, VAL_MODULE, at);
				m->u.mod = ck->prelude[i];
				return m;
			}
	Value *v = find(ck, name);
	if (!v)
		return NULL;
	Value *use = arena_alloc(ck->a, sizeof *use);
	*use = *v;
	use->span = at;
	return use;
}

const Node *
sema_prelude_func(Check *ck, const char *name)
{
	Value *v = find(ck, name);
	return v && v->kind == VAL_FUNC ? v->u.func : NULL;
}

Value *
sema_prelude_method(Check *ck, const char *name, SrcSpan at)
{
	for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
		if (strcmp(methods[i], name) == 0) {
			Value *v = find(ck, name);
			if (!v || v->kind != VAL_FUNC)
				return NULL;
			Value *use = arena_alloc(ck->a, sizeof *use);
			*use = *v;
			use->span = at;
			return use;
		}
	return NULL;
}

bool
sema_in_prelude(Check *ck, const SemaModule *m)
{
	for (size_t i = 0; i < ck->n_prelude; i++)
		if (ck->prelude[i] == m)
			return true;
	return false;
}

bool
sema_is_block_ptr(Check *ck, const Value *v)
{
	const SemaClass *c = v && v->kind == VAL_TUPLE ? v->u.list.cls : NULL;
	return c && strcmp(c->name, "_BlockPointer") == 0 && sema_in_prelude(ck, c->mod);
}
