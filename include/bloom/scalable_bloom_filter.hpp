// SPDX-License-Identifier: MIT
#ifndef BLOOM_SCALABLE_BLOOM_FILTER_HPP
#define BLOOM_SCALABLE_BLOOM_FILTER_HPP

// bloom::scalable_bloom_filter<T> — a filter that keeps its rate however many items arrive.
//
// Almeida, Baquero, Preguiça & Hutchison 2007 ("Scalable Bloom Filters"): a chain of classic filters
// (stages). Stage i is sized for n0 s^i items at rate p_i = p0 r^i with p0 = p (1 - r); it takes items while
// the rate its own bits give (fill^k) stays within p_i, then a larger and tighter one is added. An item is
// present if any stage reports it, so the compound rate 1 - prod(1 - p_i) < sum p0 r^i < p holds for
// every filter, however many stages, whatever their bits' luck (a stage holds about its capacity).
// Growth s = 2 and tightening r = 0.5 are the defaults (RedisBloom's): 10^6 items from a start of 10^3 take
// about 2.4 times a classic filter sized for 10^6 at 1%, in 10 stages.
//
//     #include <bloom/scalable_bloom_filter.hpp>
//
//     bloom::scalable_bloom_filter<std::string> seen(1'000, 0.01);  // 1 stage of 11,028 bits to start
//     for (const std::string& url : crawl) {
//         if (seen.insert(url)) {   // true: definitely new; false: some stage reports it
//             enqueue(url);
//         }
//     }
//     seen.stage_count();                     // grows by one each time the newest stage fills
//     seen.current_false_positive_rate();     // from the bits; stays below 0.01
//
// Each item is hashed once: every stage uses the same hasher and seed, so one hash probes them all. A
// lookup asks the newest (largest) stage first. Use it when the item count is unknown; when it is known, a
// classic filter sized for it is smaller and faster (one stage, fewer probes).

#include "bloom/bloom_filter.hpp"
#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/classic_layout.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/filter_base.hpp"
#include "bloom/detail/filter_declarations.hpp"
#include "bloom/detail/filter_surface.hpp"
#include "bloom/detail/members.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace bloom {

/// How a scalable filter grows, by name, so no number lands in the wrong parameter:
///
///     bloom::scalable_bloom_filter<std::string> seen(1'000, 0.01,
///     bloom::scalable_options{}.with_growth_factor(4));
///
/// (C++20: `{.growth_factor = 4.0}`.) Defaults: s = 2 and r = 0.5, RedisBloom's, and bloom::default_seed.
struct scalable_options {
    /// s: stage i holds round(n0 s^i) items; in [scalable_bloom_filter::min_growth_factor,
    /// scalable_bloom_filter::max_growth_factor].
    double growth_factor = 2.0;
    /// r: stage i's rate is p (1 - r) r^i; in (0, 1).
    double tightening_ratio = 0.5;
    /// The seed every stage's hash uses; filters combine and compare only with equal seeds.
    std::uint64_t seed = default_seed;

    /// This set of options with growth_factor `value`.
    [[nodiscard]] constexpr scalable_options with_growth_factor(double value) const noexcept {
        scalable_options copy = *this;
        copy.growth_factor = value;
        return copy;
    }
    /// This set of options with tightening_ratio `value`.
    [[nodiscard]] constexpr scalable_options with_tightening_ratio(double value) const noexcept {
        scalable_options copy = *this;
        copy.tightening_ratio = value;
        return copy;
    }
    /// This set of options with seed `value`.
    [[nodiscard]] constexpr scalable_options with_seed(std::uint64_t value) const noexcept {
        scalable_options copy = *this;
        copy.seed = value;
        return copy;
    }
};

/// A scalable Bloom filter of T: classic bloom_filter stages of growing capacity and tightening rate.
/// Hasher: callable std::uint64_t(const K&, std::uint64_t seed), bloom::hash<T> by default.
/// Allocator: allocates the stages' words (rebound to std::uint64_t) and the list of stages.
template <class T, class Hasher = hash<T>, class Allocator = std::allocator<std::uint64_t>>
class scalable_bloom_filter : public detail::filter_surface<scalable_bloom_filter<T, Hasher, Allocator>, T> {
    using surface = detail::filter_surface<scalable_bloom_filter, T>;

  public:
    /// The type of the items.
    using value_type = T;
    /// The hasher every stage uses.
    using hasher = Hasher;
    /// The allocator of the stages' words.
    using allocator_type = Allocator;
    /// The type of counts.
    using size_type = std::uint64_t;
    /// The type of one stage.
    using stage_type = bloom_filter<T, Hasher, Allocator>;

    /// The smallest growth factor s accepted. Items from n0 to n take log(n / n0) / log(s) stages and a
    /// lookup of a non-member asks every one: at s = 1.5 that is 1.7 times the stages of the default s = 2,
    /// at 1.1 it is 7.3 times, and at s = 1 the stage count grows with the items, so inserts take quadratic
    /// time (issue 14: 60,000 inserts took 9.5 s).
    static constexpr double min_growth_factor = 1.5;
    /// The largest growth factor s accepted. Right after a stage is added, (s - 1) / s of the memory is that
    /// empty stage (94% at 16); and the stage a loaded filter adds next is sized for s times the items of the
    /// newest stage its file holds, so the bound keeps a small file from asking for a huge stage. Almeida et
    /// al. use s = 2 and 4.
    static constexpr double max_growth_factor = 16.0;

    /// An empty filter without parameters: no stage, holds nothing. contains() answers false and every count
    /// and rate is 0; insert() throws std::logic_error (it has no capacity or rate to size a stage by).
    /// Assign a constructed filter to use it. A moved-from filter keeps its parameters and grows again.
    scalable_bloom_filter()
        : m_stages(), m_initial_capacity(0), m_false_positive_rate(0.0), m_growth_factor(2.0),
          m_tightening_ratio(0.5), m_seed(default_seed), m_hasher() {}

    /// How the filter grows: growth factor, tightening ratio and seed, by name.
    using options = scalable_options;

    /// A filter whose first stage holds `initial_capacity` items; stage i holds round(n0 s^i) items at rate
    /// p (1 - r) r^i, with s = `settings.growth_factor` and r = `settings.tightening_ratio`, so the compound
    /// rate stays below `false_positive_rate`. Allocates the first stage. Throws std::invalid_argument for
    /// zero capacity, a rate or tightening ratio outside (0, 1), or a growth factor outside
    /// [min_growth_factor, max_growth_factor] (NaN included).
    scalable_bloom_filter(std::uint64_t initial_capacity, double false_positive_rate,
                          const scalable_options& settings = scalable_options(),
                          const Hasher& hash_function = Hasher(), const Allocator& allocator = Allocator())
        : m_stages(stage_allocator(allocator)), m_initial_capacity(initial_capacity),
          m_false_positive_rate(false_positive_rate), m_growth_factor(settings.growth_factor),
          m_tightening_ratio(settings.tightening_ratio), m_seed(settings.seed), m_hasher(hash_function) {
        check_parameters();
        add_stage();
    }

    /// A filter as above holding every value of [first, last) (inserted in order).
    template <class InputIt, class = detail::enable_if_input_iterator_t<InputIt>>
    scalable_bloom_filter(InputIt first, InputIt last, std::uint64_t initial_capacity,
                          double false_positive_rate, const scalable_options& settings = scalable_options(),
                          const Hasher& hash_function = Hasher(), const Allocator& allocator = Allocator())
        : scalable_bloom_filter(initial_capacity, false_positive_rate, settings, hash_function, allocator) {
        insert(first, last);
    }

    /// A filter as above holding `values`.
    scalable_bloom_filter(std::initializer_list<T> values, std::uint64_t initial_capacity,
                          double false_positive_rate, const scalable_options& settings = scalable_options(),
                          const Hasher& hash_function = Hasher(), const Allocator& allocator = Allocator())
        : scalable_bloom_filter(values.begin(), values.end(), initial_capacity, false_positive_rate, settings,
                                hash_function, allocator) {}

    /// A deep copy: every stage.
    scalable_bloom_filter(const scalable_bloom_filter&) = default;
    /// A deep copy: every stage.
    scalable_bloom_filter& operator=(const scalable_bloom_filter&) = default;

    /// A moved-from filter keeps its parameters (and a copy of the hasher) and holds nothing, in no stage; it
    /// grows again from its first stage on insert.
    scalable_bloom_filter(scalable_bloom_filter&& other) noexcept(
        std::is_nothrow_copy_constructible_v<Hasher>)
        : m_stages(std::move(other.m_stages)), m_initial_capacity(other.m_initial_capacity),
          m_false_positive_rate(other.m_false_positive_rate), m_growth_factor(other.m_growth_factor),
          m_tightening_ratio(other.m_tightening_ratio), m_seed(other.m_seed), m_hasher(other.m_hasher),
          m_newest_set_bits(other.m_newest_set_bits) {
        other.m_stages.clear();
        other.m_newest_set_bits = 0;
    }

    /// Takes `other`'s stages; `other` is left as after a move construction.
    scalable_bloom_filter& operator=(scalable_bloom_filter&& other) noexcept(
        (std::allocator_traits<stage_allocator>::propagate_on_container_move_assignment::value ||
         std::allocator_traits<stage_allocator>::is_always_equal::value) &&
        std::is_nothrow_copy_assignable_v<Hasher>) {
        if (this != &other) {
            m_hasher = other.m_hasher; // first: if it throws, nothing else has changed
            detail::move_assign_members(state(), other.state());
            other.m_stages.clear();
            other.m_newest_set_bits = 0;
        }
        return *this;
    }

    ~scalable_bloom_filter() = default;

    // insert and contains, of one key, a range and a list (detail/filter_surface.hpp). insert adds an item
    // to the newest stage unless some stage already reports it; if the bits it would set take the newest
    // stage's rate (from its bits, fill^k) past the stage's share p (1 - r) r^i, it goes to a new stage
    // instead, and it returns true if the item was definitely absent. It throws std::length_error if the next
    // stage's capacity or rate cannot be represented, std::bad_alloc, and std::logic_error if the filter is
    // default-constructed (it has no parameters to size a stage by). contains asks the newest stage first.
    // O(k per stage asked); each item is hashed once for all stages.
    using surface::contains;
    using surface::insert;

    /// Number of stages (at least 1, except in a moved-from filter).
    [[nodiscard]] std::size_t stage_count() const noexcept { return m_stages.size(); }
    /// Stage `index` (0 is the oldest and smallest), for inspection. Precondition: index < stage_count().
    [[nodiscard]] const stage_type& stage(std::size_t index) const noexcept {
        BLOOM_ASSERT(index < m_stages.size());
        return m_stages[index];
    }

    /// Items inserted that were new (insert returned true): the sum of the stages' item counts. O(stages).
    [[nodiscard]] std::uint64_t item_count() const noexcept {
        std::uint64_t total = 0;
        for (const stage_type& stage_filter : m_stages) {
            total += stage_filter.item_count();
        }
        return total;
    }

    /// Distinct items estimated from the bits: the sum of the stages' estimated_item_count(). O(m / 64).
    [[nodiscard]] double estimated_item_count() const noexcept {
        double total = 0.0;
        for (const stage_type& stage_filter : m_stages) {
            total += stage_filter.estimated_item_count();
        }
        return total;
    }

    /// Items the stages built so far were sized for, sum of round(n0 s^i): what the filter holds before it
    /// adds its next stage. 0 for a moved-from filter. O(stages).
    [[nodiscard]] std::uint64_t capacity() const noexcept {
        std::uint64_t total = 0;
        for (const stage_type& stage_filter : m_stages) {
            total += stage_filter.expected_items();
        }
        return total;
    }

    /// estimated_item_count() / capacity(): how full the stages built so far are; the filter grows a stage
    /// rather than pass 1 by much. 0 for a moved-from filter. O(m / 64).
    [[nodiscard]] double load_factor() const noexcept {
        const std::uint64_t sized_for = capacity();
        return sized_for == 0 ? 0.0 : estimated_item_count() / static_cast<double>(sized_for);
    }

    /// The probability that a random non-member is reported present given the bits as they are now: the
    /// compound 1 - prod(1 - p_i) of the stages' current_false_positive_rate() p_i (each stage is asked
    /// independently of the others' bits). 0 when empty. O(m / 64).
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        // sum log1p(-p_i), then -expm1: keeps precision when the p_i are tiny.
        double log_miss = 0.0;
        for (const stage_type& stage_filter : m_stages) {
            log_miss += std::log1p(-stage_filter.current_false_positive_rate());
        }
        return std::isfinite(log_miss) ? -std::expm1(log_miss) : 1.0;
    }

    /// m, the bits of all stages. O(stages).
    [[nodiscard]] std::uint64_t bit_count() const noexcept {
        std::uint64_t total = 0;
        for (const stage_type& stage_filter : m_stages) {
            total += stage_filter.bit_count();
        }
        return total;
    }

    /// Fraction of all stages' bits set, in [0, 1]; 0 when there is no stage. O(m / 64). (Each stage
    /// reports its own; a stage's k and words are in stage(i), as the stages differ in both.)
    [[nodiscard]] double fill_ratio() const noexcept {
        double set = 0.0;
        for (const stage_type& stage_filter : m_stages) {
            set += stage_filter.fill_ratio() * static_cast<double>(stage_filter.bit_count());
        }
        const std::uint64_t bits = bit_count();
        return bits == 0 ? 0.0 : set / static_cast<double>(bits);
    }

    /// Bytes of all stages' bit arrays. O(stages).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        std::size_t total = 0;
        for (const stage_type& stage_filter : m_stages) {
            total += stage_filter.memory_bytes();
        }
        return total;
    }

    /// p, the bound on the compound rate.
    [[nodiscard]] double target_false_positive_rate() const noexcept { return m_false_positive_rate; }
    /// n0, the capacity of the first stage.
    [[nodiscard]] std::uint64_t initial_capacity() const noexcept { return m_initial_capacity; }
    /// s: stage i holds round(n0 s^i) items.
    [[nodiscard]] double growth_factor() const noexcept { return m_growth_factor; }
    /// r: stage i's rate is p (1 - r) r^i.
    [[nodiscard]] double tightening_ratio() const noexcept { return m_tightening_ratio; }
    /// The seed every stage uses.
    [[nodiscard]] std::uint64_t seed() const noexcept { return m_seed; }
    /// A copy of the hasher every stage uses.
    [[nodiscard]] hasher hash_function() const { return m_hasher; }
    /// A copy of the allocator of the stages' words.
    [[nodiscard]] allocator_type get_allocator() const { return allocator_type(m_stages.get_allocator()); }

    /// Removes every item: keeps the parameters and only the first stage, emptied.
    void clear() {
        if (m_stages.empty()) {
            add_stage();
        }
        m_stages.erase(m_stages.begin() + 1, m_stages.end());
        m_stages.front().clear();
        m_newest_set_bits = 0;
    }

    /// Exchanges the contents (stages, parameters, seed, hasher) with `other`. O(1).
    void swap(scalable_bloom_filter& other) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        using std::swap;
        swap(m_hasher, other.m_hasher); // first: if it throws, nothing else has changed
        auto theirs = other.state();
        state().swap(theirs);
    }
    /// Exchanges the contents of `left` and `right`. O(1).
    friend void swap(scalable_bloom_filter& left,
                     scalable_bloom_filter& right) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        left.swap(right);
    }

  private:
    // Every member but the hasher, as references: swapping the tuples swaps the members.
    [[nodiscard]] auto state() noexcept {
        return std::tie(m_stages, m_initial_capacity, m_false_positive_rate, m_growth_factor,
                        m_tightening_ratio, m_seed, m_newest_set_bits);
    }

    friend surface;

    void require_insertable(const char* call) const {
        if (m_initial_capacity == 0) {
            detail::throw_insert_into_empty(where, call);
        }
    }

    bool insert_hash(std::uint64_t hash) {
        if (contains_hash(hash)) {
            return false;
        }
        insert_new(hash);
        return true;
    }

    // The loader (the serialization layer) builds a filter without stages, then adds the saved ones.
    template <class>
    friend struct detail::record_traits;
    struct without_stages_tag {};

    scalable_bloom_filter(without_stages_tag, std::uint64_t initial_capacity, double false_positive_rate,
                          double growth_factor, double tightening_ratio, std::uint64_t seed,
                          const Hasher& hash_function, const Allocator& allocator)
        : m_stages(stage_allocator(allocator)), m_initial_capacity(initial_capacity),
          m_false_positive_rate(false_positive_rate), m_growth_factor(growth_factor),
          m_tightening_ratio(tightening_ratio), m_seed(seed), m_hasher(hash_function),
          m_newest_set_bits(unknown_set_bits) {
        check_parameters();
    }

    using stage_allocator = typename std::allocator_traits<Allocator>::template rebind_alloc<stage_type>;

    static constexpr const char* where = "bloom::scalable_bloom_filter";

    template <class K>
    [[nodiscard]] std::uint64_t hash_of(const K& value) const
        noexcept(noexcept(detail::seeded_hash(std::declval<const Hasher&>(), value, 0))) {
        // The hash each stage's own insert and contains would compute: same hasher, same seed.
        return detail::seeded_hash(m_hasher, value, m_seed);
    }

    // The range forms, a window of items at a time (filter_surface's hash_window). Lookups go stage by
    // stage, newest first as contains_hash goes, each stage asked only about the items no newer stage
    // holds: asked one item at a time, a non-member waits on a miss in every large stage in turn; asked
    // together, a stage past prefetch_stage_from_bits has the lines of their first probe group prefetched
    // lookup_ahead items ahead. Only the first group: a non-member reads no further 15 times in 16 at half
    // fill, and it is asked in every stage. Measured at 10^6 and 10^7 items (bench/README, "Scalable bulk
    // operations stage by stage"): prefetching all k lines, as bloom_filter's range forms do, or answering
    // each stage by the classic batch kernels (all k gathered), made bulk lookups of non-members 1.1-1.5x
    // slower than single ones; prefetching in stages below 1 MiB, in the cache, made them 1.2x slower.
    // Every stage scales the same points to its own bit count (first_group_points), so the window's points
    // are computed once and each stage pays a multiply per probe: with every stage in the cache (10^6
    // items), where bulk lookups of non-members had come out even with single ones, they take about 0.8x.
    static constexpr std::size_t hash_window = 256;
    using first_group_points = detail::classic_layout::first_group_points;
    static constexpr std::size_t lookup_ahead = detail::classic_layout::window;
    static constexpr std::uint64_t prefetch_stage_from_bits = detail::prefetch_from_bytes * 8 / 2;
    static_assert(hash_window <= 65536, "item_of holds a window's places in 16 bits");

    template <class OutputIt>
    OutputIt contains_window(const std::uint64_t* hashes, std::size_t count, OutputIt out) const {
        bool present[hash_window] = {};
        ask_stages(hashes, count, m_stages.size(), present);
        for (std::size_t i = 0; i < count; ++i) {
            *out = present[i];
            ++out;
        }
        return out;
    }

    // Inserts go item by item in order, as insert_hash goes, so each answer sees the items before it. Only
    // the newest stage (and any stage an item adds) takes them: the older ones are asked about the whole
    // window first, as lookups ask, and the newest item by item, its lines prefetched lookup_ahead ahead.
    std::size_t insert_window(const std::uint64_t* hashes, std::size_t count) {
        bool present[hash_window] = {};
        const std::size_t settled = m_stages.empty() ? 0 : m_stages.size() - 1;
        ask_stages(hashes, count, settled, present);
        std::size_t inserted = 0;
        for (std::size_t i = 0; i < count; ++i) {
            if (i + lookup_ahead < count && !m_stages.empty()) {
                const stage_type& newest = m_stages.back(); // the one inserts go to (an insert may add one)
                if (newest.bit_count() >= prefetch_stage_from_bits) {
                    detail::classic_layout::prefetch<true>(newest.data(), newest.geometry(),
                                                           hashes[i + lookup_ahead]);
                }
            }
            if (present[i] || held_from(settled, hashes[i])) {
                continue;
            }
            insert_new(hashes[i]);
            ++inserted;
        }
        return inserted;
    }

    // Marks present[i] for each of the `count` items one of the stages [0, stage_count) holds.
    void ask_stages(const std::uint64_t* hashes, std::size_t count, std::size_t stage_count,
                    bool* present) const noexcept {
        if (stage_count == 0) {
            return;
        }
        std::uint64_t unresolved[hash_window];  // hashes of the items no stage asked so far holds
        std::uint16_t item_of[hash_window];     // their places in the window
        first_group_points groups[hash_window]; // each item's first group, for every stage of its scheme
        const probe_scheme scheme = m_stages[stage_count - 1].geometry().probes;
        std::size_t left = count;
        for (std::size_t i = 0; i < count; ++i) {
            unresolved[i] = hashes[i];
            item_of[i] = static_cast<std::uint16_t>(i);
            groups[i] = detail::classic_layout::first_group_of(scheme, hashes[i]);
        }
        for (std::size_t stage_index = stage_count; stage_index-- > 0 && left != 0;) {
            const stage_type& stage_filter = m_stages[stage_index];
            if (stage_filter.geometry().probes != scheme) { // a loaded stage of another probe scheme
                left = ask_stage<false, false>(stage_filter, groups, unresolved, item_of, left, present);
            } else if (stage_filter.bit_count() >= prefetch_stage_from_bits) {
                left = ask_stage<true, true>(stage_filter, groups, unresolved, item_of, left, present);
            } else {
                left = ask_stage<false, true>(stage_filter, groups, unresolved, item_of, left, present);
            }
        }
    }

    // ask_stages' step: asks `stage_filter` about the `left` unresolved items, marks those it holds
    // present, and keeps the others, in order, at the front; returns how many it kept. With `ByGroups`
    // (the stage's probe scheme is the one of `groups`), an item's first group is tested from its points
    // and only the items whose group is set (15 non-members in 16 are not) are looked up whole.
    template <bool Prefetch, bool ByGroups>
    static std::size_t ask_stage(const stage_type& stage_filter, const first_group_points* groups,
                                 std::uint64_t* unresolved, std::uint16_t* item_of, std::size_t left,
                                 bool* present) noexcept {
        const std::uint64_t* words = stage_filter.data();
        const filter_geometry geometry = stage_filter.geometry();
        if constexpr (Prefetch) {
            for (std::size_t i = 0; i < left && i < lookup_ahead; ++i) {
                detail::classic_layout::prefetch_first_group(words, geometry, groups[item_of[i]]);
            }
        }
        std::size_t kept = 0;
        for (std::size_t i = 0; i < left; ++i) {
            if constexpr (Prefetch) {
                if (i + lookup_ahead < left) {
                    detail::classic_layout::prefetch_first_group(words, geometry,
                                                                 groups[item_of[i + lookup_ahead]]);
                }
            }
            const std::uint16_t item = item_of[i];
            bool held;
            if constexpr (ByGroups) {
                held = detail::classic_layout::first_group_set(words, geometry, groups[item]) &&
                       detail::classic_layout::contains_past_first_group(words, geometry, unresolved[i]);
            } else {
                held = detail::filter_access::contains(stage_filter, unresolved[i]);
            }
            // Kept or resolved without a branch on the answer, which mixed lookups would mispredict.
            present[item] = present[item] || held;
            unresolved[kept] = unresolved[i];
            item_of[kept] = item;
            kept += held ? 0 : 1;
        }
        return kept;
    }

    [[nodiscard]] bool contains_hash(std::uint64_t hash) const noexcept { return held_from(0, hash); }

    // Whether one of the stages from `first_stage` on holds the item.
    [[nodiscard]] bool held_from(std::size_t first_stage, std::uint64_t hash) const noexcept {
        // Newest first: the newest stage is the largest and holds the most items (half of them at s = 2).
        for (std::size_t i = m_stages.size(); i-- > first_stage;) {
            if (detail::filter_access::contains(m_stages[i], hash)) {
                return true;
            }
        }
        return false;
    }

    // A stage takes an item only while the rate its bits give stays within its share. Almeida et al. add a
    // stage at a fixed item count, but the rate at that count varies from filter to filter with how the
    // items' bits happened to collide: by about 13% at a capacity of 1,000 and by 10x for the one-item
    // first stage of a filter started at capacity 1 (REFERENCES.md: 15 of 20 such filters above their
    // target). Asking the bits makes the compound rate 1 - prod(1 - p_i) < p hold for every filter. An
    // item that would overfill even an empty stage (possible in stages of a few dozen bits) moves on to
    // the next, larger one; after a few such stages it is taken anyway.
    void insert_new(std::uint64_t hash) {
        // Stages added for this item are empty: if a later one cannot be made, they go again and the filter
        // is as it was (the strong guarantee).
        const std::size_t stages_before = m_stages.size();
        const std::uint64_t set_bits_before = m_newest_set_bits;
        detail::undo_on_error(
            [&] { place(hash); },
            [&] {
                m_stages.erase(m_stages.begin() + static_cast<std::ptrdiff_t>(stages_before), m_stages.end());
                m_newest_set_bits = set_bits_before;
            });
    }

    void place(std::uint64_t hash) {
        constexpr unsigned max_empty_stages_skipped = 8;
        for (unsigned skipped = 0;; ++skipped) {
            if (m_stages.empty()) {
                add_stage();
            }
            stage_type& newest = m_stages.back();
            if (m_newest_set_bits == unknown_set_bits) {
                m_newest_set_bits = static_cast<std::uint64_t>(
                    std::llround(newest.fill_ratio() * static_cast<double>(newest.bit_count())));
            }
            const std::uint64_t set_after =
                m_newest_set_bits + detail::filter_access::unset_probe_count(newest, hash);
            const bool fits = detail::rate_from_fill(set_after, newest.bit_count(), newest.hash_count()) <=
                              newest.target_false_positive_rate();
            if (fits || (newest.item_count() == 0 && skipped >= max_empty_stages_skipped)) {
                detail::filter_access::insert(newest, hash);
                m_newest_set_bits = set_after;
                return;
            }
            add_stage();
        }
    }

    void check_parameters() const {
        if (m_initial_capacity == 0) {
            detail::throw_invalid_argument(where, "initial_capacity", "must be at least 1, got 0");
        }
        detail::check_rate(where, m_false_positive_rate);
        // Written so that NaN fails too.
        if (!(m_growth_factor >= min_growth_factor && m_growth_factor <= max_growth_factor)) {
            detail::throw_invalid_argument(where, "growth_factor",
                                           "must be in [" + detail::to_display(min_growth_factor) + ", " +
                                               detail::to_display(max_growth_factor) + "], got " +
                                               detail::to_display(m_growth_factor));
        }
        if (!(m_tightening_ratio > 0.0 && m_tightening_ratio < 1.0)) {
            detail::throw_invalid_argument(where, "tightening_ratio",
                                           "must be in (0, 1), got " +
                                               detail::to_display(m_tightening_ratio));
        }
    }

    // Stage i: capacity round(n0 s^i), rate p (1 - r) r^i (detail::scalable_stage). A stage that cannot be
    // represented is a container that cannot grow: std::length_error, as std::vector throws, not the
    // std::invalid_argument the stage's own constructor would.
    void add_stage() {
        const std::size_t index = m_stages.size();
        const detail::scalable_stage_target target = detail::scalable_stage(
            m_initial_capacity, m_false_positive_rate, m_growth_factor, m_tightening_ratio, index);
        const double capacity = std::round(target.capacity);
        const double rate = target.rate;
        const double bits = -capacity * std::log(rate) / (detail::ln2 * detail::ln2);
        const auto fail = [&](const std::string& what) {
            detail::throw_length_error(where, "cannot add stage " + std::to_string(index) + ": " + what);
        };
        constexpr double two_to_64 = 18446744073709551616.0;
        if (!(capacity < two_to_64)) {
            fail("its capacity " + detail::to_display(capacity) + " does not fit in 64 bits");
        }
        if (!(rate > 0.0)) {
            fail("its false_positive_rate underflows to 0");
        }
        if (!(bits < static_cast<double>(detail::max_addressable_bits()))) {
            fail("its " + detail::to_display(bits) +
                 " bits do not fit in 64 bits or in this platform's memory");
        }
        m_stages.emplace_back(static_cast<std::uint64_t>(capacity), rate, m_seed, m_hasher,
                              Allocator(m_stages.get_allocator()));
        m_newest_set_bits = 0;
    }

    std::vector<stage_type, stage_allocator> m_stages;
    std::uint64_t m_initial_capacity;
    double m_false_positive_rate;
    double m_growth_factor;
    double m_tightening_ratio;
    std::uint64_t m_seed;
    Hasher m_hasher;
    // Set bits of the newest stage, kept by insert_new (unknown_set_bits after a load: counted on first use).
    static constexpr std::uint64_t unknown_set_bits = ~std::uint64_t{0};
    std::uint64_t m_newest_set_bits = 0;
};

} // namespace bloom

#endif // BLOOM_SCALABLE_BLOOM_FILTER_HPP
