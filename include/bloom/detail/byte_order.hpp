// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_BYTE_ORDER_HPP
#define BLOOM_DETAIL_BYTE_ORDER_HPP

// Canonical little-endian byte forms, so hashes and files are the same on every host.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bloom::detail {

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
inline constexpr bool host_is_little_endian = false;
#else
inline constexpr bool host_is_little_endian = true;
#endif

/// Reverses the byte order of a 64-bit value.
[[nodiscard]] constexpr std::uint64_t byte_swap(std::uint64_t value) noexcept {
    value = ((value & 0x00ff00ff00ff00ffULL) << 8) | ((value >> 8) & 0x00ff00ff00ff00ffULL);
    value = ((value & 0x0000ffff0000ffffULL) << 16) | ((value >> 16) & 0x0000ffff0000ffffULL);
    return (value << 32) | (value >> 32);
}

/// Reverses the byte order of a 32-bit value (Parquet's split-block words).
[[nodiscard]] constexpr std::uint32_t byte_swap(std::uint32_t value) noexcept {
    value = ((value & 0x00ff00ffU) << 8) | ((value >> 8) & 0x00ff00ffU);
    return (value << 16) | (value >> 16);
}

/// Writes `byte_count` low-order bytes of `value` to `out`, least significant first.
inline void store_little_endian(unsigned char* out, std::uint64_t value, std::size_t byte_count) noexcept {
    for (std::size_t i = 0; i < byte_count; ++i) {
        out[i] = static_cast<unsigned char>(value >> (8 * i));
    }
}

/// Reads `byte_count` bytes at `in` as a little-endian unsigned integer.
[[nodiscard]] inline std::uint64_t load_little_endian(const unsigned char* in,
                                                      std::size_t byte_count) noexcept {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < byte_count; ++i) {
        value |= static_cast<std::uint64_t>(in[i]) << (8 * i);
    }
    return value;
}

/// Writes the low `byte_count` bytes of `value` to `out`, most significant first (big-endian: Java's
/// DataOutputStream, Guava's writeTo).
inline void store_big_endian(unsigned char* out, std::uint64_t value, std::size_t byte_count) noexcept {
    for (std::size_t i = 0; i < byte_count; ++i) {
        out[i] = static_cast<unsigned char>(value >> (8 * (byte_count - 1 - i)));
    }
}

/// Reads `byte_count` bytes at `in` as a big-endian unsigned integer.
[[nodiscard]] inline std::uint64_t load_big_endian(const unsigned char* in, std::size_t byte_count) noexcept {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < byte_count; ++i) {
        value = (value << 8) | in[i];
    }
    return value;
}

/// `value` as it would be stored little-endian, read back as a host integer (either way: the swap is its
/// own inverse): the identity on little-endian hosts, a byte swap on big-endian ones. Lets a little-endian
/// host hash a value's memory directly. Word: std::uint64_t or std::uint32_t.
template <class Word>
[[nodiscard]] constexpr Word to_little_endian(Word value) noexcept {
    if constexpr (host_is_little_endian) {
        return value;
    } else {
        return byte_swap(value);
    }
}

/// Words stored little-endian at any address (a saved filter's payload or a Parquet bitset, borrowed or
/// mapped), read in place: a plain load on little-endian hosts whatever the alignment, a load and a byte
/// swap elsewhere.
template <class Word>
struct little_endian_array {
    const unsigned char* bytes;

    [[nodiscard]] Word operator[](std::size_t index) const noexcept {
        Word word;
        std::memcpy(&word, bytes + index * sizeof word, sizeof word);
        return to_little_endian(word);
    }
};
/// The 64-bit words of a saved record.
using little_endian_words = little_endian_array<std::uint64_t>;
/// The 32-bit words of a Parquet bitset.
using little_endian_words32 = little_endian_array<std::uint32_t>;

} // namespace bloom::detail

#endif // BLOOM_DETAIL_BYTE_ORDER_HPP
