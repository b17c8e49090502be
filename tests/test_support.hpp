// SPDX-License-Identifier: MIT
#ifndef BLOOM_TESTS_TEST_SUPPORT_HPP
#define BLOOM_TESTS_TEST_SUPPORT_HPP

// Shared helpers for the tests, independent of the code under test: a deterministic generator,
// key families and the filter loops over them, an independent XXH3-over-canonical-bytes reference, the
// rate formulas computed again here with their statistical tolerances, an error-message check and a
// counting allocator.
//
// Every key family is an injective function of a 64-bit index. A test inserts the keys of indices
// [0, n) and queries those of indices [n, n + queries), so members and non-members are distinct and
// disjoint by construction, whatever the family.

#include "catch.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// As <bloom/hash.hpp> does: XXH3 inline, no link step; the header's own include then finds it defined.
// And as there, GCC 12's false "may be used uninitialized" warnings inside its AVX-512 intrinsics (GCC bug
// 105593) are silenced for the intrinsic headers xxhash.h pulls in, or -march=native -Werror builds fail:
// this include comes first, so the header's guarded one finds xxhash.h already included.
#ifndef XXH_INLINE_ALL
#    define XXH_INLINE_ALL
#endif
#if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wuninitialized"
#    pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <xxhash.h>
#if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic pop
#endif

#include <bloom/format_error.hpp>
#include <bloom/sizing.hpp>

namespace bloom_test {

/// While one lives, the peak of the bytes allocated through the global operator new and not yet freed
/// (counted from its construction). Defined with bloom_tests' replacement of operator new; not available
/// where that is left out (ThreadSanitizer) or where the C library cannot tell a block's size.
class peak_allocation {
  public:
    [[nodiscard]] static bool available() noexcept;
    peak_allocation() noexcept;
    ~peak_allocation();
    peak_allocation(const peak_allocation&) = delete;
    peak_allocation& operator=(const peak_allocation&) = delete;
    [[nodiscard]] std::uint64_t peak_bytes() const noexcept;
};

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

// ---- the classic layout's two probe schemes, written again from docs/how-it-works.md ----

/// MurmurHash3's fmix64.
[[nodiscard]] constexpr std::uint64_t reference_fmix64(std::uint64_t value) noexcept {
    value ^= value >> 33;
    value *= 0xff51afd7ed558ccdULL;
    value ^= value >> 33;
    value *= 0xc4ceb9fe1a85ec53ULL;
    value ^= value >> 33;
    return value;
}

/// The high 64 bits of the 128-bit product a * b, from 32-bit halves.
[[nodiscard]] constexpr std::uint64_t reference_multiply_high(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t a_low = a & 0xffffffffU;
    const std::uint64_t a_high = a >> 32;
    const std::uint64_t b_low = b & 0xffffffffU;
    const std::uint64_t b_high = b >> 32;
    const std::uint64_t low_low = a_low * b_low;
    const std::uint64_t low_high = a_low * b_high;
    const std::uint64_t high_low = a_high * b_low;
    const std::uint64_t middle = (low_low >> 32) + (low_high & 0xffffffffU) + (high_low & 0xffffffffU);
    return a_high * b_high + (low_high >> 32) + (high_low >> 32) + (middle >> 32);
}

/// The k positions among m of an item of 64-bit hash h, by the probe scheme of every new filter
/// (probe_scheme::mixed): x = h, s = (h * 0x9e3779b97f4a7c15) | 1; for each i, v = x ^ (x >> 32),
/// v *= 0xd6e8feb86659fd93, position = (v * m) >> 64, then x += s.
inline std::vector<std::uint64_t> mixed_positions(std::uint64_t hash, std::uint64_t bit_count,
                                                  unsigned hash_count) {
    std::vector<std::uint64_t> result;
    std::uint64_t x = hash;
    const std::uint64_t step = (hash * golden_gamma) | 1;
    for (unsigned i = 0; i < hash_count; ++i) {
        const std::uint64_t v = (x ^ (x >> 32)) * 0xd6e8feb86659fd93ULL;
        result.push_back(reference_multiply_high(v, bit_count));
        x += step;
    }
    return result;
}

/// The k positions by the scheme of files written before it (probe_scheme::enhanced_double_hashing):
/// x = h, y = rotl(h, 32) | 1; position_i = (x * m) >> 64; x += y; y += (i + 1) * 0x9e3779b97f4a7c15.
inline std::vector<std::uint64_t> legacy_positions(std::uint64_t hash, std::uint64_t bit_count,
                                                   unsigned hash_count) {
    std::vector<std::uint64_t> result;
    std::uint64_t x = hash;
    std::uint64_t y = ((hash << 32) | (hash >> 32)) | 1;
    for (unsigned i = 0; i < hash_count; ++i) {
        result.push_back(reference_multiply_high(x, bit_count));
        x += y;
        y += (i + 1) * golden_gamma;
    }
    return result;
}

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

/// Strided integers: index * 4096, keys whose low 12 bits are all zero (page addresses, aligned offsets),
/// so only the hash's mixing of the high bits tells them apart.
struct strided_keys {
    using key_type = std::uint64_t;
    static constexpr std::uint64_t stride = 4096;

    [[nodiscard]] key_type operator()(std::uint64_t index) const noexcept { return index * stride; }
    void write(std::uint64_t index, key_type& out) const noexcept { out = (*this)(index); }
};

/// Structured integers: two small fields packed into one word, (row << 32) | column over a grid 1000
/// columns wide (composite keys such as user id and item id), which leaves most bits of each half zero.
struct grid_keys {
    using key_type = std::uint64_t;
    static constexpr std::uint64_t columns = 1000;

    [[nodiscard]] key_type operator()(std::uint64_t index) const noexcept {
        return ((index / columns) << 32) | (index % columns);
    }
    void write(std::uint64_t index, key_type& out) const noexcept { out = (*this)(index); }
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

// ---- filling and querying a filter from a key family ----

/// The key family the template tests use for each key type.
template <class T>
struct family_for;
template <>
struct family_for<std::uint64_t> {
    using type = random_u64_keys;
};
template <>
struct family_for<std::string> {
    using type = url_keys;
};
template <class T>
using family_for_t = typename family_for<T>::type;

/// The key of `index` in T's family.
template <class T>
T key(std::uint64_t index) {
    return family_for_t<T>{}(index);
}

/// Inserts the keys of indices [first, last) one at a time; returns how many inserts returned true.
template <class Filter, class Family = family_for_t<typename Filter::value_type>>
std::uint64_t insert_keys(Filter& filter, std::uint64_t first, std::uint64_t last, const Family& keys = {}) {
    typename Family::key_type value{};
    std::uint64_t inserted = 0;
    for (std::uint64_t i = first; i < last; ++i) {
        keys.write(i, value);
        inserted += filter.insert(value) ? 1 : 0;
    }
    return inserted;
}

/// How many keys of indices [first, last) the filter reports as present, asked one at a time.
template <class Filter, class Family = family_for_t<typename Filter::value_type>>
std::uint64_t count_found(const Filter& filter, std::uint64_t first, std::uint64_t last,
                          const Family& keys = {}) {
    typename Family::key_type value{};
    std::uint64_t found = 0;
    for (std::uint64_t i = first; i < last; ++i) {
        keys.write(i, value);
        found += filter.contains(value) ? 1 : 0;
    }
    return found;
}

/// How many keys of indices [first, last) the two filters (or views) answer differently.
template <class Left, class Right, class Family = family_for_t<typename Left::value_type>>
std::uint64_t count_disagreements(const Left& left, const Right& right, std::uint64_t first,
                                  std::uint64_t last, const Family& keys = {}) {
    typename Family::key_type value{};
    std::uint64_t disagreements = 0;
    for (std::uint64_t i = first; i < last; ++i) {
        keys.write(i, value);
        disagreements += left.contains(value) != right.contains(value) ? 1 : 0;
    }
    return disagreements;
}

/// Number of set bits in the filter's words, counted here.
template <class Filter>
std::uint64_t set_bits(const Filter& filter) {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < filter.word_count(); ++i) {
        for (std::uint64_t word = filter.data()[i]; word != 0; word &= word - 1) {
            ++total;
        }
    }
    return total;
}

// ---- an independent reference for bloom::hash ----

/// XXH3 with `seed` over the 8 little-endian bytes of `value`, the bytes built by shifting.
[[nodiscard]] inline std::uint64_t xxh3_of_le64(std::uint64_t value, std::uint64_t seed) noexcept {
    unsigned char bytes[8];
    for (unsigned i = 0; i < 8; ++i) {
        bytes[i] = static_cast<unsigned char>(value >> (8 * i));
    }
    return static_cast<std::uint64_t>(XXH3_64bits_withSeed(bytes, sizeof bytes, seed));
}

/// The low and high halves of a * b, XORed, computed from 32-bit pieces (no 128-bit type).
[[nodiscard]] inline std::uint64_t reference_fold(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t a0 = a & 0xffffffffU, a1 = a >> 32, b0 = b & 0xffffffffU, b1 = b >> 32;
    const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const std::uint64_t middle = (p00 >> 32) + (p01 & 0xffffffffU) + (p10 & 0xffffffffU);
    const std::uint64_t low = (middle << 32) | (p00 & 0xffffffffU);
    const std::uint64_t high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
    return low ^ high;
}

/// bloom::hash's word path ("MUM2") as docs/FORMAT.md writes it, for integer keys widened to 64 bits.
[[nodiscard]] inline std::uint64_t mum2_of_word(std::uint64_t word, std::uint64_t seed) noexcept {
    const std::uint64_t x = reference_fold(word ^ seed, 0x9e3779b97f4a7c15ULL);
    return reference_fold(x ^ seed ^ 0xbf58476d1ce4e5b9ULL, 0x94d049bb133111ebULL);
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

/// The exact expected rate of m bits and k independent uniform probes per item holding n items, computed
/// here by the full distribution of the set-bit count X after the kn probes (P(X = j) throw by throw),
/// then E[(X/m)^k] (Bose et al. 2008). O(k n m): for small filters only.
[[nodiscard]] inline double exact_rate(std::uint64_t bit_count, unsigned hash_count, std::uint64_t items) {
    const std::size_t m = static_cast<std::size_t>(bit_count);
    std::vector<double> probability(m + 1, 0.0);
    probability[0] = 1.0;
    for (std::uint64_t t = 0; t < items * hash_count; ++t) {
        std::vector<double> next(m + 1, 0.0);
        for (std::size_t j = 0; j <= m; ++j) {
            const double stay = static_cast<double>(j) / static_cast<double>(m);
            next[j] += probability[j] * stay;
            if (j < m) {
                next[j + 1] += probability[j] * (1.0 - stay);
            }
        }
        probability.swap(next);
    }
    double rate = 0.0;
    for (std::size_t j = 0; j <= m; ++j) {
        rate += probability[j] * std::pow(static_cast<double>(j) / static_cast<double>(m), hash_count);
    }
    return rate;
}

/// The rate an (n, p) classic filter promises, by the documented rule: the textbook size's formula rate
/// f0 (best of floor and ceil k) when it is within p (1 + 2 sqrt((1 - p) / (10^7 p))) — 2 sigma of 10^7
/// queries — allowing 0.1% for the small filters' exact rate on top; otherwise p itself.
[[nodiscard]] inline double classic_promise(std::uint64_t items, double rate) {
    const double ln2 = std::log(2.0);
    const double n = static_cast<double>(items);
    const double bits = std::ceil(-n * std::log(rate) / (ln2 * ln2));
    const double ideal = bits / n * ln2;
    double textbook = 1.0;
    for (const double k : {std::floor(ideal), std::ceil(ideal)}) {
        const double probes = std::fmax(k, 1.0);
        textbook = std::fmin(textbook, std::pow(1.0 - std::exp(-probes * n / bits), probes));
    }
    const double resolution = 2.0 * std::sqrt((1.0 - rate) / (1e7 * rate));
    return textbook <= rate * (1.0 + resolution) ? std::fmax(rate, textbook) * 1.001 : rate;
}

/// fill^k of a classic-layout filter's words, computed here: the rate a non-member sees given the bits.
template <class Filter>
[[nodiscard]] double rate_from_words(const Filter& filter) {
    std::uint64_t set = 0;
    for (std::size_t i = 0; i < filter.word_count(); ++i) {
        for (std::uint64_t word = filter.data()[i]; word != 0; word &= word - 1) {
            ++set;
        }
    }
    return std::pow(static_cast<double>(set) / static_cast<double>(filter.bit_count()), filter.hash_count());
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

/// E[f(N)] for N ~ Poisson(lambda), lambda > 0 (and below 2^52), by a loop of our own: weights relative
/// to the mode (w_mode = 1, w_(i+1) = w_i lambda / (i + 1), w_(i-1) = w_i i / lambda), divided by their
/// sum, out to where a weight falls below 1e-30. No exp(-lambda), so no underflow at any lambda.
template <class Function>
double poisson_expectation(double lambda, Function&& f) {
    const double mode = std::floor(lambda);
    double weighted = f(mode);
    double total = 1.0;
    double weight = 1.0;
    for (double i = mode + 1.0;; i += 1.0) {
        weight *= lambda / i;
        if (weight < 1e-30) {
            break;
        }
        weighted += weight * f(i);
        total += weight;
    }
    weight = 1.0;
    for (double i = mode; i >= 1.0; i -= 1.0) {
        weight *= i / lambda;
        if (weight < 1e-30) {
            break;
        }
        weighted += weight * f(i - 1.0);
        total += weight;
    }
    return weighted / total;
}

/// The blocked layout as documented: 512-bit blocks of eight 64-bit words. The functions below without a
/// pattern are of the original one, one bit per word per item (probe_scheme::one_bit_per_word).
inline constexpr std::uint64_t block_bits = 512;

/// A word's bit is still clear after one more item of its block with probability 63/64.
inline constexpr double word_miss = 63.0 / 64.0;

/// The rate of one block holding `items` items: each of the query's 8 bits is set with probability
/// 1 - (63/64)^i.
[[nodiscard]] inline double one_block_rate(double items) {
    return std::pow(1.0 - std::pow(word_miss, items), 8.0);
}

/// The blocked formula computed here, independently of bloom::blocked_false_positive_rate (Putze,
/// Sanders & Singler 2007): sum over i of Poisson(i; lambda = n / blocks) (1 - (63/64)^i)^8.
[[nodiscard]] inline double blocked_formula_rate(std::uint64_t bit_count, std::uint64_t items) {
    const double lambda = static_cast<double>(items) / static_cast<double>(bit_count / block_bits);
    return poisson_expectation(lambda, one_block_rate);
}

/// The variance of one blocked filter's own rate around the formula, over filters of m bits holding n
/// items. A query's hit probability is r_b = prod over the 8 words w of X_bw / 64 for its block b, X_bw
/// the set bits of word w. With i items in the block the words are independent, E[X/64 | i] = 1 - q^i
/// and E[(X/64)^2 | i] = (1 - q^i)/64 + (63/64)(1 - 2q^i + (62/64)^i), q = 63/64 (pairs of bits). Blocks
/// hold Poisson(lambda) items, but their total n is fixed, which cancels the part of r_b linear in the
/// block's count i: variance = (Var(r_b) - Cov(r_b, i)^2 / lambda) / blocks. (Checked by simulation: it
/// predicts the spread of 40 filters' measured rates within the sampling error for the fpr tests' sizes.)
[[nodiscard]] inline double blocked_filter_rate_variance(std::uint64_t bit_count, std::uint64_t items) {
    const double blocks = static_cast<double>(bit_count / block_bits);
    const double lambda = static_cast<double>(items) / blocks;
    const auto square = [](double i) {
        const double miss = std::pow(word_miss, i);
        const double pair =
            (1.0 - miss) / 64.0 + (63.0 / 64.0) * (1.0 - 2.0 * miss + std::pow(62.0 / 64.0, i));
        return std::pow(pair, 8.0);
    };
    const double mean = poisson_expectation(lambda, one_block_rate);
    const double variance = poisson_expectation(lambda, square) - mean * mean;
    const double covariance =
        poisson_expectation(lambda, [](double i) { return i * one_block_rate(i); }) - mean * lambda;
    return std::max(0.0, variance - covariance * covariance / lambda) / blocks;
}

/// One block of the bits_anywhere pattern, by the number i of items in it, computed here independently of
/// the library: each item sets a uniformly random set of k distinct bits of the 512. From x set bits, an
/// item adds j new ones with probability C(512 - x, j) C(x, k - j) / C(512, k) (it draws k of the 512 bits
/// without replacement: j from the 512 - x clear ones); a non-member's k distinct bits are all set with
/// probability h(x) = C(x, k) / C(512, k). Holds, for i = 0 to max_items: E[h(X)], E[h(X)^2], E[X], E[X^2].
struct anywhere_block_moments {
    std::vector<double> hit;
    std::vector<double> hit_squared;
    std::vector<double> set;
    std::vector<double> set_squared;

    anywhere_block_moments(unsigned k, std::size_t max_items) {
        constexpr int bits = 512;
        const int draws = static_cast<int>(k);
        const auto choose = [](int n, int r) -> long double {
            if (r < 0 || r > n) {
                return 0.0L;
            }
            return std::exp(std::lgamma(static_cast<long double>(n) + 1) -
                            std::lgamma(static_cast<long double>(r) + 1) -
                            std::lgamma(static_cast<long double>(n - r) + 1));
        };
        const long double subsets = choose(bits, draws);
        std::vector<long double> hit_of(bits + 1);
        std::vector<long double> step((bits + 1) * (k + 1));
        for (int x = 0; x <= bits; ++x) {
            hit_of[static_cast<std::size_t>(x)] = choose(x, draws) / subsets;
            for (int j = 0; j <= draws; ++j) {
                step[static_cast<std::size_t>(x * (draws + 1) + j)] =
                    choose(bits - x, j) * choose(x, draws - j) / subsets;
            }
        }
        std::vector<long double> state(bits + 1, 0.0L);
        std::vector<long double> next(bits + 1, 0.0L);
        state[0] = 1.0L;
        for (std::size_t i = 0; i <= max_items; ++i) {
            long double h = 0, h2 = 0, x1 = 0, x2 = 0;
            for (int x = 0; x <= bits; ++x) {
                const long double p = state[static_cast<std::size_t>(x)];
                const long double hx = hit_of[static_cast<std::size_t>(x)];
                h += p * hx;
                h2 += p * hx * hx;
                x1 += p * x;
                x2 += p * x * x;
            }
            hit.push_back(static_cast<double>(h));
            hit_squared.push_back(static_cast<double>(h2));
            set.push_back(static_cast<double>(x1));
            set_squared.push_back(static_cast<double>(x2));
            std::fill(next.begin(), next.end(), 0.0L);
            for (int x = 0; x <= bits; ++x) {
                const long double p = state[static_cast<std::size_t>(x)];
                if (p == 0.0L) {
                    continue;
                }
                for (int j = 0; j <= draws && x + j <= bits; ++j) {
                    next[static_cast<std::size_t>(x + j)] +=
                        p * step[static_cast<std::size_t>(x * (draws + 1) + j)];
                }
            }
            state.swap(next);
        }
    }
};

/// A blocked filter's load: m bits holding n items of k bits each, placed by `probes`.
struct blocked_load {
    std::uint64_t bit_count;
    std::uint64_t items;
    unsigned hash_count;
    bloom::probe_scheme probes = bloom::probe_scheme::bits_anywhere;

    [[nodiscard]] double lambda() const {
        return static_cast<double>(items) / static_cast<double>(bit_count / block_bits);
    }
    /// The moments table, long enough for poisson_expectation at lambda (it stops at weights of 1e-30).
    [[nodiscard]] anywhere_block_moments moments() const {
        return anywhere_block_moments(hash_count,
                                      static_cast<std::size_t>(lambda() + 15.0 * std::sqrt(lambda()) + 80.0));
    }
};

/// The blocked formula for either pattern, computed here: the Poisson average of one block's rate.
[[nodiscard]] inline double blocked_formula_rate(const blocked_load& load) {
    if (load.probes == bloom::probe_scheme::one_bit_per_word) {
        return blocked_formula_rate(load.bit_count, load.items);
    }
    const anywhere_block_moments moments = load.moments();
    return poisson_expectation(load.lambda(),
                               [&](double i) { return moments.hit.at(static_cast<std::size_t>(i)); });
}

/// blocked_filter_rate_variance for either pattern: bits_anywhere's r_b = h(X_b), its moments from
/// anywhere_block_moments, with the same correction for the fixed total.
[[nodiscard]] inline double blocked_filter_rate_variance(const blocked_load& load) {
    if (load.probes == bloom::probe_scheme::one_bit_per_word) {
        return blocked_filter_rate_variance(load.bit_count, load.items);
    }
    const anywhere_block_moments moments = load.moments();
    const double lambda = load.lambda();
    const auto at = [](const std::vector<double>& table, double i) {
        return table.at(static_cast<std::size_t>(i));
    };
    const double mean = poisson_expectation(lambda, [&](double i) { return at(moments.hit, i); });
    const double variance =
        poisson_expectation(lambda, [&](double i) { return at(moments.hit_squared, i); }) - mean * mean;
    const double covariance =
        poisson_expectation(lambda, [&](double i) { return i * at(moments.hit, i); }) - mean * lambda;
    return std::max(0.0, variance - covariance * covariance / lambda) /
           static_cast<double>(load.bit_count / block_bits);
}

/// How many independent blocked filters a rate measurement with `queries` queries in total spreads over, so
/// that the filters' own spread (blocked_filter_rate_variance / filters) stays below the queries' binomial
/// variance p (1 - p) / queries. One for large filters; a few for small ones, whose blocks are few.
[[nodiscard]] inline std::uint64_t blocked_filters_needed(const blocked_load& load, std::uint64_t queries) {
    const double expected = blocked_formula_rate(load);
    const double binomial = expected * (1.0 - expected) / static_cast<double>(queries);
    return std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::ceil(blocked_filter_rate_variance(load) / binomial)));
}

/// The standard deviation of a blocked filter's rate measured with `queries` non-members in total, spread
/// evenly over `filters` independent filters of that load: the queries' binomial noise and the filters'
/// own spread, sigma = sqrt(p (1 - p) / queries + blocked_filter_rate_variance / filters).
[[nodiscard]] inline double blocked_rate_sigma(const blocked_load& load, std::uint64_t queries,
                                               std::uint64_t filters) {
    const double expected = blocked_formula_rate(load);
    return std::sqrt(expected * (1.0 - expected) / static_cast<double>(queries) +
                     blocked_filter_rate_variance(load) / static_cast<double>(filters));
}

/// How far such a measurement may stray from the blocked formula's rate p: 4 sigma (blocked_rate_sigma)
/// plus 0.01 p for the formula's own approximation: it takes a block's item count as Poisson(n / blocks)
/// where it is Binomial(n, 1 / blocks), which overstates the rate by less than 0.1% from 200 blocks up,
/// and the block and the in-block pattern come from one 64-bit hash.
[[nodiscard]] inline double blocked_rate_tolerance(const blocked_load& load, std::uint64_t queries,
                                                   std::uint64_t filters) {
    return 4.0 * blocked_rate_sigma(load, queries, filters) + 0.01 * blocked_formula_rate(load);
}

// ---- errors ----

inline bool is_identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// True if `word` occurs in `text` as a whole identifier (so "items" is not found in "expected_items").
inline bool names(const std::string& text, const std::string& word) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool starts = at == 0 || !is_identifier_char(text[at - 1]);
        const std::size_t end = at + word.size();
        const bool ends = end == text.size() || !is_identifier_char(text[end]);
        if (starts && ends) {
            return true;
        }
    }
    return false;
}

/// Runs `call`, which must throw std::invalid_argument whose message names each of `parts` (parameter
/// names, values, "seed 1 vs 2") as whole identifiers.
template <class Call>
void require_invalid_argument(Call&& call, const std::vector<std::string>& parts) {
    bool threw = false;
    try {
        call();
    } catch (const std::invalid_argument& error) {
        threw = true;
        const std::string message = error.what();
        for (const std::string& part : parts) {
            INFO("message: " << message << "\nexpected to name: " << part);
            CHECK(names(message, part));
        }
    }
    INFO("expected std::invalid_argument naming " << parts.front());
    CHECK(threw);
}

/// Runs `call`, which must throw std::invalid_argument whose message names `parameter`.
template <class Call>
void require_invalid_argument(Call&& call, const char* parameter) {
    require_invalid_argument(std::forward<Call>(call), std::vector<std::string>{parameter});
}

/// Runs `call`, which must throw bloom::format_error whose message contains `part`.
template <class Call>
void require_format_error_containing(Call&& call, const std::string& part) {
    bool threw = false;
    try {
        call();
    } catch (const bloom::format_error& error) {
        threw = true;
        INFO("message: " << error.what());
        CHECK(std::string(error.what()).find(part) != std::string::npos);
    }
    INFO("expected bloom::format_error containing " << part);
    CHECK(threw);
}

/// The bytes of the file at `path`.
inline std::vector<std::byte> read_file_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::transform(chars.begin(), chars.end(), bytes.begin(),
                   [](char c) { return static_cast<std::byte>(c); });
    return bytes;
}

// ---- allocators ----

struct allocation_stats {
    std::int64_t live_bytes = 0;
    int allocations = 0;
    int deallocations = 0;
    std::size_t largest_bytes = 0;
};

/// A stateful allocator that records into the allocation_stats it was given.
template <class T>
class counting_allocator {
  public:
    using value_type = T;

    explicit counting_allocator(allocation_stats* stats) noexcept : m_stats(stats) {}
    template <class U>
    counting_allocator(const counting_allocator<U>& other) noexcept : m_stats(other.stats()) {}

    T* allocate(std::size_t count) {
        m_stats->live_bytes += static_cast<std::int64_t>(count * sizeof(T));
        ++m_stats->allocations;
        m_stats->largest_bytes = std::max(m_stats->largest_bytes, count * sizeof(T));
        return std::allocator<T>().allocate(count);
    }
    void deallocate(T* pointer, std::size_t count) noexcept {
        m_stats->live_bytes -= static_cast<std::int64_t>(count * sizeof(T));
        ++m_stats->deallocations;
        std::allocator<T>().deallocate(pointer, count);
    }

    allocation_stats* stats() const noexcept { return m_stats; }

    template <class U>
    friend bool operator==(const counting_allocator& left, const counting_allocator<U>& right) noexcept {
        return left.stats() == right.stats();
    }
    template <class U>
    friend bool operator!=(const counting_allocator& left, const counting_allocator<U>& right) noexcept {
        return !(left == right);
    }

  private:
    allocation_stats* m_stats;
};

/// A fresh directory under the system's temporary directory, removed when the test ends.
class scratch_directory {
  public:
    scratch_directory() {
        const auto base = std::filesystem::temp_directory_path();
        for (unsigned attempt = 0;; ++attempt) {
            m_path = base /
                     ("bloom-test-" + std::to_string(std::random_device{}()) + "-" + std::to_string(attempt));
            if (std::filesystem::create_directory(m_path)) {
                break;
            }
        }
    }
    scratch_directory(const scratch_directory&) = delete;
    scratch_directory& operator=(const scratch_directory&) = delete;
    ~scratch_directory() {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    const std::filesystem::path& path() const { return m_path; }
    std::size_t entry_count() const {
        return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(m_path),
                                                      std::filesystem::directory_iterator()));
    }

  private:
    std::filesystem::path m_path;
};

} // namespace bloom_test

#endif // BLOOM_TESTS_TEST_SUPPORT_HPP
