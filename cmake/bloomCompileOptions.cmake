# SPDX-License-Identifier: MIT
# Settings for bloom's own tests, examples and benchmarks. Never applied to the
# bloom interface target: consumers choose their own warnings and flags.

# bloom_apply_compile_options(<target>...)
#   Strict warnings (errors with BLOOM_WARNINGS_AS_ERRORS), standard C++ without
#   extensions, and BLOOM_DISABLE_SIMD when that option is on.
function(bloom_apply_compile_options)
    foreach(target IN LISTS ARGN)
        set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
        if(MSVC)
            target_compile_options(${target} PRIVATE /W4 /permissive-)
            if(BLOOM_WARNINGS_AS_ERRORS)
                target_compile_options(${target} PRIVATE /WX)
            endif()
        else()
            target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wconversion -Wshadow)
            if(BLOOM_WARNINGS_AS_ERRORS)
                target_compile_options(${target} PRIVATE -Werror)
            endif()
        endif()
        if(BLOOM_DISABLE_SIMD)
            target_compile_definitions(${target} PRIVATE BLOOM_DISABLE_SIMD)
        endif()
    endforeach()
endfunction()
