// SPDX-License-Identifier: MIT
// bloom/scalable_bloom_filter.hpp: growth from 10^3 to 10^6 items (no false negatives, the target rate,
// memory against a classic filter), the stages' capacities and rates, the compound rate formula, hashing
// once, value semantics, errors and allocators.
//
// Expected values are computed here from the definitions (Almeida, Baquero, Preguiça & Hutchison 2007):
// stage i holds round(n0 s^i) items at rate p (1 - r) r^i, sized by the classic formulas; the compound
// rate is 1 - prod(1 - p_i).
#include "catch.hpp"
#include "test_support.hpp"

#include <bloom/hash.hpp>
#include <bloom/scalable_bloom_filter.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using bloom_test::allocation_stats;
using bloom_test::count_found;
using bloom_test::counting_allocator;
using bloom_test::insert_keys;
using bloom_test::key;

template <class T = std::uint64_t>
using scalable = bloom::scalable_bloom_filter<T>;

constexpr double ln2 = 0.693147180559945309417232121458176568;

/// Bits of a classic filter for n items at rate p, computed here: ceil(-n ln p / (ln 2)^2).
std::uint64_t classic_bits(std::uint64_t items, double rate) {
    return static_cast<std::uint64_t>(std::ceil(-static_cast<double>(items) * std::log(rate) / (ln2 * ln2)));
}

/// 1 - prod(1 - p_i) over the stages' formula rates at their item counts, computed here.
template <class Filter>
double compound_formula_rate(const Filter& filter) {
    double all_miss = 1.0;
    for (std::size_t i = 0; i < filter.stage_count(); ++i) {
        const auto& stage = filter.stage(i);
        if (stage.item_count() != 0) {
            all_miss *=
                1.0 - bloom_test::formula_rate(stage.bit_count(), stage.hash_count(), stage.item_count());
        }
    }
    return 1.0 - all_miss;
}

/// 1 - prod(1 - p_i) over the stages' rates from their bits, fill^k, computed here.
template <class Filter>
double compound_rate_from_bits(const Filter& filter) {
    double all_miss = 1.0;
    for (std::size_t i = 0; i < filter.stage_count(); ++i) {
        all_miss *= 1.0 - bloom_test::rate_from_words(filter.stage(i));
    }
    return 1.0 - all_miss;
}

/// A stage's bits: the classic size, or a little more where the exact rate at that size would break the
/// promise (bloom_filter's sizing, bloom_test::classic_promise). Checks both ways: not below the textbook
/// size, not far above it, and its own rate (exact for small stages; for large ones the formula, which the
/// exact rate only exceeds) within the promise.
void check_stage_bits(std::uint64_t bits, unsigned hashes, std::uint64_t capacity, double rate) {
    const std::uint64_t textbook = classic_bits(capacity, rate);
    const double promise = bloom_test::classic_promise(capacity, rate);
    CHECK(bits >= textbook);
    CHECK(bits <= textbook + textbook / 4 + 2);
    if (textbook <= 4096) {
        CHECK(bloom_test::exact_rate(bits, hashes, capacity) <= promise * (1.0 + 1e-9));
    } else {
        CHECK(bloom_test::formula_rate(bits, hashes, capacity) <= promise * (1.0 + 1e-9));
        CHECK(bits <= textbook + textbook / 20); // integer k never asks for more than a few %
    }
}

/// The standard deviation of one filter's rate around the formula's p = f^k (m bits, k probes, n items):
/// its fill X/m varies around f = 1 - e^(-kn/m) with standard deviation s = sqrt(e^(-kn/m) (1 - (1 + kn/m)
/// e^(-kn/m)) / m) (balls into bins), so its rate relatively by k s / f: the derivation of the allowance
/// in bloom_test::rate_tolerance.
double stage_rate_sd(std::uint64_t bit_count, unsigned hash_count, std::uint64_t items) {
    const double m = static_cast<double>(bit_count);
    const double k = static_cast<double>(hash_count);
    const double load = k * static_cast<double>(items) / m;
    const double empty = std::exp(-load);
    const double fill_sd = std::sqrt(empty * (1.0 - (1.0 + load) * empty) / m);
    return k * fill_sd / (1.0 - empty) * bloom_test::formula_rate(bit_count, hash_count, items);
}

/// A hasher that counts its calls (shared by every copy, so by every stage).
struct call_counting_hasher {
    using is_avalanching = void;
    std::uint64_t* calls;

    std::uint64_t operator()(std::uint64_t value, std::uint64_t seed) const noexcept {
        ++*calls;
        return bloom::hash<std::uint64_t>{}(value, seed);
    }
};

} // namespace

TEST_CASE("scalable: from 1000 to 10^6 items: no false negatives, the target rate, bounded memory",
          "[scalable][fpr]") {
    constexpr std::uint64_t items = 1'000'000;
    constexpr std::uint64_t queries = 1'000'000;
    constexpr double target = 0.01;
    scalable<> filter(1'000, target);
    const std::uint64_t inserted = insert_keys(filter, 0, items);
    CHECK(filter.item_count() == inserted);
    // An insert returns false only when some stage already reports the item: about 1% at most.
    CHECK(inserted > items - items / 50);

    // Stages of 1000 * 2^i: nine full ones hold 511,000 items, so the rest need a tenth (of 512,000).
    CHECK(filter.stage_count() == 10);
    CHECK(count_found(filter, 0, items) == items);

    // The rate over 10^6 non-members. Three checks, each with its sigma written down:
    // (1) at most the target p within 4 sigma, sigma^2 = p (1 - p) / queries (the queries' binomial noise)
    //     + sum_i sd_i^2 (each stage's own spread around its formula rate, stage_rate_sd; the first stages
    //     are small and carry most of the rate, so this one filter's rate varies by about 2% of p);
    // (2) equal to the rate the stages' actual bits give, 1 - prod(1 - fill_i^k_i), within 4 binomial
    //     sigma + 1% (fill^k ignores an item's probes landing twice on one bit): the stages answer as
    //     independent filters although one hash probes them all;
    // (3) that realised rate equal to the compound formula within 4 sqrt(sum_i sd_i^2) + 1%.
    {
        const double measured =
            static_cast<double>(count_found(filter, items, items + queries)) / static_cast<double>(queries);
        const double expected = compound_formula_rate(filter);
        double realised_miss = 1.0;
        double stage_variance = 0.0;
        for (std::size_t i = 0; i < filter.stage_count(); ++i) {
            const auto& stage = filter.stage(i);
            const double fill =
                static_cast<double>(bloom_test::set_bits(stage)) / static_cast<double>(stage.bit_count());
            realised_miss *= 1.0 - std::pow(fill, static_cast<double>(stage.hash_count()));
            const double sd = stage_rate_sd(stage.bit_count(), stage.hash_count(), stage.item_count());
            stage_variance += sd * sd;
        }
        const double realised = 1.0 - realised_miss;
        const double binomial_sigma = std::sqrt(target * (1.0 - target) / static_cast<double>(queries));
        const double sigma = std::sqrt(binomial_sigma * binomial_sigma + stage_variance);
        INFO("measured " << measured << ", realised by the bits " << realised << ", compound formula "
                         << expected << ", target " << target << "; binomial sigma " << binomial_sigma
                         << ", stages' sigma " << std::sqrt(stage_variance));
        CHECK(measured <= target + 4.0 * sigma);
        CHECK(std::fabs(measured - realised) <= 4.0 * binomial_sigma + 0.01 * realised);
        CHECK(std::fabs(realised - expected) <= 4.0 * std::sqrt(stage_variance) + 0.01 * expected);
        // What the filter promises: the rate its bits give stays below the target (a stage takes items only
        // while its own share holds), and it reports exactly that.
        CHECK(realised <= target);
        CHECK(std::fabs(filter.current_false_positive_rate() - realised) <= 1e-9 * realised);
    }

    // Memory: within 2.5 times a classic filter sized for 10^6 at 1% from the start (1.2 MB).
    const std::uint64_t classic_bytes = (classic_bits(items, target) + 63) / 64 * 8;
    std::size_t stage_bytes = 0;
    for (std::size_t i = 0; i < filter.stage_count(); ++i) {
        stage_bytes += (filter.stage(i).bit_count() + 63) / 64 * 8;
    }
    INFO("scalable " << filter.memory_bytes() << " bytes, classic " << classic_bytes << " bytes: ratio "
                     << static_cast<double>(filter.memory_bytes()) / static_cast<double>(classic_bytes));
    CHECK(filter.memory_bytes() == stage_bytes);
    CHECK(static_cast<double>(filter.memory_bytes()) <= 2.5 * static_cast<double>(classic_bytes));
}

TEST_CASE("scalable: stage i holds about round(n0 s^i) items at rate p (1 - r) r^i", "[scalable][stages]") {
    struct parameters {
        std::uint64_t initial_capacity;
        double rate;
        double growth;
        double tightening;
        std::uint64_t items; // inserted
    };
    // Integer and fractional growth (s = 1.5, the smallest allowed: 128 s^i = 2^(7-i) 3^i is an integer
    // for the eight stages reached), the largest growth (16), and tightening ratios from 0.25 to 0.9.
    const parameters all[] = {{1'000, 0.01, 2.0, 0.5, 60'000},
                              {128, 0.05, 1.5, 0.8, 5'000},
                              {10, 0.001, 3.0, 0.25, 5'000},
                              {1, 0.1, 16.0, 0.9, 400}};
    for (const parameters& p : all) {
        scalable<> filter(p.initial_capacity, p.rate, {p.growth, p.tightening, 11});
        CHECK(filter.initial_capacity() == p.initial_capacity);
        CHECK(filter.target_false_positive_rate() == p.rate);
        CHECK(filter.growth_factor() == p.growth);
        CHECK(filter.tightening_ratio() == p.tightening);
        CHECK(filter.seed() == 11);
        const std::uint64_t inserted = insert_keys(filter, 0, p.items);

        std::uint64_t held = 0;
        double capacity = static_cast<double>(p.initial_capacity);
        double stage_rate = p.rate * (1.0 - p.tightening);
        for (std::size_t i = 0; i < filter.stage_count(); ++i) {
            const auto& stage = filter.stage(i);
            const auto expected_capacity = static_cast<std::uint64_t>(std::llround(capacity));
            INFO("n0 " << p.initial_capacity << ", s " << p.growth << ", r " << p.tightening << ": stage "
                       << i);
            CHECK(stage.expected_items() == expected_capacity);
            CHECK(std::fabs(stage.target_false_positive_rate() - stage_rate) <= 1e-12 * stage_rate);
            check_stage_bits(stage.bit_count(), stage.hash_count(), expected_capacity, stage_rate);
            CHECK(stage.seed() == 11);
            // A stage takes items while the rate of its bits stays within its share: every stage's is, and
            // every stage but the newest is full, holding about its capacity (the fill varies around its
            // mean by a few sd, s / f relative, so the count by about as much; allow 10% plus 2 items).
            CHECK(bloom_test::rate_from_words(stage) <= stage_rate * (1.0 + 1e-12));
            const double slack = 0.1 * static_cast<double>(expected_capacity) + 2.0;
            CHECK(static_cast<double>(stage.item_count()) <= static_cast<double>(expected_capacity) + slack);
            if (i + 1 < filter.stage_count()) {
                CHECK(static_cast<double>(stage.item_count()) >=
                      static_cast<double>(expected_capacity) - slack);
            }
            held += stage.item_count();
            capacity *= p.growth;
            stage_rate *= p.tightening;
        }
        CHECK(held == inserted);
        CHECK(filter.item_count() == inserted);
        CHECK(filter.stage_count() >= 4);
    }
}

TEST_CASE("scalable: the compound rate is 1 - prod(1 - p_i) and stays below the target",
          "[scalable][observers]") {
    for (const double target : {0.1, 0.01, 0.001}) {
        scalable<> filter(100, target);
        CHECK(filter.current_false_positive_rate() == 0.0);
        std::uint64_t inserted = 0;
        for (std::uint64_t next = 50; next <= 200'000; next *= 2) {
            insert_keys(filter, inserted, next);
            inserted = next;
            const double expected = compound_rate_from_bits(filter);
            INFO("target " << target << ", " << next << " items, " << filter.stage_count() << " stages");
            CHECK(std::fabs(filter.current_false_positive_rate() - expected) <= 1e-9 * expected);
            CHECK(filter.current_false_positive_rate() <= target);
            CHECK(filter.load_factor() <= 1.05);
        }
        // Full stages have about their own target rates: their sum approaches p (1 - r^stages).
        CHECK(filter.current_false_positive_rate() > 0.8 * target);
    }

    SECTION("a hand-computed case") {
        // n0 = 1, p = 0.5, s = 1.5, r = 0.5: stages for round(1.5^i) = 1, 2, 2, 3 items, sized for rates
        // 0.25, 0.125, 0.0625, 0.03125.
        scalable<> filter(1, 0.5, bloom::scalable_options{}.with_growth_factor(1.5));
        // Some keys are false positives of the first stages and go nowhere: insert until five are held.
        for (std::uint64_t i = 0; i < 100 && filter.item_count() < 5; ++i) {
            filter.insert(key<std::uint64_t>(i));
        }
        // The first three stages hold five items between them, unless an item would have overfilled a stage
        // even alone: it then went on to the next one, leaving that stage empty.
        REQUIRE(filter.stage_count() >= 3);
        const std::uint64_t capacities[] = {1, 2, 2, 3, 5, 8, 11, 17};
        double all_miss = 1.0;
        std::uint64_t held = 0;
        for (std::size_t i = 0; i < filter.stage_count(); ++i) {
            const auto& stage = filter.stage(i);
            const double share = 0.5 * std::pow(0.5, static_cast<double>(i + 1));
            REQUIRE(i < std::size(capacities));
            CHECK(stage.expected_items() == capacities[i]);
            check_stage_bits(stage.bit_count(), stage.hash_count(), capacities[i], share);
            CHECK(bloom_test::rate_from_words(stage) <= share);
            held += stage.item_count();
            all_miss *= 1.0 - bloom_test::rate_from_words(stage);
        }
        CHECK(held == 5);
        CHECK(std::fabs(filter.current_false_positive_rate() - (1.0 - all_miss)) <= 1e-12);
    }
}

TEMPLATE_TEST_CASE("scalable: inserted values are always found, however many stages", "[scalable][insert]",
                   std::uint64_t, std::string) {
    scalable<TestType> filter(100, 0.01);
    const std::uint64_t inserted = insert_keys(filter, 0, 20'000);
    CHECK(filter.stage_count() == 8); // 100 * (2^8 - 1) = 25,500 >= 20,000 > 12,700
    CHECK(count_found(filter, 0, 20'000) == 20'000);
    // Inserting again adds nothing anywhere: every value is reported by some stage.
    CHECK(insert_keys(filter, 0, 20'000) == 0);
    CHECK(filter.item_count() == inserted);
    CHECK(filter.stage_count() == 8);

    SECTION("a range insert counts the same") {
        std::vector<TestType> values;
        for (std::uint64_t i = 0; i < 20'000; ++i) {
            values.push_back(key<TestType>(i));
        }
        scalable<TestType> ranged(100, 0.01);
        CHECK(ranged.insert(values.begin(), values.end()) == inserted);
        CHECK(ranged.stage_count() == 8);
        for (std::size_t i = 0; i < ranged.stage_count(); ++i) {
            CHECK(ranged.stage(i) == filter.stage(i));
        }
    }
}

TEST_CASE("scalable: each insert and lookup hashes the item once, however many stages", "[scalable][hash]") {
    std::uint64_t calls = 0;
    bloom::scalable_bloom_filter<std::uint64_t, call_counting_hasher> filter(
        10, 0.01, bloom::scalable_options{}, call_counting_hasher{&calls});
    for (std::uint64_t i = 0; i < 1'000; ++i) {
        filter.insert(key<std::uint64_t>(i));
    }
    CHECK(filter.stage_count() == 7); // 10 * (2^7 - 1) = 1270 >= 1000 > 630
    CHECK(calls == 1'000);
    calls = 0;
    CHECK(count_found(filter, 0, 1'000) == 1'000);
    count_found(filter, 1'000, 2'000);
    CHECK(calls == 2'000);
}

TEST_CASE("scalable: copies, moves, swap and clear", "[scalable][value]") {
    scalable<> original(100, 0.01, bloom::scalable_options{}.with_seed(3));
    insert_keys(original, 0, 1'000);
    const std::size_t stages = original.stage_count();
    const scalable<> copy = original;
    insert_keys(original, 1'000, 2'000);
    CHECK(copy.stage_count() == stages);
    CHECK(count_found(copy, 0, 1'000) == 1'000);

    SECTION("clear keeps the parameters and one empty stage") {
        original.clear();
        CHECK(original.stage_count() == 1);
        CHECK(original.item_count() == 0);
        CHECK(original.stage(0).expected_items() == 100);
        CHECK(original.stage(0).fill_ratio() == 0.0);
        CHECK(original.memory_bytes() == (classic_bits(100, 0.005) + 63) / 64 * 8);
        CHECK(original.seed() == 3);
        CHECK(count_found(original, 0, 2'000) == 0);
        insert_keys(original, 0, 1'000);
        CHECK(original.stage_count() == stages);
    }
    SECTION("a moved-from filter holds nothing and grows again") {
        scalable<> moved(std::move(original));
        CHECK(count_found(moved, 0, 2'000) == 2'000);
        // NOLINTBEGIN(bugprone-use-after-move): the moved-from state is documented.
        CHECK(original.stage_count() == 0);
        CHECK(original.item_count() == 0);
        CHECK(original.memory_bytes() == 0);
        CHECK(original.current_false_positive_rate() == 0.0);
        CHECK_FALSE(original.contains(key<std::uint64_t>(0)));
        CHECK(original.insert(key<std::uint64_t>(0)));
        CHECK(original.stage_count() == 1);
        CHECK(original.contains(key<std::uint64_t>(0)));
        original = std::move(moved);
        CHECK(count_found(original, 0, 2'000) == 2'000);
        CHECK(moved.stage_count() == 0);
        // NOLINTEND(bugprone-use-after-move)
    }
    SECTION("swap exchanges everything") {
        scalable<> other(10, 0.1, {3.0, 0.75, 4});
        other.insert(std::uint64_t{42});
        swap(original, other);
        CHECK(original.seed() == 4);
        CHECK(original.growth_factor() == 3.0);
        CHECK(original.tightening_ratio() == 0.75);
        CHECK(original.item_count() == 1);
        CHECK(other.seed() == 3);
        CHECK(count_found(other, 0, 2'000) == 2'000);
    }
}

TEST_CASE("scalable: invalid parameters throw std::invalid_argument naming the parameter",
          "[scalable][errors]") {
    using bloom_test::require_invalid_argument;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double infinity = std::numeric_limits<double>::infinity();
    require_invalid_argument([] { scalable<>(0, 0.01); }, "initial_capacity");
    for (const double rate : {0.0, 1.0, -0.1, 2.0, nan}) {
        require_invalid_argument([rate] { scalable<>(1'000, rate); }, "false_positive_rate");
    }
    // Growth below 1.5 makes lookups ask many stages (at 1, inserts take quadratic time); above 16 a file
    // could make its loader allocate far more than it holds.
    for (const double growth :
         {0.0, 0.5, 0.999, 1.0, 1.4, 1.4999999, 16.000001, 1e300, -2.0, nan, infinity}) {
        require_invalid_argument(
            [growth] {
                scalable<>(1'000, 0.01, {growth, 0.5, 1});
            },
            {"growth_factor", "bloom::scalable_bloom_filter"});
    }
    for (const double tightening : {0.0, 1.0, -0.5, 1.5, nan, infinity}) {
        require_invalid_argument(
            [tightening] {
                scalable<>(1'000, 0.01, {2.0, tightening, 1});
            },
            "tightening_ratio");
    }
    // The boundaries that are allowed.
    CHECK_NOTHROW(scalable<>(1, 0.01, {1.5, 0.5, 1}));
    CHECK_NOTHROW(scalable<>(1, 0.01, {16.0, 0.5, 1}));
    CHECK(scalable<>::min_growth_factor == 1.5);
    CHECK(scalable<>::max_growth_factor == 16.0);
    CHECK_NOTHROW(scalable<>(1, 0.01, {2.0, 0.999, 1}));
}

TEST_CASE("scalable: a stage that cannot be represented throws std::length_error and changes nothing",
          "[scalable][errors]") {
    // Inserts new values until one needs the stage that cannot be made; that insert must throw and leave
    // the filter as it was.
    const auto check_growth_stops = [](scalable<>& filter, std::size_t most_stages) {
        std::uint64_t next = 0;
        bool threw = false;
        for (; next < 100'000 && !threw; ++next) {
            const std::size_t stages = filter.stage_count();
            const std::uint64_t items = filter.item_count();
            try {
                filter.insert(key<std::uint64_t>(next));
            } catch (const std::length_error&) {
                threw = true;
                CHECK(filter.stage_count() == stages);
                CHECK(filter.item_count() == items);
                CHECK_FALSE(filter.contains(key<std::uint64_t>(next)));
            }
        }
        REQUIRE(threw);
        CHECK(filter.stage_count() >= 1);
        CHECK(filter.stage_count() <= most_stages);
        CHECK(count_found(filter, 0, next - 1) == next - 1);
    };
    // With growth at most 16, a stage of 2^64 items would follow one of 2^60, which no memory holds: only
    // the rate can run out.
    SECTION("a rate that underflows to 0") {
        // r = 1e-200: stage 1 has rate 1e-202, stage 2 would have 1e-402 (stage 1 may be made and given up
        // again by the insert that fails, if the value would overfill it).
        scalable<> filter(1, 0.01, {1.5, 1e-200, 1});
        check_growth_stops(filter, 2);
    }
}

TEMPLATE_TEST_CASE("scalable: a stateful allocator holds the stages", "[scalable][allocator]",
                   counting_allocator<std::uint64_t>, counting_allocator<char>) {
    using filter_type = bloom::scalable_bloom_filter<std::uint64_t, bloom::hash<std::uint64_t>, TestType>;
    allocation_stats stats;
    {
        const TestType allocator(&stats);
        filter_type filter(100, 0.01, {2.0, 0.5, 1}, bloom::hash<std::uint64_t>(), allocator);
        insert_keys(filter, 0, 1'000);
        CHECK(filter.stage_count() == 4);
        CHECK(filter.get_allocator() == allocator);
        CHECK(filter.stage(3).get_allocator() == allocator);
        // The stages' words and the list of stages.
        CHECK(stats.live_bytes > static_cast<std::int64_t>(filter.memory_bytes()));
        const filter_type copy = filter;
        CHECK(count_found(copy, 0, 1'000) == 1'000);
    }
    CHECK(stats.live_bytes == 0);
    CHECK(stats.allocations == stats.deallocations);
}
