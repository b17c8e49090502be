// SPDX-License-Identifier: MIT
#ifndef BLOOM_BLOCKED_BLOOM_FILTER_HPP
#define BLOOM_BLOCKED_BLOOM_FILTER_HPP

// bloom::blocked_bloom_filter<T> — a cache-blocked Bloom filter: one cache line per item.
//
// A classic filter touches k unrelated cache lines per item; once it outgrows the cache every operation
// waits on k memory misses. This filter puts all of an item's bits in one 512-bit block (one 64-byte
// line): the hash picks the block, and the item sets k bits anywhere in it, k chosen from the bits per
// item as for a classic filter (about 7 at 1%), tested with SIMD (AVX-512 or AVX2; a scalar kernel sets
// the same bits). The price is a little memory: about 9.9 bits per item at 1% instead of 9.6, because
// items crowd unevenly into blocks. Sizing uses this layout's own rate formula (Putze, Sanders & Singler
// 2007), so the promised rate holds. Filters saved before this pattern (one bit in each of the block's
// eight words, probe_scheme::one_bit_per_word) load and answer as they did.
//
//     #include <bloom/blocked_bloom_filter.hpp>
//
//     bloom::blocked_bloom_filter<std::uint64_t> seen(10'000'000, 0.01);  // 12.6 MB, one line per item
//     seen.insert(42);
//     std::vector<std::uint64_t> keys = ...;
//     std::vector<char> found(keys.size());
//     seen.contains(keys.begin(), keys.end(), found.begin());  // bulk: hashes ahead and prefetches
//
// Same interface as bloom::bloom_filter (insert returning "was new", contains, range forms, observers,
// load_factor, current_false_positive_rate from the bits, clear, |=, &=, ==). hash_count() is the bits an
// item sets; probes() the pattern that places them.

#include "bloom/aligned_allocator.hpp"
#include "bloom/detail/block_kernels.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/filter_base.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace bloom {

/// A blocked Bloom filter of T: 512-bit blocks, k bits per item in one block.
/// Hasher: callable std::uint64_t(const K&, std::uint64_t seed), bloom::hash<T> by default.
/// Allocator: allocates the words (rebound to std::uint64_t); the default aligns them to cache lines.
template <class T, class Hasher = hash<T>, class Allocator = aligned_allocator<std::uint64_t, 64>>
class blocked_bloom_filter : public detail::filter_base<Hasher, Allocator> {
    using base = detail::filter_base<Hasher, Allocator>;

  public:
    /// The type of the items.
    using value_type = T;

    /// Bits each item sets under probe_scheme::one_bit_per_word, the pattern of files saved before
    /// bits_anywhere: one per 64-bit word of its block. Under bits_anywhere it is hash_count().
    static constexpr unsigned bits_per_item = detail::block_word_count;

    /// An empty filter: no bits, holds nothing. contains() answers false and every count and rate is 0;
    /// insert() throws std::logic_error, as it could not keep the item. Assign a sized filter to use it.
    /// A moved-from filter is left in this state.
    blocked_bloom_filter() : base(empty_pattern) {}

    /// A filter sized for `expected_items` at `false_positive_rate`: optimal_blocked_bit_count bits, and
    /// optimal_blocked_hash_count bits per item anywhere in its block. Throws std::invalid_argument for zero
    /// items, a rate outside (0, 1), or a size that cannot be held.
    blocked_bloom_filter(std::uint64_t expected_items, double false_positive_rate,
                         std::uint64_t seed = default_seed, const Hasher& hash_function = Hasher(),
                         const Allocator& allocator = Allocator())
        : base(sized_for(expected_items, false_positive_rate), expected_items, false_positive_rate, seed,
               hash_function, allocator) {}

    /// A filter of an explicit shape: bit_count a non-zero multiple of 512; probes bits_anywhere (the
    /// default) with hash_count 1 to 16, or one_bit_per_word with hash_count 8. Its expected_items() is
    /// round(m ln 2 / k), and its target rate the blocked formula's rate there. Throws
    /// std::invalid_argument otherwise, naming the parameter.
    explicit blocked_bloom_filter(filter_geometry geometry, std::uint64_t seed = default_seed,
                                  const Hasher& hash_function = Hasher(),
                                  const Allocator& allocator = Allocator())
        : base(checked(geometry), detail::optimal_load(geometry), 0.0, seed, hash_function, allocator) {
        this->m_target_false_positive_rate = detail::unchecked_blocked_false_positive_rate(
            this->m_bit_count, this->m_expected_items, this->m_hash_count, this->m_probe_scheme);
    }

    /// A copy: the same bits, shape, seed, counts and hasher.
    blocked_bloom_filter(const blocked_bloom_filter&) = default;
    /// Replaces this filter with a copy of `other`.
    blocked_bloom_filter& operator=(const blocked_bloom_filter&) = default;
    /// Takes `other`'s bits; `other` is left empty, as a default-constructed filter.
    blocked_bloom_filter(blocked_bloom_filter&& other) noexcept(std::is_nothrow_move_constructible_v<Hasher>)
        : base(std::move(other)) {
        other.m_probe_scheme = empty_pattern;
    }
    /// Takes `other`'s bits; `other` is left empty, as a default-constructed filter.
    blocked_bloom_filter& operator=(blocked_bloom_filter&& other) noexcept(base::nothrow_move_assignment) {
        if (this != &other) {
            base::operator=(std::move(other));
            other.m_probe_scheme = empty_pattern;
        }
        return *this;
    }
    ~blocked_bloom_filter() = default;

    /// Sets the item's hash_count() bits in its block. O(1), one cache line. Returns true if `value` was
    /// definitely absent before, false if it was probably present. Throws std::logic_error if the filter is
    /// empty (default-constructed or moved from).
    template <class K>
    BLOOM_FORCE_INLINE bool insert(const K& value) {
        static_assert(detail::can_hash_v<Hasher, K>,
                      "bloom::blocked_bloom_filter::insert: the Hasher cannot hash "
                      "this key type; specialise bloom::hash<T> or pass a Hasher");
        this->require_bits("bloom::blocked_bloom_filter::insert");
        return insert_hash(this->hash_of(value));
    }

    /// Inserts every value of [first, last), hashing ahead and prefetching; the same result as inserting
    /// them one by one. Returns how many were definitely new.
    template <class InputIt>
    std::size_t insert(InputIt first, InputIt last) {
        static_assert(detail::can_hash_range_v<Hasher, InputIt>,
                      "bloom::blocked_bloom_filter::insert(first, last): the Hasher cannot hash the range's "
                      "values; specialise bloom::hash<T> or pass a Hasher");
        if (first != last) {
            this->require_bits("bloom::blocked_bloom_filter::insert(first, last)");
        }
        std::size_t inserted = 0;
        detail::pipelined_for_each<window>(
            first, last, [this](const auto& value) { return this->hash_of(value); },
            [this](std::uint64_t hash) { detail::prefetch<true>(block_of(hash)); },
            [&](std::uint64_t hash) { inserted += insert_hash(hash) ? 1 : 0; });
        return inserted;
    }

    /// False: `value` is definitely absent. True: it is probably present. O(1), one cache line.
    template <class K>
    [[nodiscard]] BLOOM_FORCE_INLINE bool contains(const K& value) const {
        static_assert(detail::can_hash_v<Hasher, K>,
                      "bloom::blocked_bloom_filter::contains: the Hasher cannot "
                      "hash this key type; specialise bloom::hash<T> or pass a Hasher");
        return contains_hash(this->hash_of(value));
    }

    /// Writes contains(value) for every value of [first, last) to `out`, in order, hashing ahead and
    /// prefetching. Returns the output iterator past the last result.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        static_assert(detail::can_hash_range_v<Hasher, InputIt>,
                      "bloom::blocked_bloom_filter::contains(first, last, out): the Hasher cannot hash the "
                      "range's values; specialise bloom::hash<T> or pass a Hasher");
        detail::pipelined_for_each<window>(
            first, last, [this](const auto& value) { return this->hash_of(value); },
            [this](std::uint64_t hash) { detail::prefetch<false>(block_of(hash)); },
            [&](std::uint64_t hash) {
                *out = contains_hash(hash);
                ++out;
            });
        return out;
    }

    /// The probability that a random non-member is reported present, given the bits as they are now: the
    /// mean over blocks of the block's fill fraction to the k (bits_anywhere: a non-member's k bits each
    /// fall anywhere in its block), or of the product of its eight words' fill fractions
    /// (one_bit_per_word). 0 when empty, 1 when full. O(m / 64): one popcount per word, nothing kept up to
    /// date on insert.
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        if (this->m_probe_scheme == probe_scheme::bits_anywhere) {
            return detail::block_fill_rate_from_bits<detail::block_word_count>(this->words(), block_count(),
                                                                               this->m_hash_count);
        }
        return detail::block_rate_from_bits<64, detail::block_word_count>(this->words(), block_count());
    }

    /// Number of 512-bit blocks.
    [[nodiscard]] std::uint64_t block_count() const noexcept {
        return this->m_bit_count / detail::block_bits;
    }

    /// True if `other` has the same bit count, hash count, pattern and seed, so the two can be combined.
    [[nodiscard]] bool compatible_with(const blocked_bloom_filter& other) const noexcept {
        return this->same_shape(other);
    }

    /// Exchanges the contents (bits, shape, seed, counts, hasher) with `other`. O(1).

    void swap(blocked_bloom_filter& other) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        this->swap_state(other);
    }
    /// Exchanges the contents of `left` and `right`. O(1).
    friend void swap(blocked_bloom_filter& left,
                     blocked_bloom_filter& right) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        left.swap(right);
    }

    /// Union: afterwards the filter reports every item either filter held. O(m / 64).
    /// Throws std::invalid_argument naming what differs unless compatible_with(other).
    blocked_bloom_filter& operator|=(const blocked_bloom_filter& other) {
        this->unite("bloom::blocked_bloom_filter::operator|=", other);
        return *this;
    }

    /// Intersection: afterwards the filter reports (at least) the items both filters held. O(m / 64).
    /// Throws std::invalid_argument naming what differs unless compatible_with(other).
    blocked_bloom_filter& operator&=(const blocked_bloom_filter& other) {
        this->intersect("bloom::blocked_bloom_filter::operator&=", other);
        return *this;
    }

    /// Union with a filter of another allocator: the same as with one of this type. A filter with another
    /// hasher type never combines (a compile-time error): its bits mean different things.
    template <class OtherHasher, class OtherAllocator>
    blocked_bloom_filter& operator|=(const blocked_bloom_filter<T, OtherHasher, OtherAllocator>& other) {
        static_assert(std::is_same_v<OtherHasher, Hasher>,
                      "bloom::blocked_bloom_filter: cannot combine filters whose Hasher types differ");
        this->unite("bloom::blocked_bloom_filter::operator|=", other);
        return *this;
    }
    /// Intersection with a filter of another allocator; another hasher type is a compile-time error.
    template <class OtherHasher, class OtherAllocator>
    blocked_bloom_filter& operator&=(const blocked_bloom_filter<T, OtherHasher, OtherAllocator>& other) {
        static_assert(std::is_same_v<OtherHasher, Hasher>,
                      "bloom::blocked_bloom_filter: cannot combine filters whose Hasher types differ");
        this->intersect("bloom::blocked_bloom_filter::operator&=", other);
        return *this;
    }

    /// Union of two compatible filters. Throws std::invalid_argument otherwise.
    [[nodiscard]] friend blocked_bloom_filter operator|(blocked_bloom_filter left,
                                                        const blocked_bloom_filter& right) {
        left |= right;
        return left;
    }
    /// Intersection of two compatible filters. Throws std::invalid_argument otherwise.
    [[nodiscard]] friend blocked_bloom_filter operator&(blocked_bloom_filter left,
                                                        const blocked_bloom_filter& right) {
        left &= right;
        return left;
    }

    /// Same shape, seed and bits (item counts and sizing targets are not compared).
    [[nodiscard]] friend bool operator==(const blocked_bloom_filter& left,
                                         const blocked_bloom_filter& right) noexcept {
        return left.same_bits(right);
    }
    /// !(left == right).
    [[nodiscard]] friend bool operator!=(const blocked_bloom_filter& left,
                                         const blocked_bloom_filter& right) noexcept {
        return !(left == right);
    }

  private:
    // The pattern of an empty filter (k = 0): one bit per word, which finds nothing in an empty block
    // whatever k is, where bits_anywhere with k = 0 would find everything.
    static constexpr probe_scheme empty_pattern = probe_scheme::one_bit_per_word;

    friend struct detail::filter_access;

    // One line per item: a long window keeps enough misses in flight (REFERENCES.md: 64 items ran about
    // twice as fast as 16 beyond the cache).
    static constexpr std::size_t window = 64;

    [[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t* block_of(std::uint64_t hash) noexcept {
        return this->words() + detail::block_offset(hash, block_count());
    }
    [[nodiscard]] BLOOM_FORCE_INLINE const std::uint64_t* block_of(std::uint64_t hash) const noexcept {
        return this->words() + detail::block_offset(hash, block_count());
    }

    // An empty filter has no blocks: its lookups read a static empty block by its pattern (empty_pattern),
    // which finds nothing there. The lookup selects a block pointer rather than returning early: an early
    // return lets the compiler fold the kernel's answer into the caller's control flow, a branch on
    // whether the item is present that mispredicts on every mixed workload (3x slower in bloom_bench);
    // masking the answer instead cost 5% of an in-cache lookup.
    [[nodiscard]] BLOOM_FORCE_INLINE bool contains_hash(std::uint64_t hash) const noexcept {
        const std::uint64_t* const block = this->m_bit_count == 0 ? detail::empty_block : block_of(hash);
        return detail::item_in_block(block, hash, this->m_probe_scheme, this->m_hash_count);
    }

    // Callers check for an empty filter first (require_bits).
    BLOOM_FORCE_INLINE bool insert_hash(std::uint64_t hash) noexcept {
        const bool was_new =
            detail::add_item_to_block(block_of(hash), hash, this->m_probe_scheme, this->m_hash_count);
        this->count_insert(was_new);
        return was_new;
    }

    static filter_geometry checked(filter_geometry geometry) {
        constexpr const char* where = "bloom::blocked_bloom_filter";
        detail::check_block_bits(where, geometry.bit_count);
        detail::check_block_hash_count(where, geometry.hash_count, geometry.probes);
        return geometry;
    }

    static filter_geometry sized_for(std::uint64_t expected_items, double false_positive_rate) {
        return detail::optimal_blocked_geometry(expected_items, false_positive_rate,
                                                "bloom::blocked_bloom_filter");
    }
};

} // namespace bloom

#endif // BLOOM_BLOCKED_BLOOM_FILTER_HPP
