// SPDX-License-Identifier: MIT
#ifndef BLOOM_COUNTING_BLOOM_FILTER_HPP
#define BLOOM_COUNTING_BLOOM_FILTER_HPP

// bloom::counting_bloom_filter<T> — a Bloom filter that can forget: m small counters instead of m bits.
//
// Fan, Cao, Almeida & Broder 2000 ("Summary cache"): replace each bit of the classic filter by a counter;
// insert increments an item's k counters, remove decrements them, contains asks whether all are non-zero.
// Sizing and probes are the classic filter's (m counters for n items at rate p, k probes from one seeded
// hash), so the rate is the classic formula's, at CounterBits (4 by default; 8 and 16 offered) times the
// memory: 4-bit counters take about 38 bits per item at 1%.
//
//     #include <bloom/counting_bloom_filter.hpp>
//
//     bloom::counting_bloom_filter<std::string> sessions(100'000, 0.01);  // 958,506 counters, 479 KB
//     sessions.insert("alice");
//     sessions.remove("alice");              // true: alice's counters were decremented
//     sessions.contains("alice");            // false (unless another item holds those counters)
//     sessions.remove("bob");                // false: proven absent, nothing changed
//
// Two things every counting filter does, stated plainly:
// - Precondition of remove: remove only what you inserted. Removing an item that was never inserted but is
//   a false positive decrements other items' counters and can create false negatives. remove() changes
//   nothing and returns false when the filter proves the item absent (a counter is 0), but it cannot tell
//   a false positive from a member.
// - Saturation: a counter that reaches its maximum (15 for 4 bits) sticks there and is never decremented
//   again. The filter then cannot forget the items on that counter, but no false negative can arise from
//   it. With 4 bits this needs 15 items on one counter: about 10^-15 per counter at the optimal load
//   (Fan et al. 2000). saturated_counters() reports how many there are.

#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/counter_words.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/filter_base.hpp"
#include "bloom/detail/filter_surface.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

namespace bloom {

/// A counting Bloom filter of T: counters of CounterBits bits (4, 8 or 16) packed into 64-bit words, k probes
/// per item. Hasher: callable std::uint64_t(const K&, std::uint64_t seed), bloom::hash<T> by default.
/// Allocator: allocates the words (rebound to std::uint64_t).
template <class T, std::size_t CounterBits = 4, class Hasher = hash<T>,
          class Allocator = std::allocator<std::uint64_t>>
class counting_bloom_filter
    : private detail::filter_base<Hasher, Allocator>,
      public detail::filter_surface<counting_bloom_filter<T, CounterBits, Hasher, Allocator>, T> {
    using base = detail::filter_base<Hasher, Allocator>;
    using surface = detail::filter_surface<counting_bloom_filter, T>;
    using layout = detail::counter_layout<CounterBits>;

  public:
    /// The type of the items.
    using value_type = T;
    using typename base::allocator_type;
    using typename base::hasher;
    using typename base::size_type;

    /// Bits per counter.
    static constexpr std::size_t counter_bits = CounterBits;
    /// The largest value a counter holds; a counter that reaches it sticks there.
    static constexpr std::uint64_t max_counter = layout::max_value;

    /// An empty filter: no counters, holds nothing. contains() answers false, count() and every rate is 0,
    /// remove() returns false; insert() throws std::logic_error, as it could not keep the item. Assign a
    /// sized filter to use it. A moved-from filter is left in this state.
    counting_bloom_filter() : base(probe_scheme::mixed) {}

    /// A filter of optimal_bit_count(expected_items, false_positive_rate) counters and optimal_hash_count
    /// probes: the classic filter's shape, with counters for bits.
    /// Throws std::invalid_argument for zero items, a rate outside (0, 1), or counters that cannot be held.
    counting_bloom_filter(std::uint64_t expected_items, double false_positive_rate,
                          std::uint64_t seed = default_seed, const Hasher& hash_function = Hasher(),
                          const Allocator& allocator = Allocator())
        : base(storage_of(detail::optimal_geometry(expected_items, false_positive_rate,
                                                   "bloom::counting_bloom_filter"),
                          "expected_items"),
               expected_items, false_positive_rate, seed, hash_function, allocator) {}

    /// A filter sized as above holding every value of [first, last).
    template <class InputIt, class = detail::enable_if_input_iterator_t<InputIt>>
    counting_bloom_filter(InputIt first, InputIt last, std::uint64_t expected_items,
                          double false_positive_rate, std::uint64_t seed = default_seed,
                          const Hasher& hash_function = Hasher(), const Allocator& allocator = Allocator())
        : counting_bloom_filter(expected_items, false_positive_rate, seed, hash_function, allocator) {
        insert(first, last);
    }

    /// A filter sized as above holding `values`.
    counting_bloom_filter(std::initializer_list<T> values, std::uint64_t expected_items,
                          double false_positive_rate, std::uint64_t seed = default_seed,
                          const Hasher& hash_function = Hasher(), const Allocator& allocator = Allocator())
        : counting_bloom_filter(values.begin(), values.end(), expected_items, false_positive_rate, seed,
                                hash_function, allocator) {}

    /// A filter of an explicit shape: geometry.bit_count counters, geometry.hash_count probes. Its
    /// expected_items() is round(m ln 2 / k) and its target rate the formula's rate there.
    /// Throws std::invalid_argument for a zero counter or hash count, or counters that cannot be held.
    explicit counting_bloom_filter(filter_geometry geometry, std::uint64_t seed = default_seed,
                                   const Hasher& hash_function = Hasher(),
                                   const Allocator& allocator = Allocator())
        : base(storage_of(checked(geometry), "bit_count"), detail::optimal_load(geometry), 0.0, seed,
               hash_function, allocator) {
        this->m_target_false_positive_rate = detail::unchecked_false_positive_rate(
            counter_count(), this->m_hash_count, this->m_expected_items);
    }

    // insert and contains, of one key, a range and a list (detail/filter_surface.hpp): insert increments
    // the item's k counters (a counter at max_counter stays there) and returns true if one was 0;
    // contains is false if one of them is 0. O(k).
    using surface::contains;
    using surface::insert;

    /// Decrements the k counters of `value` (a counter at max_counter stays there) and returns true.
    /// If the filter proves `value` absent (a counter is 0, or one its probes hit several times holds less
    /// than that) it changes nothing and returns false. O(k). Precondition: `value` was inserted; removing a
    /// false positive decrements other items' counters and can create false negatives.
    template <class K>
    bool remove(const K& value) {
        static_assert(detail::can_hash_v<Hasher, K>,
                      "bloom::counting_bloom_filter::remove: the Hasher cannot hash this key type; "
                      "specialise bloom::hash<T> or pass a Hasher");
        return remove_hash(this->hash_of(value));
    }

    /// The smallest of `value`'s counters: an upper bound of how many times it is held (inserts minus
    /// removes) while that is below max_counter; max_counter once its counters saturated. 0: absent. O(k).
    template <class K>
    [[nodiscard]] std::uint64_t count(const K& value) const {
        static_assert(detail::can_hash_v<Hasher, K>,
                      "bloom::counting_bloom_filter::count: the Hasher cannot hash this key type; "
                      "specialise bloom::hash<T> or pass a Hasher");
        return count_hash(this->hash_of(value));
    }

    /// m, the number of counters (the classic filter's bits): the range the probes map onto.
    [[nodiscard]] std::uint64_t counter_count() const noexcept { return this->m_bit_count / CounterBits; }
    /// m, as in bloom_filter::bit_count() and the rate formulas: the number of counters, not of storage bits.
    [[nodiscard]] std::uint64_t bit_count() const noexcept { return counter_count(); }
    /// k, the number of counters each item increments.
    [[nodiscard]] unsigned hash_count() const noexcept { return base::hash_count(); }
    /// The seed every hash of this filter uses.
    [[nodiscard]] std::uint64_t seed() const noexcept { return base::seed(); }
    /// The number of items the filter was sized for.
    [[nodiscard]] std::uint64_t expected_items() const noexcept { return base::expected_items(); }
    /// The rate the filter was sized for, reached at expected_items().
    [[nodiscard]] double target_false_positive_rate() const noexcept {
        return base::target_false_positive_rate();
    }
    /// Bytes of the counter array: counter_count() * CounterBits / 8, rounded up to whole 64-bit words.
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return base::memory_bytes(); }
    /// A copy of the allocator.
    [[nodiscard]] allocator_type get_allocator() const { return base::get_allocator(); }
    /// A copy of the hasher.
    [[nodiscard]] hasher hash_function() const { return base::hash_function(); }

    /// The multiset count: inserts minus successful removes, never below 0 (an item inserted twice counts
    /// twice, unlike bloom_filter::item_count(), which counts items that were new). Saved and loaded as is.
    /// An estimate once removes of non-members or saturated counters are involved.
    [[nodiscard]] std::uint64_t item_count() const noexcept { return this->m_item_count; }

    /// How the k counters derive from an item's hash (probe_scheme::mixed unless loaded from an old file).
    [[nodiscard]] probe_scheme probes() const noexcept { return base::probes(); }

    /// The probability that a random non-member is reported present, given the counters as they are now:
    /// the fraction of non-zero counters to the power k. 0 when empty, 1 when every counter is non-zero.
    /// O(m / (64 / CounterBits)).
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        return detail::rate_from_fill(non_zero_counters(), counter_count(), this->m_hash_count);
    }

    /// estimated_item_count() / expected_items(): 1.0 at capacity. 0 for a moved-from filter.
    /// O(m / (64 / CounterBits)).
    [[nodiscard]] double load_factor() const noexcept {
        return this->m_bit_count == 0 || this->m_expected_items == 0
                   ? 0.0
                   : estimated_item_count() / static_cast<double>(this->m_expected_items);
    }

    /// Number of counters at max_counter: stuck there, never decremented again. O(m / (64 / CounterBits)).
    [[nodiscard]] std::uint64_t saturated_counters() const noexcept {
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < this->m_words.size(); ++i) {
            total += layout::saturated_in(this->m_words[i]);
        }
        return total;
    }

    /// Fraction of non-zero counters, in [0, 1]. O(m / (64 / CounterBits)).
    [[nodiscard]] double fill_ratio() const noexcept {
        return this->m_bit_count == 0
                   ? 0.0
                   : static_cast<double>(non_zero_counters()) / static_cast<double>(counter_count());
    }

    /// Distinct items estimated from the non-zero counters X, -(m/k) ln(1 - X/m) (Swamidass & Baldi 2007).
    /// Once every counter is non-zero, (m/k) ln(2m), finite. O(m / (64 / CounterBits)).
    [[nodiscard]] double estimated_item_count() const noexcept {
        return detail::items_from_fill(non_zero_counters(), counter_count(), this->m_hash_count);
    }

    /// The packed counters: counter i is bits [s, s + CounterBits) of word i / (64 / CounterBits), with
    /// s = (i % (64 / CounterBits)) * CounterBits. Counters past counter_count() in the last word are 0.
    [[nodiscard]] const std::uint64_t* data() const noexcept { return base::data(); }
    /// Number of 64-bit words, ceil(counter_count() * CounterBits / 64).
    [[nodiscard]] std::size_t word_count() const noexcept { return base::word_count(); }

    /// Removes every item (all counters to 0); keeps the shape and seed. O(m / (64 / CounterBits)).
    void clear() noexcept { base::clear(); }

    /// True if `other` has the same counter count, hash count and seed: the same value means the same
    /// counters in both.
    [[nodiscard]] bool compatible_with(const counting_bloom_filter& other) const noexcept {
        return this->same_shape(other);
    }

    /// Exchanges the contents (bits, shape, seed, counts, hasher) with `other`. O(1).

    void swap(counting_bloom_filter& other) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        this->swap_state(other);
    }
    /// Exchanges the contents of `left` and `right`. O(1).
    friend void swap(counting_bloom_filter& left,
                     counting_bloom_filter& right) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        left.swap(right);
    }

    /// Same shape, seed and counters (item counts and sizing targets are not compared).
    [[nodiscard]] friend bool operator==(const counting_bloom_filter& left,
                                         const counting_bloom_filter& right) noexcept {
        return left.equals(right);
    }
    /// !(left == right).
    [[nodiscard]] friend bool operator!=(const counting_bloom_filter& left,
                                         const counting_bloom_filter& right) noexcept {
        return !(left == right);
    }

  private:
    friend struct detail::filter_access;
    friend surface;

    // For the hidden friend operator==, which is this class's friend but not its base's.
    [[nodiscard]] bool equals(const counting_bloom_filter& other) const noexcept {
        return this->same_bits(other);
    }

    // Items in flight in the bulk pipeline, as in bloom_filter.
    static constexpr std::size_t bulk_window = 16;

    void require_insertable(const char* call) const {
        this->require_bits("bloom::counting_bloom_filter", call);
    }

    // An empty filter has no counters and no probes (k = 0): insert() does not get here (require_bits),
    // contains_hash answers false, remove() changes nothing and returns false.
    bool insert_hash(std::uint64_t hash) noexcept {
        const std::uint64_t counters = counter_count();
        return detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            return increment_counters([&] { return probes.next(counters); });
        });
    }

    // Increments the k counters `next_index()` names in turn; true if one was 0. The one loop of insert:
    // from the probes (insert_hash) or from the indexes a bulk insert staged (insert_slot).
    template <class NextIndex>
    BLOOM_FORCE_INLINE bool increment_counters(NextIndex&& next_index) noexcept {
        std::uint64_t* const words = this->words();
        bool some_zero = false;
        for (unsigned i = 0; i < this->m_hash_count; ++i) {
            const std::uint64_t index = next_index();
            std::uint64_t& word = words[layout::word_of(index)];
            const unsigned shift = layout::shift_of(index);
            const std::uint64_t counter = (word >> shift) & layout::max_value;
            some_zero = some_zero || counter == 0;
            // Below its maximum a counter's increment cannot carry into its neighbour.
            word += static_cast<std::uint64_t>(counter != layout::max_value) << shift;
        }
        this->m_item_count += this->m_hash_count != 0 ? 1 : 0;
        return some_zero;
    }

    [[nodiscard]] bool contains_hash(std::uint64_t hash) const noexcept {
        const std::uint64_t counters = counter_count();
        const std::uint64_t* const words = this->words();
        return detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            // Groups of four probes and one branch per group, as bloom_filter::contains_hash and for its
            // reason: a branch per probe mispredicts on half the misses.
            unsigned remaining = this->m_hash_count;
            if (remaining == 0) {
                return false; // an empty filter (k = 0) holds nothing
            }
            do {
                const unsigned group = remaining < 4 ? remaining : 4;
                bool all_non_zero = true;
                for (unsigned i = 0; i < group; ++i) {
                    const std::uint64_t index = probes.next(counters);
                    all_non_zero &=
                        ((words[layout::word_of(index)] >> layout::shift_of(index)) & layout::max_value) != 0;
                }
                if (!all_non_zero) {
                    return false;
                }
                remaining -= group;
            } while (remaining != 0);
            return true;
        });
    }

    // One pass: decrement as we go, and on a counter already at 0 undo what was done. An item that was
    // inserted finds every counter at least at its own contribution (k probes may hit a counter twice),
    // so the undo runs only for items the filter proves absent.
    bool remove_hash(std::uint64_t hash) noexcept {
        if (this->m_hash_count == 0) {
            return false;
        }
        const std::uint64_t counters = counter_count();
        std::uint64_t* const words = this->words();
        const bool removed = detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            for (unsigned i = 0; i < this->m_hash_count; ++i) {
                const std::uint64_t index = probes.next(counters);
                std::uint64_t& word = words[layout::word_of(index)];
                const unsigned shift = layout::shift_of(index);
                const std::uint64_t counter = (word >> shift) & layout::max_value;
                if (counter == 0) {
                    restore(hash, i);
                    return false;
                }
                // A saturated counter no longer knows how many items it holds: it stays, so none of them
                // can ever become a false negative.
                word -= static_cast<std::uint64_t>(counter != layout::max_value) << shift;
            }
            return true;
        });
        if (removed) {
            this->m_item_count -= this->m_item_count != 0 ? 1 : 0;
        }
        return removed;
    }

    // Undoes the decrements of the first `decremented` probes of `hash`: each decremented counter is now
    // below its maximum and goes back up by one; a saturated counter was skipped and is skipped again.
    void restore(std::uint64_t hash, unsigned decremented) noexcept {
        const std::uint64_t counters = counter_count();
        std::uint64_t* const words = this->words();
        detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            for (unsigned i = 0; i < decremented; ++i) {
                const std::uint64_t index = probes.next(counters);
                std::uint64_t& word = words[layout::word_of(index)];
                const unsigned shift = layout::shift_of(index);
                const std::uint64_t counter = (word >> shift) & layout::max_value;
                word += static_cast<std::uint64_t>(counter != layout::max_value) << shift;
            }
        });
    }

    [[nodiscard]] std::uint64_t count_hash(std::uint64_t hash) const noexcept {
        if (this->m_hash_count == 0) {
            return 0;
        }
        const std::uint64_t counters = counter_count();
        const std::uint64_t* const words = this->words();
        return detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            std::uint64_t smallest = layout::max_value;
            for (unsigned i = 0; i < this->m_hash_count && smallest != 0; ++i) {
                const std::uint64_t index = probes.next(counters);
                const std::uint64_t counter =
                    (words[layout::word_of(index)] >> layout::shift_of(index)) & layout::max_value;
                smallest = counter < smallest ? counter : smallest;
            }
            return smallest;
        });
    }

    // An item's counters are in k scattered lines, as bloom_filter's bits.
    bool bulk_prefetches() const noexcept {
        return this->m_words.size() * 8 >= detail::scattered_prefetch_from_bytes;
    }
    template <bool ForWrite>
    void prefetch_hash(std::uint64_t hash) const noexcept {
        const std::uint64_t counters = counter_count();
        const std::uint64_t* const words = this->words();
        detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            for (unsigned i = 0; i < this->m_hash_count; ++i) {
                detail::prefetch<ForWrite>(words + layout::word_of(probes.next(counters)));
            }
        });
    }

    // What a range form keeps of an item past the cache (filter_surface's staged_for_each), as
    // bloom_filter's bulk_slot: its counter indexes, computed once for the prefetches and the counters.
    // Hashed ahead and prefetched only, the indexes were computed twice, and bulk lookups of non-members
    // at 10^6 items took 1.09x the single ones.
    static constexpr unsigned slot_probes = 16;
    struct bulk_slot {
        std::uint64_t hash;
        std::uint64_t indexes[slot_probes];
    };
    template <bool ForWrite>
    BLOOM_FORCE_INLINE void stage_hash(std::uint64_t hash, bulk_slot& slot) const noexcept {
        slot.hash = hash;
        if (this->m_hash_count > slot_probes) {
            prefetch_hash<ForWrite>(hash);
            return;
        }
        const std::uint64_t counters = counter_count();
        const std::uint64_t* const words = this->words();
        detail::with_probes(this->m_probe_scheme, hash, [&](auto probes) {
            for (unsigned i = 0; i < this->m_hash_count; ++i) {
                slot.indexes[i] = probes.next(counters);
                detail::prefetch<ForWrite>(words + layout::word_of(slot.indexes[i]));
            }
        });
    }
    // contains_hash of a staged item: every counter is read (its line is prefetched), with no branch.
    [[nodiscard]] BLOOM_FORCE_INLINE bool contains_slot(const bulk_slot& slot) const noexcept {
        if (this->m_hash_count > slot_probes) {
            return contains_hash(slot.hash);
        }
        const std::uint64_t* const words = this->words();
        bool all_non_zero = this->m_hash_count != 0;
        for (unsigned i = 0; i < this->m_hash_count; ++i) {
            const std::uint64_t index = slot.indexes[i];
            all_non_zero &=
                ((words[layout::word_of(index)] >> layout::shift_of(index)) & layout::max_value) != 0;
        }
        return all_non_zero;
    }
    BLOOM_FORCE_INLINE bool insert_slot(const bulk_slot& slot) noexcept {
        if (this->m_hash_count > slot_probes) {
            return insert_hash(slot.hash);
        }
        unsigned probe = 0;
        return increment_counters([&] { return slot.indexes[probe++]; });
    }

    [[nodiscard]] std::uint64_t non_zero_counters() const noexcept {
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < this->m_words.size(); ++i) {
            total += layout::non_zero_in(this->m_words[i]);
        }
        return total;
    }

    static filter_geometry checked(filter_geometry geometry) {
        constexpr const char* where = "bloom::counting_bloom_filter";
        detail::check_bits(where, geometry.bit_count);
        detail::check_hashes(where, geometry.hash_count);
        detail::check_probes(where, geometry.probes);
        return geometry;
    }

    // The base holds the counters' storage bits; counter_count() divides them back.
    static filter_geometry storage_of(filter_geometry counters, const char* parameter) {
        if (counters.bit_count > detail::max_addressable_bits() / CounterBits) {
            detail::throw_invalid_argument(
                "bloom::counting_bloom_filter", parameter,
                "asks for " + std::to_string(counters.bit_count) + " counters of " +
                    std::to_string(CounterBits) +
                    " bits, more than fit in 64 bits or in this platform's memory");
        }
        return {layout::storage_bits(counters.bit_count), counters.hash_count, counters.probes};
    }
};

} // namespace bloom

#endif // BLOOM_COUNTING_BLOOM_FILTER_HPP
