// SPDX-License-Identifier: MIT
#ifndef BLOOM_BENCH_SUBJECTS_HPP
#define BLOOM_BENCH_SUBJECTS_HPP

// The structures under test, each behind the same small interface so one set of workloads times them
// all: insert(key), contains(key), clear(), memory_bits(), and for the bloom filters the range forms
// insert(first, last) and contains(first, last, out).
//
//   classic           bloom::bloom_filter<T>
//   blocked           bloom::blocked_bloom_filter<T> (k bits anywhere in the block, the default pattern)
//   blocked_word      bloom::blocked_bloom_filter<T> of the original pattern: one bit in each of the block's
//                     eight words, sized for it (optimal_blocked_bit_count(n, p, one_bit_per_word))
//   classic_hugepage  bloom::bloom_filter<T, hash, huge_page_allocator>          (the THP experiment)
//   blocked_hugepage  bloom::blocked_bloom_filter<T, hash, huge_page_allocator>
//   fuse8, fuse16     bloom::fuse_filter<T> with 8- and 16-bit fingerprints: static, built from the members
//   blocked_at_fuse8  bloom::blocked_bloom_filter<T> sized for the fuse filters' rates (2^-8, 2^-16)
//   counting          bloom::counting_bloom_filter<T> (4-bit counters)
//   scalable          bloom::scalable_bloom_filter<T> started at n / 1000 items, grown to n (10 stages)
//   textbook          k seeded XXH3 calls per item, each reduced with % m; the same m and k as classic
//   unordered_set     std::unordered_set (exact)
//   flat_hash_set     absl::flat_hash_set (exact; only when built with Abseil)
//
// The hash sets over string keys hold std::string_view into the key buffer, which outlives them; their
// memory counts the 16 bytes of characters per key on top of what their allocator handed out. (A set of
// std::string would need more: a 32-byte string object per key plus, past 15 characters, a heap buffer.)

// The textbook filter calls XXH3 itself; inline it, as bloom does.
#ifndef XXH_INLINE_ALL
#    define XXH_INLINE_ALL
#endif

#include "huge_page_allocator.hpp"
#include "keys.hpp"

#include <algorithm>
#include <bloom/bloom.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>
#include <xxhash.h>

#if defined(BLOOM_BENCH_HAVE_ABSL)
#    include <absl/container/flat_hash_set.h>
#    include <absl/hash/hash.h>
#endif

namespace bench {

inline constexpr double target_rate = 0.01;

// ---- the library's filters ----

/// Any bloom filter type of the library: same constructor, single and range operations.
template <class Filter, class Keys>
class filter_subject {
  public:
    using keys = Keys;
    static constexpr bool is_filter = true;
    static constexpr bool has_bulk = true;

    explicit filter_subject(std::size_t item_count) : m_filter(item_count, target_rate) {}
    explicit filter_subject(Filter filter) : m_filter(std::move(filter)) {}

    bool insert(const typename Keys::key_type& key) { return m_filter.insert(key); }
    [[nodiscard]] bool contains(const typename Keys::key_type& key) const { return m_filter.contains(key); }
    template <class InputIt>
    std::size_t insert(InputIt first, InputIt last) {
        return m_filter.insert(first, last);
    }
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        return m_filter.contains(first, last, out);
    }
    void clear() { m_filter.clear(); }
    [[nodiscard]] double memory_bits() const { return 8.0 * static_cast<double>(m_filter.memory_bytes()); }
    [[nodiscard]] const void* storage() const { return m_filter.data(); }

  private:
    Filter m_filter;
};

template <class Keys>
using classic_subject = filter_subject<bloom::bloom_filter<typename Keys::filter_value>, Keys>;
template <class Keys>
using blocked_subject = filter_subject<bloom::blocked_bloom_filter<typename Keys::filter_value>, Keys>;

/// A static filter (bloom::fuse_filter): insert() gathers the members, finish() builds the filter from them;
/// only lookups are timed. The Bloom filters beside it at its rate are blocked_at / classic_at.
template <class Keys, class Fingerprint>
class fuse_subject {
    using filter_type = bloom::fuse_filter<typename Keys::filter_value, Fingerprint>;

  public:
    using keys = Keys;
    static constexpr bool is_filter = true;
    static constexpr bool has_bulk = true;
    static constexpr bool is_static = true;

    explicit fuse_subject(std::size_t) {}

    bool insert(const typename Keys::key_type& key) {
        m_pending.emplace_back(key);
        return true;
    }
    void finish() {
        m_filter = filter_type(m_pending);
        m_pending = {};
    }
    [[nodiscard]] bool contains(const typename Keys::key_type& key) const { return m_filter.contains(key); }
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        return m_filter.contains(first, last, out);
    }
    void clear() { m_pending.clear(); }
    [[nodiscard]] double memory_bits() const { return 8.0 * static_cast<double>(m_filter.memory_bytes()); }
    [[nodiscard]] const void* storage() const { return nullptr; }

  private:
    std::vector<typename Keys::filter_value> m_pending;
    filter_type m_filter;
};

/// A Bloom filter of the library sized for `RatePermille` / 10^6 (a fuse filter's rate: 3906 for 2^-8,
/// 15 for 2^-16), beside the fuse filter of that rate.
template <class Filter, class Keys, unsigned RatePerMillion>
class filter_at_subject : public filter_subject<Filter, Keys> {
  public:
    explicit filter_at_subject(std::size_t item_count)
        : filter_subject<Filter, Keys>(Filter(item_count, RatePerMillion / 1e6)) {}
};

/// The blocked filter with the original one-bit-per-word pattern (k = 8), sized for that pattern.
template <class Keys>
class blocked_word_subject
    : public filter_subject<bloom::blocked_bloom_filter<typename Keys::filter_value>, Keys> {
    using filter_type = bloom::blocked_bloom_filter<typename Keys::filter_value>;

  public:
    explicit blocked_word_subject(std::size_t item_count)
        : filter_subject<filter_type, Keys>(filter_type(
              bloom::filter_geometry{bloom::optimal_blocked_bit_count(item_count, target_rate,
                                                                      bloom::probe_scheme::one_bit_per_word),
                                     8, bloom::probe_scheme::one_bit_per_word})) {}
};

template <class Keys>
using counting_subject = filter_subject<bloom::counting_bloom_filter<typename Keys::filter_value>, Keys>;

/// A scalable filter that starts a thousand times too small and grows to hold the n items: the cost of
/// not knowing n in advance. Its range forms ask the stages 256 items at a time, stage by stage.
/// clear() goes back to one empty first stage: a refill grows through the same stages again.
template <class Keys>
class scalable_subject
    : public filter_subject<bloom::scalable_bloom_filter<typename Keys::filter_value>, Keys> {
    using filter_type = bloom::scalable_bloom_filter<typename Keys::filter_value>;

  public:
    explicit scalable_subject(std::size_t item_count)
        : filter_subject<filter_type, Keys>(
              filter_type(std::max<std::size_t>(1, item_count / 1000), target_rate)) {}

    [[nodiscard]] const void* storage() const { return nullptr; } // many stages: no huge-page report
};

#if defined(BLOOM_BENCH_HAVE_HUGE_PAGES)
template <class Keys>
using classic_hugepage_subject =
    filter_subject<bloom::bloom_filter<typename Keys::filter_value, bloom::hash<typename Keys::filter_value>,
                                       huge_page_allocator<std::uint64_t>>,
                   Keys>;
template <class Keys>
using blocked_hugepage_subject = filter_subject<
    bloom::blocked_bloom_filter<typename Keys::filter_value, bloom::hash<typename Keys::filter_value>,
                                huge_page_allocator<std::uint64_t>>,
    Keys>;
#endif

// ---- the textbook filter ----

inline const void* key_data(const std::uint64_t& key) { return &key; }
inline std::size_t key_size(const std::uint64_t& key) { return sizeof key; }
inline const void* key_data(std::string_view key) { return key.data(); }
inline std::size_t key_size(std::string_view key) { return key.size(); }

/// The Bloom filter many write first: k independent seeded hashes of the key's bytes, each reduced with
/// % m, and a branch per probe. Same m and k as bloom::bloom_filter for the same n and rate.
template <class Keys>
class textbook_subject {
  public:
    using keys = Keys;
    static constexpr bool is_filter = true;
    static constexpr bool has_bulk = false;

    explicit textbook_subject(std::size_t item_count)
        : m_bit_count(bloom::optimal_bit_count(item_count, target_rate)),
          m_hash_count(bloom::optimal_hash_count(m_bit_count, item_count)),
          m_words(static_cast<std::size_t>((m_bit_count + 63) / 64)) {}

    bool insert(const typename Keys::key_type& key) {
        bool was_new = false;
        for (unsigned i = 0; i < m_hash_count; ++i) {
            const std::uint64_t position =
                XXH3_64bits_withSeed(key_data(key), key_size(key), i) % m_bit_count;
            const std::uint64_t mask = std::uint64_t{1} << (position % 64);
            was_new |= (m_words[position / 64] & mask) == 0;
            m_words[position / 64] |= mask;
        }
        return was_new;
    }

    [[nodiscard]] bool contains(const typename Keys::key_type& key) const {
        for (unsigned i = 0; i < m_hash_count; ++i) {
            const std::uint64_t position =
                XXH3_64bits_withSeed(key_data(key), key_size(key), i) % m_bit_count;
            if ((m_words[position / 64] & (std::uint64_t{1} << (position % 64))) == 0) {
                return false;
            }
        }
        return true;
    }

    void clear() { std::fill(m_words.begin(), m_words.end(), std::uint64_t{0}); }
    [[nodiscard]] double memory_bits() const { return 64.0 * static_cast<double>(m_words.size()); }
    [[nodiscard]] const void* storage() const { return m_words.data(); }

  private:
    std::uint64_t m_bit_count;
    unsigned m_hash_count;
    std::vector<std::uint64_t> m_words;
};

// ---- exact hash sets ----

/// Forwards to std::allocator and adds up the bytes currently allocated, so a set's memory is measured.
template <class T>
class counting_allocator {
  public:
    using value_type = T;

    explicit counting_allocator(std::size_t* bytes) noexcept : m_bytes(bytes) {}
    template <class U>
    counting_allocator(const counting_allocator<U>& other) noexcept : m_bytes(other.counter()) {}

    T* allocate(std::size_t count) {
        T* const memory = std::allocator<T>().allocate(count);
        *m_bytes += count * sizeof(T);
        return memory;
    }
    void deallocate(T* memory, std::size_t count) noexcept {
        *m_bytes -= count * sizeof(T);
        std::allocator<T>().deallocate(memory, count);
    }
    [[nodiscard]] std::size_t* counter() const noexcept { return m_bytes; }

  private:
    std::size_t* m_bytes;
};

template <class T, class U>
bool operator==(const counting_allocator<T>& left, const counting_allocator<U>& right) noexcept {
    return left.counter() == right.counter();
}
template <class T, class U>
bool operator!=(const counting_allocator<T>& left, const counting_allocator<U>& right) noexcept {
    return !(left == right);
}

/// Bytes per key that a set refers to but does not allocate itself: the characters of string keys.
template <class Keys>
constexpr std::size_t referenced_key_bytes() {
    return std::is_same_v<typename Keys::key_type, std::string_view> ? string_key_array::width : 0;
}

/// A hash set `Set` (templated on hasher-less key type) reserved for n keys, counting its allocations.
template <class Keys, template <class> class SetOf>
class set_subject {
  public:
    using keys = Keys;
    static constexpr bool is_filter = false;
    static constexpr bool has_bulk = false;

    explicit set_subject(std::size_t item_count)
        : m_item_count(item_count), m_bytes(std::make_unique<std::size_t>(0)),
          m_set(std::make_unique<set_type>(0, allocator_type(m_bytes.get()))) {
        m_set->reserve(item_count);
    }

    bool insert(const typename Keys::key_type& key) { return m_set->insert(key).second; }
    [[nodiscard]] bool contains(const typename Keys::key_type& key) const {
        return m_set->find(key) != m_set->end();
    }
    /// Empties the set and reserves for n keys again (absl's clear() frees a large table), so a refill
    /// never rehashes, as in the filters.
    void clear() {
        m_set->clear();
        m_set->reserve(m_item_count);
    }
    [[nodiscard]] double memory_bits() const {
        return 8.0 * static_cast<double>(*m_bytes + m_set->size() * referenced_key_bytes<Keys>());
    }

  private:
    using set_type = SetOf<typename Keys::key_type>;
    using allocator_type = typename set_type::allocator_type;

    std::size_t m_item_count;
    std::unique_ptr<std::size_t> m_bytes; // the counter stays put when the subject moves
    std::unique_ptr<set_type> m_set;
};

/// std::unordered_set with std::hash (the identity for integers on libstdc++; fine for random keys).
template <class Key>
using counted_unordered_set =
    std::unordered_set<Key, std::hash<Key>, std::equal_to<Key>, counting_allocator<Key>>;

template <class Keys>
using unordered_set_subject = set_subject<Keys, counted_unordered_set>;

#if defined(BLOOM_BENCH_HAVE_ABSL)
template <class Key>
using counted_flat_hash_set =
    absl::flat_hash_set<Key, absl::Hash<Key>, std::equal_to<Key>, counting_allocator<Key>>;

template <class Keys>
using flat_hash_set_subject = set_subject<Keys, counted_flat_hash_set>;
#endif

} // namespace bench

#endif // BLOOM_BENCH_SUBJECTS_HPP
