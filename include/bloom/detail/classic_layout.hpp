// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_CLASSIC_LAYOUT_HPP
#define BLOOM_DETAIL_CLASSIC_LAYOUT_HPP

// The classic layout: k probes anywhere among m bits (bloom::bloom_filter, bloom::concurrent_bloom_filter,
// bloom::bloom_filter_view, the stages of bloom::scalable_bloom_filter). Everything that depends on where an
// item's bits are lives here once, as static functions over a word accessor: a plain pointer (a filter's own
// words), std::atomic words or relaxed_words (the concurrent filter), little_endian_words (a view of a saved
// record). The filter kinds hold the words and the public surface (bloom::basic_bloom_filter).

#include "bloom/detail/atomic_words.hpp"
#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/bit_words.hpp"
#include "bloom/detail/classic_kernels.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/sizing.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace bloom::detail {

struct classic_layout {
    /// The names errors use for the filters of this layout.
    static constexpr const char* filter_name = "bloom::bloom_filter";
    static constexpr const char* concurrent_name = "bloom::concurrent_bloom_filter";
    static constexpr const char* view_name = "bloom::bloom_filter_view";
    /// The record kind of the file format (docs/FORMAT.md): 1.
    static constexpr std::uint8_t format_kind = 1;
    /// Whether bits come in 512-bit blocks.
    static constexpr bool has_blocks = false;
    /// Whether its steps take a kernel_set (the blocked layout's do): no, it has no SIMD kernels to choose.
    static constexpr bool has_kernel_sets = false;
    using default_allocator = std::allocator<std::uint64_t>;
    /// The probe scheme of an empty filter (no bits): any finds nothing in empty_word.
    static constexpr probe_scheme empty_probes = probe_scheme::mixed;
    /// Items in flight in the bulk pipeline. Hashing a window ahead also helps in the cache (8% on lookups
    /// at 10^4 items: the hashes no longer wait behind the probes). Windows of 4 to 32 measured the same
    /// within 2% in the cache and within the noise (5%) at 10^6 to 10^8 items.
    static constexpr std::size_t window = 16;
    /// Bulk operations prefetch all k lines of an item, lookups too: a member reads them all, and with four
    /// its last three waited a full memory latency behind the first (bulk lookups of members at 10^8 items:
    /// 34 ns with all k against 121 with four; non-members 31 against 34). An earlier measurement that
    /// found four as good was made while GCC deleted every prefetch (detail/pipeline.hpp).
    /// Filters below prefetch_from_bits live in the cache and neither hash ahead nor prefetch
    /// (detail/pipeline.hpp).
    static constexpr std::uint64_t prefetch_from_bits = scattered_prefetch_from_bytes * 8;
    /// Whether a filter's positions are below 2^32, so the batch kernels' multiply-shift needs half the
    /// products.
    [[nodiscard]] static bool narrow_range(filter_geometry geometry) noexcept {
        return geometry.bit_count <= std::uint64_t{0xffffffff};
    }
    /// An item's bits are in k unrelated words, which other items' inserts (under other stripes) may be
    /// setting at the same moment: a concurrent filter sets every bit with fetch_or.
    static constexpr bool writes_under_stripe = false;

    /// The shape for `expected_items` at `false_positive_rate`; errors name `where`.
    [[nodiscard]] static filter_geometry sized(std::uint64_t expected_items, double false_positive_rate,
                                               const char* where) {
        return optimal_geometry(expected_items, false_positive_rate, where);
    }
    /// `geometry` if a filter of this layout can have it; std::invalid_argument from `where` otherwise.
    static filter_geometry checked(filter_geometry geometry, const char* where) {
        check_bits(where, geometry.bit_count);
        check_hashes(where, geometry.hash_count);
        check_probes(where, geometry.probes);
        return geometry;
    }
    /// The formula's rate of `geometry` holding `items`.
    [[nodiscard]] static double shape_rate(filter_geometry geometry, std::uint64_t items) noexcept {
        return unchecked_false_positive_rate(geometry.bit_count, geometry.hash_count, items);
    }
    /// A shape's words: ceil(m / 64).
    [[nodiscard]] static std::uint64_t word_count(filter_geometry geometry) noexcept {
        return word_count_for(geometry.bit_count);
    }

    /// True if the k bits `hash` selects are all set (classic_contains: groups of four, one branch each).
    /// `words`: a filter's own words, or little_endian_words of a saved record.
    template <class Words, class = std::enable_if_t<!std::is_convertible_v<Words, const atomic_word*>>>
    [[nodiscard]] BLOOM_FORCE_INLINE static bool contains(const Words& words, filter_geometry geometry,
                                                          std::uint64_t hash) noexcept {
        return classic_contains(words, geometry.bit_count, geometry.hash_count, geometry.probes, hash);
    }
    /// A filter's lookup: contains(), or for an empty filter (no words, k = 0, which would find everything)
    /// one probe of a static zero word. The operands are selected rather than returned early from: an early
    /// return lets the compiler fold the answer into the caller's control flow, a branch on whether the
    /// item is present that mispredicts on every mixed workload (3x slower in bloom_bench); testing k = 0
    /// in the probe loop cost 5% of an in-cache lookup.
    [[nodiscard]] BLOOM_FORCE_INLINE static bool lookup(const std::uint64_t* words, std::uint64_t bit_count,
                                                        unsigned hash_count, probe_scheme probes,
                                                        std::uint64_t hash) noexcept {
        const bool empty = bit_count == 0;
        return classic_contains(empty ? empty_word : words, empty ? std::uint64_t{1} : bit_count,
                                empty ? 1U : hash_count, probes, hash);
    }
    /// The same kernel over std::atomic words, by relaxed loads.
    [[nodiscard]] static bool contains(const atomic_word* words, filter_geometry geometry,
                                       std::uint64_t hash) noexcept {
        return classic_contains(relaxed_words{words}, geometry.bit_count, geometry.hash_count,
                                geometry.probes, hash);
    }

    /// Sets the k bits `hash` selects; true if one was 0. `words`: std::uint64_t* or atomic_word* (set_bits).
    /// Word and shape are read into locals: a store to a word may alias the filter's members, which GCC then
    /// reloads per probe (6% of an insert at -O2).
    template <class Word>
    static bool insert(Word* words, filter_geometry geometry, std::uint64_t hash) noexcept {
        const std::uint64_t bit_count = geometry.bit_count;
        const unsigned hash_count = geometry.hash_count;
        return with_probes(geometry.probes, hash, [&](auto probes) {
                   std::uint64_t missing = 0;
                   for (unsigned i = 0; i < hash_count; ++i) {
                       const std::uint64_t position = probes.next(bit_count);
                       missing |= set_bits(words, word_of(position), mask_of(position));
                   }
                   return missing;
               }) != 0;
    }

    /// What a bulk operation keeps of an item between prefetching its k lines and testing or setting its
    /// bits (staged_for_each): the hash, and the probe positions when k is at most slot_probes, so they are
    /// computed once rather than for the prefetch and again for the bits (bulk lookups of members at 10^7
    /// items took 11.4 ns against 15.2, 10^8: 25.6 against 31.1).
    static constexpr unsigned slot_probes = 16;
    struct bulk_slot {
        std::uint64_t hash;
        std::uint64_t positions[slot_probes];
    };
    /// Fills `slot` for `hash` and prefetches the item's lines.
    template <bool ForWrite, class Word>
    static void stage(const Word* words, filter_geometry geometry, std::uint64_t hash,
                      bulk_slot& slot) noexcept {
        slot.hash = hash;
        if (geometry.hash_count > slot_probes) {
            prefetch<ForWrite>(words, geometry, hash);
            return;
        }
        with_probes(geometry.probes, hash, [&](auto probes) {
            for (unsigned i = 0; i < geometry.hash_count; ++i) {
                const std::uint64_t position = probes.next(geometry.bit_count);
                slot.positions[i] = position;
                detail::prefetch<ForWrite>(words + word_of(position));
            }
        });
    }
    /// contains() of a staged item: every probe is read (its lines are prefetched), with no branch.
    [[nodiscard]] static bool contains(const std::uint64_t* words, filter_geometry geometry,
                                       const bulk_slot& slot) noexcept {
        if (geometry.hash_count > slot_probes) {
            return contains(words, geometry, slot.hash);
        }
        std::uint64_t all_set = 1;
        for (unsigned i = 0; i < geometry.hash_count; ++i) {
            all_set &= words[word_of(slot.positions[i])] >> (slot.positions[i] & 63);
        }
        return (all_set & 1) != 0;
    }
    /// insert() of a staged item.
    template <class Word>
    static bool insert(Word* words, filter_geometry geometry, const bulk_slot& slot) noexcept {
        if (geometry.hash_count > slot_probes) {
            return insert(words, geometry, slot.hash);
        }
        std::uint64_t missing = 0;
        for (unsigned i = 0; i < geometry.hash_count; ++i) {
            missing |= set_bits(words, word_of(slot.positions[i]), mask_of(slot.positions[i]));
        }
        return missing != 0;
    }

    /// The range forms' batches, where the kernel set has classic_kernels.hpp's (AVX-512, AVX2): the hashes
    /// of eight items in, their k positions computed together. A batch in flight (past the cache) keeps them,
    /// probe by probe, so they are computed once for the prefetches and the bits.
    template <kernel_set Kernels>
    static constexpr bool batches_with = has_classic_batch_kernels<Kernels>;
    /// The same for a concurrent filter's lookups, whose gathers of std::atomic words are assembly (GCC
    /// and Clang).
    template <kernel_set Kernels>
    static constexpr bool shared_batches_with = has_shared_classic_batch_kernels<Kernels>;
    struct batch_slot {
        std::uint64_t positions[slot_probes * classic_batch_items];
        std::size_t count; // items in the batch: 8, fewer in a range's last
    };
    /// Whether a range's items go by batches with `Kernels`: the mixed scheme (old files' probes stay one at
    /// a time), at most slot_probes probes, and bits (an empty filter's lookups go through lookup()).
    template <kernel_set Kernels>
    [[nodiscard]] static bool batches(filter_geometry geometry) noexcept {
        if constexpr (batches_with<Kernels>) {
            return geometry.bit_count != 0 && geometry.probes == probe_scheme::mixed &&
                   geometry.hash_count <= slot_probes;
        } else {
            return false;
        }
    }
#if defined(BLOOM_DETAIL_HAS_CLASSIC_BATCH_KERNELS)
    /// Fills `slot` with the positions of eight hashes (`count` of them items), by the kernel set
    /// `Kernels`, and, if `Prefetch`, prefetches their lines. `Word`: std::uint64_t, or a concurrent
    /// filter's atomic_word.
    template <kernel_set Kernels, bool Prefetch, bool ForWrite, class Word>
    BLOOM_FORCE_INLINE static void stage_batch(const Word* words, filter_geometry geometry,
                                               const std::uint64_t* hashes, std::size_t count,
                                               batch_slot& slot) noexcept {
        slot.count = count;
        if (narrow_range(geometry)) {
            classic_batch_positions<Kernels, true>(geometry.bit_count, geometry.hash_count, hashes,
                                                   slot.positions);
        } else {
            classic_batch_positions<Kernels, false>(geometry.bit_count, geometry.hash_count, hashes,
                                                    slot.positions);
        }
        if constexpr (Prefetch) {
            for (unsigned i = 0; i < geometry.hash_count * classic_batch_items; ++i) {
                detail::prefetch<ForWrite>(words + word_of(slot.positions[i]));
            }
        }
    }
    /// contains(first, last, out) by batches, where batches(): for each item in order, *out++ =
    /// contains(hash(item)). In the cache a batch is answered as soon as it is hashed; past it, its
    /// positions are staged and prefetched two batches (`window` items) ahead. `Word`: as stage_batch's
    /// (a concurrent filter's words only where shared_batches_with).
    template <kernel_set Kernels, class Word, class InputIt, class OutputIt, class Hash>
    BLOOM_FORCE_INLINE static OutputIt contains_by_batches(const Word* words, filter_geometry geometry,
                                                           InputIt first, InputIt last, Hash&& hash,
                                                           OutputIt out) {
        const auto write_answers = [&out](unsigned answers, std::size_t count) BLOOM_INLINE_LAMBDA {
            for (std::size_t item = 0; item < count; ++item) {
                *out = ((answers >> item) & 1U) != 0;
                ++out;
            }
        };
        if (prefetches(geometry)) {
            staged_batches<classic_batch_items, window / classic_batch_items, batch_slot>(
                std::move(first), std::move(last), hash,
                [&](const std::uint64_t* hashes, std::size_t count, batch_slot& slot) BLOOM_INLINE_LAMBDA {
                    stage_batch<Kernels, true, false>(words, geometry, hashes, count, slot);
                },
                [&](const batch_slot& slot) BLOOM_INLINE_LAMBDA {
                    write_answers(
                        classic_batch_positions_contain<Kernels>(words, geometry.hash_count, slot.positions),
                        slot.count);
                });
        } else {
            const bool narrow = narrow_range(geometry);
            for_each_batch<classic_batch_items>(
                std::move(first), std::move(last), hash,
                [&](const std::uint64_t* hashes, std::size_t count) BLOOM_INLINE_LAMBDA {
                    write_answers(narrow ? classic_batch_contains<Kernels, true>(words, geometry.bit_count,
                                                                                 geometry.hash_count, hashes)
                                         : classic_batch_contains<Kernels, false>(
                                               words, geometry.bit_count, geometry.hash_count, hashes),
                                  count);
                });
        }
        return out;
    }
#endif
    /// insert() of item `item` of a staged batch: its bits set one by one, items in order, so each one's
    /// answer sees the items before it.
    BLOOM_FORCE_INLINE static bool insert(std::uint64_t* words, filter_geometry geometry,
                                          const batch_slot& slot, std::size_t item) noexcept {
        std::uint64_t missing = 0;
        for (unsigned i = 0; i < geometry.hash_count; ++i) {
            const std::uint64_t position = slot.positions[classic_batch_items * i + item];
            missing |= set_bits(words, word_of(position), mask_of(position));
        }
        return missing != 0;
    }

    /// Whether the range forms of a filter of `geometry` hash ahead and prefetch (pipelined_for_each).
    [[nodiscard]] static bool prefetches(filter_geometry geometry) noexcept {
        return geometry.bit_count >= prefetch_from_bits;
    }
    /// Prefetches the k lines an insert (ForWrite) or a lookup reads.
    template <bool ForWrite, class Word>
    static void prefetch(const Word* words, filter_geometry geometry, std::uint64_t hash) noexcept {
        prefetch_probes<ForWrite>(words, geometry, hash, geometry.hash_count);
    }
    /// The points of an item's first probes, those contains() tests together (classic_probe_group): their
    /// positions before they are scaled to a bit count (next_point), so the same in every filter of one
    /// probe scheme. A scalable filter asks each of its stages about an item with the same hash; the
    /// points computed once per item leave each stage a multiply per probe.
    struct first_group_points {
        std::uint64_t points[classic_probe_group];
    };
    [[nodiscard]] BLOOM_FORCE_INLINE static first_group_points first_group_of(probe_scheme scheme,
                                                                              std::uint64_t hash) noexcept {
        return with_probes(scheme, hash, [](auto probes) {
            first_group_points group{};
            for (std::uint64_t& point : group.points) {
                point = probes.next_point();
            }
            return group;
        });
    }
    /// contains() of an item whose first group is set (first_group_set): its other probes.
    [[nodiscard]] BLOOM_FORCE_INLINE static bool contains_past_first_group(const std::uint64_t* words,
                                                                           filter_geometry geometry,
                                                                           std::uint64_t hash) noexcept {
        return classic_contains<true>(words, geometry.bit_count, geometry.hash_count, geometry.probes, hash);
    }
    /// How many probes of a filter of `geometry` its first group holds.
    [[nodiscard]] static unsigned first_group_size(filter_geometry geometry) noexcept {
        return geometry.hash_count < classic_probe_group ? geometry.hash_count : classic_probe_group;
    }
    /// True if the bits of the first group (first_group_of, for this filter's probe scheme) are set: false
    /// means the item is absent, what 15 non-members in 16 get from a filter at half fill; true, that
    /// contains() must say. No branch.
    [[nodiscard]] BLOOM_FORCE_INLINE static bool first_group_set(const std::uint64_t* words,
                                                                 filter_geometry geometry,
                                                                 const first_group_points& group) noexcept {
        std::uint64_t all_set = 1;
        for (unsigned i = 0; i < first_group_size(geometry); ++i) {
            const std::uint64_t position = reduce_to_range(group.points[i], geometry.bit_count);
            all_set &= words[word_of(position)] >> (position & 63);
        }
        return (all_set & 1) != 0;
    }
    /// Prefetches the lines of the first group: all that a lookup of a non-member reads 15 times in 16 at
    /// half fill. A scalable filter asks most items of every stage, where all k lines cost a non-member k
    /// misses for four.
    static void prefetch_first_group(const std::uint64_t* words, filter_geometry geometry,
                                     const first_group_points& group) noexcept {
        for (unsigned i = 0; i < first_group_size(geometry); ++i) {
            detail::prefetch<false>(words + word_of(reduce_to_range(group.points[i], geometry.bit_count)));
        }
    }

    /// Prefetches the lines of an item's first `count` probes.
    template <bool ForWrite, class Word>
    static void prefetch_probes(const Word* words, filter_geometry geometry, std::uint64_t hash,
                                unsigned count) noexcept {
        with_probes(geometry.probes, hash, [&](auto probes) {
            for (unsigned i = 0; i < count; ++i) {
                detail::prefetch<ForWrite>(words + word_of(probes.next(geometry.bit_count)));
            }
        });
    }

    /// The rate a random non-member sees given the bits: fill^k, whatever put the bits there.
    template <class Words>
    [[nodiscard]] static double rate(const Words& words, std::size_t word_count,
                                     filter_geometry geometry) noexcept {
        return rate_from_fill(count_set_bits(words, word_count), geometry.bit_count, geometry.hash_count);
    }

    /// The distinct bits inserting `hash` would set: what a scalable filter asks before it lets an item into
    /// a stage. Up to 64 unset probes are told apart exactly; beyond, repeats count again (an overestimate,
    /// so the caller errs towards a new stage).
    [[nodiscard]] static std::uint64_t unset_probe_count(const std::uint64_t* words, filter_geometry geometry,
                                                         std::uint64_t hash) noexcept {
        return with_probes(geometry.probes, hash, [&](auto probes) {
            constexpr unsigned tracked = 64;
            std::uint64_t unset[tracked];
            std::uint64_t count = 0;
            for (unsigned i = 0; i < geometry.hash_count; ++i) {
                const std::uint64_t position = probes.next(geometry.bit_count);
                if ((words[word_of(position)] & mask_of(position)) != 0) {
                    continue;
                }
                bool repeat = false;
                for (std::uint64_t j = 0; j < count && j < tracked; ++j) {
                    repeat = repeat || unset[j] == position;
                }
                if (!repeat) {
                    if (count < tracked) {
                        unset[count] = position;
                    }
                    ++count;
                }
            }
            return count;
        });
    }

    /// A concurrent filter's insert stripe: the hash's middle bits (positions come from the high bits), so
    /// stripes and positions are unrelated.
    [[nodiscard]] static std::uint64_t stripe_key(std::uint64_t hash, filter_geometry) noexcept {
        return hash >> 20;
    }
};

} // namespace bloom::detail

#endif // BLOOM_DETAIL_CLASSIC_LAYOUT_HPP
