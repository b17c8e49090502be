// SPDX-License-Identifier: MIT
// A filter of more than 2^32 bits keeps 64-bit positions: it uses its whole bit array and keeps its rate.
// It allocates about 1.1 GB.
#include "catch.hpp"
#include "test_support.hpp"

#include <bloom/bloom_filter.hpp>
#include <bloom/sizing.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>

TEST_CASE("a filter of more than 2^32 bits uses all its bits and keeps its rate",
          "[.][bloom_filter][large]") {
    constexpr std::uint64_t two_to_32 = std::uint64_t{1} << 32;
    bloom::bloom_filter<std::uint64_t> filter(6'000'000'000, 0.5);
    const std::uint64_t m = filter.bit_count();

    // m = ceil(6e9 / ln 2) = 8'656'170'246, about 2^33.01; k = 1.
    CHECK(m > (std::uint64_t{1} << 33));
    CHECK(m == bloom::optimal_bit_count(6'000'000'000, 0.5));
    CHECK(m == static_cast<std::uint64_t>(std::ceil(6e9 / std::log(2.0))));
    CHECK(filter.hash_count() == 1);
    CHECK(filter.word_count() == (m + 63) / 64);

    // 2^24 distinct random values.
    const std::uint64_t items = std::uint64_t{1} << 24;
    const bloom_test::random_u64_keys keys;
    for (std::uint64_t i = 0; i < items; ++i) {
        filter.insert(keys(i));
    }

    // Where the set bits are: some lie past 2^32, the highest in the last 1% of the words, and the share
    // past 2^32 matches the share of the array there, (m - 2^32) / m ~ 0.504. The count of set bits past
    // 2^32 is binomial over the ~2^24 set bits (sd ~ 2050): allow 4 sd plus 0.5% of the expectation.
    const std::uint64_t* const words = filter.data();
    const std::size_t word_count = filter.word_count();
    const auto first_high_word = static_cast<std::size_t>(two_to_32 / 64);
    std::uint64_t bits_low = 0;
    std::uint64_t bits_high = 0;
    std::size_t highest_set_word = 0;
    for (std::size_t i = 0; i < word_count; ++i) {
        std::uint64_t set = 0;
        for (std::uint64_t word = words[i]; word != 0; word &= word - 1) {
            ++set;
        }
        (i < first_high_word ? bits_low : bits_high) += set;
        highest_set_word = set != 0 ? i : highest_set_word;
    }
    const double set_bits = static_cast<double>(bits_low + bits_high);
    const double high_share = static_cast<double>(m - two_to_32) / static_cast<double>(m);
    const double expected_high = set_bits * high_share;
    const double high_tolerance =
        4.0 * std::sqrt(set_bits * high_share * (1.0 - high_share)) + 0.005 * expected_high;
    INFO("set bits below 2^32: " << bits_low << ", at or above: " << bits_high
                                 << ", expected above: " << expected_high << ", highest set word "
                                 << highest_set_word << " of " << word_count);
    CHECK(bits_high > 0);
    CHECK(static_cast<double>(highest_set_word) >= 0.99 * static_cast<double>(word_count));
    CHECK(std::fabs(static_cast<double>(bits_high) - expected_high) <= high_tolerance);

    // The rate over 10^6 non-members: 1 - e^(-n/m) ~ n/m ~ 0.00194, within 4 sigma + allowance (see
    // bloom_test::rate_tolerance), and clearly below 1.5 n/m: positions cut to 32 bits would use only
    // half the array and give about 2 n/m.
    const std::uint64_t query_count = 1'000'000;
    std::uint64_t false_positives = 0;
    for (std::uint64_t i = items; i < items + query_count; ++i) {
        false_positives += filter.contains(keys(i)) ? 1 : 0;
    }
    const double measured = static_cast<double>(false_positives) / static_cast<double>(query_count);
    const double expected = bloom::false_positive_rate(m, 1, items);
    const double load = static_cast<double>(items) / static_cast<double>(m);
    const double tolerance = bloom_test::rate_tolerance(expected, query_count, m, 1, items);
    INFO("measured " << measured << ", formula " << expected << ", n/m " << load << ", tolerance "
                     << tolerance);
    CHECK(std::fabs(expected - (1.0 - std::exp(-load))) <= 1e-9 * expected);
    CHECK(std::fabs(measured - expected) <= tolerance);
    CHECK(measured < 1.5 * load);
}
