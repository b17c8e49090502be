// SPDX-License-Identifier: MIT
// Measured false-positive rates against the formula, over key families that break weak hashing.
//
// Each check inserts the keys of indices [0, n) of a family into a filter sized for (n, p), queries the
// 10^6 keys of indices [n, n + 10^6) (disjoint from the members by construction, see test_support.hpp)
// and requires |measured - formula| <= 4 sigma + allowance, with the formula
// bloom::false_positive_rate(m, k, n) at the n distinct items inserted and the tolerance derived in
// bloom_test::rate_tolerance.
#include "catch.hpp"
#include "test_support.hpp"

#include <bloom/bloom_filter.hpp>
#include <bloom/hash.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>

namespace {

constexpr std::uint64_t query_count = 1'000'000;

struct sizing {
    std::uint64_t items;
    double rate;
};

// The configurations: small, very low rate, large, high rate.
constexpr sizing all_sizings[] = {{10'000, 0.01}, {100'000, 0.001}, {1'000'000, 0.01}, {100'000, 0.1}};

struct measurement {
    double measured;
    double expected;
    double tolerance;

    [[nodiscard]] bool within_tolerance() const { return std::fabs(measured - expected) <= tolerance; }
};

/// Fills a filter sized for `sizing` with family members [0, n) and measures its rate on [n, n + queries).
template <class Hasher = void, class Family>
measurement measure(const Family& keys, sizing size) {
    using key_type = typename Family::key_type;
    using hasher = std::conditional_t<std::is_void_v<Hasher>, bloom::hash<key_type>, Hasher>;
    bloom::bloom_filter<key_type, hasher> filter(size.items, size.rate);
    key_type key{};
    for (std::uint64_t i = 0; i < size.items; ++i) {
        keys.write(i, key);
        filter.insert(key);
    }
    std::uint64_t false_positives = 0;
    for (std::uint64_t i = size.items; i < size.items + query_count; ++i) {
        keys.write(i, key);
        false_positives += filter.contains(key) ? 1 : 0;
    }
    const double expected = bloom::false_positive_rate(filter.bit_count(), filter.hash_count(), size.items);
    return {static_cast<double>(false_positives) / static_cast<double>(query_count), expected,
            bloom_test::rate_tolerance(expected, query_count, filter.bit_count(), filter.hash_count(),
                                       size.items)};
}

template <class Hasher = void, class Family>
void check_rate(const Family& keys, sizing size) {
    const measurement result = measure<Hasher>(keys, size);
    INFO("n " << size.items << ", target " << size.rate << ": measured " << result.measured << ", formula "
              << result.expected << ", tolerance " << result.tolerance);
    CHECK(result.within_tolerance());
}

/// A seeded hasher that does not avalanche and does not say so: std::hash (the identity on
/// libstdc++) xor the seed. The filter must add its mixing step.
struct raw_std_hasher {
    std::uint64_t operator()(std::uint64_t value, std::uint64_t seed) const noexcept {
        return static_cast<std::uint64_t>(std::hash<std::uint64_t>{}(value)) ^ seed;
    }
};

/// The same hasher, wrongly declared avalanching: the filter trusts it and the rate breaks.
struct falsely_avalanching_hasher {
    using is_avalanching = void;
    std::uint64_t operator()(std::uint64_t value, std::uint64_t seed) const noexcept {
        return static_cast<std::uint64_t>(std::hash<std::uint64_t>{}(value)) ^ seed;
    }
};

} // namespace

TEST_CASE("random 64-bit integers meet the formula's rate", "[fpr]") {
    for (const sizing size : all_sizings) {
        check_rate(bloom_test::random_u64_keys{}, size);
    }
}

TEST_CASE("URL strings sharing a long prefix meet the formula's rate", "[fpr]") {
    for (const sizing size : all_sizings) {
        check_rate(bloom_test::url_keys{}, size);
    }
}

TEST_CASE("sequential integers meet the formula's rate", "[fpr]") {
    for (const sizing size : all_sizings) {
        check_rate(bloom_test::sequential_keys{}, size);
    }
}

TEST_CASE("integers differing in one bit meet the formula's rate", "[fpr]") {
    for (const sizing size : all_sizings) {
        check_rate(bloom_test::one_bit_keys{}, size);
    }
}

TEST_CASE("long strings meet the formula's rate", "[fpr]") {
    for (const sizing size : all_sizings) {
        check_rate(bloom_test::long_string_keys{}, size);
    }
}

TEST_CASE("the empty string and short strings meet the formula's rate", "[fpr]") {
    for (const sizing size : all_sizings) {
        check_rate(bloom_test::short_string_keys{}, size);
    }
}

TEST_CASE("std_hash_adapter on sequential integers meets the formula's rate", "[fpr]") {
    for (const sizing size : all_sizings) {
        check_rate<bloom::std_hash_adapter<std::uint64_t>>(bloom_test::sequential_keys{}, size);
    }
}

TEST_CASE("a non-avalanching user hasher on sequential integers meets the formula's rate", "[fpr]") {
    for (const sizing size : all_sizings) {
        check_rate<raw_std_hasher>(bloom_test::sequential_keys{}, size);
    }
}

TEST_CASE("the rate check fails a filter whose hashing is broken", "[fpr]") {
    // Without the mixing step an identity hash maps sequential integers onto a few bits: the tolerance is
    // narrow enough to see it.
    const measurement result =
        measure<falsely_avalanching_hasher>(bloom_test::sequential_keys{}, {100'000, 0.01});
    INFO("measured " << result.measured << ", formula " << result.expected << ", tolerance "
                     << result.tolerance);
    CHECK_FALSE(result.within_tolerance());
}
