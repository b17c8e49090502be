// SPDX-License-Identifier: MIT
// bloom/blocked_bloom_filter.hpp: what the blocked layout adds or does its own way (512-bit blocks, 64-byte
// aligned words, its sizing, shapes and rate from the bits). The shared surface is tested once for both
// layouts: bloom_filter_test.cpp's tests tagged [blocked], and contract_test.cpp.
#include "catch.hpp"
#include "test_support.hpp"

#include <bitset>
#include <bloom/aligned_allocator.hpp>
#include <bloom/blocked_bloom_filter.hpp>
#include <bloom/sizing.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using bloom_test::allocation_stats;
using bloom_test::count_found;
using bloom_test::counting_allocator;
using bloom_test::insert_keys;
using bloom_test::require_invalid_argument;
using bloom_test::set_bits;

template <class T>
using blocked = bloom::blocked_bloom_filter<T>;

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double infinity = std::numeric_limits<double>::infinity();

bool is_line_aligned(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer) % 64 == 0; }

} // namespace

TEST_CASE("blocked: transparent lookups answer as std::string does", "[blocked][lookup]") {
    blocked<std::string> filter(1000, 0.01);
    insert_keys(filter, 0, 500);
    filter.insert(std::string("abc"));
    static const char member[] = "https://www.example.com/catalog/products/category/item?id=42";
    static const char non_member[] = "https://www.example.com/catalog/products/category/item?id=4242";
    REQUIRE(filter.contains(std::string(member)));
    REQUIRE_FALSE(filter.contains(std::string(non_member)));

    CHECK(filter.contains("abc") == filter.contains(std::string("abc")));
    CHECK(filter.contains("abc"));
    CHECK(filter.contains(member));
    CHECK_FALSE(filter.contains(non_member));
    const char* member_pointer = member;
    CHECK(filter.contains(member_pointer));
    CHECK(filter.contains(std::string_view(member)));
    CHECK_FALSE(filter.contains(std::string_view(non_member)));

    std::string text;
    const bloom_test::url_keys urls;
    for (std::uint64_t i = 0; i < 2000; ++i) {
        urls.write(i, text);
        const bool expected = filter.contains(text);
        CHECK(filter.contains(std::string_view(text)) == expected);
        CHECK(filter.contains(text.c_str()) == expected);
    }
}

TEST_CASE("blocked: a sized filter reports its shape", "[blocked][observers]") {
    blocked<std::uint64_t> filter(10'000, 0.01, 77);
    const std::uint64_t bits = bloom::optimal_blocked_bit_count(10'000, 0.01);
    CHECK(filter.bit_count() == bits);
    CHECK(filter.bit_count() % 512 == 0);
    CHECK(filter.block_count() == bits / 512);
    // 9.9 bits per item: six bits anywhere in the block (the sizing tests check the choice).
    CHECK(filter.hash_count() == bloom::optimal_blocked_hash_count(bits, 10'000));
    CHECK(filter.hash_count() == 6);
    CHECK(filter.probes() == bloom::probe_scheme::bits_anywhere);
    CHECK(filter.seed() == 77);
    CHECK(filter.expected_items() == 10'000);
    CHECK(filter.target_false_positive_rate() == 0.01); // the argument, stored
    CHECK(filter.item_count() == 0);
    CHECK(filter.word_count() == bits / 64);
    CHECK(filter.memory_bytes() == bits / 8);
    CHECK(filter.fill_ratio() == 0.0);
    CHECK(filter.current_false_positive_rate() == 0.0);
    // The sized rate holds at the expected items.
    CHECK(bloom::blocked_false_positive_rate(filter.bit_count(), 10'000) <= 0.01);
    CHECK(filter.get_allocator() == bloom::aligned_allocator<std::uint64_t, 64>());
    STATIC_REQUIRE(std::is_same_v<decltype(filter.hash_function()), bloom::hash<std::uint64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(filter)::value_type, std::uint64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(filter)::hasher, bloom::hash<std::uint64_t>>);
    STATIC_REQUIRE(
        std::is_same_v<decltype(filter)::allocator_type, bloom::aligned_allocator<std::uint64_t, 64>>);
    STATIC_REQUIRE(std::is_same_v<decltype(filter)::size_type, std::uint64_t>);

    // 10^6 items at 1%: 10.1 bits per item.
    blocked<std::string> large(1'000'000, 0.01);
    CHECK(large.seed() == bloom::default_seed);
    CHECK(large.bit_count() == bloom::optimal_blocked_bit_count(1'000'000, 0.01));
    CHECK(large.memory_bytes() == large.bit_count() / 8);
    CHECK(large.block_count() * 512 == large.bit_count());
}

TEST_CASE("blocked: the words are 64-byte aligned with the default allocator", "[blocked][allocator]") {
    for (const std::uint64_t items : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1000},
                                      std::uint64_t{12'345}, std::uint64_t{1'000'000}}) {
        INFO(items << " items");
        blocked<std::uint64_t> filter(items, 0.01);
        CHECK(is_line_aligned(filter.data()));
        insert_keys(filter, 0, items);
        const blocked<std::uint64_t> copy(filter);
        CHECK(is_line_aligned(copy.data()));
        blocked<std::uint64_t> assigned(bloom::filter_geometry{512, 8});
        assigned = filter;
        CHECK(is_line_aligned(assigned.data()));
        const blocked<std::uint64_t> moved(std::move(filter));
        CHECK(is_line_aligned(moved.data()));
    }
    blocked<std::string> strings(bloom::filter_geometry{512 * 3, 8});
    CHECK(is_line_aligned(strings.data()));
}

TEST_CASE("blocked: std::allocator works too and gives the same bits", "[blocked][allocator]") {
    using plain =
        bloom::blocked_bloom_filter<std::uint64_t, bloom::hash<std::uint64_t>, std::allocator<std::uint64_t>>;
    plain filter(10'000, 0.01);
    blocked<std::uint64_t> aligned(10'000, 0.01);
    STATIC_REQUIRE(std::is_same_v<plain::allocator_type, std::allocator<std::uint64_t>>);
    CHECK(filter.get_allocator() == std::allocator<std::uint64_t>());
    const std::uint64_t inserted = insert_keys(filter, 0, 10'000);
    CHECK(insert_keys(aligned, 0, 10'000) == inserted);
    CHECK(count_found(filter, 0, 10'000) == 10'000);
    CHECK(count_found(filter, 10'000, 20'000) == count_found(aligned, 10'000, 20'000));
    REQUIRE(filter.word_count() == aligned.word_count());
    CHECK(std::vector<std::uint64_t>(filter.data(), filter.data() + filter.word_count()) ==
          std::vector<std::uint64_t>(aligned.data(), aligned.data() + aligned.word_count()));

    plain copy(filter);
    CHECK(copy == filter);
    filter |= copy;
    CHECK(filter == copy);
}

TEMPLATE_TEST_CASE("blocked: a stateful allocator holds the words", "[blocked][allocator]",
                   counting_allocator<std::uint64_t>, counting_allocator<char>) {
    using filter_type = bloom::blocked_bloom_filter<std::uint64_t, bloom::hash<std::uint64_t>, TestType>;
    allocation_stats stats;
    {
        const TestType allocator(&stats);
        filter_type filter(10'000, 0.01, bloom::default_seed, bloom::hash<std::uint64_t>(), allocator);
        CHECK(stats.live_bytes == static_cast<std::int64_t>(filter.memory_bytes()));
        CHECK(stats.allocations == 1);
        CHECK(filter.get_allocator() == allocator);
        insert_keys(filter, 0, 1000);
        CHECK(count_found(filter, 0, 1000) == 1000);

        filter_type copy(filter);
        CHECK(stats.live_bytes == 2 * static_cast<std::int64_t>(filter.memory_bytes()));
        filter_type moved(std::move(copy));
        CHECK(stats.allocations == 2); // the move steals the words
        CHECK(moved == filter);

        filter_type from_geometry(bloom::filter_geometry{5120, 8}, 1, bloom::hash<std::uint64_t>(),
                                  allocator);
        CHECK(stats.live_bytes == 2 * static_cast<std::int64_t>(filter.memory_bytes()) + 640);
    }
    CHECK(stats.live_bytes == 0);
    CHECK(stats.allocations == stats.deallocations);
}

TEST_CASE("blocked: a filter built from a geometry has exactly that shape", "[blocked][observers]") {
    blocked<std::uint64_t> filter(bloom::filter_geometry{512 * 10, 8});
    CHECK(filter.bit_count() == 5120);
    CHECK(filter.hash_count() == 8);
    CHECK(filter.block_count() == 10);
    CHECK(filter.seed() == bloom::default_seed);
    CHECK(filter.word_count() == 80);
    CHECK(filter.memory_bytes() == 640);
    // The load at which 8 bits per item would be optimal for a classic filter: round(5120 ln 2 / 8) =
    // round(443.6) = 444; its target rate is the blocked formula's there.
    CHECK(filter.expected_items() == 444);
    CHECK(filter.target_false_positive_rate() == bloom::blocked_false_positive_rate(5120, 444, 8));
    const double independent = bloom_test::blocked_formula_rate({5120, 444, 8});
    CHECK(std::fabs(filter.target_false_positive_rate() - independent) <= 1e-9 * independent);

    blocked<std::uint64_t> seeded(bloom::filter_geometry{512, 8}, 99);
    CHECK(seeded.seed() == 99);
    CHECK(seeded.block_count() == 1);
    CHECK(seeded.expected_items() == 44);
    CHECK(seeded.insert(std::uint64_t{123}));
    CHECK(seeded.contains(std::uint64_t{123}));
    CHECK(set_bits(seeded) == 8);
}

TEST_CASE("blocked: constructors reject invalid arguments naming the parameter", "[blocked][errors]") {
    // Geometry: whole 512-bit blocks, 1 to 16 bits per item (exactly 8 for one_bit_per_word); the message
    // names the value too.
    require_invalid_argument(
        [] {
            blocked<int> filter(bloom::filter_geometry{1000, 8});
        },
        {"bit_count", "1000"});
    require_invalid_argument([] { blocked<int> filter(bloom::filter_geometry{0, 8}); }, {"bit_count", "0"});
    require_invalid_argument(
        [] {
            blocked<int> filter(bloom::filter_geometry{511, 8});
        },
        {"bit_count", "511"});
    require_invalid_argument(
        [] {
            blocked<int> filter(bloom::filter_geometry{1536 + 64, 8});
        },
        {"bit_count", "1600"});
    require_invalid_argument(
        [] {
            blocked<int> filter(bloom::filter_geometry{512, 7, bloom::probe_scheme::one_bit_per_word});
        },
        {"hash_count", "7"});
    require_invalid_argument(
        [] {
            blocked<int> filter(bloom::filter_geometry{512, 0});
        },
        {"hash_count", "0"});
    require_invalid_argument(
        [] {
            blocked<int> filter(bloom::filter_geometry{1024, 17});
        },
        {"hash_count", "17"});
    require_invalid_argument(
        [] {
            blocked<int> filter(bloom::filter_geometry{1024, 9, bloom::probe_scheme::one_bit_per_word});
        },
        {"hash_count", "9"});
    require_invalid_argument([] { blocked<int> filter(bloom::filter_geometry{0, 0}); }, "bit_count");
    require_invalid_argument(
        [] {
            blocked<int> filter(bloom::filter_geometry{512, 8, static_cast<bloom::probe_scheme>(2)});
        },
        {"probes", "2"});

    // Sized: items and rate.
    require_invalid_argument([] { blocked<int> filter(0, 0.01); }, "expected_items");
    for (const double rate : {0.0, 1.0, 1.5, -0.01, not_a_number, infinity, -infinity}) {
        INFO("rate " << rate);
        require_invalid_argument([rate] { blocked<int> filter(100, rate); }, "false_positive_rate");
    }
    require_invalid_argument([] { blocked<int> filter(std::uint64_t{1} << 62, 1e-9); }, "expected_items");
    require_invalid_argument(
        [] { blocked<std::string> filter(std::numeric_limits<std::uint64_t>::max(), 0.5); },
        "expected_items");
}

TEST_CASE(
    "blocked: current_false_positive_rate of bits_anywhere is the mean over blocks of C(X, k) / C(512, k)",
    "[blocked][observers]") {
    blocked<std::uint64_t> filter(10'000, 0.01);
    const unsigned k = filter.hash_count();
    CHECK(filter.current_false_positive_rate() == 0.0);
    std::uint64_t inserted = 0;
    for (const std::uint64_t next : {std::uint64_t{1}, std::uint64_t{100}, std::uint64_t{5'000},
                                     std::uint64_t{10'000}, std::uint64_t{30'000}}) {
        insert_keys(filter, inserted, next);
        inserted = next;
        // Computed here block by block: a non-member's k distinct bits must all be among the X set bits of
        // its block, probability X (X - 1) ... (X - k + 1) / (512 * 511 * ... * (512 - k + 1)).
        long double sum = 0.0L;
        for (std::uint64_t block = 0; block < filter.block_count(); ++block) {
            std::size_t set = 0;
            for (unsigned word = 0; word < 8; ++word) {
                set += std::bitset<64>(filter.data()[block * 8 + word]).count();
            }
            long double hit = 1.0L;
            for (unsigned j = 0; j < k; ++j) {
                hit *= set > j ? static_cast<long double>(set - j) / static_cast<long double>(512 - j) : 0.0L;
            }
            sum += hit;
        }
        const double expected = static_cast<double>(sum / static_cast<long double>(filter.block_count()));
        INFO(next << " items");
        CHECK(std::fabs(filter.current_false_positive_rate() - expected) <= 1e-12 * expected);
    }
    CHECK(filter.current_false_positive_rate() > 10 * filter.target_false_positive_rate());
}

TEST_CASE("blocked: current_false_positive_rate of one_bit_per_word is the mean over blocks of the product "
          "of word fills",
          "[blocked][observers]") {
    // 512 * 225 bits: expected_items() = round(m ln 2 / 8) = 9,980.
    blocked<std::uint64_t> filter(
        bloom::filter_geometry{512 * 225, 8, bloom::probe_scheme::one_bit_per_word});
    CHECK(filter.current_false_positive_rate() == 0.0);
    std::uint64_t inserted = 0;
    for (const std::uint64_t next : {std::uint64_t{1}, std::uint64_t{100}, std::uint64_t{5'000},
                                     std::uint64_t{10'000}, std::uint64_t{30'000}}) {
        insert_keys(filter, inserted, next);
        inserted = next;
        // Computed here block by block: a non-member needs its one bit in each of its block's eight words.
        long double sum = 0.0L;
        for (std::uint64_t block = 0; block < filter.block_count(); ++block) {
            long double product = 1.0L;
            for (unsigned word = 0; word < 8; ++word) {
                product *=
                    static_cast<long double>(std::bitset<64>(filter.data()[block * 8 + word]).count()) /
                    64.0L;
            }
            sum += product;
        }
        const double expected = static_cast<double>(sum / static_cast<long double>(filter.block_count()));
        INFO(next << " items");
        CHECK(std::fabs(filter.current_false_positive_rate() - expected) <= 1e-12 * expected);
    }
    // Three times past its capacity the rate has grown far past the target.
    CHECK(filter.current_false_positive_rate() > 10 * filter.target_false_positive_rate());
    CHECK(filter.load_factor() > 2.8);
    CHECK(filter.load_factor() < 3.2);
}

TEST_CASE("blocked: estimated_item_count tracks the distinct items at half fill", "[blocked][estimate]") {
    // m = 2^20 bits (2048 blocks) and n = m ln 2 / 8 = 90'852 distinct items: the fill is about 1/2. A bit
    // stays clear with probability (1 - 8/m)^n, as in a classic filter with k = 8.
    const bloom::filter_geometry geometry{std::uint64_t{1} << 20, 8, bloom::probe_scheme::one_bit_per_word};
    const std::uint64_t items = 90'852;
    blocked<std::uint64_t> filter(geometry);
    CHECK(filter.estimated_item_count() == 0.0);
    insert_keys(filter, 0, items);
    // Tolerance: the set bits X of each 64-bit word of a block holding i items vary as the occupied bins of
    // i balls in 64: variance 64 q^i (1 - q^i) + 64 * 63 ((62/64)^i - q^(2i)), q = 63/64; the words of
    // blocks are independent given the counts, whose total is fixed (their spread enters only at second
    // order). Summed over the m / 64 words with i ~ Poisson(n / blocks): sd(X) ~ 280 bits. The estimate
    // moves by (m/k) / (m - X) = 2/k per bit at half fill: sd ~ 70 items. Allow 4 sd plus 1% of n for
    // the model.
    const double m = static_cast<double>(geometry.bit_count);
    const double lambda = static_cast<double>(items) / (m / 512.0);
    const double word_variance = bloom_test::poisson_expectation(lambda, [](double i) {
        const double miss = std::pow(bloom_test::word_miss, i);
        return 64.0 * miss * (1.0 - miss) + 64.0 * 63.0 * (std::pow(62.0 / 64.0, i) - miss * miss);
    });
    const double fill_sd = std::sqrt(m / 64.0 * word_variance);
    const double tolerance = 4.0 * (2.0 / 8.0) * fill_sd + 0.01 * static_cast<double>(items);
    const double estimate = filter.estimated_item_count();
    INFO("estimate " << estimate << ", items " << items << ", fill sd " << fill_sd << ", tolerance "
                     << tolerance);
    CHECK(std::fabs(estimate - static_cast<double>(items)) <= tolerance);
    const double expected_fill = 1.0 - std::pow(1.0 - 8.0 / m, static_cast<double>(items));
    CHECK(std::fabs(filter.fill_ratio() - expected_fill) <= 4.0 * fill_sd / m);
    CHECK(filter.fill_ratio() == static_cast<double>(set_bits(filter)) / m);

    SECTION("it counts each value once however often it is inserted") {
        insert_keys(filter, 0, items);
        CHECK(filter.estimated_item_count() == estimate);
    }
    SECTION("it stays finite once every bit is set: (m/k) ln(2m)") {
        blocked<std::uint64_t> tiny(bloom::filter_geometry{512, 8});
        insert_keys(tiny, 0, 10'000);
        CHECK(tiny.fill_ratio() == 1.0);
        CHECK(std::fabs(tiny.estimated_item_count() - 64.0 * std::log(1024.0)) < 1e-9);
        CHECK(tiny.current_false_positive_rate() == 1.0);
    }
}

TEST_CASE("blocked: incompatible filters refuse to combine, naming what differs", "[blocked][set][errors]") {
    using filter_type = blocked<std::uint64_t>;
    const filter_type base(bloom::filter_geometry{1024, 8}, 1);
    const filter_type other_bits(bloom::filter_geometry{2048, 8}, 1);
    const filter_type other_seed(bloom::filter_geometry{1024, 8}, 2);
    const filter_type both_differ(bloom::filter_geometry{2048, 8}, 2);
    const filter_type same(bloom::filter_geometry{1024, 8}, 1);
    const filter_type other_k(bloom::filter_geometry{1024, 7}, 1);
    const filter_type other_pattern(bloom::filter_geometry{1024, 8, bloom::probe_scheme::one_bit_per_word},
                                    1);
    // Sized for other items or rates, but of the same bit count and k: compatible.
    const filter_type same_bits_sized(20, 0.5, 1);

    CHECK(base.compatible_with(same));
    CHECK(base.compatible_with(base));
    CHECK_FALSE(base.compatible_with(other_bits));
    CHECK_FALSE(base.compatible_with(other_seed));
    CHECK_FALSE(base.compatible_with(both_differ));
    CHECK_FALSE(base.compatible_with(other_k));
    CHECK_FALSE(base.compatible_with(other_pattern));
    CHECK(same_bits_sized.compatible_with(
        filter_type(bloom::filter_geometry{same_bits_sized.bit_count(), same_bits_sized.hash_count()}, 1)));

    const std::pair<const filter_type*, std::vector<std::string>> cases[] = {
        {&other_k, {"hash_count", "8 vs 7"}},         {&other_pattern, {"probe scheme", "1 vs 0"}},
        {&other_bits, {"bit_count", "1024 vs 2048"}}, {&other_seed, {"seed 1 vs 2"}},
        {&both_differ, {"bit_count", "seed"}},
    };
    for (const auto& differing : cases) {
        const filter_type* const other = differing.first;
        const std::vector<std::string>& parts = differing.second;
        filter_type target = base;
        target.insert(std::uint64_t{5});
        const filter_type before = target;
        require_invalid_argument([&] { target |= *other; }, parts);
        require_invalid_argument([&] { target &= *other; }, parts);
        require_invalid_argument([&] { (void)(target | *other); }, parts);
        require_invalid_argument([&] { (void)(target & *other); }, parts);
        // A refused combination leaves the filter as it was.
        CHECK(target == before);
        CHECK(target.item_count() == 1);
    }
    filter_type target = base;
    try {
        target |= other_seed;
    } catch (const std::invalid_argument& error) {
        const std::string message = error.what();
        CHECK(message.find("bit_count") == std::string::npos);
        CHECK(message.find("blocked_bloom_filter") != std::string::npos);
    }
}

TEST_CASE("blocked: equality compares shape, seed and bits, not counts", "[blocked][set]") {
    blocked<std::uint64_t> a(1000, 0.01);
    blocked<std::uint64_t> b(1000, 0.01);
    CHECK(a == b);
    CHECK_FALSE(a != b);
    a.insert(std::uint64_t{1});
    CHECK(a != b);
    CHECK_FALSE(a == b);
    b.insert(std::uint64_t{1});
    CHECK(a == b);
    b |= a; // the same bits: b keeps its count
    CHECK(b.item_count() == 1);
    CHECK(a == b);

    CHECK(blocked<std::uint64_t>(1000, 0.01, 1) != blocked<std::uint64_t>(1000, 0.01, 2));
    CHECK(blocked<std::uint64_t>(bloom::filter_geometry{1024, 8}) !=
          blocked<std::uint64_t>(bloom::filter_geometry{1536, 8}));
    // A seed changes which bits a value sets.
    blocked<std::uint64_t> seed_one(bloom::filter_geometry{512 * 8, 8}, 1);
    blocked<std::uint64_t> seed_two(bloom::filter_geometry{512 * 8, 8}, 2);
    seed_one.insert(std::uint64_t{1});
    seed_two.insert(std::uint64_t{1});
    bool words_differ = false;
    for (std::size_t i = 0; i < seed_one.word_count(); ++i) {
        words_differ = words_differ || seed_one.data()[i] != seed_two.data()[i];
    }
    CHECK(words_differ);
}

TEST_CASE("blocked: swap exchanges everything", "[blocked][value]") {
    blocked<std::uint64_t> a(1000, 0.01, 1);
    blocked<std::uint64_t> b(bloom::filter_geometry{5120, 8}, 2);
    insert_keys(a, 0, 100);
    insert_keys(b, 100, 150);
    const blocked<std::uint64_t> a_copy = a;
    const blocked<std::uint64_t> b_copy = b;

    a.swap(b);
    CHECK(a == b_copy);
    CHECK(b == a_copy);
    CHECK(a.item_count() == b_copy.item_count());
    CHECK(a.expected_items() == b_copy.expected_items());
    CHECK(a.target_false_positive_rate() == b_copy.target_false_positive_rate());
    CHECK(a.block_count() == 10);

    using std::swap;
    swap(a, b);
    CHECK(a == a_copy);
    CHECK(b == b_copy);
    CHECK(a.seed() == 1);
    CHECK(b.seed() == 2);
}
