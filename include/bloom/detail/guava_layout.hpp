// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_GUAVA_LAYOUT_HPP
#define BLOOM_DETAIL_GUAVA_LAYOUT_HPP

// The layout of Guava's com.google.common.hash.BloomFilter (bloom::guava::bloom_filter): k probes anywhere
// among bit_size = 64 x word-count bits (Guava rounds the bits it sizes up to whole 64-bit words and probes
// them all), bit i in bit i % 64 of word i / 64. The probes come from the item's 128-bit MurmurHash3 as one
// of Guava's two strategies (BloomFilterStrategies) derives them; the enum's values are their ordinals, the
// first byte of Guava's serialized form.

#include "bloom/detail/murmur3.hpp"

#include <cstddef>
#include <cstdint>

namespace bloom::detail {

/// Guava's BloomFilterStrategies, by ordinal.
enum class guava_strategy : std::uint8_t {
    /// MURMUR128_MITZ_32, Guava's first strategy: two 32-bit halves of the hash's low 64 bits, combined
    /// h1 + i h2 (i = 1..k) in 32-bit arithmetic, flipped when negative, modulo bit_size. Only filters
    /// written by Guava before 2013 (release 15) use it.
    murmur128_mitz_32 = 0,
    /// MURMUR128_MITZ_64, every filter Guava creates: combined = low 64 bits, then + high 64 bits per probe,
    /// index = (combined & 2^63 - 1) mod bit_size.
    murmur128_mitz_64 = 1,
};

struct guava_layout {
    /// Calls visit(index) for each of the k bit indices `hash` selects among `bit_size` bits, in Guava's
    /// order, while visit returns true; returns false if a call returned false.
    template <class Visit>
    static bool for_each_probe(guava_strategy strategy, murmur3_128_value hash, unsigned hash_count,
                               std::uint64_t bit_size, Visit&& visit) {
        if (strategy == guava_strategy::murmur128_mitz_64) {
            std::uint64_t combined = hash.low;
            for (unsigned i = 0; i < hash_count; ++i) {
                if (!visit((combined & 0x7fffffffffffffffULL) % bit_size)) {
                    return false;
                }
                combined += hash.high;
            }
            return true;
        }
        // Java int arithmetic: wrapping 32-bit sums and products, and ~x (= -x - 1) for a negative sum.
        const auto hash1 = static_cast<std::uint32_t>(hash.low);
        const auto hash2 = static_cast<std::uint32_t>(hash.low >> 32);
        for (std::uint32_t i = 1; i <= hash_count; ++i) {
            std::uint32_t combined = hash1 + i * hash2;
            if ((combined & 0x80000000U) != 0) {
                combined = ~combined;
            }
            if (!visit(std::uint64_t{combined} % bit_size)) {
                return false;
            }
        }
        return true;
    }

    /// Sets the k bits of `hash` in `words` (bit_size = 64 x their count); true if one of them was 0.
    static bool insert(std::uint64_t* words, std::uint64_t bit_size, guava_strategy strategy,
                       unsigned hash_count, murmur3_128_value hash) noexcept {
        bool changed = false;
        for_each_probe(strategy, hash, hash_count, bit_size, [&](std::uint64_t index) {
            const std::uint64_t mask = std::uint64_t{1} << (index & 63);
            std::uint64_t& word = words[static_cast<std::size_t>(index >> 6)];
            changed = changed || (word & mask) == 0;
            word |= mask;
            return true;
        });
        return changed;
    }

    /// True if the k bits of `hash` are all set.
    [[nodiscard]] static bool contains(const std::uint64_t* words, std::uint64_t bit_size,
                                       guava_strategy strategy, unsigned hash_count,
                                       murmur3_128_value hash) noexcept {
        return for_each_probe(strategy, hash, hash_count, bit_size, [&](std::uint64_t index) {
            return ((words[static_cast<std::size_t>(index >> 6)] >> (index & 63)) & 1) != 0;
        });
    }
};

} // namespace bloom::detail

#endif // BLOOM_DETAIL_GUAVA_LAYOUT_HPP
