/*
 * Checks of a module image against its size before the driver reads it:
 * cuModuleLoadData takes no size, so a truncated or forged image would be
 * read past its end. A cubin is a 64-bit little-endian ELF file (ident and
 * header version 1, a 64-byte header) for EM_CUDA whose program and
 * section header tables, segments and sections all lie inside the image,
 * whose string tables end in a NUL inside their section, whose section
 * names lie inside the section name table and whose symbols' names inside
 * their string table; a fatbin's header and each entry's header and
 * payload lie inside it. PTX is NUL-terminated within its size.
 */
#include <string.h>

#include "internal.h"

enum {
	ELF_HEADER = 64,       /* sizeof(Elf64_Ehdr) */
	ELF_SECTION = 64,      /* sizeof(Elf64_Shdr) */
	ELF_SEGMENT = 56,      /* sizeof(Elf64_Phdr) */
	ELF_SYMBOL = 24,       /* sizeof(Elf64_Sym) */
	EM_CUDA = 190,
	SHT_SYMTAB = 2,
	SHT_STRTAB = 3,
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

/* Section i's header in the image (the table was checked to lie inside). */
static const unsigned char *
section(const unsigned char *p, uint64_t shoff, uint64_t shent, uint64_t i)
{
	return p + shoff + i * shent;
}

/* Whether string table section sh (inside the image) ends in a NUL; its
 * size in *size. */
static int
strtab_ok(const unsigned char *p, const unsigned char *sh, uint64_t *size)
{
	*size = le(sh + 32, 8);
	return le(sh + 4, 4) == SHT_STRTAB && *size && p[le(sh + 24, 8) + *size - 1] == 0;
}

/* Every symbol of symbol table section sh names a string inside the string
 * table its sh_link gives. */
static glrt_status
check_symbols(const unsigned char *p, const unsigned char *sh, uint64_t shoff,
              uint64_t shent, uint64_t shnum, uint64_t i)
{
	uint64_t link = le(sh + 40, 4), off = le(sh + 24, 8), size = le(sh + 32, 8);
	uint64_t ent = le(sh + 56, 8), strsize, k;

	if (link >= shnum ||
	    !strtab_ok(p, section(p, shoff, shent, link), &strsize))
		return BAD("symbol table section %u links no string table",
		           (unsigned)i);
	if (ent < ELF_SYMBOL)
		return BAD("symbol table section %u has %llu-byte entries",
		           (unsigned)i, (unsigned long long)ent);
	for (k = 0; k < size / ent; k++)
		if (le(p + off + k * ent, 4) >= strsize)
			return BAD("symbol %u of section %u names no string of "
			           "its string table", (unsigned)k, (unsigned)i);
	return GLRT_SUCCESS;
}

static glrt_status
check_elf(const unsigned char *p, size_t size)
{
	uint64_t phoff, shoff, phnum, shnum, phent, shent, shstrndx, names, i;
	glrt_status s;

	if (size < ELF_HEADER)
		return BAD("the %zu-byte cubin is shorter than an ELF header", size);
	if (p[4] != 2 || p[5] != 1 || le(p + 18, 2) != EM_CUDA)
		return BAD("the cubin is not a 64-bit little-endian ELF file for "
		           "CUDA (class %u, data %u, machine %u)", p[4], p[5],
		           (unsigned)le(p + 18, 2));
	if (p[6] != 1 || le(p + 20, 4) != 1 || le(p + 52, 2) < ELF_HEADER)
		return BAD("the cubin's ELF header is not version 1 of 64 bytes "
		           "(ident version %u, version %u, size %u)", p[6],
		           (unsigned)le(p + 20, 4), (unsigned)le(p + 52, 2));
	phoff = le(p + 32, 8);
	shoff = le(p + 40, 8);
	phent = le(p + 54, 2);
	phnum = le(p + 56, 2);
	shent = le(p + 58, 2);
	shnum = le(p + 60, 2);
	shstrndx = le(p + 62, 2);
	if ((phnum && phent < ELF_SEGMENT) || (shnum && shent < ELF_SECTION) ||
	    !inside(phoff, phnum, phent, size) || !inside(shoff, shnum, shent, size))
		return BAD("the cubin's program or section header table lies "
		           "outside its %zu bytes", size);
	for (i = 0; i < phnum; i++) {
		const unsigned char *ph = p + phoff + i * phent;

		if (!inside(le(ph + 8, 8), le(ph + 32, 8), 1, size))
			return BAD("segment %u of the cubin lies outside its %zu "
			           "bytes", (unsigned)i, size);
	}
	if (shnum && shstrndx >= shnum)
		return BAD("the cubin's section name table index %u is out of "
		           "range", (unsigned)shstrndx);
	for (i = 0; i < shnum; i++) {
		const unsigned char *sh = section(p, shoff, shent, i);

		if (le(sh + 4, 4) != SHT_NOBITS &&
		    !inside(le(sh + 24, 8), le(sh + 32, 8), 1, size))
			return BAD("section %u of the cubin lies outside its "
			           "%zu bytes", (unsigned)i, size);
	}
	if (!shnum)
		return GLRT_SUCCESS;
	if (!strtab_ok(p, section(p, shoff, shent, shstrndx), &names))
		return BAD("the cubin's section name table (section %u) is not a "
		           "string table ending in a NUL", (unsigned)shstrndx);
	for (i = 0; i < shnum; i++) {
		const unsigned char *sh = section(p, shoff, shent, i);
		uint64_t strsize;

		if (le(sh, 4) >= names)
			return BAD("section %u's name lies outside the section name "
			           "table", (unsigned)i);
		if (le(sh + 4, 4) == SHT_STRTAB && !strtab_ok(p, sh, &strsize))
			return BAD("string table section %u does not end in a NUL",
			           (unsigned)i);
		if (le(sh + 4, 4) == SHT_SYMTAB &&
		    (s = check_symbols(p, sh, shoff, shent, shnum, i)) != GLRT_SUCCESS)
			return s;
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
