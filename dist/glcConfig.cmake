# glc's CMake package (docs/building.md). find_package(glc) gives
#   glc::glc          the compiler (GLC_EXECUTABLE is its path)
#   glc::glrt         the launch runtime, static (glc::glrt_shared: shared)
#   glc_add_kernels(TARGET lib SOURCES k.gl|k.py...
#                   [KERNEL name] [SIGNATURES sig...] [DEFINES NAME=VALUE...]
#                   [OUT_NAME name] [INCLUDE_DIRS dir...] [OPTIONS arg...])
# glc_add_kernels runs glc once per source (object, header, manifest and
# depfile from one run, so that a change to an imported file rebuilds it),
# puts the objects into the static library TARGET (made by the first call;
# later calls add to it) and, once the directory is processed, runs
# `glc link` over every manifest of TARGET: TARGET.h declares every launcher
# and a dispatcher per kernel of several specializations. TARGET links
# glc::glrt and puts its headers on its users' include path.
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)
get_filename_component(_glc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
include(CMakeFindDependencyMacro)
find_dependency(Threads)

if(NOT TARGET glc::glc)
	add_executable(glc::glc IMPORTED)
	set_target_properties(glc::glc PROPERTIES IMPORTED_LOCATION "${_glc_prefix}/bin/glc")
	add_library(glc::glrt STATIC IMPORTED)
	set_target_properties(glc::glrt PROPERTIES
		IMPORTED_LOCATION "${_glc_prefix}/lib/libglrt.a"
		INTERFACE_INCLUDE_DIRECTORIES "${_glc_prefix}/include/glc"
		INTERFACE_LINK_LIBRARIES "${CMAKE_DL_LIBS};Threads::Threads")
	add_library(glc::glrt_shared SHARED IMPORTED)
	set_target_properties(glc::glrt_shared PROPERTIES
		IMPORTED_LOCATION "${_glc_prefix}/lib/libglrt.so.0"
		IMPORTED_SONAME "libglrt.so.0"
		INTERFACE_INCLUDE_DIRECTORIES "${_glc_prefix}/include/glc")
endif()
set(GLC_EXECUTABLE "${_glc_prefix}/bin/glc")

# glc link over TARGET's manifests (deferred to the end of the directory
# that made TARGET, when every glc_add_kernels call is known).
function(_glc_link target dir)
	get_property(manifests TARGET ${target} PROPERTY GLC_MANIFESTS)
	add_custom_command(
		OUTPUT "${dir}/${target}_dispatch.c" "${dir}/${target}.h" "${dir}/${target}.json"
		COMMAND "${GLC_EXECUTABLE}" link ${manifests} -o "${dir}/${target}_dispatch.c"
		        --header "${dir}/${target}.h" --manifest "${dir}/${target}.json"
		DEPENDS ${manifests} "${GLC_EXECUTABLE}"
		COMMENT "glc link ${target}"
		VERBATIM)
	target_sources(${target} PRIVATE "${dir}/${target}_dispatch.c" "${dir}/${target}.h")
endfunction()

function(glc_add_kernels)
	cmake_parse_arguments(PARSE_ARGV 0 G "" "TARGET;KERNEL;OUT_NAME"
	                      "SOURCES;SIGNATURES;DEFINES;INCLUDE_DIRS;OPTIONS")
	if(NOT G_TARGET OR NOT G_SOURCES)
		message(FATAL_ERROR "glc_add_kernels: give TARGET and SOURCES")
	endif()
	if(G_UNPARSED_ARGUMENTS)
		message(FATAL_ERROR "glc_add_kernels: unknown arguments: ${G_UNPARSED_ARGUMENTS}")
	endif()
	set(dir "${CMAKE_CURRENT_BINARY_DIR}/glc/${G_TARGET}")
	file(MAKE_DIRECTORY "${dir}")
	if(NOT TARGET ${G_TARGET})
		add_library(${G_TARGET} STATIC)
		set_target_properties(${G_TARGET} PROPERTIES LINKER_LANGUAGE C)
		target_link_libraries(${G_TARGET} PUBLIC glc::glrt)
		target_include_directories(${G_TARGET} PUBLIC "${dir}")
		cmake_language(EVAL CODE
			"cmake_language(DEFER CALL _glc_link [[${G_TARGET}]] [[${dir}]])")
	endif()
	set(args)
	if(G_KERNEL)
		list(APPEND args --kernel "${G_KERNEL}")
	endif()
	foreach(s IN LISTS G_SIGNATURES)
		list(APPEND args -s "${s}")
	endforeach()
	foreach(d IN LISTS G_DEFINES)
		list(APPEND args -D "${d}")
	endforeach()
	if(G_OUT_NAME)
		list(APPEND args -on "${G_OUT_NAME}")
	endif()
	foreach(i IN LISTS G_INCLUDE_DIRS)
		get_filename_component(i "${i}" ABSOLUTE)
		list(APPEND args -I "${i}")
	endforeach()
	list(APPEND args ${G_OPTIONS})
	foreach(src IN LISTS G_SOURCES)
		get_filename_component(abs "${src}" ABSOLUTE)
		get_filename_component(base "${src}" NAME_WE)
		if(G_OUT_NAME)
			set(base "${G_OUT_NAME}")
		elseif(G_KERNEL)
			set(base "${base}_${G_KERNEL}")
		endif()
		get_property(bases TARGET ${G_TARGET} PROPERTY GLC_BASES)
		if(base IN_LIST bases OR base STREQUAL G_TARGET)
			message(FATAL_ERROR "glc_add_kernels: ${G_TARGET} already has outputs named "
			        "${base} (give another KERNEL or OUT_NAME)")
		endif()
		set_property(TARGET ${G_TARGET} APPEND PROPERTY GLC_BASES "${base}")
		set(out "${dir}/${base}")
		add_custom_command(
			OUTPUT "${out}.o" "${out}.h" "${out}.json"
			COMMAND "${GLC_EXECUTABLE}" "${abs}" ${args} -c -o "${out}.o" --header "${out}.h"
			        --manifest "${out}.json" -MD -MF "${out}.d"
			DEPENDS "${abs}" "${GLC_EXECUTABLE}"
			DEPFILE "${out}.d"
			COMMENT "glc ${src}"
			VERBATIM)
		set_source_files_properties("${out}.o" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
		target_sources(${G_TARGET} PRIVATE "${out}.o" "${out}.h")
		set_property(TARGET ${G_TARGET} APPEND PROPERTY GLC_MANIFESTS "${out}.json")
	endforeach()
endfunction()
cmake_policy(POP)
