// SPDX-License-Identifier: MIT
#ifndef BLOOM_BLOOM_FILTER_HPP
#define BLOOM_BLOOM_FILTER_HPP

// bloom::bloom_filter<T> — the classic Bloom filter: m bits, k probes per item.
//
// It answers "definitely not in the set" or "probably in the set", never a false negative, in about
// 10 bits per item at a 1% false-positive rate. Give it the number of items you expect and the rate you
// accept; it sizes itself (m = ceil(-n ln p / (ln 2)^2), k = round((m/n) ln 2), plus a few bits for
// filters of under 10^4 bits, whose exact rate the formula underestimates).
//
//     #include <bloom/bloom_filter.hpp>
//
//     bloom::bloom_filter<std::string> seen(1'000'000, 0.01);   // 9.6 M bits (1.2 MB), k = 7
//     if (seen.insert(url)) {                                    // true: definitely new
//         enqueue(url);
//     }
//     seen.contains("https://example.com/");                     // no std::string is built
//
// Each item is hashed once (by bloom::hash, see <bloom/hash.hpp>); its k positions follow by
// double hashing with each point remixed, mapped onto the bit array by multiply-shift (see
// detail/probe.hpp): they behave as k independent probes at every size, so the rate is fill^k, and 64-bit
// positions keep it past 2^32 bits. The filter cannot delete and its rate grows past its expected items:
// watch current_false_positive_rate() (computed from the bits) or load_factor(). The range forms of
// insert and contains hash ahead and prefetch, which pays once the filter outgrows the cache.

#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/bit_words.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/filter_base.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace bloom {

/// A classic Bloom filter of T: a packed array of 64-bit words and k probes per item.
/// Hasher: callable std::uint64_t(const K&, std::uint64_t seed), bloom::hash<T> by default.
/// Allocator: allocates the words (rebound to std::uint64_t).
template <class T, class Hasher = hash<T>, class Allocator = std::allocator<std::uint64_t>>
class bloom_filter : public detail::filter_base<Hasher, Allocator> {
    using base = detail::filter_base<Hasher, Allocator>;

  public:
    /// The type of the items.
    using value_type = T;

    /// An empty filter: no bits, holds nothing. contains() answers false and every count and rate is 0;
    /// insert() throws std::logic_error, as it could not keep the item. Assign a sized filter to use it.
    /// A moved-from filter is left in this state.
    bloom_filter() : base(probe_scheme::mixed) {}

    /// A filter sized for `expected_items` at `false_positive_rate`: optimal_bit_count bits and
    /// optimal_hash_count probes, plus the few bits a filter of under 10^4 bits needs for its exact rate to
    /// stay at the target (detail::optimal_geometry). Throws std::invalid_argument for zero items, a rate
    /// outside (0, 1), or a size that cannot be held.
    bloom_filter(std::uint64_t expected_items, double false_positive_rate, std::uint64_t seed = default_seed,
                 const Hasher& hash_function = Hasher(), const Allocator& allocator = Allocator())
        : base(detail::optimal_geometry(expected_items, false_positive_rate, "bloom::bloom_filter"),
               expected_items, false_positive_rate, seed, hash_function, allocator) {}

    /// A filter of an explicit shape. Its expected_items() is the load at which that shape is optimal,
    /// round(m ln 2 / k), and its target rate the formula's rate there.
    /// Throws std::invalid_argument for a zero bit or hash count, or a bit count that cannot be held.
    explicit bloom_filter(filter_geometry geometry, std::uint64_t seed = default_seed,
                          const Hasher& hash_function = Hasher(), const Allocator& allocator = Allocator())
        : base(checked(geometry), detail::optimal_load(geometry), 0.0, seed, hash_function, allocator) {
        this->m_target_false_positive_rate = detail::unchecked_false_positive_rate(
            this->m_bit_count, this->m_hash_count, this->m_expected_items);
    }

    /// Sets the k bits of `value`. O(k). Returns true if `value` was definitely absent before (some bit
    /// was 0), false if it was probably present: one call serves "check, then add". Throws
    /// std::logic_error if the filter is empty (default-constructed or moved from).
    template <class K>
    bool insert(const K& value) {
        static_assert(detail::can_hash_v<Hasher, K>,
                      "bloom::bloom_filter::insert: the Hasher cannot hash this key "
                      "type; specialise bloom::hash<T> or pass a Hasher");
        this->require_bits("bloom::bloom_filter::insert");
        return insert_hash(this->hash_of(value));
    }

    /// Inserts every value of [first, last), hashing ahead and prefetching; the same result as inserting
    /// them one by one. Returns how many were definitely new.
    template <class InputIt>
    std::size_t insert(InputIt first, InputIt last) {
        static_assert(detail::can_hash_range_v<Hasher, InputIt>,
                      "bloom::bloom_filter::insert(first, last): the Hasher cannot hash the range's "
                      "values; specialise bloom::hash<T> or pass a Hasher");
        if (first != last) {
            this->require_bits("bloom::bloom_filter::insert(first, last)");
        }
        std::size_t inserted = 0;
        detail::pipelined_for_each<window>(
            first, last, [this](const auto& value) { return this->hash_of(value); },
            [this](std::uint64_t hash) { prefetch_probes<true>(hash, this->m_hash_count); },
            [&](std::uint64_t hash) { inserted += insert_hash(hash) ? 1 : 0; });
        return inserted;
    }

    /// False: `value` is definitely absent. True: it is probably present (false positive at about
    /// current_false_positive_rate()). O(k); a miss usually stops after the first four probes.
    template <class K>
    [[nodiscard]] bool contains(const K& value) const {
        static_assert(detail::can_hash_v<Hasher, K>,
                      "bloom::bloom_filter::contains: the Hasher cannot hash this "
                      "key type; specialise bloom::hash<T> or pass a Hasher");
        return contains_hash(this->hash_of(value));
    }

    /// Writes contains(value) for every value of [first, last) to `out`, in order: the same answers as
    /// one call per value, by the same kernel, never slower. Hashes a window of items ahead and prefetches
    /// their first four probes' lines, so many cache misses are in flight at once. Returns the output
    /// iterator past the last result.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        static_assert(detail::can_hash_range_v<Hasher, InputIt>,
                      "bloom::bloom_filter::contains(first, last, out): the Hasher cannot hash the "
                      "range's values; specialise bloom::hash<T> or pass a Hasher");
        detail::pipelined_for_each<window>(
            first, last, [this](const auto& value) { return this->hash_of(value); },
            [this](std::uint64_t hash) { prefetch_probes<false>(hash, lookup_prefetches); },
            [&](std::uint64_t hash) {
                *out = contains_hash(hash);
                ++out;
            });
        return out;
    }

    /// The probability that a random non-member is reported present, given the bits as they are now:
    /// fill_ratio()^k, whatever put the bits there (overfilling, unions, duplicates). 0 when empty, 1 when
    /// full. O(m / 64): one popcount per word, nothing kept up to date on insert.
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        return detail::rate_from_fill(this->set_bit_count(), this->m_bit_count, this->m_hash_count);
    }

    /// True if `other` has the same bit count, hash count and seed, so the two can be combined.
    [[nodiscard]] bool compatible_with(const bloom_filter& other) const noexcept {
        return this->same_shape(other);
    }

    /// Exchanges the contents (bits, shape, seed, counts, hasher) with `other`. O(1).

    void swap(bloom_filter& other) noexcept(std::is_nothrow_swappable_v<Hasher>) { this->swap_state(other); }
    /// Exchanges the contents of `left` and `right`. O(1).
    friend void swap(bloom_filter& left, bloom_filter& right) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        left.swap(right);
    }

    /// Union: afterwards the filter reports every item either filter held. O(m / 64).
    /// Throws std::invalid_argument naming what differs unless compatible_with(other).
    bloom_filter& operator|=(const bloom_filter& other) {
        this->unite("bloom::bloom_filter::operator|=", other);
        return *this;
    }

    /// Intersection: afterwards the filter reports (at least) the items both filters held; its rate is no
    /// higher than either's. O(m / 64). Throws std::invalid_argument unless compatible_with(other).
    bloom_filter& operator&=(const bloom_filter& other) {
        this->intersect("bloom::bloom_filter::operator&=", other);
        return *this;
    }

    /// Union with a filter of another allocator: the same as with one of this type. A filter with another
    /// hasher type never combines (a compile-time error): its bits mean different things.
    template <class OtherHasher, class OtherAllocator>
    bloom_filter& operator|=(const bloom_filter<T, OtherHasher, OtherAllocator>& other) {
        static_assert(std::is_same_v<OtherHasher, Hasher>,
                      "bloom::bloom_filter: cannot combine filters whose Hasher types differ");
        this->unite("bloom::bloom_filter::operator|=", other);
        return *this;
    }
    /// Intersection with a filter of another allocator; another hasher type is a compile-time error.
    template <class OtherHasher, class OtherAllocator>
    bloom_filter& operator&=(const bloom_filter<T, OtherHasher, OtherAllocator>& other) {
        static_assert(std::is_same_v<OtherHasher, Hasher>,
                      "bloom::bloom_filter: cannot combine filters whose Hasher types differ");
        this->intersect("bloom::bloom_filter::operator&=", other);
        return *this;
    }

    /// Union of two compatible filters. Throws std::invalid_argument otherwise.
    [[nodiscard]] friend bloom_filter operator|(bloom_filter left, const bloom_filter& right) {
        left |= right;
        return left;
    }
    /// Intersection of two compatible filters. Throws std::invalid_argument otherwise.
    [[nodiscard]] friend bloom_filter operator&(bloom_filter left, const bloom_filter& right) {
        left &= right;
        return left;
    }

    /// Same shape, seed and bits (item counts and sizing targets are not compared).
    [[nodiscard]] friend bool operator==(const bloom_filter& left, const bloom_filter& right) noexcept {
        return left.same_bits(right);
    }
    /// !(left == right).
    [[nodiscard]] friend bool operator!=(const bloom_filter& left, const bloom_filter& right) noexcept {
        return !(left == right);
    }

  private:
    friend struct detail::filter_access;

    // Items in flight in the bulk pipeline. Hashing a window ahead also helps in the cache (8% on lookups at
    // 10^4 items: the hashes no longer wait behind the probes). Windows of 4 to 32 measured the same within
    // 2% in the cache and within the noise (5%) at 10^6 to 10^8 items.
    static constexpr std::size_t window = 16;
    // Lookups prefetch the lines of the first group of probes classic_contains tests (four): a non-member
    // stops there with probability 15/16, and a member's remaining loads go out together, behind them.
    // Prefetching all k measured the same for members and wasted fetches on non-members.
    static constexpr unsigned lookup_prefetches = 4;

    bool insert_hash(std::uint64_t hash) noexcept {
        // Locals, not members: a store to a word may alias m_bit_count, which GCC then reloads per probe
        // (6% of an insert at -O2; -O3 sees through it).
        std::uint64_t* const words = this->words();
        const std::uint64_t bit_count = this->m_bit_count;
        const unsigned hash_count = this->m_hash_count;
        const std::uint64_t newly_set = detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            std::uint64_t missing = 0;
            for (unsigned i = 0; i < hash_count; ++i) {
                const std::uint64_t position = probes.next(bit_count);
                std::uint64_t& word = words[detail::word_of(position)];
                const std::uint64_t mask = detail::mask_of(position);
                missing |= ~word & mask;
                word |= mask;
            }
            return missing;
        });
        const bool was_new = newly_set != 0;
        this->count_insert(was_new);
        return was_new;
    }

    // The distinct bits inserting `hash` would set: what a scalable filter asks before it lets an item into
    // a stage. Up to 64 unset probes are told apart exactly; beyond, repeats count again (an overestimate,
    // so the caller errs towards a new stage).
    [[nodiscard]] std::uint64_t unset_probe_count(std::uint64_t hash) const noexcept {
        const std::uint64_t* const words = this->words();
        return detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            constexpr unsigned tracked = 64;
            std::uint64_t unset[tracked];
            std::uint64_t count = 0;
            for (unsigned i = 0; i < this->m_hash_count; ++i) {
                const std::uint64_t position = probes.next(this->m_bit_count);
                if ((words[detail::word_of(position)] & detail::mask_of(position)) != 0) {
                    continue;
                }
                bool repeat = false;
                for (std::uint64_t j = 0; j < count && j < tracked; ++j) {
                    repeat = repeat || unset[j] == position;
                }
                if (!repeat) {
                    if (count < tracked) {
                        unset[count] = position;
                    }
                    ++count;
                }
            }
            return count;
        });
    }

    // An empty filter has no bits and no probes: its lookups probe one static zero word once, so they
    // find nothing. Selecting the operands costs nothing measurable, where testing for k = 0 in the probe
    // loop or returning early cost 5% of an in-cache lookup.
    [[nodiscard]] bool contains_hash(std::uint64_t hash) const noexcept {
        const bool empty = this->m_bit_count == 0;
        return detail::classic_contains(empty ? detail::empty_word : this->words(),
                                        empty ? std::uint64_t{1} : this->m_bit_count,
                                        empty ? 1U : this->m_hash_count, this->m_probe_scheme, hash);
    }

    // Prefetches the lines of the first `count` probes of `hash` (at most k).
    template <bool ForWrite>
    void prefetch_probes(std::uint64_t hash, unsigned count) const noexcept {
        const std::uint64_t* const words = this->words();
        const std::uint64_t bit_count = this->m_bit_count;
        const unsigned limit = count < this->m_hash_count ? count : this->m_hash_count;
        detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            for (unsigned i = 0; i < limit; ++i) {
                detail::prefetch<ForWrite>(words + detail::word_of(probes.next(bit_count)));
            }
        });
    }

    static filter_geometry checked(filter_geometry geometry) {
        constexpr const char* where = "bloom::bloom_filter";
        detail::check_bits(where, geometry.bit_count);
        detail::check_hashes(where, geometry.hash_count);
        detail::check_probes(where, geometry.probes);
        return geometry;
    }
};

} // namespace bloom

#endif // BLOOM_BLOOM_FILTER_HPP
