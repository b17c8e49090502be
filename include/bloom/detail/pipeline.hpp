// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_PIPELINE_HPP
#define BLOOM_DETAIL_PIPELINE_HPP

// The bulk-operation pipeline shared by every filter: hash a window of items ahead, prefetch the cache
// lines they will touch, and only then touch the oldest. Once a filter outgrows the cache each operation
// waits on a memory miss; a window keeps many misses in flight at once instead of one after another.

#include "bloom/detail/config.hpp"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

namespace bloom::detail {

/// Hints that the cache line at `address` is about to be read (or written, if ForWrite). A prefetch writes
/// no memory, so GCC finds a function that only prefetches (a pipeline's prefetch lambda, left out of line)
/// free of side effects and deletes its calls: the string filters' bulk operations lost every prefetch
/// that way (30% slower at 10^6 items), and later the classic filters' and the fuse filter's bulk lookups
/// (objdump: not one prefetch instruction). An empty volatile asm gives every such function a side effect
/// GCC keeps, wherever the inliner leaves it; it emits no instruction.
template <bool ForWrite = false>
BLOOM_FORCE_INLINE void prefetch(const void* address) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, ForWrite ? 1 : 0, 3);
    __asm__ __volatile__("" : : "r"(address));
#else
    (void)address;
#endif
}

/// For each item of [first, last) in order: hash(item) -> 64-bit hash, prefetch(hash) right away, and
/// process(hash) `Window` items later. Results are those of processing each item in order, one at a time
/// (items are read once, so single-pass input iterators work).
template <std::size_t Window, class InputIt, class Hash, class Prefetch, class Process>
void pipelined_for_each(InputIt first, InputIt last, Hash&& hash, Prefetch&& prefetch_lines,
                        Process&& process) {
    static_assert(Window > 0);
    std::uint64_t pending[Window];
    std::size_t count = 0; // hashes waiting in `pending`
    std::size_t next = 0;  // slot for the next hash; once the window is full, also the oldest hash
    for (; first != last; ++first) {
        const std::uint64_t hashed = hash(*first);
        prefetch_lines(hashed);
        if (count == Window) {
            process(pending[next]);
        } else {
            ++count;
        }
        pending[next] = hashed;
        next = next + 1 == Window ? 0 : next + 1;
    }
    const std::size_t oldest = count == Window ? next : 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t slot = oldest + i;
        process(pending[slot >= Window ? slot - Window : slot]);
    }
}

/// Enables the range constructors only for iterators, so a sizing constructor's numbers never match them.
template <class InputIt>
using enable_if_input_iterator_t = std::enable_if_t<
    std::is_base_of_v<std::input_iterator_tag, typename std::iterator_traits<InputIt>::iterator_category>>;

} // namespace bloom::detail

#endif // BLOOM_DETAIL_PIPELINE_HPP
