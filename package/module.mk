# package: host packaging (ptxas, C launchers, headers, host objects).
# Depends on codegen/'s public header, ir/, layout/ and support/; the host
# object is built through LLVM, so its sources see LLVM's headers.
PACKAGE_SRCS += package/ptxas.c package/launcher.c package/object.c package/c_names.c \
                package/grid.c package/manifest.c \
                package/link.c package/link_emit.c package/cache.c
