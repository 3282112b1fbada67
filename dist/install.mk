# `make install PREFIX=/usr/local DESTDIR=`: glc, libglrt (static and
# shared), glrt.h, the man page, glc.pc and the CMake package
# (docs/building.md). PREFIX goes into glc.pc; the CMake package finds its
# files relative to itself, so a tree installed under DESTDIR and moved
# still works.
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(DESTDIR)$(PREFIX)/bin
LIBDIR   = $(DESTDIR)$(PREFIX)/lib
INCDIR   = $(DESTDIR)$(PREFIX)/include/glc
MANDIR   = $(DESTDIR)$(PREFIX)/share/man/man1
CMAKEDIR = $(LIBDIR)/cmake/glc
GLC_VERSION_NUMBER = $(shell sed -n 's/^\#define GLC_VERSION "\(.*\)"/\1/p' driver/glc.c)

install: $(B)/glc $(B)/libglrt.a $(B)/libglrt.so
	install -d $(BINDIR) $(LIBDIR)/pkgconfig $(INCDIR) $(MANDIR) $(CMAKEDIR)
	install -m 755 $(B)/glc $(BINDIR)/glc
	install -m 644 $(B)/libglrt.a $(LIBDIR)/libglrt.a
	install -m 755 $(B)/libglrt.so $(LIBDIR)/libglrt.so.0
	ln -sf libglrt.so.0 $(LIBDIR)/libglrt.so
	install -m 644 runtime/glrt.h $(INCDIR)/glrt.h
	install -m 644 docs/glc.1 $(MANDIR)/glc.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(GLC_VERSION_NUMBER)|g' dist/glc.pc.in \
		> $(LIBDIR)/pkgconfig/glc.pc
	install -m 644 dist/glcConfig.cmake $(CMAKEDIR)/glcConfig.cmake
	sed -e 's|@VERSION@|$(GLC_VERSION_NUMBER)|g' dist/glcConfigVersion.cmake.in \
		> $(CMAKEDIR)/glcConfigVersion.cmake
