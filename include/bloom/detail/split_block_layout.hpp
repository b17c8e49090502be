// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_SPLIT_BLOCK_LAYOUT_HPP
#define BLOOM_DETAIL_SPLIT_BLOCK_LAYOUT_HPP

// Apache Parquet's split-block layout (bloom::parquet::split_block_filter): blocks of 256 bits, eight 32-bit
// words, and a value sets one bit in every word of one block. Everything that depends on where a value's
// bits are lives here once, as static functions over a word accessor: a plain pointer to host-order words
// (a filter's own), or little_endian_words32 over the bytes of a bitset as a Parquet file stores it. The
// filter holds the words and the public surface; the Thrift header around the bitset is the serialization
// layer's (detail/io/thrift_compact.hpp).

#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/sizing.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace bloom::detail {

struct split_block_layout {
    /// The name errors use for the filter of this layout.
    static constexpr const char* filter_name = "bloom::parquet::split_block_filter";
    /// Parquet format, BloomFilter.md: the eight odd salts, one per word of a block.
    static constexpr std::uint32_t salts[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
    /// 32-bit words per block, and so the bits each value sets.
    static constexpr std::size_t block_words = 8;
    static constexpr std::size_t block_bytes = block_words * sizeof(std::uint32_t);
    /// Parquet writers (parquet-java, Arrow) size filters within [32 B, 128 MiB]; readers refuse larger ones.
    static constexpr std::size_t min_bytes = block_bytes;
    static constexpr std::size_t max_bytes = std::size_t{128} * 1024 * 1024;
    /// Values in flight in the bulk pipeline: a block is one cache line's half, one miss per value, as in
    /// the blocked layout.
    static constexpr std::size_t window = 32;

    /// The bitset size Parquet writers choose for `expected_items` at `false_positive_rate`: bits =
    /// -8 n / ln(1 - p^(1/8)), then the next power of two of bits / 8 bytes, clamped to [32 B, 128 MiB].
    /// Errors name `where`.
    [[nodiscard]] static std::size_t sized(std::uint64_t expected_items, double false_positive_rate,
                                           const char* where) {
        check_items(where, expected_items);
        check_rate(where, false_positive_rate);
        // Parquet format, BloomFilter.md; parquet-java and Arrow compute the same with ln(1 - x).
        const double log_word_miss = std::log(1.0 - std::pow(false_positive_rate, 1.0 / 8.0));
        // A rate so small that 1 - p^(1/8) rounds to 1 makes ln 0 and the size infinite: the largest, as
        // the writers' clamps give. A rate so close to 1 that p^(1/8) rounds to 1 makes ln -inf: 0 bits.
        if (!(log_word_miss < 0.0)) {
            return max_bytes;
        }
        const double bytes = -static_cast<double>(expected_items) / log_word_miss; // bits / 8
        if (!(bytes < static_cast<double>(max_bytes))) {
            return max_bytes;
        }
        std::size_t size = min_bytes;
        while (static_cast<double>(size) < bytes) {
            size *= 2;
        }
        return size;
    }

    /// The items a bitset of `bit_count` bits holds at `false_positive_rate` by the writers' sizing formula:
    /// n = -(bits / 8) ln(1 - p^(1/8)).
    [[nodiscard]] static double capacity(std::uint64_t bit_count, double false_positive_rate) noexcept {
        return -static_cast<double>(bit_count) / 8.0 * std::log1p(-std::pow(false_positive_rate, 1.0 / 8.0));
    }

    /// The 32-bit words of a bitset of `num_bytes` bytes; std::invalid_argument from `where` unless it is a
    /// positive multiple of 32 of at most 128 MiB.
    [[nodiscard]] static std::size_t checked_word_count(std::size_t num_bytes, const char* where) {
        if (num_bytes == 0 || num_bytes % block_bytes != 0 || num_bytes > max_bytes) {
            throw_invalid_argument(where, "num_bytes",
                                   "must be a positive multiple of 32 of at most 134217728 (128 MiB), got " +
                                       std::to_string(num_bytes));
        }
        return num_bytes / sizeof(std::uint32_t);
    }

    /// The first word of the block of `hash`: ((hash >> 32) * blocks) >> 32 (Lemire 2019, no division;
    /// blocks <= 2^22, so the product fits in 64 bits), times eight.
    [[nodiscard]] BLOOM_FORCE_INLINE static std::size_t block_start(std::uint64_t hash,
                                                                    std::size_t block_count) noexcept {
        return static_cast<std::size_t>(((hash >> 32) * static_cast<std::uint64_t>(block_count)) >> 32) *
               block_words;
    }

    /// Word i's bit: the one the top five bits of low32(hash) * salt[i] (mod 2^32) name.
    [[nodiscard]] BLOOM_FORCE_INLINE static std::uint32_t bit_of(std::uint64_t hash, std::size_t i) noexcept {
        const auto product = static_cast<std::uint32_t>(static_cast<std::uint32_t>(hash) * salts[i]);
        return std::uint32_t{1} << (product >> 27);
    }

    /// Sets the eight bits of `hash` in `words` (host order, `block_count` blocks). True if one was 0.
    BLOOM_FORCE_INLINE static bool insert(std::uint32_t* words, std::size_t block_count,
                                          std::uint64_t hash) noexcept {
        std::uint32_t* const block = words + block_start(hash, block_count);
        std::uint32_t missing = 0;
        for (std::size_t i = 0; i < block_words; ++i) {
            const std::uint32_t bit = bit_of(hash, i);
            missing |= ~block[i] & bit;
            block[i] |= bit;
        }
        return missing != 0;
    }

    /// True if the eight bits of `hash` are set. `words`: host-order words, or little_endian_words32 of a
    /// stored bitset. All eight are tested without a branch: they share one cache line.
    template <class Words>
    [[nodiscard]] BLOOM_FORCE_INLINE static bool contains(const Words& words, std::size_t block_count,
                                                          std::uint64_t hash) noexcept {
        const std::size_t first = block_start(hash, block_count);
        std::uint32_t missing = 0;
        for (std::size_t i = 0; i < block_words; ++i) {
            const std::uint32_t bit = bit_of(hash, i);
            missing |= ~static_cast<std::uint32_t>(words[first + i]) & bit;
        }
        return missing == 0;
    }

    /// Prefetches the block of `hash`, for reading or (ForWrite) writing.
    template <bool ForWrite>
    BLOOM_FORCE_INLINE static void prefetch(const std::uint32_t* words, std::size_t block_count,
                                            std::uint64_t hash) noexcept {
        detail::prefetch<ForWrite>(words + block_start(hash, block_count));
    }

    /// The rate a non-member sees given the bits: the mean over blocks of the product of the eight words'
    /// fill fractions. 0 without blocks.
    template <class Words>
    [[nodiscard]] static double rate(const Words& words, std::size_t block_count) noexcept {
        return block_rate_from_bits<32, block_words>(words, block_count);
    }

    /// Distinct values estimated from the bits, -(m/8) ln(1 - X/m).
    template <class Words>
    [[nodiscard]] static double estimated_items(const Words& words, std::size_t word_count) noexcept {
        return items_from_fill(count_set_bits(words, word_count), std::uint64_t{word_count} * 32,
                               static_cast<unsigned>(block_words));
    }
};

} // namespace bloom::detail

#endif // BLOOM_DETAIL_SPLIT_BLOCK_LAYOUT_HPP
