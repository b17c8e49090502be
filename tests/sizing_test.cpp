// SPDX-License-Identifier: MIT
// bloom/sizing.hpp: optimal_bit_count, optimal_hash_count, false_positive_rate, the blocked layout's
// blocked_false_positive_rate and optimal_blocked_bit_count, argument checks.
#include "catch.hpp"
#include "test_support.hpp"

#include <bloom/bloom_filter.hpp>
#include <bloom/sizing.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace {

constexpr auto one_bit_per_word = bloom::probe_scheme::one_bit_per_word;

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

using bloom_test::names;
using bloom_test::require_invalid_argument;

} // namespace

TEST_CASE("the error-message check finds whole parameter names only", "[sizing][errors]") {
    CHECK(names("f: items must be", "items"));
    CHECK(names("items", "items"));
    CHECK_FALSE(names("f: expected_items must be", "items"));
    CHECK_FALSE(names("f: items_x must be", "items"));
    CHECK_FALSE(names("f: bit_count2", "bit_count"));
}

TEST_CASE("optimal_bit_count gives the documented exact values", "[sizing]") {
    CHECK(bloom::optimal_bit_count(1'000'000, 0.01) == 9'585'059);
    CHECK(bloom::optimal_bit_count(10'000, 0.01) == 95'851);
    CHECK(bloom::optimal_bit_count(1'000'000, 0.001) == 14'377'588);
    CHECK(bloom::optimal_bit_count(100'000'000, 0.01) == 958'505'838);
}

TEST_CASE("optimal_bit_count is the ceiling of -n ln p / (ln 2)^2", "[sizing]") {
    bloom_test::splitmix64 random(0x51a1ULL);
    const double ln2 = std::log(2.0);
    for (int i = 0; i < 2000; ++i) {
        const std::uint64_t items = 1 + random.next() % 100'000'000;
        // Rates spread log-uniformly over [1e-12, 0.9].
        const double unit = random.unit();
        const double rate = std::exp(std::log(1e-12) + unit * (std::log(0.9) - std::log(1e-12)));
        const double exact = -static_cast<double>(items) * std::log(rate) / (ln2 * ln2);
        const std::uint64_t bits = bloom::optimal_bit_count(items, rate);
        INFO("items " << items << ", rate " << rate << ", exact " << exact << ", got " << bits);
        const double got = static_cast<double>(bits);
        REQUIRE(got >= exact * (1.0 - 1e-12));
        REQUIRE(got < exact * (1.0 + 1e-12) + 1.0);
    }
    // A rate close to 1 still needs at least one bit.
    CHECK(bloom::optimal_bit_count(1, 0.999999) == 1);
}

TEST_CASE("optimal_hash_count gives the documented exact values", "[sizing]") {
    CHECK(bloom::optimal_hash_count(9'585'059, 1'000'000) == 7);
    CHECK(bloom::optimal_hash_count(14'377'588, 1'000'000) == 10);
    CHECK(bloom::optimal_hash_count(4'000'000, 1'000'000) == 3); // 4 bits per item: 2.77 -> 3
    CHECK(bloom::optimal_hash_count(1'000, 1'000'000) == 1);     // fewer bits than items
}

TEST_CASE("optimal_hash_count picks the better of floor and ceil of (m/n) ln 2", "[sizing]") {
    bloom_test::splitmix64 random(0x4a54ULL);
    const double ln2 = std::log(2.0);
    for (int i = 0; i < 5000; ++i) {
        const std::uint64_t items = 1 + random.next() % 10'000'000;
        // 0.01 to 40 bits per item, so floor((m/n) ln 2) ranges over 0..27.
        const double bits_per_item = 0.01 + random.unit() * 40.0;
        const auto bits = static_cast<std::uint64_t>(std::ceil(bits_per_item * static_cast<double>(items)));
        const double ideal = static_cast<double>(bits) / static_cast<double>(items) * ln2;
        const unsigned hashes = bloom::optimal_hash_count(bits, items);
        INFO("m " << bits << ", n " << items << ", ideal " << ideal << ", got " << hashes);
        REQUIRE(hashes >= 1);
        const auto lower = static_cast<unsigned>(std::fmax(std::floor(ideal), 1.0));
        const auto upper = static_cast<unsigned>(std::fmax(std::ceil(ideal), 1.0));
        REQUIRE((hashes == lower || hashes == upper));
        const unsigned other = hashes == lower ? upper : lower;
        const double rate = bloom_test::formula_rate(bits, hashes, items);
        const double other_rate = bloom_test::formula_rate(bits, other, items);
        // A relative slack of 1e-9 absorbs the difference between 1 - exp and -expm1 on near ties.
        REQUIRE(rate <= other_rate * (1.0 + 1e-9));
    }
}

TEST_CASE("false_positive_rate follows (1 - e^(-kn/m))^k", "[sizing]") {
    struct shape {
        std::uint64_t bits;
        unsigned hashes;
        std::uint64_t items;
    };
    const shape shapes[] = {
        {9'585'059, 7, 1'000'000}, {95'851, 7, 10'000}, {1'000, 1, 1'000}, {1'000, 5, 10}, {64, 3, 1'000},
        {14'377'588, 10, 500'000}};
    for (const shape& s : shapes) {
        const double expected = bloom_test::formula_rate(s.bits, s.hashes, s.items);
        const double got = bloom::false_positive_rate(s.bits, s.hashes, s.items);
        INFO("m " << s.bits << ", k " << s.hashes << ", n " << s.items);
        CHECK(std::fabs(got - expected) <= 1e-12 * expected);
    }
    // Worked example: m = 9'585'059, k = 7, n = 10^6 is just above 1%.
    const double worked = bloom::false_positive_rate(9'585'059, 7, 1'000'000);
    CHECK(worked > 0.0100);
    CHECK(worked < 0.0101);
}

TEST_CASE("false_positive_rate keeps precision at tiny loads", "[sizing]") {
    // k = 1, n = 1, m = 10^12: the rate is 1 - e^(-1e-12) = 1e-12 - 5e-25 + ...; computing 1 - exp(x)
    // directly would be off by about 1e-4 relative.
    const double got = bloom::false_positive_rate(1'000'000'000'000, 1, 1);
    const double expected = 1e-12 - 0.5e-24;
    CHECK(std::fabs(got - expected) <= 1e-9 * expected);
}

TEST_CASE("false_positive_rate grows with the items and near the target at the sized load", "[sizing]") {
    const std::uint64_t bits = 958'506;
    double previous = 0.0;
    for (std::uint64_t items = 1; items <= 1'000'000; items *= 10) {
        const double rate = bloom::false_positive_rate(bits, 7, items);
        CHECK(rate > previous);
        previous = rate;
    }
    // A filter sized for (n, p) reaches about p at n: within 5% (k is rounded to an integer).
    for (const double target : {0.1, 0.01, 0.001, 0.0001}) {
        const std::uint64_t items = 100'000;
        const std::uint64_t m = bloom::optimal_bit_count(items, target);
        const double rate = bloom::false_positive_rate(m, bloom::optimal_hash_count(m, items), items);
        INFO("target " << target << ", rate " << rate);
        CHECK(std::fabs(rate - target) <= 0.05 * target);
    }
}

TEST_CASE("sizing functions reject zero items naming the parameter", "[sizing][errors]") {
    require_invalid_argument([] { (void)bloom::optimal_bit_count(0, 0.01); }, "expected_items");
    require_invalid_argument([] { (void)bloom::optimal_hash_count(1000, 0); }, "expected_items");
    require_invalid_argument([] { (void)bloom::false_positive_rate(1000, 3, 0); }, "items");
}

TEST_CASE("optimal_bit_count rejects every rate outside (0, 1) naming the parameter", "[sizing][errors]") {
    for (const double rate :
         {0.0, -0.0, 1.0, -0.01, -1.0, 1.5, 2.0, not_a_number, -not_a_number, infinity, -infinity}) {
        INFO("rate " << rate);
        require_invalid_argument([rate] { (void)bloom::optimal_bit_count(1000, rate); },
                                 "false_positive_rate");
    }
}

TEST_CASE("sizing functions reject zero bits and zero hashes naming the parameter", "[sizing][errors]") {
    require_invalid_argument([] { (void)bloom::optimal_hash_count(0, 1000); }, "bit_count");
    require_invalid_argument([] { (void)bloom::false_positive_rate(0, 3, 1000); }, "bit_count");
    require_invalid_argument([] { (void)bloom::false_positive_rate(1000, 0, 10); }, "hash_count");
}

TEST_CASE("optimal_bit_count rejects sizes beyond 64 bits", "[sizing][errors]") {
    constexpr std::uint64_t max_items = std::numeric_limits<std::uint64_t>::max();
    require_invalid_argument([] { (void)bloom::optimal_bit_count(max_items, 1e-300); }, "expected_items");
    require_invalid_argument([] { (void)bloom::optimal_bit_count(std::uint64_t{1} << 62, 1e-9); },
                             "expected_items");
    require_invalid_argument([] { (void)bloom::optimal_bit_count(max_items, 0.5); }, "expected_items");
    // Just below the limit still works: 2^54 items at 50% need 2^54 / ln 2 ~ 2.6e16 bits.
    CHECK(bloom::optimal_bit_count(std::uint64_t{1} << 54, 0.5) > (std::uint64_t{1} << 54));
}

TEST_CASE("filter constructors reject invalid arguments naming the parameter", "[sizing][errors]") {
    require_invalid_argument([] { bloom::bloom_filter<int> filter(0, 0.01); }, "expected_items");
    require_invalid_argument([] { bloom::bloom_filter<int> filter(100, 1.5); }, "false_positive_rate");
    require_invalid_argument([] { bloom::bloom_filter<int> filter(100, 0.0); }, "false_positive_rate");
    require_invalid_argument([] { bloom::bloom_filter<int> filter(100, not_a_number); },
                             "false_positive_rate");
    require_invalid_argument([] { bloom::bloom_filter<int> filter(100, -infinity); }, "false_positive_rate");
    require_invalid_argument([] { bloom::bloom_filter<int> filter(std::uint64_t{1} << 62, 1e-9); },
                             "expected_items");
    require_invalid_argument(
        [] {
            bloom::bloom_filter<int> filter(bloom::filter_geometry{0, 3});
        },
        "bit_count");
    require_invalid_argument(
        [] {
            bloom::bloom_filter<int> filter(bloom::filter_geometry{1000, 0});
        },
        "hash_count");
    require_invalid_argument(
        [] {
            bloom::bloom_filter<int> filter(bloom::filter_geometry{0, 0});
        },
        "bit_count");
}

// ---- the blocked layout: blocked_false_positive_rate and optimal_blocked_bit_count ----

TEST_CASE("poisson_expectation, the tests' own Poisson sum, is right", "[sizing][blocked]") {
    // E[1] = 1, E[N] = lambda, E[N^2] = lambda + lambda^2, E[s^N] = e^(lambda (s - 1)).
    for (const double lambda : {1e-6, 0.3, 1.0, 7.5, 44.36, 1000.0, 250'000.0}) {
        INFO("lambda " << lambda);
        const double one = bloom_test::poisson_expectation(lambda, [](double) { return 1.0; });
        const double mean = bloom_test::poisson_expectation(lambda, [](double i) { return i; });
        const double square = bloom_test::poisson_expectation(lambda, [](double i) { return i * i; });
        const double generating =
            bloom_test::poisson_expectation(lambda, [](double i) { return std::pow(0.5, i); });
        CHECK(std::fabs(one - 1.0) <= 1e-12);
        CHECK(std::fabs(mean - lambda) <= 1e-9 * lambda);
        CHECK(std::fabs(square - (lambda + lambda * lambda)) <= 1e-9 * (lambda + lambda * lambda));
        if (lambda < 1000.0) {
            const double expected = std::exp(-0.5 * lambda);
            CHECK(std::fabs(generating - expected) <= 1e-9 * expected);
        }
    }
}

TEST_CASE("blocked_false_positive_rate of bits_anywhere is the Poisson average of the exact one-block rate",
          "[sizing][blocked]") {
    struct shape {
        std::uint64_t bits;
        std::uint64_t items;
        unsigned k;
    };
    // lambda = n / blocks from 1e-6 to 800: tiny loads, the 1% load (~52), k from 1 to 16.
    const shape shapes[] = {{512, 1, 1},           {512, 44, 6},
                            {512, 300, 3},         {1024, 3, 16},
                            {101'376, 10'000, 7},  {9'890'304, 1'000'000, 6},
                            {588'288, 100'000, 4}, {1'572'864, 100'000, 9},
                            {512'000, 100, 12},    {512 * (std::uint64_t{1} << 20), 1, 8},
                            {5120, 7, 2},          {2'400'256, 100'000, 16},
                            {5120, 8000, 1}};
    for (const shape& s : shapes) {
        const bloom_test::blocked_load load{s.bits, s.items, s.k};
        const double expected = bloom_test::blocked_formula_rate(load);
        const double got = bloom::blocked_false_positive_rate(s.bits, s.items, s.k);
        INFO("m " << s.bits << ", n " << s.items << ", k " << s.k << ": got " << got << ", expected "
                  << expected);
        CHECK(std::fabs(got - expected) <= 1e-9 * expected);
    }
    // One item in one block, k = 6: its six distinct bits are all a non-member's with probability
    // 1 / C(512, 6), times P(N = 1) = e^-1, plus the terms of two items and more.
    const double one_item = bloom::blocked_false_positive_rate(512, 1, 6);
    const double one_subset = 1.0 / (512.0 * 511 * 510 * 509 * 508 * 507 / 720);
    CHECK(one_item > std::exp(-1.0) * one_subset);
    CHECK(one_item < 1e-9);
}

TEST_CASE("blocked_false_positive_rate of one_bit_per_word is the Poisson average of the one-block rate",
          "[sizing][blocked]") {
    struct shape {
        std::uint64_t bits;
        std::uint64_t items;
    };
    // lambda = n / blocks from 1e-6 to 2e5: tiny loads, the 1% load (~50), saturation.
    const shape shapes[] = {{512, 1},           {512, 44},
                            {512, 1000},        {1024, 3},
                            {101'376, 10'000},  {10'099'712, 1'000'000},
                            {588'288, 100'000}, {1'572'864, 100'000},
                            {512'000, 100},     {512 * (std::uint64_t{1} << 20), 1},
                            {1536, 600'000},    {5120, 7}};
    for (const shape& s : shapes) {
        const double expected = bloom_test::blocked_formula_rate(s.bits, s.items);
        const double got = bloom::blocked_false_positive_rate(s.bits, s.items, 8, one_bit_per_word);
        INFO("m " << s.bits << ", n " << s.items << ": got " << got << ", expected " << expected);
        CHECK(std::fabs(got - expected) <= 1e-9 * expected);
    }
    // One block holding one item on average: positive, but tiny, since a hit needs all 8 of the query's
    // bits set and a block with i items has at most i set bits per word.
    const double one_item = bloom::blocked_false_positive_rate(512, 1, 8, one_bit_per_word);
    CHECK(one_item > std::exp(-1.0) * std::pow(1.0 / 64.0, 8.0)); // the i = 1 term alone
    CHECK(one_item < 1e-9);
}

TEST_CASE("one_bit_per_word's rate agrees with the closed form from the Poisson generating function",
          "[sizing][blocked]") {
    // E[(1 - q^N)^8] = sum over j of C(8, j) (-1)^j E[q^(jN)], and E[s^N] = e^(lambda (s - 1)) for
    // N ~ Poisson(lambda): a second, loop-free form. Its alternating terms cancel, losing about 1e-14 in
    // absolute terms, so it is compared where the rate is at least 1e-4.
    const auto closed_form = [](std::uint64_t bits, std::uint64_t items) {
        const double lambda = static_cast<double>(items) / static_cast<double>(bits / 512);
        const double binomial[] = {1, 8, 28, 56, 70, 56, 28, 8, 1};
        double sum = 0.0;
        for (int j = 0; j <= 8; ++j) {
            const double sign = j % 2 == 0 ? 1.0 : -1.0;
            sum += sign * binomial[j] * std::exp(lambda * (std::pow(63.0 / 64.0, j) - 1.0));
        }
        return sum;
    };
    for (const std::uint64_t items : {std::uint64_t{30}, std::uint64_t{44}, std::uint64_t{50},
                                      std::uint64_t{87}, std::uint64_t{200}, std::uint64_t{1000}}) {
        const double expected = closed_form(512 * 1000, items * 1000);
        const double got = bloom::blocked_false_positive_rate(512 * 1000, items * 1000, 8, one_bit_per_word);
        INFO(items << " items per block: got " << got << ", closed form " << expected);
        REQUIRE(expected >= 1e-4);
        CHECK(std::fabs(got - expected) <= 1e-9 * expected);
    }
}

TEST_CASE("blocked_false_positive_rate grows with the items and falls with the bits", "[sizing][blocked]") {
    double previous = 0.0;
    for (std::uint64_t items = 1; items <= 10'000'000; items *= 10) {
        const double rate = bloom::blocked_false_positive_rate(512 * 20'000, items);
        CHECK(rate > previous);
        previous = rate;
    }
    previous = 1.0;
    for (std::uint64_t blocks = 1'000; blocks <= 1'000'000; blocks *= 10) {
        const double rate = bloom::blocked_false_positive_rate(512 * blocks, 1'000'000);
        CHECK(rate < previous);
        previous = rate;
    }
    // Blocks cost rate at equal memory: above the classic filter's with 8 probes (uneven blocks).
    CHECK(bloom::blocked_false_positive_rate(10'099'712, 1'000'000) >
          bloom::false_positive_rate(10'099'712, 8, 1'000'000));
}

TEST_CASE("optimal_blocked_bit_count is the smallest multiple of 512 that meets the target",
          "[sizing][blocked]") {
    const auto check = [](std::uint64_t items, double rate) {
        const std::uint64_t bits = bloom::optimal_blocked_bit_count(items, rate);
        INFO("n " << items << ", p " << rate << ": " << bits << " bits");
        REQUIRE(bits % 512 == 0);
        REQUIRE(bits >= 512);
        CHECK(bloom::blocked_false_positive_rate(bits, items) <= rate);
        if (bits > 512) {
            CHECK(bloom::blocked_false_positive_rate(bits - 512, items) > rate);
        }
        // Never below the classic filter's size (the search starts there).
        CHECK(bits + 512 > bloom::optimal_bit_count(items, rate));
    };
    check(1'000'000, 0.01);
    check(10'000, 0.01);
    check(100'000, 0.001);
    check(100'000, 0.1);
    check(1, 0.5);
    check(1, 1e-9);
    check(100, 1e-6);
    check(1'000'000'000, 0.01);
    bloom_test::splitmix64 random(0xb10cULL);
    for (int i = 0; i < 300; ++i) {
        const std::uint64_t items = 1 + random.next() % 100'000'000;
        // Rates spread log-uniformly over [1e-9, 0.5].
        const double rate = std::exp(std::log(1e-9) + random.unit() * (std::log(0.5) - std::log(1e-9)));
        check(items, rate);
    }
}

TEST_CASE("the blocked layout needs under 10 bits per item at 1%", "[sizing][blocked]") {
    const std::uint64_t bits = bloom::optimal_blocked_bit_count(1'000'000, 0.01);
    const double bits_per_item = static_cast<double>(bits) / 1e6;
    INFO(bits << " bits, " << bits_per_item << " per item");
    // 9.89: the exact formula (bloom_test::blocked_formula_rate) at k = 6 crosses 1% there.
    CHECK(bits_per_item < 10.0);
    CHECK(bits_per_item > 9.85);
    const unsigned k = bloom::optimal_blocked_hash_count(bits, 1'000'000);
    CHECK(k == 6);
    CHECK(bloom_test::blocked_formula_rate({bits, 1'000'000, k}) <= 0.01);
    CHECK(bloom_test::blocked_formula_rate({bits - 512 * 200, 1'000'000, k}) > 0.01);
    // The classic filter needs 9.59; the original one-bit-per-word pattern 10.1.
    CHECK(bits > bloom::optimal_bit_count(1'000'000, 0.01));
    const std::uint64_t original = bloom::optimal_blocked_bit_count(1'000'000, 0.01, one_bit_per_word);
    INFO("one_bit_per_word: " << original << " bits");
    CHECK(static_cast<double>(original) / 1e6 >= 10.05);
    CHECK(static_cast<double>(original) / 1e6 <= 10.15);
    CHECK(bloom_test::blocked_formula_rate(original, 1'000'000) <= 0.01);
    CHECK(bloom_test::blocked_formula_rate(original - 512, 1'000'000) > 0.01);
}

TEST_CASE("optimal_blocked_hash_count is the k with the lowest exact rate", "[sizing][blocked]") {
    struct load {
        std::uint64_t bits;
        std::uint64_t items;
    };
    for (const load l : {load{512 * 8, 1000}, load{512 * 20, 1000}, load{512 * 19'336, 1'000'000},
                         load{512 * 23'438, 1'000'000}, load{512 * 31'250, 1'000'000}, load{512 * 100, 1000},
                         load{512 * 1000, 1000}}) {
        const unsigned k = bloom::optimal_blocked_hash_count(l.bits, l.items);
        INFO("m " << l.bits << ", n " << l.items << ": k " << k);
        REQUIRE(k >= 1);
        REQUIRE(k <= 16);
        const double best = bloom_test::blocked_formula_rate({l.bits, l.items, k});
        for (unsigned other = 1; other <= 16; ++other) {
            INFO("k " << other);
            CHECK(bloom_test::blocked_formula_rate({l.bits, l.items, other}) >= best * (1.0 - 1e-9));
        }
    }
}

TEST_CASE("blocked sizing functions reject invalid arguments naming the parameter",
          "[sizing][blocked][errors]") {
    require_invalid_argument([] { (void)bloom::blocked_false_positive_rate(0, 10); }, "bit_count");
    require_invalid_argument([] { (void)bloom::blocked_false_positive_rate(1000, 10); },
                             {"bit_count", "1000"});
    require_invalid_argument([] { (void)bloom::blocked_false_positive_rate(511, 10); }, {"bit_count", "511"});
    require_invalid_argument([] { (void)bloom::blocked_false_positive_rate(513, 10); }, {"bit_count", "513"});
    require_invalid_argument([] { (void)bloom::blocked_false_positive_rate(512, 0); }, "items");
    require_invalid_argument([] { (void)bloom::blocked_false_positive_rate(512, 10, 0); },
                             {"hash_count", "0"});
    require_invalid_argument([] { (void)bloom::blocked_false_positive_rate(512, 10, 17); },
                             {"hash_count", "17"});
    require_invalid_argument(
        [] { (void)bloom::blocked_false_positive_rate(512, 10, 7, bloom::probe_scheme::one_bit_per_word); },
        {"hash_count", "7"});
    require_invalid_argument([] { (void)bloom::optimal_blocked_hash_count(511, 10); }, {"bit_count", "511"});
    require_invalid_argument([] { (void)bloom::optimal_blocked_hash_count(512, 0); }, "items");
    require_invalid_argument([] { (void)bloom::optimal_blocked_bit_count(0, 0.01); }, "expected_items");
    require_invalid_argument(
        [] { (void)bloom::optimal_blocked_bit_count(10, 0.01, static_cast<bloom::probe_scheme>(2)); },
        "probes");
    for (const double rate : {0.0, -0.0, 1.0, -0.01, 1.5, not_a_number, -not_a_number, infinity, -infinity}) {
        INFO("rate " << rate);
        require_invalid_argument([rate] { (void)bloom::optimal_blocked_bit_count(1000, rate); },
                                 "false_positive_rate");
    }
    constexpr std::uint64_t max_items = std::numeric_limits<std::uint64_t>::max();
    require_invalid_argument([] { (void)bloom::optimal_blocked_bit_count(max_items, 1e-300); },
                             "expected_items");
    require_invalid_argument([] { (void)bloom::optimal_blocked_bit_count(std::uint64_t{1} << 62, 1e-9); },
                             "expected_items");
    require_invalid_argument([] { (void)bloom::optimal_blocked_bit_count(max_items, 0.5); },
                             "expected_items");
}

TEST_CASE("blocked_false_positive_rate stays a probability and returns quickly for crowded blocks",
          "[sizing][blocked]") {
    for (const std::uint64_t items_per_block :
         {std::uint64_t{2250}, std::uint64_t{4096}, std::uint64_t{4097}, std::uint64_t{1'000'000'000},
          std::uint64_t{1} << 60, std::numeric_limits<std::uint64_t>::max()}) {
        for (const bloom::probe_scheme probes :
             {bloom::probe_scheme::bits_anywhere, bloom::probe_scheme::one_bit_per_word}) {
            const double rate = bloom::blocked_false_positive_rate(512, items_per_block, 8, probes);
            INFO(items_per_block << " items in one block: " << rate);
            CHECK(rate <= 1.0);
            CHECK(rate > 0.999);
        }
    }
}
