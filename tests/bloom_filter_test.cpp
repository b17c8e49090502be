// SPDX-License-Identifier: MIT
// bloom/bloom_filter.hpp: insert/contains, counts and estimates, observers, set operations, value
// semantics, transparent lookup and allocators. The tests tagged [blocked] run for blocked_bloom_filter too
// (the same basic_bloom_filter over the other layout); blocked_bloom_filter_test.cpp has what only it has.
#include "catch.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <bitset>
#include <bloom/blocked_bloom_filter.hpp>
#include <bloom/bloom_filter.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

// ---- counting global allocations, to prove that transparent lookups build no std::string ----
//
// The only replacement of the global operator new in bloom_tests. It counts only while
// allocation_counting is on, which one test switches on around a few lookups and nothing else. Every
// non-aligned form is replaced, so each pointer is freed by the family that allocated it (sanitizers
// check that); the aligned forms keep their defaults, which pair among themselves.

// ThreadSanitizer's runtime defines the global operator new and delete itself, so TSan builds (which run
// this suite for the concurrent filters) leave the replacement and the two checks that need it out.
#if defined(__SANITIZE_THREAD__)
#    define BLOOM_TEST_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#        define BLOOM_TEST_COUNTS_ALLOCATIONS 0
#    endif
#endif
#ifndef BLOOM_TEST_COUNTS_ALLOCATIONS
#    define BLOOM_TEST_COUNTS_ALLOCATIONS 1
#endif

// The peak of live bytes (bloom_test::peak_allocation, for the fuse filter's temporary memory) needs each
// block's size when it is freed: glibc's malloc_usable_size.
#if BLOOM_TEST_COUNTS_ALLOCATIONS && defined(__GLIBC__)
#    include <malloc.h>
#    define BLOOM_TEST_TRACKS_PEAK 1
#else
#    define BLOOM_TEST_TRACKS_PEAK 0
#endif

namespace {
std::atomic<bool> allocation_counting{false};
std::atomic<std::uint64_t> allocation_count{0};
std::atomic<bool> peak_tracking{false};
std::atomic<std::int64_t> live_bytes{0};
std::atomic<std::int64_t> peak_live_bytes{0};

#if BLOOM_TEST_TRACKS_PEAK
void track_allocation(void* pointer) noexcept {
    if (pointer != nullptr && peak_tracking.load(std::memory_order_relaxed)) {
        const auto live = live_bytes.fetch_add(static_cast<std::int64_t>(malloc_usable_size(pointer))) +
                          static_cast<std::int64_t>(malloc_usable_size(pointer));
        std::int64_t peak = peak_live_bytes.load();
        while (live > peak && !peak_live_bytes.compare_exchange_weak(peak, live)) {
        }
    }
}
void track_free(void* pointer) noexcept {
    if (pointer != nullptr && peak_tracking.load(std::memory_order_relaxed)) {
        live_bytes.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(pointer)));
    }
}
#elif BLOOM_TEST_COUNTS_ALLOCATIONS
void track_allocation(void*) noexcept {}
void track_free(void*) noexcept {}
#endif

#if BLOOM_TEST_COUNTS_ALLOCATIONS
void* counted_allocation(std::size_t size) noexcept {
    if (allocation_counting.load(std::memory_order_relaxed)) {
        allocation_count.fetch_add(1, std::memory_order_relaxed);
    }
    void* const pointer = std::malloc(size == 0 ? 1 : size);
    track_allocation(pointer);
    return pointer;
}
void counted_free(void* pointer) noexcept {
    track_free(pointer);
    std::free(pointer);
}
#endif
} // namespace

bool bloom_test::peak_allocation::available() noexcept { return BLOOM_TEST_TRACKS_PEAK != 0; }

bloom_test::peak_allocation::peak_allocation() noexcept {
    live_bytes = 0;
    peak_live_bytes = 0;
    peak_tracking = true;
}

bloom_test::peak_allocation::~peak_allocation() { peak_tracking = false; }

std::uint64_t bloom_test::peak_allocation::peak_bytes() const noexcept {
    return static_cast<std::uint64_t>(peak_live_bytes.load());
}

// GCC 11+ sees free() reach pointers from operator new once these inline into each other; here they
// are the same family by construction.
#if BLOOM_TEST_COUNTS_ALLOCATIONS
#    if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#        pragma GCC diagnostic push
#        pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#    endif
void* operator new(std::size_t size) {
    if (void* pointer = counted_allocation(size)) {
        return pointer;
    }
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
    if (void* pointer = counted_allocation(size)) {
        return pointer;
    }
    throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted_allocation(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted_allocation(size); }
void operator delete(void* pointer) noexcept { counted_free(pointer); }
void operator delete[](void* pointer) noexcept { counted_free(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { counted_free(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { counted_free(pointer); }
void operator delete(void* pointer, const std::nothrow_t&) noexcept { counted_free(pointer); }
void operator delete[](void* pointer, const std::nothrow_t&) noexcept { counted_free(pointer); }
#    if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#        pragma GCC diagnostic pop
#    endif
#endif // BLOOM_TEST_COUNTS_ALLOCATIONS

namespace {

using bloom_test::allocation_stats;
using bloom_test::count_found;
using bloom_test::counting_allocator;
using bloom_test::insert_keys;
using bloom_test::key;
using bloom_test::set_bits;

} // namespace

TEMPLATE_PRODUCT_TEST_CASE("inserted values are always found", "[bloom_filter][blocked][insert]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter), (std::uint64_t, std::string)) {
    for (const std::uint64_t items :
         {std::uint64_t{1}, std::uint64_t{10}, std::uint64_t{1000}, std::uint64_t{100'000}}) {
        TestType filter(items, 0.01);
        insert_keys(filter, 0, items);
        INFO(items << " items");
        CHECK(count_found(filter, 0, items) == items);
    }
}

TEST_CASE("a million inserted integers are all found", "[bloom_filter][insert]") {
    const std::uint64_t items = 1'000'000;
    bloom::bloom_filter<std::uint64_t> filter(items, 0.01);
    insert_keys(filter, 0, items);
    CHECK(count_found(filter, 0, items) == items);
}

TEMPLATE_PRODUCT_TEST_CASE("insert returns true only when the value was definitely new",
                           "[bloom_filter][blocked][insert]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter), (std::uint64_t, std::string)) {
    using value_type = typename TestType::value_type;
    TestType filter(10'000, 0.01);
    const value_type first = key<value_type>(1);
    const value_type second = key<value_type>(2);
    // An empty filter has every bit clear: the first insert is certainly new.
    CHECK(filter.insert(first));
    CHECK_FALSE(filter.insert(first));
    CHECK(filter.item_count() == 1);
    CHECK(filter.contains(first));
    CHECK(filter.insert(second));
    CHECK_FALSE(filter.insert(second));
    CHECK_FALSE(filter.insert(first));
    CHECK(filter.item_count() == 2);

    SECTION("a range insert returns how many values were new") {
        TestType fresh(10'000, 0.01);
        const std::vector<value_type> values = {first, second, first, key<value_type>(3), second, first};
        CHECK(fresh.insert(values.begin(), values.end()) == 3);
        CHECK(fresh.item_count() == 3);
        CHECK(fresh.insert(values.begin(), values.end()) == 0);
        CHECK(fresh.insert(values.begin(), values.begin()) == 0);
    }
}

TEMPLATE_PRODUCT_TEST_CASE("item_count counts the inserts that returned true",
                           "[bloom_filter][blocked][insert]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter), (std::uint64_t, std::string)) {
    using value_type = typename TestType::value_type;
    // 5000 values into a filter sized for 1000 at 10%: late inserts are often false positives.
    TestType filter(1000, 0.1);
    const std::uint64_t trues = insert_keys(filter, 0, 5000);
    CHECK(filter.item_count() == trues);
    CHECK(trues < 5000);
    CHECK(trues > 1000);
    insert_keys(filter, 0, 5000); // again: nothing is new now
    CHECK(filter.item_count() == trues);

    SECTION("a range insert counts the same as single inserts") {
        std::vector<value_type> values;
        for (std::uint64_t i = 0; i < 5000; ++i) {
            values.push_back(key<value_type>(i));
        }
        TestType ranged(1000, 0.1);
        CHECK(ranged.insert(values.begin(), values.end()) == trues);
        CHECK(ranged.item_count() == trues);
        CHECK(ranged == filter);
    }
}

TEMPLATE_TEST_CASE("a string filter accepts C strings and string views", "[bloom_filter][blocked][insert]",
                   bloom::bloom_filter<std::string>, bloom::blocked_bloom_filter<std::string>) {
    TestType filter(1000, 0.01);
    const char* pointer = "from a pointer";
    CHECK(filter.insert("from a literal"));
    CHECK(filter.insert(pointer));
    CHECK(filter.insert(std::string_view("from a view")));
    CHECK(filter.contains(std::string("from a literal")));
    CHECK(filter.contains(std::string("from a pointer")));
    CHECK(filter.contains(std::string("from a view")));
    const std::vector<const char*> pointers = {"x", "y", "x"};
    CHECK(filter.insert(pointers.begin(), pointers.end()) == 2);
    CHECK(filter.contains(std::string("y")));
}

namespace {
std::string allocation_sink;
} // namespace

TEST_CASE("transparent lookups answer as std::string does, without building one", "[bloom_filter][lookup]") {
    bloom::bloom_filter<std::string> filter(1000, 0.01);
    const bloom_test::url_keys urls;
    for (std::uint64_t i = 0; i < 500; ++i) {
        filter.insert(urls(i));
    }
    // Members and non-members; the long ones exceed any small-string buffer, so building a std::string
    // from them would allocate.
    static const char member[] = "https://www.example.com/catalog/products/category/item?id=42";
    static const char non_member[] = "https://www.example.com/catalog/products/category/item?id=4242";
    static const char short_member[] = "abc";
    filter.insert(std::string(short_member));
    const std::string member_string(member);
    const std::string non_member_string(non_member);
    REQUIRE(filter.contains(member_string));
    REQUIRE_FALSE(filter.contains(non_member_string));
    REQUIRE(filter.contains(std::string(short_member)));

    const char* member_pointer = member;
    const char* non_member_pointer = non_member;
    const std::string_view member_view(member);
    const std::string_view non_member_view(non_member);

    allocation_count = 0;
    allocation_counting = true;
    const bool literal_found = filter.contains(member);
    const bool literal_absent = filter.contains(non_member);
    const bool short_found = filter.contains("abc");
    const bool pointer_found = filter.contains(member_pointer);
    const bool pointer_absent = filter.contains(non_member_pointer);
    const bool view_found = filter.contains(member_view);
    const bool view_absent = filter.contains(non_member_view);
    allocation_counting = false;
    const std::uint64_t lookup_allocations = allocation_count;

    CHECK(literal_found);
    CHECK_FALSE(literal_absent);
    CHECK(short_found);
    CHECK(pointer_found);
    CHECK_FALSE(pointer_absent);
    CHECK(view_found);
    CHECK_FALSE(view_absent);
#if BLOOM_TEST_COUNTS_ALLOCATIONS
    CHECK(lookup_allocations == 0);
#else
    static_cast<void>(lookup_allocations);
#endif

    // The counter does see a std::string being built from the same characters.
    allocation_count = 0;
    allocation_counting = true;
    allocation_sink = std::string(member);
    allocation_counting = false;
#if BLOOM_TEST_COUNTS_ALLOCATIONS
    CHECK(allocation_count >= 1);
#endif
    allocation_sink = std::string();

    SECTION("every key type agrees with std::string over many keys") {
        std::string text;
        for (std::uint64_t i = 0; i < 2000; ++i) {
            urls.write(i, text);
            const bool expected = filter.contains(text);
            CHECK(filter.contains(std::string_view(text)) == expected);
            CHECK(filter.contains(text.c_str()) == expected);
        }
    }
}

TEST_CASE("estimated_item_count tracks the distinct items at half fill", "[bloom_filter][estimate]") {
    // m = 2^20, k = 7 and n = m ln 2 / k = 103'872 distinct items: the fill is about 1/2.
    const bloom::filter_geometry geometry{std::uint64_t{1} << 20, 7};
    const std::uint64_t items = 103'872;
    bloom::bloom_filter<std::uint64_t> filter(geometry);
    CHECK(filter.estimated_item_count() == 0.0);
    insert_keys(filter, 0, items);
    // Tolerance: the fill X has standard deviation s ~ sqrt(0.0767 m) = 284 bits at half fill (balls into
    // bins), and d(estimate)/dX = (m/k) / (m - X) = 2/k, so the estimate's sd is about 81 items; allow
    // 4 sd plus 1% of n for the model (probes of one item are derived from one hash).
    const double m = static_cast<double>(geometry.bit_count);
    const double k = geometry.hash_count;
    const double fill_sd = std::sqrt(0.0767 * m);
    const double tolerance = 4.0 * (2.0 / k) * fill_sd + 0.01 * static_cast<double>(items);
    const double estimate = filter.estimated_item_count();
    INFO("estimate " << estimate << ", items " << items << ", tolerance " << tolerance);
    CHECK(std::fabs(estimate - static_cast<double>(items)) <= tolerance);

    SECTION("it counts each value once however often it is inserted") {
        insert_keys(filter, 0, items);
        CHECK(filter.estimated_item_count() == estimate);
    }
    SECTION("it stays finite once every bit is set: (m/k) ln(2m), the estimate half a bit short of full") {
        bloom::bloom_filter<std::uint64_t> tiny(bloom::filter_geometry{64, 1});
        insert_keys(tiny, 0, 10'000);
        CHECK(tiny.fill_ratio() == 1.0);
        CHECK(std::fabs(tiny.estimated_item_count() - 64.0 * std::log(128.0)) < 1e-9);
        CHECK(std::fabs(tiny.load_factor() -
                        64.0 * std::log(128.0) / static_cast<double>(tiny.expected_items())) < 1e-9);
        CHECK(tiny.current_false_positive_rate() == 1.0);
    }
}

TEST_CASE("fill_ratio follows 1 - e^(-kn/m)", "[bloom_filter][estimate]") {
    bloom::bloom_filter<std::uint64_t> filter(bloom::filter_geometry{std::uint64_t{1} << 20, 5});
    CHECK(filter.fill_ratio() == 0.0);
    CHECK(filter.insert(std::uint64_t{7}));
    // One item sets between 1 and k bits.
    CHECK(set_bits(filter) >= 1);
    CHECK(set_bits(filter) <= 5);
    CHECK(filter.fill_ratio() == static_cast<double>(set_bits(filter)) / static_cast<double>(1 << 20));
    filter.clear();

    const double m = 1 << 20;
    for (const std::uint64_t items :
         {std::uint64_t{20'000}, std::uint64_t{145'000}, std::uint64_t{400'000}}) {
        bloom::bloom_filter<std::uint64_t> loaded(bloom::filter_geometry{std::uint64_t{1} << 20, 5});
        insert_keys(loaded, 0, items);
        const double load = 5.0 * static_cast<double>(items) / m;
        const double expected = 1.0 - std::exp(-load);
        // sd of the fill: sqrt(e^-l (1 - (1 + l) e^-l) / m) (balls into bins); allow 4 sd plus 0.5% of the
        // expectation for the model (the k probes of one item come from one hash).
        const double sd = std::sqrt(std::exp(-load) * (1.0 - (1.0 + load) * std::exp(-load)) / m);
        const double tolerance = 4.0 * sd + 0.005 * expected;
        INFO(items << " items: fill " << loaded.fill_ratio() << ", expected " << expected);
        CHECK(std::fabs(loaded.fill_ratio() - expected) <= tolerance);
        CHECK(loaded.fill_ratio() == static_cast<double>(set_bits(loaded)) / m);
    }
}

TEST_CASE("a sized filter reports its shape", "[bloom_filter][observers]") {
    bloom::bloom_filter<std::uint64_t> filter(10'000, 0.01, 77);
    CHECK(filter.bit_count() == 95'851);
    CHECK(filter.hash_count() == 7);
    CHECK(filter.seed() == 77);
    CHECK(filter.expected_items() == 10'000);
    CHECK(filter.target_false_positive_rate() == 0.01); // the argument, stored
    CHECK(filter.item_count() == 0);
    CHECK(filter.word_count() == (95'851 + 63) / 64);
    CHECK(filter.memory_bytes() == (95'851 + 63) / 64 * 8);
    CHECK(filter.get_allocator() == std::allocator<std::uint64_t>());
    STATIC_REQUIRE(std::is_same_v<decltype(filter.hash_function()), bloom::hash<std::uint64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(filter)::value_type, std::uint64_t>);
    STATIC_REQUIRE(std::is_same_v<decltype(filter)::hasher, bloom::hash<std::uint64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(filter)::allocator_type, std::allocator<std::uint64_t>>);
    STATIC_REQUIRE(std::is_same_v<decltype(filter)::size_type, std::uint64_t>);

    // Bits past bit_count() in the last word stay clear.
    insert_keys(filter, 0, 20'000);
    const std::uint64_t last_word = filter.data()[filter.word_count() - 1];
    const unsigned used_bits = 95'851 % 64;
    CHECK((last_word >> used_bits) == 0);

    bloom::bloom_filter<std::string> defaulted(100, 0.1);
    CHECK(defaulted.seed() == bloom::default_seed);
    CHECK(defaulted.memory_bytes() == (defaulted.bit_count() + 63) / 64 * 8);
}

TEST_CASE("a filter built from a geometry has exactly that shape", "[bloom_filter][observers]") {
    bloom::bloom_filter<std::uint64_t> filter(bloom::filter_geometry{1000, 5});
    CHECK(filter.bit_count() == 1000);
    CHECK(filter.hash_count() == 5);
    CHECK(filter.seed() == bloom::default_seed);
    CHECK(filter.word_count() == 16);
    CHECK(filter.memory_bytes() == 128);
    // The load at which that shape is optimal: round(1000 ln 2 / 5) = round(138.6) = 139.
    CHECK(filter.expected_items() == 139);
    const double expected_rate = bloom_test::formula_rate(1000, 5, 139);
    CHECK(std::fabs(filter.target_false_positive_rate() - expected_rate) <= 1e-12 * expected_rate);

    bloom::bloom_filter<std::uint64_t> seeded(bloom::filter_geometry{1000, 5}, 99);
    CHECK(seeded.seed() == 99);
    bloom::bloom_filter<std::uint64_t> one_bit(bloom::filter_geometry{1, 1});
    CHECK(one_bit.expected_items() == 1);
    CHECK(one_bit.insert(std::uint64_t{123}));
    CHECK(one_bit.contains(std::uint64_t{456}));
}

TEST_CASE("current_false_positive_rate is fill^k and load_factor the estimate over the capacity",
          "[bloom_filter][observers]") {
    bloom::bloom_filter<std::uint64_t> filter(10'000, 0.01);
    CHECK(filter.current_false_positive_rate() == 0.0);
    CHECK(filter.load_factor() == 0.0);
    std::uint64_t inserted = 0;
    for (const std::uint64_t next : {std::uint64_t{1}, std::uint64_t{100}, std::uint64_t{5'000},
                                     std::uint64_t{10'000}, std::uint64_t{30'000}}) {
        insert_keys(filter, inserted, next);
        inserted = next;
        std::uint64_t set_bits = 0;
        for (std::size_t i = 0; i < filter.word_count(); ++i) {
            set_bits += static_cast<std::uint64_t>(std::bitset<64>(filter.data()[i]).count());
        }
        const double fill = static_cast<double>(set_bits) / static_cast<double>(filter.bit_count());
        INFO(next << " items, fill " << fill);
        CHECK(std::fabs(filter.current_false_positive_rate() - std::pow(fill, filter.hash_count())) <=
              1e-12 * std::pow(fill, filter.hash_count()));
        const double estimate =
            -static_cast<double>(filter.bit_count()) / filter.hash_count() * std::log1p(-fill);
        CHECK(std::fabs(filter.load_factor() - estimate / 10'000.0) <= 1e-12 * estimate);
    }
    // Three times past its capacity the rate has grown far past the target, and the load factor says so.
    CHECK(filter.current_false_positive_rate() > 10 * filter.target_false_positive_rate());
    CHECK(filter.load_factor() > 2.8);
    CHECK(filter.load_factor() < 3.2);
}

TEMPLATE_PRODUCT_TEST_CASE("union holds the items of both filters", "[bloom_filter][blocked][set]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter), (std::uint64_t, std::string)) {
    TestType both(2000, 0.01);
    TestType left(2000, 0.01);
    TestType right(2000, 0.01);
    insert_keys(both, 0, 2000);
    const std::uint64_t left_count = insert_keys(left, 0, 1000);
    const std::uint64_t right_count = insert_keys(right, 1000, 2000);

    const TestType united = left | right;
    CHECK(count_found(united, 0, 2000) == 2000);
    // Setting bits commutes: the union has exactly the bits of one filter holding everything.
    CHECK(united == both);
    CHECK((right | left) == both);
    // Its count is the estimate from its bits (the exact distinct count is unknowable after a union), and
    // its rate is the one filter's that holds everything: both come from the same bits.
    CHECK(united.item_count() == static_cast<std::uint64_t>(std::llround(both.estimated_item_count())));
    CHECK(united.current_false_positive_rate() == both.current_false_positive_rate());
    CHECK(left_count + right_count >= 1995);

    left |= right;
    CHECK(left == united);
    CHECK(left.item_count() == united.item_count());

    // A union that adds no bit keeps the count: f | f has f's, and so has f | (a subset of f).
    CHECK((right | right).item_count() == right_count);
    TestType empty(2000, 0.01);
    CHECK((right | empty).item_count() == right_count);
    CHECK((empty | right).item_count() == right_count);
}

TEMPLATE_PRODUCT_TEST_CASE("intersection holds the items both filters hold", "[bloom_filter][blocked][set]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter), (std::uint64_t, std::string)) {
    TestType left(3000, 0.01);
    TestType right(3000, 0.01);
    TestType common(3000, 0.01);
    insert_keys(left, 0, 2000);      // [0, 2000)
    insert_keys(right, 1000, 3000);  // [1000, 3000)
    insert_keys(common, 1000, 2000); // [1000, 2000), in both

    const TestType intersected = left & right;
    CHECK(count_found(intersected, 1000, 2000) == 1000);
    CHECK(intersected.item_count() ==
          static_cast<std::uint64_t>(std::llround(intersected.estimated_item_count())));
    CHECK((left & left).item_count() == left.item_count());
    // Every bit of the common items survives the intersection.
    for (std::size_t i = 0; i < common.word_count(); ++i) {
        REQUIRE((common.data()[i] & ~intersected.data()[i]) == 0);
    }
    // Items in only one filter mostly vanish: at most a few percent are still reported.
    CHECK(count_found(intersected, 0, 1000) < 100);
    CHECK(count_found(intersected, 2000, 3000) < 100);

    left &= right;
    CHECK(left == intersected);
}

TEST_CASE("incompatible filters refuse to combine, naming what differs", "[bloom_filter][set][errors]") {
    using filter_type = bloom::bloom_filter<std::uint64_t>;
    const filter_type base(bloom::filter_geometry{1000, 3}, 1);
    const filter_type other_bits(bloom::filter_geometry{2000, 3}, 1);
    const filter_type other_hashes(bloom::filter_geometry{1000, 4}, 1);
    const filter_type other_seed(bloom::filter_geometry{1000, 3}, 2);
    const filter_type all_differ(bloom::filter_geometry{2000, 4}, 2);
    const filter_type same(bloom::filter_geometry{1000, 3}, 1);

    CHECK(base.compatible_with(same));
    CHECK(base.compatible_with(base));
    CHECK_FALSE(base.compatible_with(other_bits));
    CHECK_FALSE(base.compatible_with(other_hashes));
    CHECK_FALSE(base.compatible_with(other_seed));
    CHECK_FALSE(base.compatible_with(all_differ));

    const std::pair<const filter_type*, std::vector<std::string>> cases[] = {
        {&other_bits, {"bit_count"}},
        {&other_hashes, {"hash_count"}},
        {&other_seed, {"seed"}},
        {&all_differ, {"bit_count", "hash_count", "seed"}},
    };
    for (const auto& differing : cases) {
        const filter_type* const other = differing.first;
        const std::vector<std::string>& names = differing.second;
        filter_type target = base;
        target.insert(std::uint64_t{5});
        const filter_type before = target;
        bloom_test::require_invalid_argument([&] { target |= *other; }, names);
        bloom_test::require_invalid_argument([&] { target &= *other; }, names);
        bloom_test::require_invalid_argument([&] { (void)(target | *other); }, names);
        bloom_test::require_invalid_argument([&] { (void)(target & *other); }, names);
        // A refused combination leaves the filter as it was.
        CHECK(target == before);
        CHECK(target.item_count() == 1);
    }
    // Only the differences are named.
    bloom_test::require_invalid_argument([&] { (void)(base | other_seed); }, "seed 1 vs 2");
    filter_type target = base;
    try {
        target |= other_seed;
    } catch (const std::invalid_argument& error) {
        const std::string message = error.what();
        CHECK(message.find("bit_count") == std::string::npos);
        CHECK(message.find("hash_count") == std::string::npos);
    }
}

TEST_CASE("equality compares shape, seed and bits, not counts", "[bloom_filter][set]") {
    bloom::bloom_filter<std::uint64_t> a(1000, 0.01);
    bloom::bloom_filter<std::uint64_t> b(1000, 0.01);
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

    // Empty filters of another shape or seed differ even though all their bits are 0.
    CHECK(bloom::bloom_filter<std::uint64_t>(1000, 0.01, 1) !=
          bloom::bloom_filter<std::uint64_t>(1000, 0.01, 2));
    CHECK(bloom::bloom_filter<std::uint64_t>(bloom::filter_geometry{1000, 3}) !=
          bloom::bloom_filter<std::uint64_t>(bloom::filter_geometry{1000, 4}));
    CHECK(bloom::bloom_filter<std::uint64_t>(bloom::filter_geometry{1000, 3}) !=
          bloom::bloom_filter<std::uint64_t>(bloom::filter_geometry{1001, 3}));
    // A seed changes which bits a value sets.
    bloom::bloom_filter<std::uint64_t> seed_one(bloom::filter_geometry{1000, 3}, 1);
    bloom::bloom_filter<std::uint64_t> seed_two(bloom::filter_geometry{1000, 3}, 2);
    seed_one.insert(std::uint64_t{1});
    seed_two.insert(std::uint64_t{1});
    bool words_differ = false;
    for (std::size_t i = 0; i < seed_one.word_count(); ++i) {
        words_differ = words_differ || seed_one.data()[i] != seed_two.data()[i];
    }
    CHECK(words_differ);
}

TEMPLATE_PRODUCT_TEST_CASE("copies are independent", "[bloom_filter][blocked][value]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter), (std::uint64_t, std::string)) {
    using value_type = typename TestType::value_type;
    TestType original(1000, 0.01);
    insert_keys(original, 0, 500);
    const value_type extra = key<value_type>(1'000'000);
    REQUIRE_FALSE(original.contains(extra));

    TestType copy(original);
    CHECK(copy == original);
    CHECK(copy.item_count() == original.item_count());
    CHECK(copy.data() != original.data());
    copy.insert(extra);
    CHECK(copy.contains(extra));
    CHECK_FALSE(original.contains(extra));
    CHECK(copy.item_count() == original.item_count() + 1);

    TestType assigned(10, 0.5);
    assigned = original;
    CHECK(assigned == original);
    CHECK(assigned.expected_items() == 1000);
    assigned.clear();
    CHECK(count_found(original, 0, 500) == 500);
}

TEST_CASE("swap exchanges everything", "[bloom_filter][value]") {
    bloom::bloom_filter<std::uint64_t> a(1000, 0.01, 1);
    bloom::bloom_filter<std::uint64_t> b(bloom::filter_geometry{5000, 2}, 2);
    insert_keys(a, 0, 100);
    insert_keys(b, 100, 150);
    const bloom::bloom_filter<std::uint64_t> a_copy = a;
    const bloom::bloom_filter<std::uint64_t> b_copy = b;

    a.swap(b);
    CHECK(a == b_copy);
    CHECK(b == a_copy);
    CHECK(a.item_count() == b_copy.item_count());
    CHECK(a.expected_items() == b_copy.expected_items());
    CHECK(a.target_false_positive_rate() == b_copy.target_false_positive_rate());

    using std::swap;
    swap(a, b);
    CHECK(a == a_copy);
    CHECK(b == b_copy);
    CHECK(a.seed() == 1);
    CHECK(b.seed() == 2);
}

TEMPLATE_PRODUCT_TEST_CASE("clear removes every item and keeps the shape", "[bloom_filter][blocked][value]",
                           (bloom::bloom_filter, bloom::blocked_bloom_filter), (std::uint64_t, std::string)) {
    using value_type = typename TestType::value_type;
    TestType filter(1000, 0.01, 5);
    insert_keys(filter, 0, 1000);
    filter.clear();
    CHECK(filter.item_count() == 0);
    CHECK(filter.fill_ratio() == 0.0);
    CHECK(filter.estimated_item_count() == 0.0);
    CHECK(filter.current_false_positive_rate() == 0.0);
    // No bit is set, so nothing at all is found.
    CHECK(count_found(filter, 0, 1000) == 0);
    CHECK(filter == TestType(1000, 0.01, 5));
    CHECK(filter.seed() == 5);
    CHECK(filter.expected_items() == 1000);
    CHECK(filter.insert(key<value_type>(0)));
}

TEMPLATE_TEST_CASE("a stateful allocator holds the words", "[bloom_filter][allocator]",
                   counting_allocator<std::uint64_t>, counting_allocator<char>) {
    using filter_type = bloom::bloom_filter<std::uint64_t, bloom::hash<std::uint64_t>, TestType>;
    allocation_stats stats;
    {
        const TestType allocator(&stats);
        filter_type filter(10'000, 0.01, bloom::default_seed, bloom::hash<std::uint64_t>(), allocator);
        CHECK(stats.live_bytes == static_cast<std::int64_t>(filter.memory_bytes()));
        CHECK(stats.allocations == 1);
        CHECK(filter.get_allocator() == allocator);
        STATIC_REQUIRE(std::is_same_v<decltype(filter.get_allocator()), TestType>);
        insert_keys(filter, 0, 1000);
        CHECK(count_found(filter, 0, 1000) == 1000);

        filter_type copy(filter);
        CHECK(copy.get_allocator() == allocator);
        CHECK(stats.live_bytes == 2 * static_cast<std::int64_t>(filter.memory_bytes()));

        filter_type moved(std::move(copy));
        CHECK(stats.allocations == 2); // the move steals the words
        CHECK(moved == filter);

        filter_type from_geometry(bloom::filter_geometry{6400, 3}, 1, bloom::hash<std::uint64_t>(),
                                  allocator);
        CHECK(stats.live_bytes == 2 * static_cast<std::int64_t>(filter.memory_bytes()) + 800);
    }
    CHECK(stats.live_bytes == 0);
    CHECK(stats.allocations == stats.deallocations);
}

namespace {
// A natural but weak user hasher: the seed only XORed in, no avalanche declared.
struct xor_seed_hasher {
    std::uint64_t operator()(std::uint64_t value, std::uint64_t seed) const noexcept {
        return std::hash<std::uint64_t>{}(value) ^ seed;
    }
};
} // namespace

TEST_CASE("the seed changes the bits even for a hasher that only XORs it in", "[seed]") {
    bloom::bloom_filter<std::uint64_t, xor_seed_hasher> first(bloom::filter_geometry{1000, 5}, 1);
    bloom::bloom_filter<std::uint64_t, xor_seed_hasher> second(bloom::filter_geometry{1000, 5}, 2);
    for (std::uint64_t value = 0; value < 20; ++value) {
        first.insert(value);
        second.insert(value);
    }
    bool identical = true;
    for (std::size_t i = 0; i < first.word_count(); ++i) {
        identical = identical && first.data()[i] == second.data()[i];
    }
    CHECK_FALSE(identical);
}
