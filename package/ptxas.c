/*
 * PTX -> cubin with ptxas, run as a child process (posix_spawn) on files in
 * a private temporary directory; its output is captured and becomes the
 * text of a diagnostic. Runs may go on in several threads at once.
 */
#include "package/pkg_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char CUDA_PTXAS[] = "/usr/local/cuda/bin/ptxas";

static bool
write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return false;
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return close(fd) == 0;
}

/* The whole file at path into a, or false. */
static bool
read_file(const char *path, Arena *a, CgBlob *out)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return false;
	}
	size_t len = (size_t)st.st_size, got = 0;
	unsigned char *data = arena_alloc(a, len + 1);
	while (got < len) {
		ssize_t n = read(fd, data + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	*out = (CgBlob){data, got};
	return got == len;
}

/* Runs argv with stdout and stderr into *text; *status is its wait status.
 * Returns the spawn error (0 when it ran). */
static int
run(char *const argv[], bool search, StrBuf *text, int *status)
{
	int fds[2];
	/* close-on-exec, so that a ptxas another thread starts meanwhile does
	 * not hold this pipe open */
	if (pipe2(fds, O_CLOEXEC) != 0)
		return errno;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	pid_t pid;
	int err = search ? posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)
	                 : posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err) {
		close(fds[0]);
		return err;
	}
	char buf[4096];
	for (;;) {
		ssize_t n = read(fds[0], buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf_putn(text, buf, (size_t)n);
	}
	close(fds[0]);
	int ws;
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return errno;
	*status = ws;
	return 0;
}

/* Runs ptxas from $GLC_PTXAS, else PATH, else the CUDA default location. */
static bool
run_ptxas(char **argv, Diags *d, StrBuf *text, int *status)
{
	const char *env = getenv("GLC_PTXAS");
	if (env && *env) {
		argv[0] = (char *)env;
		int err = run(argv, false, text, status);
		if (err)
			diag_error(d, (SrcSpan){0}, "cannot run ptxas '%s' (from GLC_PTXAS): %s", env,
			           strerror(err));
		return err == 0;
	}
	argv[0] = "ptxas";
	int err = run(argv, true, text, status);
	if (err == ENOENT) {
		argv[0] = (char *)CUDA_PTXAS;
		err = run(argv, false, text, status);
	}
	if (err == ENOENT) {
		Diag *e = diag_error(d, (SrcSpan){0}, "ptxas not found (looked on PATH and at %s)",
		                     CUDA_PTXAS);
		diag_note(d, e, (SrcSpan){0}, "install the CUDA toolkit, set GLC_PTXAS, or use "
		          "--emit=ptx and let the driver compile the PTX");
	} else if (err) {
		diag_error(d, (SrcSpan){0}, "cannot run ptxas: %s", strerror(err));
	}
	return err == 0;
}

const char *
pkg_ptxas_path(Arena *a)
{
	const char *env = getenv("GLC_PTXAS");
	if (env && *env)
		return env;
	const char *path = getenv("PATH");
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		char *cand = n ? arena_printf(a, "%.*s/ptxas", (int)n, path) : "./ptxas";
		if (access(cand, X_OK) == 0)
			return cand;
		path = colon ? colon + 1 : NULL;
	}
	return CUDA_PTXAS;
}

bool
pkg_ptxas(const PkgPtxas *o, CgBlob ptx, Arena *a, Diags *d, CgBlob *cubin)
{
	StrBuf *usage = o->usage;
	const char *tmp = getenv("TMPDIR");
	char *dir = arena_printf(a, "%s/glc-ptxas-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		diag_error(d, (SrcSpan){0}, "cannot create a temporary directory %s: %s", dir,
		           strerror(errno));
		return false;
	}
	char *in = arena_printf(a, "%s/kernel.ptx", dir);
	char *out = arena_printf(a, "%s/kernel.cubin", dir);
	char *gpu = arena_printf(a, "-arch=%s", o->arch);
	bool ok = false;
	if (!write_file(in, ptx.data, ptx.len)) {
		diag_error(d, (SrcSpan){0}, "cannot write %s: %s", in, strerror(errno));
	} else {
		char *argv[10] = {NULL, gpu, "-o", out, in}, **more = argv + 5;
		if (o->no_fmad)
			*more++ = "--fmad=false";
		if (usage)
			*more++ = "-v";
		if (o->n_entries) {
			StrBuf names = {0};
			for (int i = 0; i < o->n_entries; i++)
				buf_printf(&names, "%s%s", i ? "," : "", o->entries[i]);
			*more++ = "-e";
			*more++ = arena_strndup(a, names.s, names.len);
			buf_free(&names);
		}
		StrBuf text = {0};
		int status = 0;
		if (run_ptxas(argv, d, &text, &status)) {
			if (WIFSIGNALED(status)) {
				int sig = WTERMSIG(status);
				Diag *e = diag_error(d, (SrcSpan){0}, "ptxas was killed by signal %d (%s)",
				                     sig, strsignal(sig));
				if (text.len)
					diag_note(d, e, (SrcSpan){0}, "ptxas says:\n%s", text.s);
			} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				Diag *e = diag_internal(d, (SrcSpan){0}, "ptxas rejected the PTX that glc "
				                        "generated (exit status %d)", WEXITSTATUS(status));
				diag_note(d, e, (SrcSpan){0}, "ptxas says:\n%s", text.s ? text.s : "");
			} else if (!read_file(out, a, cubin)) {
				diag_error(d, (SrcSpan){0}, "cannot read ptxas's output %s", out);
			} else {
				if (usage && text.len)
					buf_puts(usage, text.s);
				else if (text.len)
					diag_warning(d, (SrcSpan){0}, "ptxas: %s", text.s);
				ok = true;
			}
		}
		buf_free(&text);
	}
	unlink(in);
	unlink(out);
	rmdir(dir);
	return ok;
}
