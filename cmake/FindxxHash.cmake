# SPDX-License-Identifier: MIT
#[=======================================================================[.rst:
FindxxHash
----------

Finds xxHash and provides the target ``xxHash::xxhash``.

bloom includes ``<xxhash.h>`` with ``XXH_INLINE_ALL``, so the header is all it
needs; when a library is found it is linked too, which is harmless.

Search order, first hit wins:

1. an existing target ``xxHash::xxhash`` (a parent project already made one);
2. xxHash's own CMake package (``find_package(xxHash CONFIG)``), as vcpkg and
   Conan provide;
3. pkg-config module ``libxxhash`` (Debian's ``libxxhash-dev`` and most
   distributions);
4. a plain search for ``xxhash.h`` (and, optionally, the ``xxhash`` library).

Result variables: ``xxHash_FOUND``, ``xxHash_VERSION`` (when known),
``xxHash_INCLUDE_DIR`` and ``xxHash_LIBRARY`` (plain search only).
``REQUIRED``, ``QUIET`` and a version request are honoured.
#]=======================================================================]

include(FindPackageHandleStandardArgs)

# How xxHash::xxhash came about; FPHSA prints it after "Found xxHash:".
set(_xxHash_source "")

if(TARGET xxHash::xxhash)
    set(_xxHash_source "existing target xxHash::xxhash")
endif()

if(NOT _xxHash_source)
    # The nested call overwrites the xxHash_FIND_* variables of this call; keep them.
    set(_xxHash_saved_required "${xxHash_FIND_REQUIRED}")
    set(_xxHash_saved_quietly "${xxHash_FIND_QUIETLY}")
    find_package(xxHash CONFIG QUIET)
    set(xxHash_FIND_REQUIRED "${_xxHash_saved_required}")
    set(xxHash_FIND_QUIETLY "${_xxHash_saved_quietly}")
    unset(_xxHash_saved_required)
    unset(_xxHash_saved_quietly)
    if(xxHash_FOUND AND TARGET xxHash::xxhash)
        set(_xxHash_source "CMake package in ${xxHash_DIR}")
    endif()
endif()

if(NOT _xxHash_source)
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
        pkg_check_modules(PC_xxHash QUIET IMPORTED_TARGET libxxhash)
        if(PC_xxHash_FOUND AND TARGET PkgConfig::PC_xxHash)
            add_library(xxHash::xxhash INTERFACE IMPORTED)
            target_link_libraries(xxHash::xxhash INTERFACE PkgConfig::PC_xxHash)
            set(xxHash_VERSION "${PC_xxHash_VERSION}")
            set(_xxHash_source "pkg-config libxxhash")
        endif()
    endif()
endif()

if(NOT _xxHash_source)
    find_path(xxHash_INCLUDE_DIR NAMES xxhash.h DOC "Directory holding xxhash.h")
    find_library(xxHash_LIBRARY NAMES xxhash DOC "xxHash library (optional)")
    mark_as_advanced(xxHash_INCLUDE_DIR xxHash_LIBRARY)
    if(xxHash_INCLUDE_DIR AND EXISTS "${xxHash_INCLUDE_DIR}/xxhash.h")
        file(STRINGS "${xxHash_INCLUDE_DIR}/xxhash.h" _xxHash_version_lines
             REGEX "^#[ \t]*define[ \t]+XXH_VERSION_(MAJOR|MINOR|RELEASE)[ \t]+[0-9]+")
        set(_xxHash_parts "")
        foreach(_xxHash_part IN ITEMS MAJOR MINOR RELEASE)
            if(_xxHash_version_lines MATCHES "XXH_VERSION_${_xxHash_part}[ \t]+([0-9]+)")
                list(APPEND _xxHash_parts "${CMAKE_MATCH_1}")
            endif()
        endforeach()
        list(LENGTH _xxHash_parts _xxHash_part_count)
        if(_xxHash_part_count EQUAL 3)
            list(JOIN _xxHash_parts "." xxHash_VERSION)
        endif()
        unset(_xxHash_version_lines)
        unset(_xxHash_parts)
        unset(_xxHash_part)
        unset(_xxHash_part_count)

        add_library(xxHash::xxhash INTERFACE IMPORTED)
        set_target_properties(xxHash::xxhash PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${xxHash_INCLUDE_DIR}")
        if(xxHash_LIBRARY)
            target_link_libraries(xxHash::xxhash INTERFACE "${xxHash_LIBRARY}")
        endif()
        set(_xxHash_source "${xxHash_INCLUDE_DIR}")
    endif()
endif()

if(_xxHash_source)
    set(xxHash_SOURCE "${_xxHash_source}")
else()
    set(xxHash_SOURCE "")
endif()
unset(_xxHash_source)

find_package_handle_standard_args(xxHash
    REQUIRED_VARS xxHash_SOURCE
    VERSION_VAR xxHash_VERSION
    REASON_FAILURE_MESSAGE
        "install xxHash (Debian: libxxhash-dev), or point CMAKE_PREFIX_PATH or xxHash_INCLUDE_DIR at it")
