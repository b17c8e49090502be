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

/// Structures of at least this many bytes run their range forms through the window below; smaller ones
/// live in the first caches, where the window only costs (in-cache bulk lookups of the blocked filter
/// took 1.3x and the classic filter's 1.1x its single ones with it, the same as single without). From
/// about the L2's size (2 MiB on the machines we measure) the prefetches pay: the blocked filter's bulk
/// lookups took the same time with and without it at 2.4 MB and 0.3x at 12 MB.
inline constexpr std::uint64_t prefetch_from_bytes = std::uint64_t{1} << 21;
/// The same for structures whose item reads k scattered lines (classic, counting): twice as high, as each
/// prefetch costs a probe computed twice (classic bulk lookups at 10^6 items, 1.2 MB: 25-35% slower with
/// them).
inline constexpr std::uint64_t scattered_prefetch_from_bytes = 2 * prefetch_from_bytes;

/// For each item of [first, last) in order: stage(item, slot) fills a Slot (the item's hash, or what the
/// item will touch) and prefetches the lines it names, and process(slot) runs `Window` items later.
/// Results are those of processing each item in order, one at a time (items are read once, so
/// single-pass input iterators work).
template <std::size_t Window, class Slot, class InputIt, class Stage, class Process>
BLOOM_FORCE_INLINE void staged_for_each(InputIt first, InputIt last, Stage&& stage, Process&& process) {
    static_assert(Window > 0);
    // One slot more than the window: an item is staged before the oldest is processed, so each
    // processing step has Window prefetches ahead of it in flight.
    constexpr std::size_t ring = Window + 1;
    Slot pending[ring];
    std::size_t count = 0; // staged, not yet processed
    std::size_t next = 0;  // the slot the next item is staged in
    for (; first != last; ++first) {
        stage(*first, pending[next]);
        next = next + 1 == ring ? 0 : next + 1;
        if (count == Window) {
            process(pending[next]); // the oldest: Window items behind the one just staged
        } else {
            ++count;
        }
    }
    std::size_t oldest = next + ring - count;
    for (std::size_t i = 0; i < count; ++i, ++oldest) {
        process(pending[oldest % ring]);
    }
}

/// For each item of [first, last) in order: hash(item) -> 64-bit hash, prefetch(hash) right away, and
/// process(hash) `Window` items later, as staged_for_each. When `ahead` is false (a structure in the
/// cache: see prefetch_from_bytes) each item is hashed and processed in turn, with no prefetch.
template <std::size_t Window, class InputIt, class Hash, class Prefetch, class Process>
BLOOM_FORCE_INLINE void pipelined_for_each(bool ahead, InputIt first, InputIt last, Hash&& hash,
                                           Prefetch&& prefetch_lines, Process&& process) {
    if (!ahead) {
        for (; first != last; ++first) {
            process(hash(*first));
        }
        return;
    }
    staged_for_each<Window, std::uint64_t>(
        first, last,
        [&](const auto& item, std::uint64_t& slot) BLOOM_INLINE_LAMBDA {
            slot = hash(item);
            prefetch_lines(slot);
        },
        [&](std::uint64_t slot) BLOOM_INLINE_LAMBDA { process(slot); });
}

/// Enables the range constructors only for iterators, so a sizing constructor's numbers never match them.
template <class InputIt>
using enable_if_input_iterator_t = std::enable_if_t<
    std::is_base_of_v<std::input_iterator_tag, typename std::iterator_traits<InputIt>::iterator_category>>;

} // namespace bloom::detail

#endif // BLOOM_DETAIL_PIPELINE_HPP
