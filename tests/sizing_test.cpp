// SPDX-License-Identifier: MIT
// bloom/sizing.hpp: optimal_bit_count, optimal_hash_count, false_positive_rate, argument checks.
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

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

bool is_identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// True if `word` occurs in `text` as a whole identifier (so "items" is not found in "expected_items").
bool names(const std::string& text, const std::string& word) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool starts = at == 0 || !is_identifier_char(text[at - 1]);
        const std::size_t end = at + word.size();
        const bool ends = end == text.size() || !is_identifier_char(text[end]);
        if (starts && ends) {
            return true;
        }
    }
    return false;
}

/// Runs `call`, which must throw std::invalid_argument whose message names `parameter`.
template <class Call>
void require_invalid_argument(Call&& call, const std::string& parameter) {
    bool threw = false;
    try {
        call();
    } catch (const std::invalid_argument& error) {
        threw = true;
        const std::string message = error.what();
        INFO("message: " << message);
        CHECK(names(message, parameter));
    }
    INFO("expected std::invalid_argument naming " << parameter);
    CHECK(threw);
}

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
