// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_BLOCKED_LAYOUT_HPP
#define BLOOM_DETAIL_BLOCKED_LAYOUT_HPP

// The blocked layout: an item's bits in one 512-bit block (one cache line) that its hash selects, placed by
// the filter's pattern (bloom::probe_scheme; detail/block_kernels.hpp). Used by bloom::blocked_bloom_filter,
// bloom::concurrent_blocked_bloom_filter and bloom::blocked_bloom_filter_view: everything that depends on
// where an item's bits are lives here once, as static functions over a word accessor. A filter's own
// aligned words get the SIMD kernels; std::atomic words the scalar ones, which set exactly the same bits,
// one relaxed load or store per word (wide loads would race); a saved record's little-endian bytes are
// copied into an aligned block first.

#include "bloom/aligned_allocator.hpp"
#include "bloom/detail/atomic_words.hpp"
#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/block_kernels.hpp"
#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/sizing.hpp"

#include <cstddef>
#include <cstdint>

namespace bloom::detail {

struct blocked_layout {
    /// The names errors use for the filters of this layout.
    static constexpr const char* filter_name = "bloom::blocked_bloom_filter";
    static constexpr const char* concurrent_name = "bloom::concurrent_blocked_bloom_filter";
    static constexpr const char* view_name = "bloom::blocked_bloom_filter_view";
    /// The record kind of the file format (docs/FORMAT.md): 2.
    static constexpr std::uint8_t format_kind = 2;
    /// Whether bits come in 512-bit blocks.
    static constexpr bool has_blocks = true;
    /// Whether its steps take a kernel_set, so that a whole bulk loop can be compiled for one
    /// (with_block_kernels).
    static constexpr bool has_kernel_sets = true;
    /// Whether its range forms go by batches of items with `Kernels` (the classic layout's do): no, one
    /// block per item is one load already.
    template <kernel_set Kernels>
    static constexpr bool batches_with = false;
    template <kernel_set Kernels>
    static constexpr bool shared_batches_with = false;
    using default_allocator = aligned_allocator<std::uint64_t, 64>;
    /// The pattern of an empty filter (k = 0): one bit per word, which finds nothing in an empty block
    /// whatever k is, where bits_anywhere with k = 0 would find everything.
    static constexpr probe_scheme empty_probes = probe_scheme::one_bit_per_word;
    /// One line per item: a long window keeps enough misses in flight (REFERENCES.md: 64 items ran about
    /// twice as fast as 16 beyond the cache).
    static constexpr std::size_t window = 64;
    /// A concurrent filter picks the insert stripe by the block, so every writer of a block holds that
    /// block's stripe: the bits are set with a plain load and store of each word.
    static constexpr bool writes_under_stripe = true;

    /// The shape for `expected_items` at `false_positive_rate`; errors name `where`.
    [[nodiscard]] static filter_geometry sized(std::uint64_t expected_items, double false_positive_rate,
                                               const char* where) {
        return optimal_blocked_geometry(expected_items, false_positive_rate, where);
    }
    /// `geometry` if a filter of this layout can have it (whole blocks; bits_anywhere with k from 1 to 16,
    /// or one_bit_per_word with k = 8); std::invalid_argument from `where` otherwise.
    static filter_geometry checked(filter_geometry geometry, const char* where) {
        check_block_bits(where, geometry.bit_count);
        check_block_hash_count(where, geometry.hash_count, geometry.probes);
        return geometry;
    }
    /// The blocked formula's rate of `geometry` holding `items`.
    [[nodiscard]] static double shape_rate(filter_geometry geometry, std::uint64_t items) noexcept {
        return unchecked_blocked_false_positive_rate(geometry.bit_count, items, geometry.hash_count,
                                                     geometry.probes);
    }
    /// A shape's words: m / 64.
    [[nodiscard]] static std::uint64_t word_count(filter_geometry geometry) noexcept {
        return word_count_for(geometry.bit_count);
    }
    /// Number of 512-bit blocks.
    [[nodiscard]] static std::uint64_t block_count(filter_geometry geometry) noexcept {
        return geometry.bit_count / block_bits;
    }
    /// The first word of the block `hash` selects.
    [[nodiscard]] BLOOM_FORCE_INLINE static std::uint64_t block_start(filter_geometry geometry,
                                                                      std::uint64_t hash) noexcept {
        return block_offset(hash, block_count(geometry));
    }

    /// True if the item's bits are all set in its block: the SIMD kernel on a filter's own aligned words.
    /// `Kernels` (here and below): which kernels, kernel_set::chosen unless the caller is compiled for one
    /// set as a whole (with_block_kernels).
    template <kernel_set Kernels = kernel_set::chosen>
    [[nodiscard]] BLOOM_FORCE_INLINE static bool
    contains(const std::uint64_t* words, filter_geometry geometry, std::uint64_t hash) noexcept {
        return item_in_block<Kernels>(words + block_start(geometry, hash), hash, geometry.probes,
                                      geometry.hash_count);
    }
    /// A filter's lookup: contains(), or for an empty filter (no blocks; its pattern empty_probes) a static
    /// zero block. The block pointer is selected rather than returned early from: an early return lets the
    /// compiler fold the answer into the caller's control flow, a branch on whether the item is present
    /// that mispredicts on every mixed workload (3x slower in bloom_bench). Selected after the block's
    /// offset, and with the shape as separate values rather than a filter_geometry, which GCC kept on the
    /// stack: the one_bit_per_word bulk lookups measured 14% slower with both.
    template <kernel_set Kernels = kernel_set::chosen>
    [[nodiscard]] BLOOM_FORCE_INLINE static bool lookup(const std::uint64_t* words, std::uint64_t bit_count,
                                                        unsigned hash_count, probe_scheme probes,
                                                        std::uint64_t hash) noexcept {
        const std::uint64_t* const block =
            bit_count == 0 ? empty_block : words + block_offset(hash, bit_count / block_bits);
        return item_in_block<Kernels>(block, hash, probes, hash_count);
    }
    /// Concurrent words: the SIMD kernel on the block as its vector loads read it, where the machine has
    /// one (shared_item_in_block), else the scalar kernel over relaxed loads.
    [[nodiscard]] BLOOM_FORCE_INLINE static bool contains(const atomic_word* words, filter_geometry geometry,
                                                          std::uint64_t hash) noexcept {
        return shared_item_in_block(words + block_start(geometry, hash), hash, geometry.probes,
                                    geometry.hash_count);
    }
    /// A saved record's words may sit at any address and in either byte order: the block is copied into an
    /// aligned host-order one (two vector loads on x86), then the SIMD kernel runs on it.
    [[nodiscard]] static bool contains(const little_endian_words& words, filter_geometry geometry,
                                       std::uint64_t hash) noexcept {
        const std::uint64_t first_word = block_start(geometry, hash);
        alignas(64) std::uint64_t block[block_word_count];
        for (unsigned i = 0; i < block_word_count; ++i) {
            block[i] = words[static_cast<std::size_t>(first_word) + i];
        }
        return item_in_block(block, hash, geometry.probes, geometry.hash_count);
    }

    /// Sets the item's bits in its block; true if one was 0. The SIMD kernel on a filter's own words.
    template <kernel_set Kernels = kernel_set::chosen>
    BLOOM_FORCE_INLINE static bool insert(std::uint64_t* words, filter_geometry geometry,
                                          std::uint64_t hash) noexcept {
        return add_item_to_block<bit_broadcast::from_memory, Kernels>(
            words + block_start(geometry, hash), hash, geometry.probes, geometry.hash_count);
    }
    /// The same on std::atomic words: the caller holds the block's stripe, so the scalar kernel's load and
    /// store of each word lose no other writer's bits.
    static bool insert(atomic_word* words, filter_geometry geometry, std::uint64_t hash) noexcept {
        return scalar_add_item_to_block(relaxed_word_refs{words + block_start(geometry, hash)}, hash,
                                        geometry.probes, geometry.hash_count);
    }

    /// What a bulk operation keeps of an item between prefetching its block and testing or setting its
    /// bits (staged_for_each): the hash, from which the block is found again in one multiply.
    struct bulk_slot {
        std::uint64_t hash;
    };
    /// Fills `slot` for `hash` and prefetches the item's block.
    template <bool ForWrite, class Word>
    BLOOM_FORCE_INLINE static void stage(const Word* words, filter_geometry geometry, std::uint64_t hash,
                                         bulk_slot& slot) noexcept {
        slot.hash = hash;
        prefetch<ForWrite>(words, geometry, hash);
    }
    /// contains() of a staged item.
    template <kernel_set Kernels = kernel_set::chosen>
    [[nodiscard]] BLOOM_FORCE_INLINE static bool
    contains(const std::uint64_t* words, filter_geometry geometry, const bulk_slot& slot) noexcept {
        return contains<Kernels>(words, geometry, slot.hash);
    }
    /// insert() of a staged item: with the window's block stores in flight, the AVX-512 bits_anywhere
    /// kernel broadcasts the probes' bits from registers (bit_broadcast).
    template <kernel_set Kernels = kernel_set::chosen>
    BLOOM_FORCE_INLINE static bool insert(std::uint64_t* words, filter_geometry geometry,
                                          const bulk_slot& slot) noexcept {
        return add_item_to_block<bit_broadcast::from_registers, Kernels>(
            words + block_start(geometry, slot.hash), slot.hash, geometry.probes, geometry.hash_count);
    }

    /// Whether the range forms of a filter of `geometry` hash ahead and prefetch (pipelined_for_each).
    [[nodiscard]] static bool prefetches(filter_geometry geometry) noexcept {
        return geometry.bit_count / 8 >= prefetch_from_bytes;
    }
    /// Prefetches the item's block.
    template <bool ForWrite, class Word>
    BLOOM_FORCE_INLINE static void prefetch(const Word* words, filter_geometry geometry,
                                            std::uint64_t hash) noexcept {
        detail::prefetch<ForWrite>(words + block_start(geometry, hash));
    }

    /// The rate a random non-member sees given the bits: the mean over blocks of the block's rate
    /// (bits_anywhere: C(X, k) / C(512, k) of its X set bits; one_bit_per_word: the product of its eight
    /// words' fill fractions).
    template <class Words>
    [[nodiscard]] static double rate(const Words& words, std::size_t, filter_geometry geometry) noexcept {
        if (geometry.probes == probe_scheme::bits_anywhere) {
            return block_fill_rate_from_bits<block_word_count>(words, block_count(geometry),
                                                               geometry.hash_count);
        }
        return block_rate_from_bits<64, block_word_count>(words, block_count(geometry));
    }

    /// A concurrent filter's insert stripe: the block number.
    [[nodiscard]] static std::uint64_t stripe_key(std::uint64_t hash, filter_geometry geometry) noexcept {
        return block_start(geometry, hash) / block_word_count;
    }
};

} // namespace bloom::detail

#endif // BLOOM_DETAIL_BLOCKED_LAYOUT_HPP
