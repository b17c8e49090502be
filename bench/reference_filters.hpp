// SPDX-License-Identifier: MIT
#ifndef BLOOM_BENCH_REFERENCE_FILTERS_HPP
#define BLOOM_BENCH_REFERENCE_FILTERS_HPP

// Speed-of-light references: the least code that implements a layout, with none of what the library adds
// (no item counting, no moved-from checks, no hasher, no seed premixing). The library's filter of the same
// layout should come within a few percent of them; what it costs beyond is overhead to remove.
//
//   blocked_reference  our blocked layout: 512-bit blocks, one bit per 64-bit word, eight bits per item,
//                      sized as bloom::blocked_bloom_filter's one_bit_per_word pattern; a seeded one-multiply
//                      hash of the u64 key (the 128-bit product's halves XORed) picks the block (its high
//                      bits, by multiply-shift) and the eight 6-bit indexes (its low 48 bits).
//   classic_reference  the classic layout: m bits, k probes, m and k as bloom::bloom_filter's; the
//                      library's hash of the u64 key and its mixed probe derivation written out, so it
//                      sets exactly the bits bloom::bloom_filter<std::uint64_t> sets.
//
// blocked_reference's hash is not the library's (it is weaker: one multiply), so their rate is printed beside
// their speed.

#include "keys.hpp"

#include <algorithm>
#include <bloom/aligned_allocator.hpp>
#include <bloom/hash.hpp>
#include <bloom/sizing.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace bench {

/// The blocked layout in a few dozen lines: u64 keys only.
class blocked_reference {
  public:
    explicit blocked_reference(std::size_t item_count, double rate)
        : m_block_count(
              bloom::optimal_blocked_bit_count(item_count, rate, bloom::probe_scheme::one_bit_per_word) /
              512),
          m_words(static_cast<std::size_t>(m_block_count) * 8) {}

    bool insert(std::uint64_t key) noexcept {
        const std::uint64_t hash = hash_of(key);
        return block_step<true>(m_words.data() + block_of(hash), hash);
    }

    [[nodiscard]] bool contains(std::uint64_t key) const noexcept {
        const std::uint64_t hash = hash_of(key);
        // Only the insert step writes: the const_cast never reaches a store.
        return !block_step<false>(const_cast<std::uint64_t*>(m_words.data()) + block_of(hash), hash);
    }

    void clear() noexcept { std::fill(m_words.begin(), m_words.end(), std::uint64_t{0}); }
    [[nodiscard]] double memory_bits() const noexcept { return 64.0 * static_cast<double>(m_words.size()); }
    [[nodiscard]] const void* storage() const noexcept { return m_words.data(); }

  private:
    static constexpr std::uint64_t seed = 0x626c6f6f6d5f7631ULL;

    [[nodiscard]] static std::uint64_t hash_of(std::uint64_t key) noexcept {
        __extension__ using wide = unsigned __int128;
        const wide product = static_cast<wide>(key ^ seed) * 0x9e3779b97f4a7c15ULL;
        return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
    }
    // The block as one GCC/Clang vector of eight words: the compiler lowers the shifts and tests to the
    // widest instructions the target has (AVX-512, AVX2, or SSE2 pairs). True if any of the item's eight
    // bits was clear; Set also sets them.
    template <bool Set>
    static bool block_step(std::uint64_t* block, std::uint64_t hash) noexcept {
        using words = std::uint64_t __attribute__((vector_size(64)));
        const words shifts = {0, 6, 12, 18, 24, 30, 36, 42};
        const words one = {1, 1, 1, 1, 1, 1, 1, 1};
        const words masks = one << ((hash >> shifts) & 63);
        words current;
        std::memcpy(&current, block, sizeof current);
        const words missing = ~current & masks;
        if constexpr (Set) {
            current |= masks;
            std::memcpy(block, &current, sizeof current);
        }
        return ((missing[0] | missing[1]) | (missing[2] | missing[3]) | (missing[4] | missing[5]) |
                (missing[6] | missing[7])) != 0;
    }
    [[nodiscard]] std::uint64_t block_of(std::uint64_t hash) const noexcept {
        return high_product(hash, m_block_count) * 8;
    }
    [[nodiscard]] static std::uint64_t high_product(std::uint64_t value, std::uint64_t range) noexcept {
        __extension__ using wide = unsigned __int128;
        return static_cast<std::uint64_t>((static_cast<wide>(value) * range) >> 64);
    }

    std::uint64_t m_block_count;
    std::vector<std::uint64_t, bloom::aligned_allocator<std::uint64_t, 64>> m_words;
};

/// The classic layout in a few dozen lines: u64 keys only, the same bits as bloom::bloom_filter's.
class classic_reference {
  public:
    // optimal_geometry adds bits only below 10^4 items at 1%; from there on m is optimal_bit_count.
    explicit classic_reference(std::size_t item_count, double rate)
        : m_bit_count(bloom::optimal_bit_count(item_count, rate)),
          m_hash_count(bloom::optimal_hash_count(m_bit_count, item_count)), m_words((m_bit_count + 63) / 64) {
    }

    // Locals, not members: a store to a word may alias m_bit_count, which would then be reloaded per probe.
    bool insert(std::uint64_t key) noexcept {
        std::uint64_t* const words = m_words.data();
        const std::uint64_t bit_count = m_bit_count;
        std::uint64_t point = bloom::hash<std::uint64_t>{}(key, bloom::default_seed);
        const std::uint64_t step = (point * 0x9e3779b97f4a7c15ULL) | 1;
        std::uint64_t missing = 0;
        for (unsigned i = 0; i < m_hash_count; ++i, point += step) {
            const std::uint64_t position = position_of(point, bit_count);
            const std::uint64_t mask = std::uint64_t{1} << (position & 63);
            missing |= ~words[position >> 6] & mask;
            words[position >> 6] |= mask;
        }
        return missing != 0;
    }

    [[nodiscard]] bool contains(std::uint64_t key) const noexcept {
        std::uint64_t point = bloom::hash<std::uint64_t>{}(key, bloom::default_seed);
        const std::uint64_t step = (point * 0x9e3779b97f4a7c15ULL) | 1;
        for (unsigned i = 0; i < m_hash_count; ++i, point += step) {
            const std::uint64_t position = position_of(point, m_bit_count);
            if ((m_words[position >> 6] >> (position & 63) & 1) == 0) {
                return false;
            }
        }
        return true;
    }

    void clear() noexcept { std::fill(m_words.begin(), m_words.end(), std::uint64_t{0}); }
    [[nodiscard]] double memory_bits() const noexcept { return 64.0 * static_cast<double>(m_words.size()); }
    [[nodiscard]] const void* storage() const noexcept { return m_words.data(); }

  private:
    // bloom::detail::mixed_probes: one xorshift-multiply round, then multiply-shift onto [0, m).
    [[nodiscard]] static std::uint64_t position_of(std::uint64_t point, std::uint64_t bit_count) noexcept {
        point ^= point >> 32;
        point *= 0xd6e8feb86659fd93ULL;
        __extension__ using wide = unsigned __int128;
        return static_cast<std::uint64_t>((static_cast<wide>(point) * bit_count) >> 64);
    }

    std::uint64_t m_bit_count;
    unsigned m_hash_count;
    std::vector<std::uint64_t> m_words;
};

/// A reference behind the benchmarks' subject interface (single calls only, u64 keys).
template <class Reference, class Keys>
class reference_subject {
  public:
    using keys = Keys;
    static constexpr bool is_filter = true;
    static constexpr bool has_bulk = false;

    explicit reference_subject(std::size_t item_count) : m_filter(item_count, 0.01) {}

    bool insert(std::uint64_t key) { return m_filter.insert(key); }
    [[nodiscard]] bool contains(std::uint64_t key) const { return m_filter.contains(key); }
    void clear() { m_filter.clear(); }
    [[nodiscard]] double memory_bits() const { return m_filter.memory_bits(); }
    [[nodiscard]] const void* storage() const { return m_filter.storage(); }

  private:
    Reference m_filter;
};

} // namespace bench

#endif // BLOOM_BENCH_REFERENCE_FILTERS_HPP
