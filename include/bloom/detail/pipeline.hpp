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
#include <utility>

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

/// The slots of a window of items (or batches) in flight: push(stage, process) stages the next one in a
/// slot, and once `Window` are pending processes the oldest, Window behind it; drain(process) processes
/// what is left, oldest first. One slot more than the window: a slot is staged before the oldest is
/// processed, so each processing step has Window prefetches ahead of it in flight.
template <std::size_t Window, class Slot>
class staging_ring {
  public:
    static_assert(Window > 0);

    template <class Stage, class Process>
    BLOOM_FORCE_INLINE void push(Stage&& stage, Process&& process) {
        stage(m_slots[m_next]);
        m_next = m_next + 1 == ring ? 0 : m_next + 1;
        if (m_count == Window) {
            process(m_slots[m_next]); // the oldest: Window behind the one just staged
        } else {
            ++m_count;
        }
    }
    template <class Process>
    BLOOM_FORCE_INLINE void drain(Process&& process) {
        std::size_t oldest = m_next + ring - m_count;
        for (std::size_t i = 0; i < m_count; ++i, ++oldest) {
            process(m_slots[oldest % ring]);
        }
        m_count = 0;
    }

  private:
    static constexpr std::size_t ring = Window + 1;
    Slot m_slots[ring];
    std::size_t m_count = 0; // staged, not yet processed
    std::size_t m_next = 0;  // the slot the next one is staged in
};

/// For each item of [first, last) in order: stage(item, slot) fills a Slot (the item's hash, or what the
/// item will touch) and prefetches the lines it names, and process(slot) runs `Window` items later.
/// Results are those of processing each item in order, one at a time (items are read once, so
/// single-pass input iterators work).
template <std::size_t Window, class Slot, class InputIt, class Stage, class Process>
BLOOM_FORCE_INLINE void staged_for_each(InputIt first, InputIt last, Stage&& stage, Process&& process) {
    staging_ring<Window, Slot> pending;
    for (; first != last; ++first) {
        pending.push([&](Slot& slot) BLOOM_INLINE_LAMBDA { stage(*first, slot); }, process);
    }
    pending.drain(process);
}

/// For [first, last) in batches of `Batch` items, in order: body(hashes, count) with hashes[i] = hash(item)
/// for the batch's `count` items (Batch, fewer in the last; its other hashes repeat its last item's, so a
/// kernel that reads all Batch reads only items' hashes).
template <std::size_t Batch, class InputIt, class Hash, class Body>
BLOOM_FORCE_INLINE void for_each_batch(InputIt first, InputIt last, Hash&& hash, Body&& body) {
    std::uint64_t hashes[Batch];
    std::size_t count = 0;
    for (; first != last; ++first) {
        hashes[count] = hash(*first);
        if (++count == Batch) {
            body(static_cast<const std::uint64_t*>(hashes), Batch);
            count = 0;
        }
    }
    if (count != 0) {
        for (std::size_t i = count; i < Batch; ++i) {
            hashes[i] = hashes[count - 1];
        }
        body(static_cast<const std::uint64_t*>(hashes), count);
    }
}

/// for_each_batch with each batch staged ahead: stage(hashes, count, slot) fills a Slot and prefetches the
/// lines its items will touch, and process(slot) runs `Window` batches later, batches in order.
template <std::size_t Batch, std::size_t Window, class Slot, class InputIt, class Hash, class Stage,
          class Process>
BLOOM_FORCE_INLINE void staged_batches(InputIt first, InputIt last, Hash&& hash, Stage&& stage,
                                       Process&& process) {
    staging_ring<Window, Slot> pending;
    for_each_batch<Batch>(
        std::move(first), std::move(last), hash,
        [&](const std::uint64_t* hashes, std::size_t count) BLOOM_INLINE_LAMBDA {
            pending.push([&](Slot& slot) BLOOM_INLINE_LAMBDA { stage(hashes, count, slot); }, process);
        });
    pending.drain(process);
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
