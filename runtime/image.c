/*
 * Checks of a module image against its size before the driver reads it:
 * cuModuleLoadData takes no size, so a truncated or forged image would be
 * read past its end. A cubin is a 64-bit little-endian ELF file for
 * EM_CUDA whose header tables and sections all lie inside the image; a
 * fatbin's header and each entry's header and payload lie inside it. PTX
 * is NUL-terminated within its size.
 */
#include <string.h>

#include "internal.h"

enum {
	ELF_HEADER = 64,       /* sizeof(Elf64_Ehdr) */
	ELF_SECTION = 64,      /* sizeof(Elf64_Shdr) */
	ELF_SEGMENT = 56,      /* sizeof(Elf64_Phdr) */
	EM_CUDA = 190,
	SHT_NOBITS = 8,
	FATBIN_HEADER = 16,    /* magic, version, header size, fat size */
	FATBIN_ENTRY = 16,     /* kind, version, header size, payload size */
};

/* Little-endian fields at p. */
static uint64_t
le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Whether [off, off + n * each) lies inside size bytes. */
static int
inside(uint64_t off, uint64_t n, uint64_t each, size_t size)
{
	return off <= size && (each == 0 || n <= (size - off) / each);
}

#define BAD(...) glrt_fail(GLRT_ERROR_INVALID_ARGUMENT, "glrt_module_load: " \
                           __VA_ARGS__)

static glrt_status
check_elf(const unsigned char *p, size_t size)
{
	uint64_t phoff, shoff, phnum, shnum, phent, shent, i;

	if (size < ELF_HEADER)
		return BAD("the %zu-byte cubin is shorter than an ELF header", size);
	if (p[4] != 2 || p[5] != 1 || le(p + 18, 2) != EM_CUDA)
		return BAD("the cubin is not a 64-bit little-endian ELF file for "
		           "CUDA (class %u, data %u, machine %u)", p[4], p[5],
		           (unsigned)le(p + 18, 2));
	phoff = le(p + 32, 8);
	shoff = le(p + 40, 8);
	phent = le(p + 54, 2);
	phnum = le(p + 56, 2);
	shent = le(p + 58, 2);
	shnum = le(p + 60, 2);
	if ((phnum && phent < ELF_SEGMENT) || (shnum && shent < ELF_SECTION) ||
	    !inside(phoff, phnum, phent, size) || !inside(shoff, shnum, shent, size))
		return BAD("the cubin's program or section header table lies "
		           "outside its %zu bytes", size);
	if (shnum && le(p + 62, 2) >= shnum)
		return BAD("the cubin's section name table index %u is out of "
		           "range", (unsigned)le(p + 62, 2));
	for (i = 0; i < shnum; i++) {
		const unsigned char *sh = p + shoff + i * shent;

		if (le(sh + 4, 4) != SHT_NOBITS &&
		    !inside(le(sh + 24, 8), le(sh + 32, 8), 1, size))
			return BAD("section %u of the cubin lies outside its "
			           "%zu bytes", (unsigned)i, size);
	}
	return GLRT_SUCCESS;
}

static glrt_status
check_fatbin(const unsigned char *p, size_t size)
{
	uint64_t header, fat, pos, end;

	if (size < FATBIN_HEADER)
		return BAD("the %zu-byte fatbin is shorter than its header", size);
	header = le(p + 6, 2);
	fat = le(p + 8, 8);
	if (header < FATBIN_HEADER || !inside(header, fat, 1, size))
		return BAD("the fatbin's %llu bytes of entries lie outside its "
		           "%zu bytes", (unsigned long long)fat, size);
	end = header + fat;
	for (pos = header; pos < end;) {
		uint64_t eh, payload;

		if (end - pos < FATBIN_ENTRY)
			return BAD("a fatbin entry header at byte %llu is cut "
			           "short", (unsigned long long)pos);
		eh = le(p + pos + 4, 4);
		payload = le(p + pos + 8, 8);
		if (eh < FATBIN_ENTRY || !inside(pos + eh, payload, 1, end))
			return BAD("the fatbin entry at byte %llu lies outside "
			           "the fatbin", (unsigned long long)pos);
		pos += eh + payload;
	}
	return GLRT_SUCCESS;
}

glrt_status
glrt_check_image(const void *image, size_t size, glrt_image_kind kind)
{
	static const unsigned char elf[4] = { 0x7f, 'E', 'L', 'F' };
	static const unsigned char fatbin[4] = { 0x50, 0xed, 0x55, 0xba };

	if (!image)
		return BAD("image is NULL");
	if (kind == GLRT_IMAGE_CUBIN) {
		if (size >= 4 && memcmp(image, elf, 4) == 0)
			return check_elf(image, size);
		if (size >= 4 && memcmp(image, fatbin, 4) == 0)
			return check_fatbin(image, size);
		return BAD("the %zu-byte image is not an ELF cubin or a fatbin",
		           size);
	}
	if (kind == GLRT_IMAGE_PTX) {
		if (size && !memchr(image, 0, size))
			return BAD("the PTX is not NUL-terminated within its %zu "
			           "bytes", size);
		return GLRT_SUCCESS;
	}
	return BAD("unknown image kind %d", (int)kind);
}
