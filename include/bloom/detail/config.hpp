// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_CONFIG_HPP
#define BLOOM_DETAIL_CONFIG_HPP

// Configuration hooks and the error helpers every header shares.
// BLOOM_ASSERT guards internal invariants on hot paths; define it before including any bloom header to
// route it to your own handler. By default it is the standard assert (off under NDEBUG).

#ifndef BLOOM_ASSERT
#    include <cassert>
#    define BLOOM_ASSERT(condition) assert(condition)
#endif

#include <stdexcept>
#include <string>

namespace bloom::detail {

// One noinline, cold throw site per error kind keeps the callers' code small and their hot paths free of
// string building.
#if defined(__GNUC__) || defined(__clang__)
#    define BLOOM_DETAIL_NOINLINE __attribute__((noinline, cold))
#elif defined(_MSC_VER)
#    define BLOOM_DETAIL_NOINLINE __declspec(noinline)
#else
#    define BLOOM_DETAIL_NOINLINE
#endif

// Hot-path helpers a filter calls once per item. At -O2, GCC's inliner leaves a template's small helpers
// out of line once the caller is large enough, and the call then costs more than the work (a blocked
// lookup ran 5x slower than at -O3); forcing them inline makes ordinary builds as fast as tuned ones.
#if defined(__GNUC__) || defined(__clang__)
#    define BLOOM_FORCE_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#    define BLOOM_FORCE_INLINE __forceinline
#else
#    define BLOOM_FORCE_INLINE inline
#endif

/// Throws std::invalid_argument with `where: parameter message`.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void
throw_invalid_argument(const char* where, const char* parameter, const std::string& message) {
    throw std::invalid_argument(std::string(where) + ": " + parameter + " " + message);
}

/// Throws std::logic_error from `where`: an insert into an empty filter (default-constructed or moved
/// from), which has no bits to keep the item in, so a later lookup would miss it.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void throw_insert_into_empty(const char* where) {
    throw std::logic_error(
        std::string(where) +
        ": the filter is empty (default-constructed or moved from) and has no bits to hold "
        "the item; assign a sized filter to it first");
}

/// Throws std::logic_error from `kind`::`call` (e.g. "bloom::bloom_filter" and "insert"), as above.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void throw_insert_into_empty(const char* kind, const char* call) {
    throw_insert_into_empty((std::string(kind) + "::" + call).c_str());
}

/// Throws std::length_error with `where: message`: a filter cannot grow any further.
[[noreturn]] BLOOM_DETAIL_NOINLINE inline void throw_length_error(const char* where,
                                                                  const std::string& message) {
    throw std::length_error(std::string(where) + ": " + message);
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_CONFIG_HPP
