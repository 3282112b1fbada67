/*
 * The compile-time Python evaluator's interface (sema/eval): expressions,
 * scopes, calls of user functions (run or inlined), constexpr functions,
 * Python's builtins, methods and modules, @aggregate classes, Gluon's
 * layout constructors, and the helpers that read arguments; the types sema
 * makes and Gluon's type classes are types.h's. The evaluator reaches the
 * checker only through the hooks in state.h.
 */
#ifndef SEMA_EVAL_H
#define SEMA_EVAL_H

#include "sema/eval/types.h"

/* -- expr.c: expressions -- */
/* The value of a constexpr expression, or NULL after reporting why not. */
Value *sema_eval_expr(Eval *e, const Node *n);
/* Reports an unknown name (or member of ns) with a "did you mean" note
 * drawn from extra[0..n_extra-1] and the builtins of ns. */
void sema_report_unknown(Eval *e, SrcSpan at, const Builtin *ns, const char *name,
                    const char *const *extra, size_t n_extra);

/* -- subscript.c: obj[index] and obj[lo:hi:step] -- */
Value *sema_eval_subscript(Eval *e, const Node *n);

/* -- layout_ctor.c: Gluon's layout constructors -- */
/* Calls a layout constructor builtin with evaluated arguments. */
Value *sema_eval_layout_ctor(Eval *e, const Builtin *ctor, const Node *call);
/* PaddedSharedLayout.with_identity_for(interval_padding_pairs, shape,
 * order, cga_layout=[]) with arguments a bound by the builtin table. */
Value *sema_padded_identity(Eval *e, const Node *call, Value **a);
/* Attribute `name` of layout d: a constructor parameter as Gluon's layout
 * classes keep it (lists as lists, the parent as a layout, cga_layout as
 * []), or `rank`; NULL (no diagnostic) when the layout has none. */
Value *sema_layout_attr(Eval *e, const LLDesc *d, const char *name, SrcSpan at);
/* The number of layout constructors known to eval_layout_ctor. */
size_t sema_layout_ctor_count(void);

/* -- scope.c: scopes, ranges, limits -- */
/* The binding of name: locals of the current frame, then globals; NULL
 * when unknown. sema_local_find looks only in the current frame. */
Binding *sema_scope_find(Check *ck, const char *name);
Binding *sema_local_find(Check *ck, const char *name);
/* The bindings of s as they are now (read in order, without the index):
 * what a closure sees, unchanged by later bindings in s. */
Scope sema_scope_snapshot(const Scope *s);
/* Binds name in the current frame (or module scope outside a function). */
void sema_scope_bind(Check *ck, const char *name, Value *v, bool is_constexpr, SrcSpan at);
/* Names visible now (locals, then globals), for "did you mean". */
size_t sema_check_visible_names(Check *ck, const char **out, size_t max);
/* The number of items of range(lo, hi, step) (step not 0), and item k:
 * exact for any int64 values. */
uint64_t sema_range_len(int64_t lo, int64_t hi, int64_t step);
int64_t sema_range_at(int64_t lo, int64_t step, uint64_t k);
/* Takes n units of limit id from the kernel's *spent (static_range bodies,
 * inlined calls). Past the limit, reports at `at` what asked ("fmt": "this
 * call of 'f' is inlined") with the limit and the option that raises it,
 * and returns false; later requests fail without a second report. */
bool sema_spend(Check *ck, SrcSpan at, LimitId id, uint64_t *spent, uint64_t n, const char *fmt,
                ...) GL_PRINTF(6, 7);

/* -- values.c: arguments read with diagnostics -- */
/* v as a compile-time integer into *out; false after a diagnostic naming
 * `what` (likewise the others). */
bool sema_value_int(Check *ck, const Value *v, const char *what, int64_t *out);
/* A compile-time int list/tuple (a shape) into out[0..*n-1]. */
bool sema_value_shape(Check *ck, const Value *v, const char *what, int64_t *out, int *n);
/* A layout argument (distributed unless shared is set). */
const LLDesc *sema_value_layout(Check *ck, const Value *v, const char *what, bool shared);
/* A dtype argument (gl.f16, x.dtype). */
bool sema_value_dtype(Check *ck, const Value *v, const char *what, TDType *out);
/* v as a register tensor, or NULL after a diagnostic naming `what`. */
TValue *sema_tensor_arg(Check *ck, Value *v, const char *what);
/* An optional compile-time bool argument (NULL: dflt) into *out; false
 * after a diagnostic naming `what`. */
bool sema_opt_bool(Check *ck, const Value *v, bool dflt, const char *what, bool *out);
/* The Value standing for runtime value v, used at `at`. */
Value *sema_rt_value(Check *ck, TValue *v, SrcSpan at);

/* -- calls.c: calls of user functions and argument binding -- */
/* Binds positional/keyword arguments of call to params[0..n-1] (evaluated;
 * n <= SEMA_MAX_CALL_ARGS); names ending in '?' are optional, a name
 * starting with '*' takes the remaining positional arguments as a tuple.
 * False after a diagnostic. */
enum { SEMA_MAX_CALL_ARGS = 32 };
bool sema_bind_args(Check *ck, const Node *call, const char *fname, const char *const *params,
               int n, Value **out);
/* Binds call's arguments to builtin b's parameters from the builtin table
 * (out[i] NULL for an omitted optional one); false after a diagnostic. */
bool sema_bind_builtin(Check *ck, const Node *call, const Builtin *b, Value **out);
/* Binds call's arguments to method b of the receiver self: self is its
 * first parameter (out[0]), the call's arguments the others. */
bool sema_bind_method(Check *ck, const Node *call, const Builtin *b, Value *self, Value **out);
/* Calls user function func (self: the instance of a method call, else
 * NULL): inlined for @gluon.jit, run for @constexpr_function. */
Value *sema_check_func_call(Check *ck, const Node *call, const Node *func, Value *self);
/* Inlines user function `func` with arguments args[0..n-1] (values for its
 * parameters in order); returns its return value (VAL_NONE if none). */
Value *sema_inline_call(Check *ck, SrcSpan at, const Node *func, Value **args, int n);
/* Checks a compile-time assertion (static_assert, assert): an error at
 * `at` ("<what> failed: msg") when cond is false; false after any error. */
bool sema_assert_now(Check *ck, SrcSpan at, const Value *cond, const Value *msg,
                     const char *what);

/* -- constexpr_fn.c: compile-time Python statements -- */
/* Runs @constexpr_function f with args[0..n-1] bound to its parameters;
 * its return value, or NULL after a diagnostic. */
Value *sema_run_constexpr_fn(Check *ck, SrcSpan at, const Node *f, Value **args, int n);
/* range(...) (or static_range) called with compile-time bounds, b its
 * builtin: the list of its items; NULL after a diagnostic. */
Value *sema_py_range(Check *ck, const Node *call, const Builtin *b);
/* Compile-time values of comprehensions, dict displays, lambdas. */
Value *sema_eval_comp(Check *ck, const Node *n);
Value *sema_eval_dict(Check *ck, const Node *n);

/* -- pymodule.c: Gluon .py files and their imports -- */
/* Binds the top-level names of module m (imports, defs, classes; other
 * assignments lazily in a .py file). */
void sema_module_bind(Check *ck, SemaModule *m);
/* The module that function or class node n belongs to: the scope recorded
 * last for it (a class run again by compile-time Python gets a new one). */
SemaModule *sema_module_of(Check *ck, const Node *n);
/* Records that function or class n (and a class's defs) belongs to scope m. */
void sema_note_scope(Check *ck, const Node *n, SemaModule *m);
/* The scope of n (a lambda or class made while a function runs): the
 * function's names bound so far, then ck->mod's; recorded for n. */
SemaModule *sema_frame_scope(Check *ck, const Node *n);
/* What def f is: FK_JIT in a .gl file; from its decorators in a .py file. */
FuncKind sema_func_kind(Check *ck, const Node *f);
/* Whether def f is a tl function: decorated with @triton.jit in a .py
 * file, or one of the prelude's. */
bool sema_func_is_tl(Check *ck, const Node *f);
/* The scope of plain def f of scope m, for a kernel defined inside it
 * (`-n test_x.kernel`): its imports, defs and classes bound, its other
 * assignments lazily, as at module level; names it lacks come from m. */
SemaModule *sema_function_scope(Check *ck, SemaModule *m, const Node *f);
/* A lazy module-level value forced (b->v replaced); NULL after a diagnostic. */
Value *sema_force_lazy(Check *ck, Binding *b);
/* Reports that v (VAL_HOST) is host Python, used at `at`. */
void sema_host_error(Check *ck, SrcSpan at, const Value *v);
/* Whether one of decorators (evaluated quietly in module m) is the builtin
 * decorator `want`. */
bool sema_has_decorator(Check *ck, SemaModule *m, const NodeList *decorators, BuiltinFn want);
/* The first decorator of def f that is a Gluon name glc does not support
 * (VAL_HOST with a reason, such as _core.builtin), or NULL. */
const Value *sema_unsupported_decorator(Check *ck, const Node *f);

/* -- prelude.c: glc's tl prelude (tl's standard library, written in tl) -- */
/* Member `name` of namespace ns (tl, tl.math, tl.core) when ns lacks it
 * and the prelude defines it (not a '_' helper), used at `at`; NULL
 * otherwise (no diagnostic). */
Value *sema_prelude_member(Check *ck, const Builtin *ns, const char *name, SrcSpan at);
/* The prelude's function `name` (its helpers included), or NULL. */
const Node *sema_prelude_func(Check *ck, const char *name);
/* The prelude function that is the tensor method `name` (x.softmax(),
 * x.argmax(axis), ...), used at `at`; NULL when there is none. */
Value *sema_prelude_method(Check *ck, const char *name, SrcSpan at);
/* Whether v is a block pointer (tl.make_block_ptr's, the prelude's
 * _BlockPointer). */
bool sema_is_block_ptr(Check *ck, const Value *v);
/* Whether m is one of the prelude's files. */
bool sema_in_prelude(Check *ck, const SemaModule *m);

/* -- aggregate.c: @aggregate classes -- */
/* The class value of N_CLASS c when it is an @aggregate (else NULL). */
const SemaClass *sema_class_of(Check *ck, const Node *c);
/* Class statement c run by compile-time Python in a frame: a new @aggregate
 * class (each run its own) whose methods see the frame's names bound so far
 * (the caller adds the class's own), or NULL when c is not an @aggregate. */
const SemaClass *sema_class_in_frame(Check *ck, const Node *c);
/* Calls class cls: a new instance through its __init__. */
Value *sema_construct(Check *ck, const Node *call, const SemaClass *cls);
/* obj.name for an instance or a class; NULL after a diagnostic. */
Value *sema_aggregate_attr(Check *ck, const Node *n, Value *obj);
/* A method of an instance called (m is VAL_METHOD with an instance self). */
Value *sema_aggregate_method_call(Check *ck, const Node *call, Value *m);

/* -- pybuiltins.c: Python's builtins, Gluon's queries, attributes of objects -- */
/* Python's builtins (float, int, len, min and max of numbers, abs,
 * isinstance, the iteration ones), gl.static_assert, gl.constexpr, Gluon's
 * queries and its classes called, with arguments a bound by the builtin
 * table. */
Value *sema_check_py_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);
/* NVMMASharedLayout.get_default_for with arguments a bound by the table. */
Value *sema_nvmma_default(Check *ck, const Node *call, Value **a);
/* obj.name for modules, aggregates, host values and the attributes Gluon
 * reads off dtypes, pointers and constexprs; *handled false: none of these. */
Value *sema_py_attr(Check *ck, const Node *n, Value *obj, bool *handled);

/* -- dtype_attr.c: a dtype's attributes and predicates -- */
/* dtype.NAME (obj a VAL_DTYPE): primitive_bitwidth, int_bitwidth, itemsize,
 * fp_mantissa_width, scalar, value, or a predicate (is_floating, is_int,
 * is_fp16, ...) as a method to call; NULL (no diagnostic) for others. */
Value *sema_dtype_attr(Check *ck, const Node *n, Value *obj);
/* Calls such a predicate: a bool. */
Value *sema_dtype_method_call(Check *ck, const Node *call, Value *m);

/* -- pymethods.c: methods of Python values, iteration builtins -- */
/* obj.name when it is a method of a compile-time list, tuple, dict, str or
 * int (a VAL_METHOD to call), else NULL. */
Value *sema_py_method(Check *ck, const Node *n, Value *obj);
/* Calls such a method; NULL after a diagnostic. */
Value *sema_py_method_call(Check *ck, const Node *call, Value *m);
/* list(), tuple(), sum(), zip(), enumerate(), any(), all(), sorted() and
 * reversed() with arguments a bound by the builtin table. */
Value *sema_py_iter_call(Check *ck, const Node *call, BuiltinFn fn, Value **a);

#endif
