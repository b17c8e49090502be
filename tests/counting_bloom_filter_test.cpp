// SPDX-License-Identifier: MIT
// bloom/counting_bloom_filter.hpp: insert/remove/contains/count against a model, the rate against the
// classic formula, saturation, the precondition-free guarantees of remove, observers, value semantics,
// errors and allocators, for 4-, 8- and 16-bit counters.
//
// The reference model below is written again from the documented scheme, independently of the header:
// the item's 64-bit hash is bloom::hash's word path ("MUM2") of the integer with the seed (it declares itself
// avalanching, so no extra mixing), its k counter indices follow the enhanced double hashing of
// golden_test.cpp, and counters are plain integers that saturate at 2^CounterBits - 1. Its words are
// packed by the documented layout: counter i is bits [(i % (64 / W)) W, +W) of word i / (64 / W).
#include "catch.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bloom/counting_bloom_filter.hpp>
#include <bloom/hash.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

using bloom_test::allocation_stats;
using bloom_test::count_found;
using bloom_test::counting_allocator;
using bloom_test::insert_keys;
using bloom_test::key;

using width4 = std::integral_constant<std::size_t, 4>;
using width8 = std::integral_constant<std::size_t, 8>;
using width16 = std::integral_constant<std::size_t, 16>;

template <class Width, class T = std::uint64_t>
using counting = bloom::counting_bloom_filter<T, Width::value>;

// ---- the reference model ----

/// Counters of `width` bits held as plain integers, updated by the documented rules.
class reference_counters {
  public:
    reference_counters(std::uint64_t counter_count, unsigned hash_count, std::uint64_t seed, unsigned width)
        : m_counters(static_cast<std::size_t>(counter_count), 0), m_hash_count(hash_count), m_seed(seed),
          m_width(width), m_max((std::uint32_t{1} << width) - 1) {}

    /// The k counter indices of `value`, by the classic layout's probe scheme (bloom_test::mixed_positions).
    const std::vector<std::uint64_t>& indices(std::uint64_t value) {
        m_indices = bloom_test::mixed_positions(bloom_test::mum2_of_word(value, m_seed), m_counters.size(),
                                                m_hash_count);
        return m_indices;
    }

    /// Increments each index's counter (twice if it appears twice) unless it is at the maximum. Returns
    /// whether some counter was 0 before.
    bool insert(std::uint64_t value) {
        bool was_new = false;
        for (const std::uint64_t index : indices(value)) {
            was_new = was_new || m_counters[index] == 0;
        }
        for (const std::uint64_t index : m_indices) {
            if (m_counters[index] < m_max) {
                ++m_counters[index];
            }
        }
        return was_new;
    }

    /// Removes `value` if every unsaturated counter holds at least as many as the times the item's
    /// probes hit it (so none would go below 0): decrements those, leaves saturated ones. Returns whether
    /// it removed.
    bool remove(std::uint64_t value) {
        std::unordered_map<std::uint64_t, std::uint32_t> hits;
        for (const std::uint64_t index : indices(value)) {
            ++hits[index];
        }
        for (const auto& [index, times] : hits) {
            if (m_counters[index] != m_max && m_counters[index] < times) {
                return false;
            }
        }
        for (const auto& [index, times] : hits) {
            if (m_counters[index] != m_max) {
                m_counters[index] -= times;
            }
        }
        return true;
    }

    bool contains(std::uint64_t value) { return count(value) != 0; }

    std::uint64_t count(std::uint64_t value) {
        std::uint32_t smallest = m_max;
        for (const std::uint64_t index : indices(value)) {
            smallest = std::min(smallest, m_counters[index]);
        }
        return smallest;
    }

    /// The documented packing of the counters into 64-bit words.
    std::vector<std::uint64_t> words() const {
        const std::size_t per_word = 64 / m_width;
        std::vector<std::uint64_t> result((m_counters.size() + per_word - 1) / per_word, 0);
        for (std::size_t i = 0; i < m_counters.size(); ++i) {
            result[i / per_word] |= static_cast<std::uint64_t>(m_counters[i]) << ((i % per_word) * m_width);
        }
        return result;
    }

    std::uint64_t saturated() const {
        return static_cast<std::uint64_t>(std::count(m_counters.begin(), m_counters.end(), m_max));
    }

  private:
    std::vector<std::uint32_t> m_counters;
    unsigned m_hash_count;
    std::uint64_t m_seed;
    unsigned m_width;
    std::uint32_t m_max;
    std::vector<std::uint64_t> m_indices;
};

template <class Filter>
std::vector<std::uint64_t> words_of(const Filter& filter) {
    return std::vector<std::uint64_t>(filter.data(), filter.data() + filter.word_count());
}

template <class Filter>
reference_counters reference_for(const Filter& filter) {
    return reference_counters(filter.counter_count(), filter.hash_count(), filter.seed(),
                              static_cast<unsigned>(Filter::counter_bits));
}

/// The counters of a filter's words, unpacked by the documented layout.
template <class Filter>
std::vector<std::uint64_t> unpacked_counters(const Filter& filter) {
    const std::size_t width = Filter::counter_bits;
    const std::size_t per_word = 64 / width;
    const std::uint64_t mask = (std::uint64_t{1} << width) - 1;
    std::vector<std::uint64_t> counters;
    for (std::uint64_t i = 0; i < filter.counter_count(); ++i) {
        counters.push_back((filter.data()[i / per_word] >> ((i % per_word) * width)) & mask);
    }
    return counters;
}

/// What a model run found wrong, and where it first did.
struct model_failures {
    std::uint64_t false_negatives = 0;
    std::uint64_t disagreements = 0; // an answer or the counters differ from the reference model
    std::uint64_t first_step = 0;
    std::string first_what;

    void note(std::uint64_t step, std::uint64_t& counter, const char* what) {
        if (false_negatives + disagreements == 0) {
            first_step = step;
            first_what = what;
        }
        ++counter;
    }
};

struct model_settings {
    std::uint64_t operations;
    std::uint64_t expected_items; // the filter's sizing
    std::uint64_t universe;       // keys are drawn from indices [0, universe)
    std::uint64_t target_live;    // inserts outweigh removes below this many held items, and the reverse
    std::uint64_t seed;           // of the operation stream
};

/// Runs random interleaved inserts, removes and lookups on a counting filter, a multiset of the items
/// held and the reference counters. Removes take an item held (the precondition) or one the filter
/// proves absent. Every step checks the item operated on (no false negative; every answer and count equal
/// to the reference's) and two held items in rotation; every 4096 steps all counters are compared with
/// the reference's, and every 65536 steps (and at the end) every held item is looked up.
template <class Width>
model_failures run_model(const model_settings& settings) {
    counting<Width> filter(settings.expected_items, 0.01, settings.seed ^ 0xf11e);
    reference_counters reference = reference_for(filter);
    std::unordered_multiset<std::uint64_t> held;
    std::vector<std::uint64_t> held_list; // the same items, for drawing one at random
    const bloom_test::random_u64_keys keys{settings.seed};
    bloom_test::splitmix64 random(settings.seed);
    model_failures failures;
    std::uint64_t rotation = 0;

    const auto check_item = [&](std::uint64_t step, std::uint64_t value) {
        const bool is_held = held.count(value) != 0;
        const bool found = filter.contains(value);
        if (is_held && !found) {
            failures.note(step, failures.false_negatives, "false negative");
        }
        if (found != reference.contains(value) || filter.count(value) != reference.count(value)) {
            failures.note(step, failures.disagreements, "contains or count differs from the reference");
        }
    };

    for (std::uint64_t step = 0; step < settings.operations; ++step) {
        const double draw = random.unit();
        const double insert_share = held_list.size() < settings.target_live ? 0.45 : 0.30;
        std::uint64_t value = 0;
        if (draw < insert_share) {
            value = keys(random.next() % settings.universe);
            const bool expected = reference.insert(value);
            if (filter.insert(value) != expected) {
                failures.note(step, failures.disagreements, "insert's answer differs from the reference");
            }
            held.insert(value);
            held_list.push_back(value);
        } else if (draw < 0.75) {
            if (held_list.empty()) {
                continue;
            }
            const std::size_t slot = static_cast<std::size_t>(random.next() % held_list.size());
            value = held_list[slot];
            const bool expected = reference.remove(value);
            if (!expected || !filter.remove(value)) {
                failures.note(step, failures.disagreements, "removing a held item failed");
            }
            held.erase(held.find(value));
            held_list[slot] = held_list.back();
            held_list.pop_back();
        } else if (draw < 0.85) {
            value = keys(random.next() % settings.universe);
            if (held.count(value) == 0 && !filter.contains(value)) {
                // Proven absent: remove must refuse and change nothing (checked against the reference).
                if (filter.remove(value)) {
                    failures.note(step, failures.disagreements, "removing a proven-absent item succeeded");
                }
            }
        } else {
            value = keys(random.next() % settings.universe);
        }
        check_item(step, value);
        for (int i = 0; i < 2 && !held_list.empty(); ++i) {
            check_item(step, held_list[static_cast<std::size_t>(rotation++ % held_list.size())]);
        }
        if (step % 4096 == 0 && words_of(filter) != reference.words()) {
            failures.note(step, failures.disagreements, "the counters differ from the reference");
        }
        if (step % 65536 == 0 || step + 1 == settings.operations) {
            for (const std::uint64_t member : held_list) {
                if (!filter.contains(member)) {
                    failures.note(step, failures.false_negatives, "false negative in a sweep");
                }
            }
        }
    }
    if (words_of(filter) != reference.words() || filter.saturated_counters() != reference.saturated()) {
        failures.note(settings.operations, failures.disagreements, "the final counters differ");
    }
    if (filter.item_count() != held_list.size()) {
        failures.note(settings.operations, failures.disagreements, "item_count differs from the items held");
    }
    return failures;
}

template <class Width>
void check_model(const model_settings& settings) {
    const model_failures failures = run_model<Width>(settings);
    INFO(Width::value << "-bit counters, seed " << settings.seed << ": " << failures.false_negatives
                      << " false negatives, " << failures.disagreements << " disagreements; first at step "
                      << failures.first_step << ": " << failures.first_what);
    CHECK(failures.false_negatives == 0);
    CHECK(failures.disagreements == 0);
}

} // namespace

TEMPLATE_TEST_CASE("counting: 10^6 random inserts, removes and lookups never give a false negative",
                   "[counting][model]", width4, width8, width16) {
    // About 1000 items held at a time in a filter sized for 2000, drawn from 3000 keys: items come and go,
    // many several times over, and some are held twice or more.
    check_model<TestType>({1'000'000, 2'000, 3'000, 1'000, 0x5eed0001ULL});
}

TEST_CASE("counting: a crowded 4-bit filter saturates counters and still gives no false negative",
          "[counting][model]") {
    // 400 items held in a filter sized for 100: counters reach 15 and stick, and the model still holds.
    check_model<width4>({200'000, 100, 1'000, 400, 0x5eed0002ULL});
}

TEMPLATE_TEST_CASE("counting: remove never takes a counter below zero, even for items never inserted",
                   "[counting][remove]", width4, width8, width16) {
    // Few counters and many probes: an item's probes often hit one counter twice. Removing anything at all
    // (breaking the precondition, so false negatives are allowed here) must follow the reference's rule
    // exactly: all or nothing, and no counter below zero.
    counting<TestType> filter(bloom::filter_geometry{24, 6}, 4);
    reference_counters reference = reference_for(filter);
    bloom_test::splitmix64 random(0x5eed0003ULL);
    std::uint64_t refused = 0;
    std::uint64_t refused_though_found = 0; // every counter non-zero, but one hit twice holds only 1
    std::uint64_t differences = 0;
    for (std::uint64_t step = 0; step < 50'000; ++step) {
        const std::uint64_t value = random.next() % 40;
        if (random.unit() < 0.4) {
            differences += filter.insert(value) != reference.insert(value) ? 1 : 0;
        } else {
            const bool found = reference.contains(value);
            const bool removed = reference.remove(value);
            refused += removed ? 0 : 1;
            refused_though_found += found && !removed ? 1 : 0;
            differences += filter.remove(value) != removed ? 1 : 0;
        }
        differences += words_of(filter) != reference.words() ? 1 : 0;
    }
    CHECK(differences == 0);
    // Both ways of refusing were exercised.
    INFO(refused << " refused, " << refused_though_found << " of them with every counter non-zero");
    CHECK(refused > 1'000);
    CHECK(refused_though_found > 10);
}

TEMPLATE_TEST_CASE("counting: inserted values are found and removed values are forgotten",
                   "[counting][insert]", std::uint64_t, std::string) {
    counting<width4, TestType> filter(10'000, 0.01);
    CHECK(insert_keys(filter, 0, 10'000) > 9'900);
    CHECK(count_found(filter, 0, 10'000) == 10'000);
    for (std::uint64_t i = 0; i < 10'000; i += 2) {
        CHECK(filter.remove(key<TestType>(i)));
    }
    // The odd ones are still there; the even ones are gone unless the odd ones cover them, at the rate of
    // a filter holding 5000 items (formula: 0.03%, about 1.3 of 5000).
    CHECK(filter.item_count() == 5'000);
    std::uint64_t odd_found = 0;
    std::uint64_t even_found = 0;
    for (std::uint64_t i = 0; i < 10'000; ++i) {
        (i % 2 == 0 ? even_found : odd_found) += filter.contains(key<TestType>(i)) ? 1 : 0;
    }
    CHECK(odd_found == 5'000);
    CHECK(even_found < 20);
    for (std::uint64_t i = 1; i < 10'000; i += 2) {
        CHECK(filter.remove(key<TestType>(i)));
    }
    // Every counter is back at zero: the filter equals a fresh one.
    CHECK(filter == counting<width4, TestType>(10'000, 0.01));
    CHECK(filter.item_count() == 0);
    CHECK(count_found(filter, 0, 10'000) == 0);
}

TEMPLATE_TEST_CASE("counting: removing a proven-absent item returns false and changes nothing",
                   "[counting][remove]", width4, width8, width16) {
    counting<TestType> filter(1'000, 0.01);
    SECTION("an empty filter") {
        for (std::uint64_t i = 0; i < 100; ++i) {
            CHECK_FALSE(filter.remove(key<std::uint64_t>(i)));
        }
        CHECK(filter == counting<TestType>(1'000, 0.01));
        CHECK(filter.item_count() == 0);
    }
    SECTION("a filter holding items") {
        insert_keys(filter, 0, 1'000);
        const std::vector<std::uint64_t> before = words_of(filter);
        std::uint64_t refused = 0;
        for (std::uint64_t i = 1'000; i < 3'000; ++i) {
            const std::uint64_t value = key<std::uint64_t>(i);
            if (!filter.contains(value)) {
                CHECK_FALSE(filter.remove(value));
                ++refused;
            }
        }
        CHECK(refused > 1'900); // the rest are the ~1% false positives, left alone
        CHECK(words_of(filter) == before);
        CHECK(filter.item_count() == 1'000);
        CHECK(count_found(filter, 0, 1'000) == 1'000);
    }
}

TEMPLATE_TEST_CASE("counting: the rate after n inserts, and after removes, follows the classic formula",
                   "[counting][fpr]", width4, width8, width16) {
    // As fpr_test.cpp: members [0, n), 10^6 non-members [3n, 3n + 10^6), |measured - formula| within
    // bloom_test::rate_tolerance (4 sigma binomial + the formula's allowance), formula computed here.
    constexpr std::uint64_t items = 100'000;
    constexpr std::uint64_t queries = 1'000'000;
    counting<TestType> filter(items, 0.01);
    const auto check_rate = [&](std::uint64_t held) {
        const double expected = bloom_test::formula_rate(filter.counter_count(), filter.hash_count(), held);
        const double tolerance =
            bloom_test::rate_tolerance(expected, queries, filter.counter_count(), filter.hash_count(), held);
        const double measured = static_cast<double>(count_found(filter, 3 * items, 3 * items + queries)) /
                                static_cast<double>(queries);
        INFO(held << " items held: measured " << measured << ", formula " << expected << ", tolerance "
                  << tolerance);
        CHECK(std::fabs(measured - expected) <= tolerance);
    };
    insert_keys(filter, 0, items);
    check_rate(items);
    // Twice the items, then the first n removed again: the rate falls back to that of the n held.
    insert_keys(filter, items, 2 * items);
    for (std::uint64_t i = 0; i < items; ++i) {
        REQUIRE(filter.remove(key<std::uint64_t>(i)));
    }
    CHECK(count_found(filter, items, 2 * items) == items);
    check_rate(items);
}

TEMPLATE_TEST_CASE("counting: a saturated counter sticks and never causes a false negative",
                   "[counting][saturation]", width4, width8, width16) {
    constexpr std::uint64_t max_value = (std::uint64_t{1} << TestType::value) - 1;
    STATIC_REQUIRE(counting<TestType>::max_counter == max_value);
    counting<TestType> filter(1'000, 0.01);
    reference_counters reference = reference_for(filter);
    insert_keys(filter, 0, 500);
    const std::uint64_t heavy = key<std::uint64_t>(777'777);
    std::vector<std::uint64_t> heavy_indices = reference.indices(heavy);
    std::sort(heavy_indices.begin(), heavy_indices.end());
    const auto distinct = static_cast<std::uint64_t>(std::unique(heavy_indices.begin(), heavy_indices.end()) -
                                                     heavy_indices.begin());

    // max + 5 inserts (20 for 4-bit counters): every counter of the heavy item sticks at the maximum, and
    // at this load no other counter comes near it.
    const std::uint64_t repeats = max_value + 5;
    for (std::uint64_t i = 0; i < repeats; ++i) {
        filter.insert(heavy);
    }
    CHECK(filter.count(heavy) == max_value);
    CHECK(filter.saturated_counters() == distinct);
    CHECK(filter.saturated_counters() > 0);
    for (std::uint64_t i = 0; i < repeats; ++i) {
        CHECK(filter.remove(heavy)); // its counters are non-zero: accepted, but the saturated ones stay
    }
    CHECK(filter.contains(heavy)); // still "maybe present": the filter cannot forget it
    CHECK(filter.count(heavy) == max_value);
    CHECK(filter.saturated_counters() == distinct);
    CHECK(count_found(filter, 0, 500) == 500); // no false negative for the others
    for (std::uint64_t i = 0; i < 500; ++i) {
        CHECK(filter.remove(key<std::uint64_t>(i)));
    }
    // Only the heavy item's counters are left, each at the maximum.
    CHECK(filter.contains(heavy));
    std::uint64_t non_zero = 0;
    for (const std::uint64_t counter : unpacked_counters(filter)) {
        CHECK((counter == 0 || counter == max_value));
        non_zero += counter != 0 ? 1 : 0;
    }
    CHECK(non_zero == distinct);
    // item_count: 520 inserts (or max + 505) minus as many removes, never below 0.
    CHECK(filter.item_count() == 0);
    CHECK(filter.remove(heavy));
    CHECK(filter.item_count() == 0);
}

TEMPLATE_TEST_CASE("counting: count is the smallest counter, an upper bound of the multiplicity",
                   "[counting][count]", width4, width8, width16) {
    counting<TestType> filter(10'000, 0.01);
    reference_counters reference = reference_for(filter);
    for (std::uint64_t i = 0; i < 2'000; ++i) {
        const std::uint64_t times = i % 5 + 1;
        for (std::uint64_t t = 0; t < times; ++t) {
            filter.insert(key<std::uint64_t>(i));
            reference.insert(key<std::uint64_t>(i));
        }
    }
    std::uint64_t exact = 0;
    for (std::uint64_t i = 0; i < 2'000; ++i) {
        const std::uint64_t value = key<std::uint64_t>(i);
        CHECK(filter.count(value) >= i % 5 + 1);
        CHECK(filter.count(value) == reference.count(value));
        exact += filter.count(value) == i % 5 + 1 ? 1 : 0;
    }
    CHECK(exact > 1'900); // a sparse filter: most items own at least one counter alone
    std::uint64_t absent_zero = 0;
    for (std::uint64_t i = 2'000; i < 4'000; ++i) {
        absent_zero += filter.count(key<std::uint64_t>(i)) == 0 ? 1 : 0;
    }
    CHECK(absent_zero > 1'900);
    CHECK(filter.item_count() == 6'000); // every insert counts: 2000 items, 1 to 5 times each
}

TEMPLATE_TEST_CASE("counting: a sized filter has the classic filter's shape", "[counting][observers]", width4,
                   width8, width16) {
    counting<TestType> filter(10'000, 0.01, 77);
    // The classic sizing for 10^4 items at 1% (bloom_filter_test.cpp): 95,851 bits, 7 probes; here counters.
    CHECK(filter.counter_count() == 95'851);
    CHECK(filter.bit_count() == 95'851);
    CHECK(filter.hash_count() == 7);
    CHECK(filter.seed() == 77);
    CHECK(filter.expected_items() == 10'000);
    CHECK(filter.target_false_positive_rate() == 0.01);
    CHECK(filter.item_count() == 0);
    CHECK(filter.saturated_counters() == 0);
    const std::size_t words = (95'851 * TestType::value + 63) / 64;
    CHECK(filter.word_count() == words);
    CHECK(filter.memory_bytes() == words * 8);
    STATIC_REQUIRE(counting<TestType>::counter_bits == TestType::value);
    STATIC_REQUIRE(std::is_same_v<typename counting<TestType>::value_type, std::uint64_t>);
    STATIC_REQUIRE(std::is_same_v<typename counting<TestType>::hasher, bloom::hash<std::uint64_t>>);
    STATIC_REQUIRE(
        std::is_same_v<typename counting<TestType>::allocator_type, std::allocator<std::uint64_t>>);
    STATIC_REQUIRE(std::is_same_v<typename counting<TestType>::size_type, std::uint64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(filter.hash_function()), bloom::hash<std::uint64_t>>);
    CHECK(filter.get_allocator() == std::allocator<std::uint64_t>());

    // Counters past counter_count() in the last word stay 0, even in a full filter.
    insert_keys(filter, 0, 30'000);
    const std::uint64_t used_bits = (95'851 * TestType::value) % 64;
    if (used_bits != 0) {
        CHECK((filter.data()[filter.word_count() - 1] >> used_bits) == 0);
    }

    SECTION("a filter built from a geometry") {
        counting<TestType> shaped(bloom::filter_geometry{1000, 5}, 9);
        CHECK(shaped.counter_count() == 1000);
        CHECK(shaped.hash_count() == 5);
        CHECK(shaped.seed() == 9);
        CHECK(shaped.memory_bytes() == (1000 * TestType::value + 63) / 64 * 8);
        // round(1000 ln 2 / 5) = 139, and the formula's rate there.
        CHECK(shaped.expected_items() == 139);
        const double expected = bloom_test::formula_rate(1000, 5, 139);
        CHECK(std::fabs(shaped.target_false_positive_rate() - expected) <= 1e-12 * expected);
    }
}

TEMPLATE_TEST_CASE("counting: rate, fill and estimate observers follow their formulas",
                   "[counting][observers]", width4, width8, width16) {
    counting<TestType> filter(10'000, 0.01);
    CHECK(filter.current_false_positive_rate() == 0.0);
    CHECK(filter.fill_ratio() == 0.0);
    CHECK(filter.estimated_item_count() == 0.0);
    insert_keys(filter, 0, 5'000);
    const double m = static_cast<double>(filter.counter_count());
    std::uint64_t non_zero = 0;
    for (const std::uint64_t counter : unpacked_counters(filter)) {
        non_zero += counter != 0 ? 1 : 0;
    }
    // The rate a non-member sees: each of its k independent probes finds a non-zero counter with
    // probability (non-zero counters) / m.
    const double expected_rate = std::pow(static_cast<double>(non_zero) / m, filter.hash_count());
    CHECK(std::fabs(filter.current_false_positive_rate() - expected_rate) <= 1e-12 * expected_rate);
    CHECK(filter.fill_ratio() == static_cast<double>(non_zero) / m);
    const double estimate = -(m / filter.hash_count()) * std::log(1.0 - static_cast<double>(non_zero) / m);
    CHECK(std::fabs(filter.estimated_item_count() - estimate) <= 1e-9 * estimate);
    CHECK(std::fabs(filter.estimated_item_count() - 5'000.0) <= 100.0); // within 2% of the truth
    CHECK(std::fabs(filter.load_factor() - filter.estimated_item_count() / 10'000.0) <= 1e-12);

    // item_count counts repeats too: the same item twice is two.
    filter.insert(key<std::uint64_t>(1));
    CHECK(filter.item_count() == 5'001);
    CHECK(filter.remove(key<std::uint64_t>(1)));
    CHECK(filter.item_count() == 5'000);
}

TEMPLATE_TEST_CASE("counting: range insert and lookup match one at a time", "[counting][insert]",
                   std::uint64_t, std::string) {
    std::vector<TestType> values;
    for (std::uint64_t i = 0; i < 3'000; ++i) {
        values.push_back(key<TestType>(i % 2'000)); // 1000 repeats
    }
    counting<width4, TestType> single(2'000, 0.01);
    const std::uint64_t single_new = insert_keys(single, 0, 2'000) + insert_keys(single, 0, 1'000);
    counting<width4, TestType> ranged(2'000, 0.01);
    CHECK(ranged.insert(values.begin(), values.end()) == single_new);
    CHECK(ranged == single);
    CHECK(ranged.item_count() == 3'000);

    std::vector<TestType> queries;
    for (std::uint64_t i = 0; i < 5'000; ++i) {
        queries.push_back(key<TestType>(i));
    }
    std::vector<char> found(queries.size());
    ranged.contains(queries.begin(), queries.end(), found.begin());
    for (std::size_t i = 0; i < queries.size(); ++i) {
        CHECK(static_cast<bool>(found[i]) == ranged.contains(queries[i]));
    }
}

TEST_CASE("counting: copies, moves, swap and clear", "[counting][value]") {
    counting<width4> original(1'000, 0.01, 5);
    insert_keys(original, 0, 500);
    const counting<width4> copy = original;
    CHECK(copy == original);
    original.remove(key<std::uint64_t>(0));
    CHECK(copy != original);
    CHECK(count_found(copy, 0, 500) == 500);
    CHECK(copy.compatible_with(original));
    CHECK_FALSE(copy.compatible_with(counting<width4>(1'000, 0.01, 6)));
    CHECK_FALSE(copy.compatible_with(counting<width4>(2'000, 0.01, 5)));

    SECTION("a moved-from filter is empty: it removes and counts nothing") {
        counting<width4> moved(std::move(original));
        CHECK(count_found(moved, 1, 500) == 499);
        CHECK(moved.seed() == 5);
        // NOLINTBEGIN(bugprone-use-after-move): the moved-from state is documented.
        // What every kind's empty state does is in contract_test.cpp; here what counting adds.
        CHECK(original.counter_count() == 0);
        CHECK_FALSE(original.remove(key<std::uint64_t>(123)));
        CHECK(original.count(key<std::uint64_t>(123)) == 0);
        CHECK(original.saturated_counters() == 0);
        original = copy;
        CHECK(original == copy);
        // NOLINTEND(bugprone-use-after-move)
    }
    SECTION("swap exchanges everything") {
        counting<width4> other(bloom::filter_geometry{640, 3}, 8);
        other.insert(std::uint64_t{42});
        const counting<width4> other_copy = other;
        const counting<width4> original_copy = original;
        swap(original, other);
        CHECK(original == other_copy);
        CHECK(other == original_copy);
        CHECK(original.seed() == 8);
        CHECK(original.item_count() == 1);
        CHECK(other.item_count() == 499);
    }
    SECTION("clear zeroes the counters and keeps the shape") {
        original.clear();
        CHECK(original == counting<width4>(1'000, 0.01, 5));
        CHECK(original.item_count() == 0);
        CHECK(count_found(original, 0, 500) == 0);
        CHECK(original.insert(key<std::uint64_t>(0)));
    }
}

TEST_CASE("counting: invalid parameters throw std::invalid_argument naming the parameter",
          "[counting][errors]") {
    using bloom_test::require_invalid_argument;
    require_invalid_argument([] { counting<width4>(0, 0.01); }, "expected_items");
    for (const double rate : {0.0, 1.0, -0.5, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
        require_invalid_argument([rate] { counting<width4>(1'000, rate); }, "false_positive_rate");
    }
    require_invalid_argument([] { counting<width4>(bloom::filter_geometry{0, 3}); }, "bit_count");
    require_invalid_argument([] { counting<width4>(bloom::filter_geometry{1000, 0}); }, "hash_count");
    // Counters whose storage bits overflow 64 bits: 2^62 counters of 4 bits, 2^60 of 16 bits.
    require_invalid_argument(
        [] {
            counting<width4>(bloom::filter_geometry{std::uint64_t{1} << 62, 3});
        },
        std::vector<std::string>{"bit_count", "4611686018427387904"});
    require_invalid_argument(
        [] {
            counting<width16>(bloom::filter_geometry{std::uint64_t{1} << 60, 3});
        },
        "bit_count");
    // 2^62 items at 50% need 6.6e18 counters: fine as bits, too many as 4-bit counters.
    require_invalid_argument([] { counting<width4>(std::uint64_t{1} << 62, 0.5); }, "expected_items");
}

TEMPLATE_TEST_CASE("counting: a stateful allocator holds the counters", "[counting][allocator]",
                   counting_allocator<std::uint64_t>, counting_allocator<char>) {
    using filter_type = bloom::counting_bloom_filter<std::uint64_t, 8, bloom::hash<std::uint64_t>, TestType>;
    allocation_stats stats;
    {
        const TestType allocator(&stats);
        filter_type filter(10'000, 0.01, bloom::default_seed, bloom::hash<std::uint64_t>(), allocator);
        CHECK(stats.live_bytes == static_cast<std::int64_t>(filter.memory_bytes()));
        CHECK(filter.memory_bytes() == (filter.counter_count() * 8 + 63) / 64 * 8);
        CHECK(filter.get_allocator() == allocator);
        insert_keys(filter, 0, 1'000);
        filter_type copy(filter);
        CHECK(stats.live_bytes == 2 * static_cast<std::int64_t>(filter.memory_bytes()));
        CHECK(copy == filter);
    }
    CHECK(stats.live_bytes == 0);
    CHECK(stats.allocations == stats.deallocations);
}
