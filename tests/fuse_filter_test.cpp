// SPDX-License-Identifier: MIT
// bloom/fuse_filter.hpp: the binary fuse filter. No false negatives ever; the measured rate within 4 sigma
// of 2^-bits; the space the issue and the paper promise (9.1 and 18.2 bits per key from 10^6 keys, at most
// 1.5 times that at 1,000); duplicates, empty input and fully colliding hashes; determinism; bulk answers.
#include "catch.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bloom/bloom_filter.hpp>
#include <bloom/filter_view.hpp>
#include <bloom/fuse_filter.hpp>
#include <bloom/serialization.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace {

std::vector<std::uint64_t> random_keys(std::size_t count, std::uint64_t seed) {
    bloom_test::splitmix64 random(seed);
    std::vector<std::uint64_t> keys(count);
    for (auto& key : keys) {
        key = random.next();
    }
    return keys;
}

/// Non-members (random keys outside `keys`) the filter reports present, over `trials`.
template <class Filter>
std::size_t false_positives(const Filter& filter, const std::vector<std::uint64_t>& keys, std::size_t trials,
                            std::uint64_t seed) {
    std::vector<std::uint64_t> members = keys;
    std::sort(members.begin(), members.end());
    bloom_test::splitmix64 random(seed);
    std::size_t positives = 0;
    for (std::size_t i = 0; i < trials;) {
        const std::uint64_t key = random.next();
        if (!std::binary_search(members.begin(), members.end(), key)) {
            positives += filter.contains(key) ? 1 : 0;
            ++i;
        }
    }
    return positives;
}

/// A hasher that gives every key the same hash: the worst case of fully colliding hashes.
struct constant_hasher {
    std::uint64_t operator()(std::uint64_t, std::uint64_t) const noexcept { return 42; }
};

/// A hasher under which keys k and k + 2^32 collide fully (only the low half is hashed).
struct low_half_hasher {
    std::uint64_t operator()(std::uint64_t key, std::uint64_t seed) const noexcept {
        return bloom::hash<std::uint64_t>()(key & 0xffffffffU, seed);
    }
};

} // namespace

TEMPLATE_TEST_CASE("fuse_filter: no false negatives, the rate 2^-bits, the promised space", "[fuse][promise]",
                   std::uint8_t, std::uint16_t) {
    using filter_type = bloom::fuse_filter<std::uint64_t, TestType>;
    const double bits = 8.0 * sizeof(TestType);
    for (const std::size_t count : {std::size_t{1000}, std::size_t{1000000}}) {
        INFO(count << " keys");
        const auto keys = random_keys(count, 7 + count);
        const filter_type filter(keys.begin(), keys.end());
        CHECK(filter.item_count() == count);
        std::size_t missed = 0;
        for (const auto key : keys) {
            missed += filter.contains(key) ? 0 : 1;
        }
        REQUIRE(missed == 0);
        // Graf & Lemire's bound: 1.125 slots per key from 10^6 keys (9.1 and 18.2 bits with the array's
        // rounding), and no more than 1.5 times that for 1,000 keys.
        const double limit = (sizeof(TestType) == 1 ? 9.1 : 18.2) * (count >= 1000000 ? 1.0 : 1.5);
        CHECK(filter.bits_per_item() <= limit);
        CHECK(filter.bits_per_item() >= bits); // at least a fingerprint per key
        const double rate = std::pow(2.0, -bits);
        CHECK(filter_type::false_positive_rate() == rate);
        const std::size_t trials = sizeof(TestType) == 1 ? 400000 : 4000000;
        const double expected = rate * static_cast<double>(trials);
        const double sigma = std::sqrt(expected * (1 - rate));
        const auto positives = static_cast<double>(false_positives(filter, keys, trials, 99 + count));
        INFO(positives << " false positives, expected " << expected << " +- " << sigma);
        CHECK(std::abs(positives - expected) < 4 * sigma);
    }
}

TEST_CASE("fuse_filter: duplicates, empty input, strings, bulk answers", "[fuse]") {
    std::vector<std::uint64_t> keys = random_keys(5000, 3);
    std::vector<std::uint64_t> doubled = keys;
    doubled.insert(doubled.end(), keys.begin(), keys.end());
    const bloom::fuse_filter<std::uint64_t> filter(doubled);
    CHECK(filter.item_count() == 5000);
    CHECK(filter == bloom::fuse_filter<std::uint64_t>(keys)); // duplicates change nothing

    const std::vector<std::uint64_t> none;
    const bloom::fuse_filter<std::uint64_t> empty(none);
    CHECK(empty.item_count() == 0);
    CHECK(empty.memory_bytes() == 0);
    CHECK_FALSE(empty.contains(0));
    CHECK_FALSE(bloom::fuse_filter<std::uint64_t>().contains(1));
    for (const std::size_t small :
         {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{17}}) {
        const std::vector<std::uint64_t> few(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(small));
        const bloom::fuse_filter<std::uint64_t> tiny(few);
        for (const auto key : few) {
            CHECK(tiny.contains(key));
        }
    }

    const std::vector<std::string> words = {"alpha", "beta", "gamma", "", "delta", "beta"};
    const bloom::fuse_filter<std::string, std::uint16_t> strings(words.begin(), words.end());
    CHECK(strings.item_count() == 5);
    for (const auto& word : words) {
        CHECK(strings.contains(word));
    }

    std::vector<std::uint64_t> queries = keys;
    const auto others = random_keys(5000, 4);
    queries.insert(queries.end(), others.begin(), others.end());
    std::vector<bool> bulk(queries.size());
    filter.contains(queries.begin(), queries.end(), bulk.begin());
    for (std::size_t i = 0; i < queries.size(); ++i) {
        REQUIRE(bulk[i] == filter.contains(queries[i]));
    }
}

TEST_CASE("fuse_filter: bulk lookups past the first caches, which prefetch, answer as single ones",
          "[fuse]") {
    // 300,000 keys: about 340 KB of fingerprints, past the 256 KiB from which bulk lookups hash ahead.
    const std::vector<std::uint64_t> keys = random_keys(300'000, 5);
    const bloom::fuse_filter<std::uint64_t> filter(keys);
    REQUIRE(filter.memory_bytes() >= std::size_t{1} << 18);
    std::vector<std::uint64_t> queries = random_keys(200'000, 6);
    queries.insert(queries.end(), keys.begin(), keys.begin() + 100'000);
    std::vector<char> bulk(queries.size(), 2);
    filter.contains(queries.begin(), queries.end(), bulk.begin());
    std::size_t found = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
        REQUIRE(static_cast<bool>(bulk[i]) == filter.contains(queries[i]));
        found += bulk[i] != 0 ? 1 : 0;
    }
    CHECK(found >= 100'000); // the members, and about 0.4% of the others
    CHECK(found < 102'000);
}

TEST_CASE("fuse_filter: deterministic per seed; fully colliding hashes do not stall construction", "[fuse]") {
    const auto keys = random_keys(20000, 5);
    const bloom::fuse_filter<std::uint64_t> a(keys, 1234);
    const bloom::fuse_filter<std::uint64_t> b(keys.begin(), keys.end(), 1234);
    CHECK(a == b);
    CHECK(a.seed() == 1234);
    const bloom::fuse_filter<std::uint64_t> c(keys, 1235);
    CHECK(a != c);
    bloom::fuse_filter<std::uint64_t> moved = a;
    const bloom::fuse_filter<std::uint64_t> taken = std::move(moved);
    CHECK(taken == a);
    // A moved-from filter keeps its shape but no slots (a moved-from vector is empty): it answers false
    // and reads nothing out of bounds (ASan checks).
    CHECK_FALSE(moved.contains(keys[0])); // NOLINT(bugprone-use-after-move)

    // Every key hashes alike: one hash, one item, every key found (and so is everything else).
    const bloom::fuse_filter<std::uint64_t, std::uint8_t, constant_hasher> constant(keys);
    CHECK(constant.item_count() == 1);
    CHECK(constant.contains(keys[0]));
    CHECK(constant.contains(keys[19999]));
    // Pairs of different keys with equal hashes: each pair is one item, both keys found.
    std::vector<std::uint64_t> pairs;
    for (std::uint64_t i = 0; i < 1000; ++i) {
        pairs.push_back(i);
        pairs.push_back(i + (std::uint64_t{1} << 32));
    }
    const bloom::fuse_filter<std::uint64_t, std::uint8_t, low_half_hasher> colliding(pairs);
    CHECK(colliding.item_count() == 1000);
    for (const auto key : pairs) {
        REQUIRE(colliding.contains(key));
    }
}

TEMPLATE_TEST_CASE("fuse_filter: saved and loaded as records of the portable format", "[fuse][serialization]",
                   std::uint8_t, std::uint16_t, std::uint32_t) {
    using filter_type = bloom::fuse_filter<std::uint64_t, TestType>;
    const auto keys = random_keys(3000, 11);
    const filter_type filter(keys);
    const std::vector<std::byte> bytes = bloom::to_bytes(filter);
    const auto info = bloom::inspect(bytes.data(), bytes.size());
    CHECK(info.kind == bloom::filter_kind::fuse);
    CHECK(info.counter_bits == 8 * sizeof(TestType));
    CHECK(info.hash_count == 3);
    CHECK(info.bit_count == filter.slot_count());
    CHECK(info.item_count == 3000);
    CHECK(bytes.size() % 8 == 0);
    const auto loaded = bloom::from_bytes<filter_type>(bytes.data(), bytes.size());
    CHECK(loaded == filter);
    std::size_t missed = 0;
    for (const auto key : keys) {
        missed += loaded.contains(key) ? 0 : 1;
    }
    CHECK(missed == 0);
    // The empty filter saves and loads too.
    const filter_type empty{std::vector<std::uint64_t>{}};
    const auto empty_bytes = bloom::to_bytes(empty);
    CHECK_FALSE(bloom::from_bytes<filter_type>(empty_bytes.data(), empty_bytes.size()).contains(1));
    // Another width, another kind, a changed byte.
    using other_width =
        bloom::fuse_filter<std::uint64_t,
                           std::conditional_t<sizeof(TestType) == 1, std::uint16_t, std::uint8_t>>;
    bloom_test::require_format_error_containing(
        [&] { return bloom::from_bytes<other_width>(bytes.data(), bytes.size()); }, "-bit fingerprints");
    bloom_test::require_format_error_containing(
        [&] { return bloom::from_bytes<bloom::bloom_filter<std::uint64_t>>(bytes.data(), bytes.size()); },
        "fuse");
    const bloom::bloom_filter<std::uint64_t> classic(100, 0.01);
    const auto classic_bytes = bloom::to_bytes(classic);
    bloom_test::require_format_error_containing(
        [&] { return bloom::from_bytes<filter_type>(classic_bytes.data(), classic_bytes.size()); },
        "classic");
    auto corrupt = bytes;
    corrupt[200] ^= std::byte{4};
    bloom_test::require_format_error_containing(
        [&] { return bloom::from_bytes<filter_type>(corrupt.data(), corrupt.size()); }, "checksum");
}

TEST_CASE("fuse_filter_view answers as the saved filter, in place", "[fuse][view]") {
    const auto keys = random_keys(20000, 21);
    const bloom::fuse_filter<std::uint64_t, std::uint16_t> filter(keys);
    const std::vector<std::byte> bytes = bloom::to_bytes(filter);
    // Misaligned on purpose: the view reads little-endian bytes at any address.
    std::vector<std::byte> shifted(bytes.size() + 1);
    std::copy(bytes.begin(), bytes.end(), shifted.begin() + 1);
    const bloom::fuse_filter_view<std::uint64_t, std::uint16_t> view(shifted.data() + 1, bytes.size());
    CHECK(view.item_count() == 20000);
    const auto others = random_keys(20000, 22);
    std::size_t differ = 0;
    for (const auto* list : {&keys, &others}) {
        for (const auto key : *list) {
            differ += view.contains(key) == filter.contains(key) ? 0 : 1;
        }
    }
    CHECK(differ == 0);
    CHECK_FALSE(bloom::fuse_filter_view<std::uint64_t>().contains(1));
    bloom_test::require_format_error_containing(
        [&] { return bloom::fuse_filter_view<std::uint64_t, std::uint8_t>(bytes.data(), bytes.size()); },
        "16-bit fingerprints");
    auto corrupt = bytes;
    corrupt[300] ^= std::byte{1};
    bloom_test::require_format_error_containing(
        [&] { return bloom::fuse_filter_view<std::uint64_t, std::uint16_t>(corrupt.data(), corrupt.size()); },
        "checksum");
}

TEST_CASE("fuse_filter: the keys' order and repeats change nothing", "[fuse]") {
    const auto keys = random_keys(30000, 31);
    std::vector<std::uint64_t> shuffled = keys;
    bloom_test::splitmix64 random(32);
    for (std::size_t i = shuffled.size(); i > 1; --i) {
        std::swap(shuffled[i - 1], shuffled[random.next() % i]);
    }
    // Every tenth key three times, spread through the input.
    for (std::size_t i = 0; i < keys.size(); i += 10) {
        shuffled.push_back(keys[i]);
        shuffled.insert(shuffled.begin() + static_cast<std::ptrdiff_t>(random.next() % shuffled.size()),
                        keys[i]);
    }
    const bloom::fuse_filter<std::uint64_t, std::uint16_t> sorted_once(keys, 77);
    const bloom::fuse_filter<std::uint64_t, std::uint16_t> shuffled_with_repeats(shuffled, 77);
    CHECK(shuffled_with_repeats.item_count() == keys.size());
    CHECK(shuffled_with_repeats == sorted_once);
}

TEMPLATE_TEST_CASE("fuse_filter: temporary memory about 3 times the filter beyond the key hashes",
                   "[fuse][memory]", std::uint8_t, std::uint16_t) {
    if (!bloom_test::peak_allocation::available()) {
        WARN("allocation sizes are not tracked in this build");
        return;
    }
    const auto keys = random_keys(1000000, 41);
    std::uint64_t peak = 0;
    std::size_t filter_bytes = 0;
    {
        const bloom_test::peak_allocation tracking;
        const bloom::fuse_filter<std::uint64_t, TestType> filter(keys);
        peak = tracking.peak_bytes();
        filter_bytes = filter.memory_bytes();
        REQUIRE(filter.contains(keys[12345]));
    }
    // Beyond the 8-byte hash of each key and the filter itself: 3 bytes per slot (a 24-bit key number),
    // plus a count byte per slot that 8-bit fingerprints keep in the filter's own array.
    const double key_hash_bytes = 8.0 * static_cast<double>(keys.size());
    const double temporary = static_cast<double>(peak) - key_hash_bytes - static_cast<double>(filter_bytes);
    INFO("peak " << peak << " bytes, filter " << filter_bytes << " bytes, temporary " << temporary);
    CHECK(temporary <= (sizeof(TestType) == 1 ? 3.1 : 2.1) * static_cast<double>(filter_bytes));
}

TEST_CASE("fuse_filter: shapes and slots past 2^32", "[fuse]") {
    // 4.5e9 keys need about 5.1e9 slots: the shape and every slot index stay 64-bit, and a window of three
    // 2^18-slot segments holds far fewer keys than the 24-bit key numbers of construction can name.
    const auto shape = bloom::detail::fuse_shape::of(4'500'000'000ULL);
    CHECK(shape.segment_length == (std::uint64_t{1} << 18));
    CHECK(shape.array_length > (std::uint64_t{1} << 32));
    CHECK(static_cast<double>(shape.array_length) <= 1.126 * 4.5e9 + 3.0 * 262144.0);
    CHECK(3.0 * static_cast<double>(shape.segment_length) < static_cast<double>(0xffffff) / 4.0);
    const std::uint64_t segment_count_length = shape.segment_count * shape.segment_length;
    std::uint64_t highest = 0;
    bloom_test::splitmix64 random(51);
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t hashed = i == 0 ? ~std::uint64_t{0} : random.next();
        const auto slots = bloom::detail::fuse_slots_of(hashed, shape.segment_length, segment_count_length);
        for (unsigned which = 0; which < 3; ++which) {
            REQUIRE(slots.slot[which] < shape.array_length);
            REQUIRE(slots.slot[which] / shape.segment_length == slots.slot[0] / shape.segment_length + which);
            highest = std::max(highest, slots.slot[which]);
        }
    }
    CHECK(highest > (std::uint64_t{1} << 32));
    CHECK(highest >= shape.array_length - 2 * shape.segment_length);
}
