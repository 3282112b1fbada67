/*
 * PTX to cubins for the packaged outputs, the kernels of one file in
 * parallel: a file of several kernels gets an image per kernel (its generic
 * entry and its specialized variant), each assembled by a ptxas run of its
 * own (ptxas -e), up to as many at once as there are processors, each run
 * in a thread with its own arena and diagnostics, merged in kernel order
 * afterwards. The images do not depend on the number of processors, so
 * outputs stay reproducible. --emit=cubin (one file) and files of one
 * kernel are assembled whole, in one run.
 */
#include "driver/driver.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

typedef struct Job {
	PkgPtxas po;               /* the file's, with this kernel's entries */
	CgBlob ptx;
	const char *entries[2];
	/* filled by the thread */
	Arena *a;
	Diags d;
	CgBlob cubin;
	StrBuf usage;
	bool ok;
} Job;

typedef struct Pool {
	Job *jobs;
	int n;
	int next;                  /* the next job to take */
	pthread_mutex_t lock;
} Pool;

static void *
worker(void *arg)
{
	Pool *pool = arg;
	for (;;) {
		pthread_mutex_lock(&pool->lock);
		int i = pool->next++;
		pthread_mutex_unlock(&pool->lock);
		if (i >= pool->n)
			return NULL;
		Job *j = &pool->jobs[i];
		j->po.entries = j->entries;
		j->po.usage = j->po.usage ? &j->usage : NULL;
		j->ok = pkg_ptxas(&j->po, j->ptx, j->a, &j->d, &j->cubin);
	}
}

/* Re-reports every diagnostic of from (allocated in a job's arena) in to. */
static void
copy_diags(Diags *to, const Diags *from)
{
	for (const Diag *g = from->first; g; g = g->next) {
		Diag *c = g->kind == DIAG_WARNING ? diag_warning(to, g->at, "%s", g->msg) :
		          g->kind == DIAG_INTERNAL ? diag_internal(to, g->at, "%s", g->msg) :
		          diag_error(to, g->at, "%s", g->msg);
		for (const Diag *n = g->notes; n && c; n = n->next)
			diag_note(to, c, n->at, "%s", n->msg);
	}
}

/* The processors this process may run on. */
static int
processors(void)
{
	cpu_set_t set;
	int n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
	                                                    : (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : n;
}

bool
drv_assemble(const Options *o, const PkgPtxas *po, const CgResult *r, const Sources *src,
             Arena *a, Diags *d, DrvImages *out)
{
	StrBuf *usage = po->usage;
	memset(out, 0, sizeof *out);
	CgBlob *one = arena_alloc(a, sizeof *one);
	if (o->emit == EMIT_CUBIN || r->n_kernels < 2) {
		out->cubins = one;
		out->n = 1;
		return pkg_ptxas(po, r->ptx, a, d, one);
	}
	int n = r->n_kernels;
	Pool pool = {arena_alloc(a, (size_t)n * sizeof(Job)), n, 0, PTHREAD_MUTEX_INITIALIZER};
	for (int i = 0; i < n; i++) {
		Job *j = &pool.jobs[i];
		memset(j, 0, sizeof *j);
		*j = (Job){.po = *po, .ptx = r->ptx, .entries = {r->kernels[i].name, NULL}};
		j->po.n_entries = 1;
		if (r->kernels[i].fast)
			j->entries[j->po.n_entries++] = r->kernels[i].fast->name;
		j->a = arena_new();
		diag_init(&j->d, j->a, src);
	}
	int n_threads = processors() < n ? processors() : n;
	pthread_t *threads = arena_alloc(a, (size_t)n_threads * sizeof *threads);
	int started = 0;
	for (; started < n_threads; started++)
		if (pthread_create(&threads[started], NULL, worker, &pool) != 0)
			break;
	if (started == 0)
		worker(&pool);   /* no thread to be had: this one does it all */
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&pool.lock);
	CgBlob *cubins = arena_alloc(a, (size_t)n * sizeof *cubins);
	int *image_of = arena_alloc(a, (size_t)n * sizeof *image_of);
	bool ok = true;
	for (int i = 0; i < n; i++) {
		Job *j = &pool.jobs[i];
		copy_diags(d, &j->d);
		if (j->usage.len)
			buf_puts(usage, j->usage.s);
		unsigned char *bytes = arena_alloc(a, j->cubin.len + 1);
		if (j->cubin.len)
			memcpy(bytes, j->cubin.data, j->cubin.len);
		cubins[i] = (CgBlob){bytes, j->cubin.len};
		image_of[i] = i;
		ok &= j->ok;
		buf_free(&j->usage);
		arena_free(j->a);
	}
	*out = (DrvImages){cubins, n, image_of};
	return ok;
}
