// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_FILTER_BASE_HPP
#define BLOOM_DETAIL_FILTER_BASE_HPP

// What every bit-array filter shares, whatever its probe layout: the words and their allocator, the
// shape (bit count, hash count, seed), the sizing targets, the insert count, the hasher, and the
// operations that treat the words as a plain bit set (clear, union, intersection, equality, fill).
// Each filter derives from it and adds its own insert, contains and rate formula.

#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/bit_words.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/filter_declarations.hpp"
#include "bloom/detail/members.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace bloom::detail {

/// What filters built from filters need of the filters inside them. A scalable filter hashes an item once
/// and probes each of its stages (same hasher, same seed) by that hash, asking first how many bits it would
/// set; a concurrent filter converts to
/// and from the plain filter of the same layout by copying its words and counts. A filter befriends this
/// class to grant it; users never name it.
struct filter_access {
    template <class Filter>
    static bool insert(Filter& filter, std::uint64_t hash) noexcept {
        return filter.insert_hash(hash);
    }
    template <class Filter>
    [[nodiscard]] static bool contains(const Filter& filter, std::uint64_t hash) noexcept {
        return filter.contains_hash(hash);
    }
    /// The distinct bits an insert of `hash` would set (classic layout).
    template <class Filter>
    [[nodiscard]] static std::uint64_t unset_probe_count(const Filter& filter, std::uint64_t hash) noexcept {
        return filter.unset_probe_count(hash);
    }
    /// The filter's words, writable.
    template <class Filter>
    [[nodiscard]] static std::uint64_t* words(Filter& filter) noexcept {
        return filter.words();
    }
    /// Sets what a copied filter carries besides its bits: item count and sizing targets.
    template <class Filter>
    static void set_counts(Filter& filter, std::uint64_t item_count, std::uint64_t expected_items,
                           double target_false_positive_rate) noexcept {
        filter.m_item_count = item_count;
        filter.m_expected_items = expected_items;
        filter.m_target_false_positive_rate = target_false_positive_rate;
    }
};

/// Throws std::invalid_argument from `where`, naming the parameter "other" and every difference
/// ("bit_count 1024 vs 2048, seed 1 vs 2"), unless the two shapes (probe scheme included) and seeds are
/// equal: filters combine only then.
inline void require_same_shape(const char* where, filter_geometry mine, std::uint64_t my_seed,
                               filter_geometry theirs, std::uint64_t their_seed) {
    std::string differences;
    const auto note = [&](const char* name, std::uint64_t my_value, std::uint64_t their_value) {
        if (my_value != their_value) {
            differences += (differences.empty() ? "" : ", ") + std::string(name) + " " +
                           std::to_string(my_value) + " vs " + std::to_string(their_value);
        }
    };
    note("bit_count", mine.bit_count, theirs.bit_count);
    note("hash_count", mine.hash_count, theirs.hash_count);
    note("probe scheme", static_cast<std::uint64_t>(mine.probes), static_cast<std::uint64_t>(theirs.probes));
    note("seed", my_seed, their_seed);
    if (!differences.empty()) {
        throw_invalid_argument(where, "other", "is not compatible (" + differences + ")");
    }
}

template <class Hasher, class Allocator>
class filter_base {
  private:
    using word_allocator = typename std::allocator_traits<Allocator>::template rebind_alloc<std::uint64_t>;
    using word_vector = std::vector<std::uint64_t, word_allocator>;

  public:
    using hasher = Hasher;
    using allocator_type = Allocator;
    using size_type = std::uint64_t;

    /// m, the number of bits.
    [[nodiscard]] std::uint64_t bit_count() const noexcept { return m_bit_count; }
    /// k, the number of bits each item sets.
    [[nodiscard]] unsigned hash_count() const noexcept { return m_hash_count; }
    /// The seed every hash of this filter uses; filters combine only with equal seeds.
    [[nodiscard]] std::uint64_t seed() const noexcept { return m_seed; }
    /// The number of items the filter was sized for.
    [[nodiscard]] std::uint64_t expected_items() const noexcept { return m_expected_items; }
    /// The rate the filter was sized for, reached at expected_items().
    [[nodiscard]] double target_false_positive_rate() const noexcept { return m_target_false_positive_rate; }
    /// How the k positions derive from an item's hash (probe_scheme::mixed unless loaded from an old file).
    [[nodiscard]] probe_scheme probes() const noexcept { return m_probe_scheme; }
    /// The shape: bit_count(), hash_count(), probes(); a filter built from it has the same positions.
    [[nodiscard]] filter_geometry geometry() const noexcept {
        return {m_bit_count, m_hash_count, m_probe_scheme};
    }
    /// Items inserted that were new (insert returned true). After |= or &=, whose exact count no filter
    /// can know, the estimate from the bits, estimated_item_count() rounded (unless the result equals one
    /// side's bits, whose count it keeps: f | f has f's count). Saved and loaded as is.
    [[nodiscard]] std::uint64_t item_count() const noexcept { return m_item_count; }

    /// Fraction of bits set, in [0, 1]. O(m / 64).
    [[nodiscard]] double fill_ratio() const noexcept {
        return m_bit_count == 0 ? 0.0
                                : static_cast<double>(set_bit_count()) / static_cast<double>(m_bit_count);
    }

    /// Distinct items estimated from the bits, -(m/k) ln(1 - X/m) for X set bits (Swamidass & Baldi 2007):
    /// right after unions and overfilling, where item_count() is not. A full filter reports (m/k) ln(2m),
    /// finite. 0 for a moved-from filter. O(m / 64).
    [[nodiscard]] double estimated_item_count() const noexcept {
        return items_from_fill(set_bit_count(), m_bit_count, m_hash_count);
    }

    /// estimated_item_count() / expected_items(): 1.0 at capacity, above 1 once the rate exceeds the
    /// target it was sized for. 0 for a moved-from filter. O(m / 64).
    [[nodiscard]] double load_factor() const noexcept {
        return m_bit_count == 0 || m_expected_items == 0
                   ? 0.0
                   : estimated_item_count() / static_cast<double>(m_expected_items);
    }

    /// Bytes of the bit array.
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_words.size() * sizeof(std::uint64_t); }
    [[nodiscard]] allocator_type get_allocator() const { return allocator_type(m_words.get_allocator()); }
    [[nodiscard]] hasher hash_function() const { return m_hasher; }

    /// The packed words: bit i of the filter is bit (i % 64) of word i / 64. Bits at or past bit_count()
    /// in the last word are always 0.
    [[nodiscard]] const std::uint64_t* data() const noexcept { return m_words.data(); }
    /// Number of 64-bit words, ceil(bit_count() / 64).
    [[nodiscard]] std::size_t word_count() const noexcept { return m_words.size(); }

    /// Removes every item; keeps the shape and seed. O(m / 64).
    void clear() noexcept {
        std::fill(m_words.begin(), m_words.end(), std::uint64_t{0});
        m_item_count = 0;
    }

  private:
    // The state and the helpers are the filters' own, not their users': only the kinds built on it reach
    // them (a user deriving from a filter sees none of it).
    template <class, class, class, class>
    friend class bloom::basic_bloom_filter;
    template <class, std::size_t, class, class>
    friend class bloom::counting_bloom_filter;
    friend struct filter_access;
    template <class, class>
    friend class filter_surface;

    [[nodiscard]] bool same_shape(const filter_base& other) const noexcept {
        return m_bit_count == other.m_bit_count && m_hash_count == other.m_hash_count &&
               m_probe_scheme == other.m_probe_scheme && m_seed == other.m_seed;
    }

    filter_base(filter_geometry geometry, std::uint64_t expected_items, double false_positive_rate,
                std::uint64_t seed, const Hasher& hash_function, const Allocator& allocator)
        : m_words(static_cast<std::size_t>(word_count_for(geometry.bit_count)), std::uint64_t{0},
                  word_allocator(allocator)),
          m_bit_count(geometry.bit_count), m_hash_count(geometry.hash_count), m_probe_scheme(geometry.probes),
          m_seed(seed), m_expected_items(expected_items), m_target_false_positive_rate(false_positive_rate),
          m_hasher(hash_function) {}

    // The empty state: no bits, no probes, nothing held; contains() answers false, every count and rate
    // is 0, and insert() throws (require_bits). A moved-from filter is left in it.
    explicit filter_base(probe_scheme probes) noexcept(
        std::is_nothrow_default_constructible_v<Hasher>&&
            std::is_nothrow_default_constructible_v<word_allocator>)
        : m_words(), m_bit_count(0), m_hash_count(0), m_probe_scheme(probes), m_seed(default_seed),
          m_expected_items(0), m_target_false_positive_rate(0.0), m_hasher() {}

    filter_base(const filter_base&) = default;
    filter_base& operator=(const filter_base&) = default;

    // noexcept only where true: moving, assigning and swapping a filter does the same to its hasher, which a
    // user's hasher may do by throwing.
    filter_base(filter_base&& other) noexcept(std::is_nothrow_move_constructible_v<Hasher>)
        : m_words(std::move(other.m_words)), m_bit_count(other.m_bit_count), m_hash_count(other.m_hash_count),
          m_probe_scheme(other.m_probe_scheme), m_seed(other.m_seed),
          m_expected_items(other.m_expected_items),
          m_target_false_positive_rate(other.m_target_false_positive_rate), m_item_count(other.m_item_count),
          m_hasher(std::move(other.m_hasher)) {
        other.reset_shape();
    }

    // Whether a move assignment cannot throw: the words move without allocating, and the hasher's move
    // assignment cannot throw.
    static constexpr bool nothrow_move_assignment =
        (std::allocator_traits<word_allocator>::propagate_on_container_move_assignment::value ||
         std::allocator_traits<word_allocator>::is_always_equal::value) &&
        std::is_nothrow_move_assignable_v<Hasher>;

    filter_base& operator=(filter_base&& other) noexcept(nothrow_move_assignment) {
        if (this != &other) {
            m_hasher = std::move(other.m_hasher); // first: if it throws, nothing else has changed
            move_assign_members(state(), other.state());
            other.reset_shape();
        }
        return *this;
    }

    ~filter_base() = default;

    void swap_state(filter_base& other) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        using std::swap;
        swap(m_hasher, other.m_hasher); // first: if it throws, nothing else has changed
        auto theirs = other.state();
        state().swap(theirs);
    }

    // Every member but the hasher, as references: swapping the tuples swaps the members.
    [[nodiscard]] auto state() noexcept {
        return std::tie(m_words, m_bit_count, m_hash_count, m_probe_scheme, m_seed, m_expected_items,
                        m_target_false_positive_rate, m_item_count);
    }

    // After a union or an intersection the distinct items are unknowable from the counts (the two sets
    // may overlap anywhere between not at all and completely): the count becomes the estimate from the
    // bits, except when the result is one side's bits, whose count it keeps exactly. `other` is a filter
    // of the same kind and hasher with any allocator: where the words live does not change what they mean.
    // Throws std::invalid_argument from `where`, naming every difference, unless the shapes and seeds agree.
    template <class Filter>
    void unite(const char* where, const Filter& other) {
        require_same_shape(where, geometry(), m_seed, other.geometry(), other.seed());
        combine(other.data(), other.item_count(),
                [](std::uint64_t mine, std::uint64_t theirs) { return mine | theirs; });
    }

    template <class Filter>
    void intersect(const char* where, const Filter& other) {
        require_same_shape(where, geometry(), m_seed, other.geometry(), other.seed());
        combine(other.data(), other.item_count(),
                [](std::uint64_t mine, std::uint64_t theirs) { return mine & theirs; });
    }

    [[nodiscard]] bool same_bits(const filter_base& other) const noexcept {
        return same_shape(other) && m_words == other.m_words;
    }

    /// The hash of `value` the probes derive from.
    template <class K>
    [[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t hash_of(const K& value) const
        noexcept(noexcept(seeded_hash(m_hasher, value, 0))) {
        return seeded_hash(m_hasher, value, m_seed);
    }

    BLOOM_FORCE_INLINE void count_insert(bool was_new) noexcept { m_item_count += was_new ? 1 : 0; }

    /// Throws std::logic_error from `where` if the filter is empty: it has no bits to keep an item in.
    BLOOM_FORCE_INLINE void require_bits(const char* where) const {
        if (m_bit_count == 0) {
            throw_insert_into_empty(where);
        }
    }
    /// As above, naming `kind`::`call`.
    BLOOM_FORCE_INLINE void require_bits(const char* kind, const char* call) const {
        if (m_bit_count == 0) {
            throw_insert_into_empty(kind, call);
        }
    }

    [[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t* words() noexcept { return m_words.data(); }
    [[nodiscard]] BLOOM_FORCE_INLINE const std::uint64_t* words() const noexcept { return m_words.data(); }

    word_vector m_words;
    std::uint64_t m_bit_count;
    unsigned m_hash_count;
    probe_scheme m_probe_scheme;
    std::uint64_t m_seed;
    std::uint64_t m_expected_items;
    double m_target_false_positive_rate;
    std::uint64_t m_item_count = 0;
    Hasher m_hasher;

    [[nodiscard]] std::uint64_t set_bit_count() const noexcept {
        return count_set_bits(m_words.data(), m_words.size());
    }

    // `theirs` holds as many words as this filter (the shapes agree). It may be this filter's own words.
    template <class Combine>
    void combine(const std::uint64_t* theirs, std::uint64_t their_item_count,
                 Combine&& word_of_result) noexcept {
        bool kept_mine = true, kept_theirs = true;
        for (std::size_t i = 0; i < m_words.size(); ++i) {
            const std::uint64_t result = word_of_result(m_words[i], theirs[i]);
            kept_mine = kept_mine && result == m_words[i];
            kept_theirs = kept_theirs && result == theirs[i];
            m_words[i] = result;
        }
        if (kept_mine) {
            return;
        }
        m_item_count =
            kept_theirs ? their_item_count : static_cast<std::uint64_t>(std::llround(estimated_item_count()));
    }

    void reset_shape() noexcept {
        m_words.clear();
        m_bit_count = 0;
        m_hash_count = 0;
        m_item_count = 0;
    }
};

} // namespace bloom::detail

#endif // BLOOM_DETAIL_FILTER_BASE_HPP
