// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_ERRORS_HPP
#define BLOOM_DETAIL_ERRORS_HPP

// Every error the library raises, from one place. Each throw helper is [[noreturn]], out of line and cold,
// so the callers' hot paths carry no string building. A build without exceptions (-fno-exceptions) gets the
// same helpers, which print the message to stderr and abort, and the few places that catch (to turn one
// error into another, or to undo a half-done step) run straight through: an error aborts before they would
// catch it.

#include "bloom/detail/config.hpp"
#include "bloom/format_error.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ios>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#    define BLOOM_DETAIL_HAS_EXCEPTIONS 1
#else
#    define BLOOM_DETAIL_HAS_EXCEPTIONS 0
#endif

namespace bloom::detail {

/// Throws `error`; without exceptions, prints its message and aborts.
template <class Error>
[[noreturn]] BLOOM_DETAIL_NOINLINE void raise_error(const Error& error) {
#if BLOOM_DETAIL_HAS_EXCEPTIONS
    throw error;
#else
    std::fprintf(stderr, "%s\n", error.what());
    std::fflush(stderr);
    std::abort();
#endif
}

/// Throws std::invalid_argument with `where: parameter message`.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void
throw_invalid_argument(const char* where, const char* parameter, const std::string& message) {
    raise_error(std::invalid_argument(std::string(where) + ": " + parameter + " " + message));
}

/// Throws std::logic_error from `where`: an insert into an empty filter (default-constructed or moved
/// from), which has no bits to keep the item in, so a later lookup would miss it.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void throw_insert_into_empty(const char* where) {
    raise_error(std::logic_error(
        std::string(where) + ": the filter is empty (default-constructed or moved from) and has no bits to "
                             "hold the item; assign a sized filter to it first"));
}

/// Throws std::logic_error from `kind`::`call` (e.g. "bloom::bloom_filter" and "insert"), as above.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void throw_insert_into_empty(const char* kind, const char* call) {
    throw_insert_into_empty((std::string(kind) + "::" + call).c_str());
}

/// Throws std::length_error with `where: message`: a filter cannot grow any further.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void throw_length_error(const char* where,
                                                                  const std::string& message) {
    raise_error(std::length_error(std::string(where) + ": " + message));
}

/// Throws bloom::format_error with `where: message`: bytes that are not a valid filter.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void throw_format_error(const char* where,
                                                                  const std::string& message) {
    raise_error(format_error(std::string(where) + ": " + message));
}

/// Throws std::filesystem::filesystem_error with `where: what`, the path and the system's error code.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void
throw_file_error(const char* where, const std::string& what, const std::filesystem::path& path, int error) {
    raise_error(std::filesystem::filesystem_error(std::string(where) + ": " + what, path,
                                                  std::error_code(error, std::generic_category())));
}

/// Throws std::ios_base::failure with `message`: a stream failed while a filter was written to it.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void throw_stream_failure(const char* message) {
    raise_error(std::ios_base::failure(message));
}

/// Throws std::bad_alloc: an allocator could not provide the memory.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void throw_bad_alloc() { raise_error(std::bad_alloc()); }

/// Runs `build` and returns its result; a std::invalid_argument it throws becomes a bloom::format_error
/// from `where` saying `context` and the argument's message: saved bytes that describe an invalid filter.
template <class Build>
decltype(auto) invalid_argument_as_format_error(const char* where, const char* context, Build&& build) {
#if BLOOM_DETAIL_HAS_EXCEPTIONS
    try {
        return std::forward<Build>(build)();
    } catch (const std::invalid_argument& error) {
        throw_format_error(where, std::string(context) + error.what());
    }
#else
    static_cast<void>(where);
    static_cast<void>(context);
    return std::forward<Build>(build)();
#endif
}

/// Runs `body`; if it throws, runs `undo` and rethrows: the step leaves nothing half done.
template <class Body, class Undo>
void undo_on_error(Body&& body, Undo&& undo) {
#if BLOOM_DETAIL_HAS_EXCEPTIONS
    try {
        std::forward<Body>(body)();
    } catch (...) {
        std::forward<Undo>(undo)();
        throw;
    }
#else
    static_cast<void>(undo);
    std::forward<Body>(body)();
#endif
}

/// Runs `body`, ignoring a std::ios_base::failure it throws (a destructor restoring a stream's mask).
template <class Body>
void ignore_stream_failure(Body&& body) noexcept {
#if BLOOM_DETAIL_HAS_EXCEPTIONS
    try {
        std::forward<Body>(body)();
    } catch (const std::ios_base::failure&) {
    }
#else
    std::forward<Body>(body)();
#endif
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_ERRORS_HPP
