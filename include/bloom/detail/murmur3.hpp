// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_MURMUR3_HPP
#define BLOOM_DETAIL_MURMUR3_HPP

// MurmurHash3_x64_128 (Austin Appleby, SMHasher, public domain algorithm), written here from its published
// description: what Guava's Hashing.murmur3_128() computes, so bloom::guava can place bits as Guava's
// BloomFilter does. Blocks of 16 bytes mix into two 64-bit lanes; the tail is zero-padded and mixed without
// the lane rotation; the length is folded in and each lane goes through the fmix64 finaliser (mix64).

#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/probe.hpp"

#include <cstddef>
#include <cstdint>

namespace bloom::detail {

/// The two 64-bit halves of a 128-bit MurmurHash3 value. Its 16 bytes, as Guava's HashCode.asBytes()
/// lists them, are `low` then `high`, each little-endian.
struct murmur3_128_value {
    std::uint64_t low = 0;
    std::uint64_t high = 0;
};

[[nodiscard]] constexpr std::uint64_t rotate_left(std::uint64_t value, unsigned count) noexcept {
    return (value << count) | (value >> (64 - count));
}

/// MurmurHash3_x64_128 of `size` bytes at `data` with `seed` (both lanes start at the seed).
[[nodiscard]] inline murmur3_128_value murmur3_x64_128(const unsigned char* data, std::size_t size,
                                                       std::uint32_t seed) noexcept {
    constexpr std::uint64_t c1 = 0x87c37b91114253d5ULL;
    constexpr std::uint64_t c2 = 0x4cf5ad432745937fULL;
    const auto mix_low = [](std::uint64_t k) { return rotate_left(k * c1, 31) * c2; };
    const auto mix_high = [](std::uint64_t k) { return rotate_left(k * c2, 33) * c1; };

    std::uint64_t h1 = seed;
    std::uint64_t h2 = seed;
    const std::size_t blocks = size / 16;
    for (std::size_t i = 0; i < blocks; ++i) {
        const unsigned char* block = data + 16 * i;
        h1 ^= mix_low(load_little_endian(block, 8));
        h1 = (rotate_left(h1, 27) + h2) * 5 + 0x52dce729;
        h2 ^= mix_high(load_little_endian(block + 8, 8));
        h2 = (rotate_left(h2, 31) + h1) * 5 + 0x38495ab5;
    }
    const unsigned char* tail = data + 16 * blocks;
    const std::size_t rest = size % 16;
    if (rest > 8) {
        h2 ^= mix_high(load_little_endian(tail + 8, rest - 8));
    }
    if (rest > 0) {
        h1 ^= mix_low(load_little_endian(tail, rest < 8 ? rest : 8));
    }
    h1 ^= static_cast<std::uint64_t>(size);
    h2 ^= static_cast<std::uint64_t>(size);
    h1 += h2;
    h2 += h1;
    h1 = mix64(h1);
    h2 = mix64(h2);
    h1 += h2;
    h2 += h1;
    return {h1, h2};
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_MURMUR3_HPP
