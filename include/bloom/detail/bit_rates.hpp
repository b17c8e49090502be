// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_BIT_RATES_HPP
#define BLOOM_DETAIL_BIT_RATES_HPP

// What a filter's bits say about it, whatever put them there (inserts, unions, intersections, a load):
// the rate a random non-member sees, and the number of distinct items they hold. Every filter kind, view
// and concurrent form computes its current_false_positive_rate() and estimated_item_count() here, over its
// own word accessor (a plain pointer, relaxed atomic loads, the little-endian bytes of a view), so a
// number reported for the same bits is the same number everywhere. Each costs one pass of popcounts.

#include "bloom/detail/bit_words.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace bloom::detail {

/// Set bits among the first `count` words `words[i]` yields.
template <class Words>
[[nodiscard]] std::uint64_t count_set_bits(const Words& words, std::size_t count) noexcept {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < count; ++i) {
        total += popcount(static_cast<std::uint64_t>(words[i]));
    }
    return total;
}

/// The classic layout's rate given its bits: each of a non-member's k independent uniform probes finds a set
/// bit with probability X/m, so the rate is (X/m)^k exactly. 0 for no bits or no set bits, 1 when full.
[[nodiscard]] inline double rate_from_fill(std::uint64_t set_bits, std::uint64_t bit_count,
                                           unsigned hash_count) noexcept {
    if (bit_count == 0 || set_bits == 0) {
        return 0.0;
    }
    if (set_bits >= bit_count) {
        return 1.0;
    }
    return std::pow(static_cast<double>(set_bits) / static_cast<double>(bit_count),
                    static_cast<double>(hash_count));
}

/// Distinct items estimated from X set bits of m, k per item: -(m/k) ln(1 - X/m) (Swamidass & Baldi 2007).
/// Once every bit is set the formula is infinite; a full filter reports the estimate at X = m - 1/2,
/// (m/k) ln(2m): the fewest items that would likely fill it, finite so that ratios of it stay numbers.
[[nodiscard]] inline double items_from_fill(std::uint64_t set_bits, std::uint64_t bit_count,
                                            unsigned hash_count) noexcept {
    if (bit_count == 0 || hash_count == 0 || set_bits == 0) {
        return 0.0;
    }
    const double m = static_cast<double>(bit_count);
    const double set = set_bits >= bit_count ? m - 0.5 : static_cast<double>(set_bits);
    return -(m / static_cast<double>(hash_count)) * std::log1p(-set / m);
}

/// A split-block layout's rate given its bits: `block_count` blocks of `BlockWords` words of `WordBits`
/// bits, each item setting one bit in every word of one uniformly chosen block (blocked_bloom_filter: 8 x 64,
/// Parquet's SBBF: 8 x 32). A non-member is reported present when its bit in each word of its block is
/// set, so the rate is the mean over blocks of the product of the words' fill fractions.
template <unsigned WordBits, unsigned BlockWords, class Words>
[[nodiscard]] double block_rate_from_bits(const Words& words, std::uint64_t block_count) noexcept {
    if (block_count == 0) {
        return 0.0;
    }
    // Popcounts of a block's words multiply to an integer of at most WordBits^BlockWords (2^48 for 8 x 64):
    // exact in a double, so one division per block.
    double sum = 0.0;
    for (std::uint64_t block = 0; block < block_count; ++block) {
        double product = 1.0;
        for (unsigned i = 0; i < BlockWords; ++i) {
            product *= static_cast<double>(popcount(
                static_cast<std::uint64_t>(words[static_cast<std::size_t>(block * BlockWords + i)])));
        }
        sum += product;
    }
    const double per_block = std::pow(static_cast<double>(WordBits), static_cast<double>(BlockWords));
    const double rate = sum / per_block / static_cast<double>(block_count);
    return rate > 1.0 ? 1.0 : rate;
}

/// The blocked bits_anywhere layout's rate given its bits: `block_count` blocks of `BlockWords` 64-bit
/// words, each item setting `hash_count` distinct bits anywhere in one uniformly chosen block. A
/// non-member's k distinct bits all fall on set bits of its block with probability C(X_b, k) / C(B, k),
/// X_b of the block's B bits set, so the rate is the mean of that over the blocks.
template <unsigned BlockWords, class Words>
[[nodiscard]] double block_fill_rate_from_bits(const Words& words, std::uint64_t block_count,
                                               unsigned hash_count) noexcept {
    if (block_count == 0) {
        return 0.0;
    }
    // The hit probability of each of the B + 1 possible counts, computed once: a table lookup per block.
    constexpr unsigned bits_per_block = 64 * BlockWords;
    double hit_probability[bits_per_block + 1];
    for (unsigned set = 0; set <= bits_per_block; ++set) {
        double product = 1.0;
        for (unsigned j = 0; j < hash_count; ++j) {
            product *= set > j ? static_cast<double>(set - j) / static_cast<double>(bits_per_block - j) : 0.0;
        }
        hit_probability[set] = product;
    }
    double sum = 0.0;
    for (std::uint64_t block = 0; block < block_count; ++block) {
        std::uint64_t set = 0;
        for (unsigned i = 0; i < BlockWords; ++i) {
            set +=
                popcount(static_cast<std::uint64_t>(words[static_cast<std::size_t>(block * BlockWords + i)]));
        }
        sum += hit_probability[set];
    }
    const double rate = sum / static_cast<double>(block_count);
    return rate > 1.0 ? 1.0 : rate;
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_BIT_RATES_HPP
