// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_BIT_WORDS_HPP
#define BLOOM_DETAIL_BIT_WORDS_HPP

// Addressing bits in an array of 64-bit words, with 64-bit positions throughout.

#include <cstddef>
#include <cstdint>

namespace bloom::detail {

/// A word with no bit set: what an empty classic filter (no words) probes, finding nothing.
inline constexpr std::uint64_t empty_word[1] = {};

/// Words needed for `bit_count` bits.
[[nodiscard]] constexpr std::uint64_t word_count_for(std::uint64_t bit_count) noexcept {
    return bit_count / 64 + (bit_count % 64 != 0 ? 1 : 0);
}

/// The word that holds bit `position`.
[[nodiscard]] constexpr std::size_t word_of(std::uint64_t position) noexcept {
    return static_cast<std::size_t>(position >> 6);
}

/// The mask of bit `position` inside its word.
[[nodiscard]] constexpr std::uint64_t mask_of(std::uint64_t position) noexcept {
    return std::uint64_t{1} << (position & 63);
}

/// Number of set bits in `word`.
[[nodiscard]] constexpr unsigned popcount(std::uint64_t word) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    return static_cast<unsigned>(__builtin_popcountll(word));
#else
    unsigned count = 0;
    for (; word != 0; word &= word - 1) {
        ++count;
    }
    return count;
#endif
}

/// Number of set bits in `count` words.
[[nodiscard]] inline std::uint64_t popcount(const std::uint64_t* words, std::size_t count) noexcept {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < count; ++i) {
        total += popcount(words[i]);
    }
    return total;
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_BIT_WORDS_HPP
