// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_COUNTER_WORDS_HPP
#define BLOOM_DETAIL_COUNTER_WORDS_HPP

// Small unsigned counters packed into 64-bit words, with 64-bit counter indices throughout.
//
// Counter i of width W bits (4, 8 or 16) is bits [s, s + W) of word i / (64 / W), where
// s = (i % (64 / W)) * W: the counters of a word run from its least significant bits up, so the layout is
// the same on every platform once the words are stored little-endian.

#include "bloom/detail/bit_words.hpp"

#include <cstddef>
#include <cstdint>

namespace bloom::detail {

/// The packing of counters of `CounterBits` bits.
template <std::size_t CounterBits>
struct counter_layout {
    static_assert(CounterBits == 4 || CounterBits == 8 || CounterBits == 16,
                  "bloom: counters are 4, 8 or 16 bits wide");

    static constexpr unsigned bits = static_cast<unsigned>(CounterBits);
    static constexpr unsigned per_word = 64 / bits;
    /// The largest value a counter holds; a counter that reaches it sticks there.
    static constexpr std::uint64_t max_value = (std::uint64_t{1} << bits) - 1;
    /// One in the lowest bit of every counter of a word.
    static constexpr std::uint64_t low_bits = ~std::uint64_t{0} / max_value;

    /// The word that holds counter `index`.
    [[nodiscard]] static constexpr std::size_t word_of(std::uint64_t index) noexcept {
        return static_cast<std::size_t>(index / per_word);
    }
    /// The position of counter `index`'s lowest bit inside its word.
    [[nodiscard]] static constexpr unsigned shift_of(std::uint64_t index) noexcept {
        return static_cast<unsigned>(index % per_word) * bits;
    }
    /// Bits needed for `counter_count` counters (the caller checks that they fit in 64 bits).
    [[nodiscard]] static constexpr std::uint64_t storage_bits(std::uint64_t counter_count) noexcept {
        return counter_count * bits;
    }
    /// Number of non-zero counters in `word`: each counter's bits are ORed down into its lowest bit.
    [[nodiscard]] static constexpr unsigned non_zero_in(std::uint64_t word) noexcept {
        for (unsigned shift = 1; shift < bits; shift *= 2) {
            word |= word >> shift;
        }
        return popcount(word & low_bits);
    }
    /// Number of counters of `word` at max_value: each counter's bits are ANDed down into its lowest bit.
    [[nodiscard]] static constexpr unsigned saturated_in(std::uint64_t word) noexcept {
        for (unsigned shift = 1; shift < bits; shift *= 2) {
            word &= word >> shift;
        }
        return popcount(word & low_bits);
    }
};

} // namespace bloom::detail

#endif // BLOOM_DETAIL_COUNTER_WORDS_HPP
