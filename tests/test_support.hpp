// SPDX-License-Identifier: MIT
#ifndef BLOOM_TESTS_TEST_SUPPORT_HPP
#define BLOOM_TESTS_TEST_SUPPORT_HPP

// Shared helpers for the tests, independent of the code under test: a deterministic generator,
// key families, an independent XXH3-over-canonical-bytes reference and the statistical tolerance.
//
// Every key family is an injective function of a 64-bit index. A test inserts the keys of indices
// [0, n) and queries those of indices [n, n + queries), so members and non-members are distinct and
// disjoint by construction, whatever the family.

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

// As <bloom/hash.hpp> does: XXH3 inline, no link step; the header's own include then finds it defined.
#ifndef XXH_INLINE_ALL
#    define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace bloom_test {

inline constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15ULL;

/// splitmix64's output function (Steele, Lea & Flood 2014): a bijection of 64-bit values.
[[nodiscard]] constexpr std::uint64_t splitmix64_mix(std::uint64_t value) noexcept {
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
    return value ^ (value >> 31);
}

/// splitmix64: a small deterministic generator. Output i (from 1) is splitmix64_mix(seed + i * gamma),
/// a bijection of i, so one stream never repeats within 2^64 draws.
class splitmix64 {
  public:
    explicit constexpr splitmix64(std::uint64_t seed) noexcept : m_state(seed) {}

    constexpr std::uint64_t next() noexcept {
        m_state += golden_gamma;
        return splitmix64_mix(m_state);
    }

    /// Uniform in [0, 1), from the top 53 bits.
    double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1p-53; }

  private:
    std::uint64_t m_state;
};

// ---- key families: key(index), injective in index ----

/// Random-looking 64-bit integers: the (index + 1)-th output of splitmix64 seeded with `seed`.
struct random_u64_keys {
    using key_type = std::uint64_t;
    std::uint64_t seed = 0x5eed0001ULL;

    [[nodiscard]] key_type operator()(std::uint64_t index) const noexcept {
        return splitmix64_mix(seed + (index + 1) * golden_gamma);
    }
    void write(std::uint64_t index, key_type& out) const noexcept { out = (*this)(index); }
};

/// Sequential integers: the index itself (members 0..n-1, non-members n, n+1, ...).
struct sequential_keys {
    using key_type = std::uint64_t;

    [[nodiscard]] key_type operator()(std::uint64_t index) const noexcept { return index; }
    void write(std::uint64_t index, key_type& out) const noexcept { out = index; }
};

/// Integers that differ from each other in one bit: groups of 65 keys, a base B(j) and its 64 one-bit
/// neighbours B(j) ^ (1 << b). B(j) repeats j (< 2^21) three times (bits 0, 21 and 42 up), so two bases
/// differ in at least 3 bits and no two keys of different groups can coincide: injective by construction.
struct one_bit_keys {
    using key_type = std::uint64_t;
    static constexpr std::uint64_t group_size = 65;
    static constexpr std::uint64_t max_index = (std::uint64_t{1} << 21) * group_size;

    [[nodiscard]] static constexpr std::uint64_t base(std::uint64_t group) noexcept {
        return group | (group << 21) | (group << 42);
    }
    [[nodiscard]] key_type operator()(std::uint64_t index) const noexcept {
        const std::uint64_t group = index / group_size;
        const std::uint64_t bit = index % group_size;
        return bit == 64 ? base(group) : base(group) ^ (std::uint64_t{1} << bit);
    }
    void write(std::uint64_t index, key_type& out) const noexcept { out = (*this)(index); }
};

/// Appends the decimal digits of `value` to `out` (no allocation once `out` has the capacity).
inline void append_decimal(std::string& out, std::uint64_t value) {
    char digits[20];
    const auto result = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, static_cast<std::size_t>(result.ptr - digits));
}

/// URL-like strings sharing a 58-character prefix: "https://www.example.com/...?id=" + index.
struct url_keys {
    using key_type = std::string;
    static constexpr const char* prefix = "https://www.example.com/catalog/products/category/item?id=";

    void write(std::uint64_t index, key_type& out) const {
        out.assign(prefix);
        append_decimal(out, index);
    }
    [[nodiscard]] key_type operator()(std::uint64_t index) const {
        key_type key;
        write(index, key);
        return key;
    }
};

/// Long strings: 1000 identical characters, then the index in decimal.
struct long_string_keys {
    using key_type = std::string;
    static constexpr std::size_t filler_length = 1000;

    void write(std::uint64_t index, key_type& out) const {
        out.assign(filler_length, 'x');
        append_decimal(out, index);
    }
    [[nodiscard]] key_type operator()(std::uint64_t index) const {
        key_type key;
        write(index, key);
        return key;
    }
};

/// The empty string and short strings: index in bijective base 26 over 'a'..'z' (0 -> "", 1 -> "a",
/// 26 -> "z", 27 -> "aa", ...), at most 14 characters; bijective numeration is injective.
struct short_string_keys {
    using key_type = std::string;

    void write(std::uint64_t index, key_type& out) const {
        out.clear();
        while (index != 0) {
            --index;
            out.push_back(static_cast<char>('a' + index % 26));
            index /= 26;
        }
    }
    [[nodiscard]] key_type operator()(std::uint64_t index) const {
        key_type key;
        write(index, key);
        return key;
    }
};

// ---- an independent reference for bloom::hash ----

/// XXH3 with `seed` over the 8 little-endian bytes of `value`, the bytes built by shifting.
[[nodiscard]] inline std::uint64_t xxh3_of_le64(std::uint64_t value, std::uint64_t seed) noexcept {
    unsigned char bytes[8];
    for (unsigned i = 0; i < 8; ++i) {
        bytes[i] = static_cast<unsigned char>(value >> (8 * i));
    }
    return static_cast<std::uint64_t>(XXH3_64bits_withSeed(bytes, sizeof bytes, seed));
}

/// XXH3 with `seed` over the bytes of `text`.
[[nodiscard]] inline std::uint64_t xxh3_of_string(const std::string& text, std::uint64_t seed) noexcept {
    return static_cast<std::uint64_t>(XXH3_64bits_withSeed(text.data(), text.size(), seed));
}

// ---- statistics ----

/// The classic formula computed here, independently of bloom::false_positive_rate: (1 - e^(-kn/m))^k.
[[nodiscard]] inline double formula_rate(std::uint64_t bit_count, unsigned hash_count, std::uint64_t items) {
    const double k = static_cast<double>(hash_count);
    return std::pow(1.0 - std::exp(-k * static_cast<double>(items) / static_cast<double>(bit_count)), k);
}

/// How far a rate measured over `queries` non-members of one filter (m bits, k probes, n distinct
/// items) may stray from the formula's `expected` rate p: 4 sigma + allowance, where
///   sigma = sqrt(p (1 - p) / queries)                    the queries' binomial noise;
///   allowance = (0.01 + 4 k s / f) p, a few % of p:
///     0.01 p   the formula's own approximation: it slightly underestimates for small m (Bose et al.
///              2008) and our k probes come from one hash (Kirsch & Mitzenmacher 2006); both are far
///              below 1% for m >= 10^4;
///     4 k s/f  the one filter under test: its fill X/m varies around f = 1 - e^(-kn/m) with standard
///              deviation s = sqrt(e^(-kn/m) (1 - (1 + kn/m) e^(-kn/m)) / m) (balls into bins), and its
///              rate is fill^k, so relatively k s / f; about 1.3% at m = 10^5, k = 7 and 0.1% at 10^7.
[[nodiscard]] inline double rate_tolerance(double expected, std::uint64_t queries, std::uint64_t bit_count,
                                           unsigned hash_count, std::uint64_t items) {
    const double sigma = std::sqrt(expected * (1.0 - expected) / static_cast<double>(queries));
    const double m = static_cast<double>(bit_count);
    const double k = static_cast<double>(hash_count);
    const double load = k * static_cast<double>(items) / m;
    const double empty = std::exp(-load);
    const double fill_sd = std::sqrt(empty * (1.0 - (1.0 + load) * empty) / m);
    const double allowance = (0.01 + 4.0 * k * fill_sd / (1.0 - empty)) * expected;
    return 4.0 * sigma + allowance;
}

} // namespace bloom_test

#endif // BLOOM_TESTS_TEST_SUPPORT_HPP
