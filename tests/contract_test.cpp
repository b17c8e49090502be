// SPDX-License-Identifier: MIT
// The contract every filter kind shares, tested once over the kinds: keys are never narrowed, errors
// name the call the user made, filters differing only in allocator combine, noexcept only where true.
#include "catch.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bloom/aligned_allocator.hpp>
#include <bloom/blocked_bloom_filter.hpp>
#include <bloom/bloom_filter.hpp>
#include <bloom/concurrent_bloom_filter.hpp>
#include <bloom/counting_bloom_filter.hpp>
#include <bloom/filter_view.hpp>
#include <bloom/parquet.hpp>
#include <bloom/scalable_bloom_filter.hpp>
#include <bloom/serialization.hpp>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using bloom_test::count_found;
using bloom_test::insert_keys;
using bloom_test::key;

namespace {

/// The message of the std::invalid_argument `call` throws, or "" if it throws none.
template <class Call>
std::string invalid_argument_message(Call&& call) {
    try {
        call();
    } catch (const std::invalid_argument& error) {
        return error.what();
    }
    return "";
}

/// The name a filter type's constructor gives in its errors.
template <class Filter>
std::string constructor_name() {
    if constexpr (std::is_same_v<Filter, bloom::bloom_filter<int>>) {
        return "bloom::bloom_filter";
    } else if constexpr (std::is_same_v<Filter, bloom::blocked_bloom_filter<int>>) {
        return "bloom::blocked_bloom_filter";
    } else if constexpr (std::is_same_v<Filter, bloom::counting_bloom_filter<int>>) {
        return "bloom::counting_bloom_filter";
    } else if constexpr (std::is_same_v<Filter, bloom::concurrent_bloom_filter<int>>) {
        return "bloom::concurrent_bloom_filter";
    } else {
        return "bloom::concurrent_blocked_bloom_filter";
    }
}

/// A hasher whose copy, move and swap may throw (as a user's hasher holding a std::string may).
struct throwing_hasher {
    throwing_hasher() = default;
    throwing_hasher(const throwing_hasher&) noexcept(false) {}
    throwing_hasher(throwing_hasher&&) noexcept(false) {}
    throwing_hasher& operator=(const throwing_hasher&) noexcept(false) { return *this; }
    throwing_hasher& operator=(throwing_hasher&&) noexcept(false) { return *this; }
    std::uint64_t operator()(int value, std::uint64_t seed) const noexcept {
        return static_cast<std::uint64_t>(value) ^ seed;
    }
};

template <template <class, class> class Kind>
void require_noexcept_follows_the_hasher() {
    using plain = Kind<int, bloom::hash<int>>;
    using throwing = Kind<int, throwing_hasher>;
    STATIC_REQUIRE(std::is_nothrow_move_constructible_v<plain>);
    STATIC_REQUIRE(std::is_nothrow_swappable_v<plain>);
    STATIC_REQUIRE_FALSE(std::is_nothrow_move_constructible_v<throwing>);
    STATIC_REQUIRE_FALSE(std::is_nothrow_swappable_v<throwing>);
}

template <class T, class Hasher>
using classic_kind = bloom::bloom_filter<T, Hasher>;
template <class T, class Hasher>
using blocked_kind = bloom::blocked_bloom_filter<T, Hasher>;
template <class T, class Hasher>
using counting_kind = bloom::counting_bloom_filter<T, 4, Hasher>;
template <class T, class Hasher>
using scalable_kind = bloom::scalable_bloom_filter<T, Hasher>;
template <class T, class Hasher>
using concurrent_kind = bloom::concurrent_bloom_filter<T, Hasher>;
template <class T, class Hasher>
using concurrent_blocked_kind = bloom::concurrent_blocked_bloom_filter<T, Hasher>;

} // namespace

TEST_CASE("moves and swaps are noexcept exactly when the hasher's are", "[contract][value]") {
    require_noexcept_follows_the_hasher<classic_kind>();
    require_noexcept_follows_the_hasher<blocked_kind>();
    require_noexcept_follows_the_hasher<counting_kind>();
    require_noexcept_follows_the_hasher<scalable_kind>();
    require_noexcept_follows_the_hasher<concurrent_kind>();
    require_noexcept_follows_the_hasher<concurrent_blocked_kind>();
}

TEMPLATE_TEST_CASE("a constructor's errors name the constructor, not the sizing function behind it",
                   "[contract][errors]", bloom::bloom_filter<int>, bloom::blocked_bloom_filter<int>,
                   bloom::counting_bloom_filter<int>, bloom::concurrent_bloom_filter<int>,
                   bloom::concurrent_blocked_bloom_filter<int>) {
    const std::string kind = constructor_name<TestType>();
    CHECK(invalid_argument_message([] { TestType filter(0, 0.01); }) ==
          kind + ": expected_items must be at least 1, got 0");
    CHECK(invalid_argument_message([] {
              TestType filter(100, 1.5);
          }).rfind(kind + ": false_positive_rate ", 0) == 0);
    CHECK(invalid_argument_message([] {
              TestType filter(std::uint64_t{1} << 62, 1e-9);
          }).rfind(kind + ": expected_items ", 0) == 0);
}

TEMPLATE_TEST_CASE("filters differing only in allocator combine", "[contract][allocator]",
                   (std::pair<bloom::bloom_filter<std::uint64_t>,
                              bloom::bloom_filter<std::uint64_t, bloom::hash<std::uint64_t>,
                                                  bloom::aligned_allocator<std::uint64_t, 64>>>),
                   (std::pair<bloom::blocked_bloom_filter<std::uint64_t>,
                              bloom::blocked_bloom_filter<std::uint64_t, bloom::hash<std::uint64_t>,
                                                          std::allocator<std::uint64_t>>>)) {
    using mine_type = typename TestType::first_type;
    using theirs_type = typename TestType::second_type;
    mine_type mine(2000, 0.01);
    theirs_type theirs(2000, 0.01);
    insert_keys(mine, 0, 1000);
    insert_keys(theirs, 1000, 2000);

    mine_type united = mine;
    united |= theirs;
    CHECK(count_found(united, 0, 2000) == 2000);
    mine_type intersected = united;
    intersected &= theirs;
    CHECK(count_found(intersected, 1000, 2000) == 1000);
    CHECK(std::equal(intersected.data(), intersected.data() + intersected.word_count(), theirs.data()));

    // Shapes are still checked: a filter sized otherwise is refused, naming the difference.
    theirs_type other_size(4000, 0.01);
    bloom_test::require_invalid_argument([&] { united |= other_size; }, "bit_count");
}

TEMPLATE_TEST_CASE("a filter of small integers does not find wider keys by narrowing them",
                   "[contract][hash]", bloom::bloom_filter<std::uint8_t>,
                   bloom::blocked_bloom_filter<std::uint8_t>, bloom::counting_bloom_filter<std::uint8_t>) {
    // Every std::uint8_t is inserted, so a narrowing lookup would find every int: 300 narrows to 44.
    TestType filter(256, 0.01);
    for (int value = 0; value < 256; ++value) {
        filter.insert(static_cast<std::uint8_t>(value));
    }
    for (int value = 0; value < 256; ++value) {
        REQUIRE(filter.contains(value));
    }
    // Wider keys are non-members: found at the filter's rate, about 1% (6 sigma over 10^4 queries is 0.6%;
    // a five-block blocked filter's rate varies more), never at the 100% narrowing gives.
    constexpr int queries = 10'000;
    int found = 0;
    for (int value = 256; value < 256 + queries; ++value) {
        found += filter.contains(value) ? 1 : 0;
    }
    found += filter.contains(-1) ? 1 : 0;
    CHECK(found < queries / 20);
}

namespace {

/// Checks that `filter` is empty: holds nothing, answers false single and bulk, reports 0, refuses inserts
/// with std::logic_error (an item it took would be lost), and takes an empty range.
template <class Filter>
void require_empty(Filter& filter) {
    using value_type = typename Filter::value_type;
    CHECK(filter.item_count() == 0);
    CHECK(filter.memory_bytes() == 0);
    CHECK(filter.estimated_item_count() == 0.0);
    CHECK(filter.current_false_positive_rate() == 0.0);
    CHECK(filter.load_factor() == 0.0);
    std::vector<value_type> values;
    for (std::uint64_t i = 0; i < 100; ++i) {
        values.push_back(key<value_type>(i));
        CHECK_FALSE(filter.contains(values.back()));
    }
    std::vector<char> answers(values.size(), 1);
    filter.contains(values.begin(), values.end(), answers.begin());
    CHECK(answers == std::vector<char>(values.size(), 0));
    CHECK_THROWS_AS(filter.insert(values[0]), std::logic_error);
    CHECK_THROWS_AS(filter.insert(values.begin(), values.end()), std::logic_error);
    CHECK(filter.insert(values.begin(), values.begin()) == 0);
    CHECK(filter.item_count() == 0);
    CHECK_FALSE(filter.contains(values[0]));
}

} // namespace

TEMPLATE_TEST_CASE("a default-constructed filter is empty: it answers false, reports 0 and refuses inserts",
                   "[contract][value]", bloom::bloom_filter<std::uint64_t>,
                   bloom::blocked_bloom_filter<std::string>, bloom::counting_bloom_filter<std::uint64_t>,
                   bloom::scalable_bloom_filter<std::string>, bloom::concurrent_bloom_filter<std::uint64_t>,
                   bloom::concurrent_blocked_bloom_filter<std::string>) {
    TestType filter;
    require_empty(filter);
    // The empty state is an ordinary value: copied, compared with, and replaced by a sized filter.
    TestType copy(filter);
    require_empty(copy);
    filter = TestType(1000, 0.01);
    insert_keys(filter, 0, 500);
    CHECK(count_found(filter, 0, 500) == 500);
}

TEMPLATE_TEST_CASE("a moved-from filter is empty, as a default-constructed one", "[contract][value]",
                   bloom::bloom_filter<std::uint64_t>, bloom::blocked_bloom_filter<std::string>,
                   bloom::counting_bloom_filter<std::uint64_t>, bloom::concurrent_bloom_filter<std::uint64_t>,
                   bloom::concurrent_blocked_bloom_filter<std::string>) {
    TestType source(1000, 0.01, 7);
    insert_keys(source, 0, 500);
    const std::uint64_t count = source.item_count();
    TestType moved(std::move(source));
    CHECK(count_found(moved, 0, 500) == 500);
    CHECK(moved.item_count() == count);
    CHECK(moved.seed() == 7);
    // NOLINTBEGIN(bugprone-use-after-move): the moved-from state is documented.
    require_empty(source);
    CHECK(source.bit_count() == 0);
    CHECK(source.hash_count() == 0);
    CHECK(source.fill_ratio() == 0.0);

    SECTION("move assignment leaves the source empty too") {
        TestType target(10, 0.5);
        target = std::move(moved);
        CHECK(count_found(target, 0, 500) == 500);
        require_empty(moved);
    }
    SECTION("a moved-from filter can be assigned again") {
        source = TestType(1000, 0.01, 7);
        insert_keys(source, 0, 500);
        CHECK(count_found(source, 0, 500) == 500);
    }
    // NOLINTEND(bugprone-use-after-move)
}

TEST_CASE("an insert into an empty filter names the call", "[contract][errors]") {
    bloom::bloom_filter<int> filter;
    try {
        filter.insert(1);
        FAIL("no exception");
    } catch (const std::logic_error& error) {
        CHECK(std::string(error.what()).rfind("bloom::bloom_filter::insert: the filter is empty", 0) == 0);
    }
}

TEST_CASE("a default-constructed Parquet filter is empty and insert says whether a value was new",
          "[contract][parquet]") {
    bloom::parquet::split_block_filter<std::int64_t> empty;
    CHECK(empty.num_bytes() == 0);
    CHECK(empty.fill_ratio() == 0.0);
    CHECK(empty.current_false_positive_rate() == 0.0);
    CHECK_FALSE(empty.contains(std::int64_t{42}));
    CHECK_THROWS_AS(empty.insert(std::int64_t{42}), std::logic_error);

    bloom::parquet::split_block_filter<std::int64_t> filter(1024);
    CHECK(filter.insert(std::int64_t{42}));
    CHECK_FALSE(filter.insert(std::int64_t{42}));
    CHECK(filter.data() == filter.words());
    bloom::parquet::split_block_filter<std::int64_t> moved(std::move(filter));
    CHECK(moved.contains(std::int64_t{42}));
    CHECK_FALSE(filter.contains(std::int64_t{42})); // NOLINT(bugprone-use-after-move): documented state
}

namespace {

/// A filter of kind Filter for 1,000 items at 1%, built as the kind is (the Parquet filter by bytes).
template <class Filter, class... Extra>
Filter sized_filter(Extra&&... leading) {
    if constexpr (std::is_same_v<Filter, bloom::parquet::split_block_filter<std::int64_t>>) {
        return Filter(std::forward<Extra>(leading)..., std::size_t{2048});
    } else {
        return Filter(std::forward<Extra>(leading)..., 1'000, 0.01);
    }
}

} // namespace

TEMPLATE_TEST_CASE("every kind inserts an initializer list and is built from a range or a list plus sizing",
                   "[contract][api]", bloom::bloom_filter<std::int64_t>,
                   bloom::blocked_bloom_filter<std::int64_t>, bloom::counting_bloom_filter<std::int64_t>,
                   bloom::scalable_bloom_filter<std::int64_t>, bloom::concurrent_bloom_filter<std::int64_t>,
                   bloom::concurrent_blocked_bloom_filter<std::int64_t>,
                   bloom::parquet::split_block_filter<std::int64_t>) {
    STATIC_REQUIRE(std::is_same_v<typename TestType::value_type, std::int64_t>);
    STATIC_REQUIRE(std::is_same_v<typename TestType::size_type, std::uint64_t>);

    TestType listed = sized_filter<TestType>();
    // Three distinct values, then one repeated: insert returns how many were new.
    CHECK(listed.insert({11, 22, 33}) == 3);
    CHECK(listed.insert({11}) == 0);
    for (const std::int64_t value : {11, 22, 33}) {
        CHECK(listed.contains(value));
    }

    std::vector<std::int64_t> values;
    for (std::int64_t i = 0; i < 500; ++i) {
        values.push_back(i * 7919 - 250);
    }
    const TestType from_range = sized_filter<TestType>(values.begin(), values.end());
    const TestType from_list = sized_filter<TestType>(std::initializer_list<std::int64_t>{5, -5, 50});
    std::vector<char> found(values.size());
    from_range.contains(values.begin(), values.end(), found.begin());
    CHECK(std::count(found.begin(), found.end(), char{1}) == 500);
    CHECK((from_list.contains(5) && from_list.contains(-5) && from_list.contains(50)));
    // Non-members: at 1,000 items at 1% (the Parquet filter: 2 KiB for 500), a few of 10,000 at most.
    std::size_t false_positives = 0;
    for (std::int64_t i = 0; i < 10'000; ++i) {
        false_positives += from_range.contains(i * 7919 - 249) ? 1 : 0;
    }
    CHECK(false_positives < 300);
    // The range constructor holds exactly what inserting one by one holds.
    TestType one_by_one = sized_filter<TestType>();
    for (const std::int64_t value : values) {
        one_by_one.insert(value);
    }
    CHECK(one_by_one.fill_ratio() == from_range.fill_ratio());
    CHECK(one_by_one.bit_count() == from_range.bit_count());
}

TEST_CASE("counting_bloom_filter takes the counter width second", "[contract][api]") {
    STATIC_REQUIRE(bloom::counting_bloom_filter<std::string, 8>::counter_bits == 8);
    STATIC_REQUIRE(bloom::counting_bloom_filter<std::string>::counter_bits == 4);
    STATIC_REQUIRE(
        std::is_same_v<bloom::counting_bloom_filter<std::string, 16>::hasher, bloom::hash<std::string>>);
    bloom::counting_bloom_filter<std::string, 8> wide(100, 0.01);
    // One byte per counter, rounded up to whole 64-bit words.
    CHECK(wide.memory_bytes() >= wide.counter_count());
    CHECK(wide.memory_bytes() < wide.counter_count() + 8);
}

TEST_CASE("scalable_bloom_filter takes growth, tightening and seed by name", "[contract][api]") {
    // A number in the third place is not a seed any more: it does not convert to the options.
    STATIC_REQUIRE_FALSE(std::is_constructible_v<bloom::scalable_bloom_filter<int>, int, double, double>);
    STATIC_REQUIRE_FALSE(
        std::is_constructible_v<bloom::scalable_bloom_filter<int>, int, double, std::uint64_t>);
    const bloom::scalable_bloom_filter<int> named(
        1'000, 0.01,
        bloom::scalable_options{}.with_growth_factor(4.0).with_tightening_ratio(0.25).with_seed(9));
    CHECK(named.growth_factor() == 4.0);
    CHECK(named.tightening_ratio() == 0.25);
    CHECK(named.seed() == 9);
    const bloom::scalable_bloom_filter<int> defaults(1'000, 0.01);
    CHECK(defaults.growth_factor() == 2.0);
    CHECK(defaults.tightening_ratio() == 0.5);
    CHECK(defaults.seed() == bloom::default_seed);
    // bit_count() and fill_ratio() cover every stage.
    bloom::scalable_bloom_filter<int> grown(10, 0.01);
    for (int i = 0; i < 1'000; ++i) {
        grown.insert(i);
    }
    std::uint64_t bits = 0;
    double set_bits = 0.0;
    for (std::size_t i = 0; i < grown.stage_count(); ++i) {
        bits += grown.stage(i).bit_count();
        set_bits += grown.stage(i).fill_ratio() * static_cast<double>(grown.stage(i).bit_count());
    }
    REQUIRE(grown.stage_count() > 1);
    CHECK(grown.bit_count() == bits);
    CHECK(grown.fill_ratio() == Approx(set_bits / static_cast<double>(bits)));
}

TEMPLATE_TEST_CASE("a default-constructed view is empty: answers false, reports 0", "[contract][view]",
                   bloom::bloom_filter_view<int>, bloom::blocked_bloom_filter_view<int>) {
    const TestType view;
    CHECK_FALSE(view.contains(1));
    CHECK(view.bit_count() == 0);
    CHECK(view.item_count() == 0);
    CHECK(view.fill_ratio() == 0.0);
    CHECK(view.estimated_item_count() == 0.0);
    CHECK(view.current_false_positive_rate() == 0.0);
    CHECK(view.memory_bytes() == 0);
}

// ---- the shared contract, once over every kind and both key families ----------------------------------
//
// Each kind: a filter for 10,000 items at 1%, filled with keys [0, 10,000) of the family; non-members are
// keys [10^6, 10^6 + 200,000). Per-kind files test only what a kind adds.

namespace {

constexpr std::uint64_t contract_items = 10'000;
constexpr std::uint64_t contract_probes = 200'000;
constexpr std::uint64_t contract_non_members = 1'000'000;

// Counting filters of 4-bit counters: a template of types only, as TEMPLATE_PRODUCT_TEST_CASE needs.
template <class T>
using counting4 = bloom::counting_bloom_filter<T>;

template <class Filter>
struct is_scalable : std::false_type {};
template <class T, class Hasher, class Allocator>
struct is_scalable<bloom::scalable_bloom_filter<T, Hasher, Allocator>> : std::true_type {};

template <class Filter>
Filter contract_filter(std::uint64_t seed = bloom::default_seed) {
    if constexpr (is_scalable<Filter>::value) {
        return Filter(contract_items, 0.01, bloom::scalable_options{}.with_seed(seed));
    } else {
        return Filter(contract_items, 0.01, seed);
    }
}

template <class Filter, class = void>
struct has_union : std::false_type {};
template <class Filter>
struct has_union<Filter, std::void_t<decltype(std::declval<Filter&>() |= std::declval<const Filter&>())>>
    : std::true_type {};

} // namespace

TEMPLATE_PRODUCT_TEST_CASE("contract: no false negatives, the rate its bits promise, bulk equals single",
                           "[contract][rate]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter, counting4,
                            bloom::scalable_bloom_filter, bloom::concurrent_bloom_filter,
                            bloom::concurrent_blocked_bloom_filter),
                           (std::uint64_t, std::string)) {
    using value_type = typename TestType::value_type;
    TestType filter = contract_filter<TestType>();
    // An insert of a new item answers "not new" only on a false positive against the bits so far, whose rate
    // stays below the final one (under 1.2%): at most 120 expected, plus 5 sigma (5 * 11).
    CHECK(insert_keys(filter, 0, contract_items) >= contract_items - 175);
    CHECK(count_found(filter, 0, contract_items) == contract_items);

    // The measured rate against the rate the filter's bits give (each kind's current_false_positive_rate()),
    // within 5 binomial standard deviations, and that rate near the 1% it was sized for.
    const double expected = filter.current_false_positive_rate();
    // (A scalable filter's first stage is sized for p (1 - r) = 0.5%, so its rate is about half the target.)
    CHECK(expected < 1.2 * filter.target_false_positive_rate());
    CHECK(expected > 0.3 * filter.target_false_positive_rate());
    const auto found = static_cast<double>(
        count_found(filter, contract_non_members, contract_non_members + contract_probes));
    const double mean = expected * static_cast<double>(contract_probes);
    const double sigma = std::sqrt(mean * (1.0 - expected));
    INFO("measured " << found << " false positives of " << contract_probes << ", the bits give " << mean);
    CHECK(std::abs(found - mean) <= 5.0 * sigma);

    // Bulk answers equal single ones, over members and non-members interleaved.
    std::vector<value_type> mixed;
    for (std::uint64_t i = 0; i < 2'000; ++i) {
        mixed.push_back(key<value_type>(i % 2 == 0 ? i : contract_non_members + i));
    }
    std::vector<char> bulk(mixed.size());
    filter.contains(mixed.begin(), mixed.end(), bulk.begin());
    std::size_t differences = 0;
    for (std::size_t i = 0; i < mixed.size(); ++i) {
        differences += (bulk[i] != 0) != filter.contains(mixed[i]) ? 1 : 0;
    }
    CHECK(differences == 0);
}

TEMPLATE_PRODUCT_TEST_CASE("contract: copies, moves, swaps, saving and loading keep the answers",
                           "[contract][value]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter, counting4,
                            bloom::scalable_bloom_filter, bloom::concurrent_bloom_filter,
                            bloom::concurrent_blocked_bloom_filter),
                           (std::uint64_t, std::string)) {
    using bloom_test::count_disagreements;
    TestType original = contract_filter<TestType>(7);
    insert_keys(original, 0, contract_items);
    const std::uint64_t last = contract_non_members + 20'000;

    const TestType copy(original);
    CHECK(count_disagreements(copy, original, 0, contract_items) == 0);
    CHECK(count_disagreements(copy, original, contract_non_members, last) == 0);
    CHECK(copy.item_count() == original.item_count());

    const auto bytes = bloom::to_bytes(original);
    const auto loaded = bloom::from_bytes<TestType>(bytes.data(), bytes.size());
    CHECK(count_disagreements(loaded, original, 0, contract_items) == 0);
    CHECK(count_disagreements(loaded, original, contract_non_members, last) == 0);
    CHECK(loaded.item_count() == original.item_count());
    CHECK(loaded.seed() == 7);

    TestType moved(std::move(original));
    CHECK(count_disagreements(moved, copy, 0, contract_items) == 0);
    CHECK(count_found(original, 0, contract_items) == 0); // NOLINT(bugprone-use-after-move): the empty state
    CHECK(original.item_count() == 0);

    TestType other;
    other.swap(moved);
    CHECK(count_found(other, 0, contract_items) == contract_items);
    CHECK(count_found(moved, 0, contract_items) == 0);
    swap(other, moved);
    CHECK(count_found(moved, 0, contract_items) == contract_items);
}

TEMPLATE_PRODUCT_TEST_CASE("contract: filters combine only with a compatible filter", "[contract][combine]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter, bloom::concurrent_bloom_filter,
                            bloom::concurrent_blocked_bloom_filter),
                           (std::uint64_t, std::string)) {
    STATIC_REQUIRE(has_union<TestType>::value);
    TestType left = contract_filter<TestType>();
    TestType right = contract_filter<TestType>();
    insert_keys(left, 0, contract_items / 2);
    insert_keys(right, contract_items / 2, contract_items);
    left |= right;
    CHECK(count_found(left, 0, contract_items) == contract_items);
    const TestType other_seed = contract_filter<TestType>(99);
    CHECK_FALSE(left.compatible_with(other_seed));
    CHECK_THROWS_AS(left |= other_seed, std::invalid_argument);
    STATIC_REQUIRE_FALSE(has_union<bloom::counting_bloom_filter<int>>::value);
    STATIC_REQUIRE_FALSE(has_union<bloom::scalable_bloom_filter<int>>::value);
}
