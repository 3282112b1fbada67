/*
 * Names in the generated C and in the host object. A kernel's launcher is
 * an exported C function named after the kernel, so that name must be a
 * legal C and C++ identifier that collides with nothing a C program links:
 * not a keyword, not a macro of the headers the C includes (INT64_MIN
 * would be replaced by the preprocessor), not a function of the C library
 * or POSIX (a launcher named memcpy would replace libc's in the whole
 * program), not the runtime's or the generated code's own names (glrt_*,
 * glc_*, *__spec), not a reserved identifier. Kernel names on that list
 * are errors.
 * Parameter names are not symbols, so the unsafe ones are renamed in the C
 * text (glc_arg_NAME) instead.
 */
#include "package/pkg_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* C11/C23 and C++ keywords, and the macros and typedefs that the standard
 * headers (and glrt.h) put in scope: unusable as any identifier. Sorted. */
static const char *const KEYWORDS[] = {
	"EOF", "I", "INFINITY", "NAN", "NULL", "alignas", "alignof", "and", "and_eq", "asm",
	"assert", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
	"char16_t", "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield",
	"compl", "complex", "concept", "const", "const_cast", "consteval", "constexpr",
	"constinit", "continue", "decltype", "default", "delete", "do", "double",
	"dynamic_cast", "else", "enum", "errno", "explicit", "export", "extern", "false",
	"float", "for", "friend", "goto", "if", "imaginary", "inline", "int", "long",
	"mutable", "namespace", "new", "noexcept", "noreturn", "not", "not_eq", "nullptr",
	"offsetof", "operator", "or", "or_eq", "private", "protected", "public", "register",
	"reinterpret_cast", "requires", "restrict", "return", "short", "signed", "sizeof",
	"static", "static_assert", "static_cast", "stderr", "stdin", "stdout", "struct",
	"switch", "template", "this", "thread_local", "throw", "true", "try", "typedef",
	"typeid", "typename", "typeof", "typeof_unqual", "union", "unsigned", "using",
	"va_arg", "va_end", "va_start", "virtual", "void", "volatile", "wchar_t", "while",
	"xor", "xor_eq",
};

/* The macros that the headers the generated C includes define (<stddef.h>,
 * <stdint.h>, <stdbool.h> for C, as GCC and Clang define them for C99 to
 * C23 and C++17; robust/c_header_macros.test compares this list with
 * theirs), besides those in KEYWORDS: a name of the C text that is one of
 * them would be replaced by the preprocessor. Sorted. */
static const char *const MACROS[] = {
	"INT16_C", "INT16_MAX", "INT16_MIN", "INT16_WIDTH", "INT32_C", "INT32_MAX", "INT32_MIN",
	"INT32_WIDTH", "INT64_C", "INT64_MAX", "INT64_MIN", "INT64_WIDTH", "INT8_C", "INT8_MAX",
	"INT8_MIN", "INT8_WIDTH", "INTMAX_C", "INTMAX_MAX", "INTMAX_MIN", "INTMAX_WIDTH",
	"INTPTR_MAX", "INTPTR_MIN", "INTPTR_WIDTH", "INT_FAST16_MAX", "INT_FAST16_MIN",
	"INT_FAST16_WIDTH", "INT_FAST32_MAX", "INT_FAST32_MIN", "INT_FAST32_WIDTH", "INT_FAST64_MAX",
	"INT_FAST64_MIN", "INT_FAST64_WIDTH", "INT_FAST8_MAX", "INT_FAST8_MIN", "INT_FAST8_WIDTH",
	"INT_LEAST16_MAX", "INT_LEAST16_MIN", "INT_LEAST16_WIDTH", "INT_LEAST32_MAX",
	"INT_LEAST32_MIN", "INT_LEAST32_WIDTH", "INT_LEAST64_MAX", "INT_LEAST64_MIN",
	"INT_LEAST64_WIDTH", "INT_LEAST8_MAX", "INT_LEAST8_MIN", "INT_LEAST8_WIDTH", "PTRDIFF_MAX",
	"PTRDIFF_MIN", "PTRDIFF_WIDTH", "SIG_ATOMIC_MAX", "SIG_ATOMIC_MIN", "SIG_ATOMIC_WIDTH",
	"SIZE_MAX", "SIZE_WIDTH", "UINT16_C", "UINT16_MAX", "UINT16_WIDTH", "UINT32_C", "UINT32_MAX",
	"UINT32_WIDTH", "UINT64_C", "UINT64_MAX", "UINT64_WIDTH", "UINT8_C", "UINT8_MAX",
	"UINT8_WIDTH", "UINTMAX_C", "UINTMAX_MAX", "UINTMAX_WIDTH", "UINTPTR_MAX", "UINTPTR_WIDTH",
	"UINT_FAST16_MAX", "UINT_FAST16_WIDTH", "UINT_FAST32_MAX", "UINT_FAST32_WIDTH",
	"UINT_FAST64_MAX", "UINT_FAST64_WIDTH", "UINT_FAST8_MAX", "UINT_FAST8_WIDTH",
	"UINT_LEAST16_MAX", "UINT_LEAST16_WIDTH", "UINT_LEAST32_MAX", "UINT_LEAST32_WIDTH",
	"UINT_LEAST64_MAX", "UINT_LEAST64_WIDTH", "UINT_LEAST8_MAX", "UINT_LEAST8_WIDTH", "WCHAR_MAX",
	"WCHAR_MIN", "WCHAR_WIDTH", "WINT_MAX", "WINT_MIN", "WINT_WIDTH", "unreachable",
};

/* Functions and objects of the C library (C11), POSIX and the dynamic
 * loader that a C or C++ program may link: an exported launcher of the same
 * name would take their place. Sorted. */
static const char *const LIBC[] = {
	"_Exit", "_exit", "abort", "abs", "accept", "access", "acos", "acosf", "acosh",
	"acoshf", "acoshl", "acosl", "alarm", "aligned_alloc", "asctime", "asin", "asinf",
	"asinh", "asinhf", "asinhl", "asinl", "at_quick_exit", "atan", "atan2", "atan2f",
	"atan2l", "atanf", "atanh", "atanhf", "atanhl", "atanl", "atexit", "atof", "atoi",
	"atol", "atoll", "bind", "bsearch", "btowc", "c16rtomb", "c32rtomb", "calloc", "cbrt",
	"cbrtf", "cbrtl", "ceil", "ceilf", "ceill", "chdir", "chmod", "chown", "clearerr",
	"clock", "clock_gettime", "close", "closedir", "connect", "copysign", "copysignf",
	"copysignl", "cos", "cosf", "cosh", "coshf", "coshl", "cosl", "creat", "ctime",
	"difftime", "div", "dlclose", "dlerror", "dlopen", "dlsym", "dup", "dup2", "environ",
	"erf", "erfc", "erfcf", "erfcl", "erff", "erfl", "execl", "execle", "execlp", "execv",
	"execve", "execvp", "exit", "exp", "exp2", "exp2f", "exp2l", "expf", "expl", "expm1",
	"expm1f", "expm1l", "fabs", "fabsf", "fabsl", "fchmod", "fclose", "fcntl", "fdim",
	"fdimf", "fdiml", "fdopen", "feof", "ferror", "fflush", "fgetc", "fgetpos", "fgets",
	"fileno", "floor", "floorf", "floorl", "fma", "fmaf", "fmal", "fmax", "fmaxf",
	"fmaxl", "fmin", "fminf", "fminl", "fmod", "fmodf", "fmodl", "fopen", "fork",
	"fprintf", "fputc", "fputs", "fread", "free", "freopen", "frexp", "frexpf", "frexpl",
	"fscanf", "fseek", "fsetpos", "fstat", "fsync", "ftell", "ftruncate", "fwrite",
	"getc", "getchar", "getcwd", "getenv", "getline", "getpid", "getppid", "gets",
	"gettimeofday", "getuid", "gmtime", "hypot", "hypotf", "hypotl", "ilogb", "ilogbf",
	"ilogbl", "ioctl", "isalnum", "isalpha", "isatty", "isblank", "iscntrl", "isdigit",
	"isgraph", "islower", "isprint", "ispunct", "isspace", "isupper", "isxdigit", "kill",
	"labs", "ldexp", "ldexpf", "ldexpl", "ldiv", "lgamma", "lgammaf", "lgammal", "link",
	"listen", "llabs", "lldiv", "llrint", "llround", "localeconv", "localtime", "log",
	"log10", "log10f", "log10l", "log1p", "log1pf", "log1pl", "log2", "log2f", "log2l",
	"logb", "logf", "logl", "longjmp", "lrint", "lround", "lseek", "lstat", "main",
	"malloc", "mblen", "mbrtowc", "mbstowcs", "mbtowc", "memchr", "memcmp", "memcpy",
	"memmove", "memset", "mkdir", "mkstemp", "mktime", "mmap", "modf", "modff", "modfl",
	"mprotect", "munmap", "nanosleep", "nearbyint", "nextafter", "open", "opendir",
	"perror", "pipe", "poll", "popen", "posix_memalign", "pow", "powf", "powl", "pread",
	"printf", "putc", "putchar", "putenv", "puts", "pwrite", "qsort", "quick_exit",
	"raise", "rand", "read", "readdir", "readlink", "realloc", "realpath", "recv",
	"remainder", "remove", "rename", "rewind", "rint", "rintf", "rintl", "rmdir", "round",
	"roundf", "roundl", "sbrk", "scalbn", "scanf", "select", "send", "setbuf", "setenv",
	"setjmp", "setlocale", "setvbuf", "sigaction", "signal", "sin", "sinf", "sinh",
	"sinhf", "sinhl", "sinl", "sleep", "snprintf", "socket", "sprintf", "sqrt", "sqrtf",
	"sqrtl", "srand", "sscanf", "stat", "strcat", "strchr", "strcmp", "strcoll", "strcpy",
	"strcspn", "strdup", "strerror", "strftime", "strlen", "strncat", "strncmp",
	"strncpy", "strndup", "strnlen", "strpbrk", "strrchr", "strspn", "strstr", "strtod",
	"strtof", "strtok", "strtol", "strtold", "strtoll", "strtoul", "strtoull", "strxfrm",
	"symlink", "sysconf", "system", "tan", "tanf", "tanh", "tanhf", "tanhl", "tanl",
	"tgamma", "tgammaf", "tgammal", "time", "timespec_get", "tmpfile", "tmpnam",
	"tolower", "toupper", "trunc", "truncate", "truncf", "truncl", "umask", "ungetc",
	"unlink", "unsetenv", "usleep", "vfprintf", "vprintf", "vsnprintf", "vsprintf",
	"wait", "waitpid", "wcslen", "wctomb", "write",
};

/* Prefixes of the CUDA libraries, POSIX threads and the C library's own
 * namespaces: no launcher may start with one. */
static const char *const FOREIGN_PREFIXES[] = {
	"atomic_", "cnd_", "cublas", "cudnn", "cufft", "curand", "cusolver", "cusparse",
	"memory_order_", "mtx_", "nccl", "pthread_", "thrd_", "tss_",
};

static int
cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static bool
listed(const char *name, const char *const *list, size_t n)
{
	return bsearch(name, list, n, sizeof *list, cmp_name) != NULL;
}

/* Why name cannot be any identifier of the generated C, or NULL when it
 * can (the text completes "'NAME' ..."). */
static const char *
reserved(const char *name)
{
	if (listed(name, KEYWORDS, sizeof KEYWORDS / sizeof *KEYWORDS))
		return "is a C or C++ keyword, or a name that the C headers define";
	if (listed(name, MACROS, sizeof MACROS / sizeof *MACROS))
		return "is a macro of <stdint.h>, <stddef.h> or <stdbool.h>, which the generated "
		       "C includes";
	if (name[0] == '_' || strstr(name, "__"))
		return "is reserved in C and C++ (it starts with '_' or holds '__')";
	if (strncmp(name, "glc_", 4) == 0 || strncmp(name, "GLC_", 4) == 0 ||
	    strncmp(name, "glrt_", 5) == 0 || strncmp(name, "GLRT_", 5) == 0)
		return "starts with a prefix of glc's generated code or its runtime (glc_, glrt_)";
	size_t n = strlen(name);
	if (n > 2 && strcmp(name + n - 2, "_t") == 0)
		return "ends in '_t', which C and POSIX keep for type names";
	return NULL;
}

/* Why name cannot be an exported function of a C program, or NULL. */
static const char *
not_exportable(Arena *a, const char *name)
{
	const char *why = reserved(name);
	if (why)
		return why;
	if (listed(name, LIBC, sizeof LIBC / sizeof *LIBC))
		return "is a function of the C library or POSIX, which the exported launcher "
		       "would replace in the program that links it";
	for (size_t i = 0; i < sizeof FOREIGN_PREFIXES / sizeof *FOREIGN_PREFIXES; i++)
		if (strncmp(name, FOREIGN_PREFIXES[i], strlen(FOREIGN_PREFIXES[i])) == 0)
			return arena_printf(a, "starts with '%s', a prefix of a library that C "
			                    "programs link", FOREIGN_PREFIXES[i]);
	if ((strncmp(name, "cu", 2) == 0 && isupper((unsigned char)name[2])) ||
	    (strncmp(name, "cuda", 4) == 0 && isupper((unsigned char)name[4])))
		return "looks like a CUDA driver or runtime function (cuXxx, cudaXxx)";
	return NULL;
}

const char *
pkg_c_arg_prefix(const CgParam *p)
{
	static const char *const launcher[] = {"grid_x", "grid_y", "grid_z", "stream"};
	for (size_t i = 0; i < sizeof launcher / sizeof *launcher; i++)
		if (strcmp(p->name, launcher[i]) == 0)
			return "glc_arg_";
	return reserved(p->name) ? "glc_arg_" : "";
}

static int
cmp_kernel(const void *x, const void *y)
{
	const CgKernelSig *a = *(const CgKernelSig *const *)x, *b = *(const CgKernelSig *const *)y;
	int c = strcmp(a->name, b->name);
	return c ? c : (a > b) - (a < b);
}

bool
pkg_check_symbols(const PkgUnit *p, Arena *a, Diags *d)
{
	bool ok = true;
	for (int i = 0; i < p->n_kernels; i++) {
		const CgKernelSig *k = &p->kernels[i];
		const char *why = not_exportable(a, k->name);
		if (why) {
			Diag *e = diag_error(d, k->at, "kernel name '%s' cannot name its C "
			                     "launcher: it %s", k->name, why);
			diag_note(d, e, (SrcSpan){0}, "the launcher is an exported C function "
			          "named after the kernel; rename the kernel");
			ok = false;
		}
	}
	/* Duplicates, by sorting (kernels in file order within one name). */
	const CgKernelSig **by_name = arena_alloc(a, ((size_t)p->n_kernels + 1) * sizeof *by_name);
	for (int i = 0; i < p->n_kernels; i++)
		by_name[i] = &p->kernels[i];
	qsort(by_name, (size_t)p->n_kernels, sizeof *by_name, cmp_kernel);
	for (int i = 1; i < p->n_kernels; i++)
		if (strcmp(by_name[i - 1]->name, by_name[i]->name) == 0) {
			Diag *e = diag_error(d, by_name[i]->at, "a second kernel named '%s'; their "
			                     "launchers would be one C symbol", by_name[i]->name);
			diag_note(d, e, by_name[i - 1]->at, "the first is here");
			ok = false;
		}
	return ok;
}

const char *
pkg_param_ctype(const CgParam *p)
{
	if (p->kind == CG_PARAM_PTR)
		return "glrt_devptr";
	if (p->kind == CG_PARAM_TENSOR_MAP)
		return "const glrt_tensor_map *";
	switch (p->dtype) {
	case DT_I1: return "bool";   /* any nonzero value converts to true */
	case DT_U8: case DT_F8E4M3: case DT_F8E5M2: return "uint8_t";
	case DT_I8: return "int8_t";
	case DT_I16: return "int16_t";
	case DT_U16: case DT_F16: case DT_BF16: return "uint16_t";
	case DT_I32: return "int32_t";
	case DT_U32: return "uint32_t";
	case DT_I64: return "int64_t";
	case DT_U64: return "uint64_t";
	case DT_F32: return "float";
	case DT_F64: return "double";
	case DT_VOID: case DT_COUNT: break;
	}
	return "void";
}
