// SPDX-License-Identifier: MIT
// bloom/hash.hpp: canonical bytes, transparent string keys, seeds, user hashers.
#include "catch.hpp"
#include "test_support.hpp"

#include <array>
#include <bloom/bloom_filter.hpp>
#include <bloom/hash.hpp>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace {

constexpr std::uint64_t seeds[] = {0, 1, 42, bloom::default_seed, 0xffffffffffffffffULL};

double double_from_bits(std::uint64_t bits) {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

float float_from_bits(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

/// XXH3 over the little-endian bytes of `values`, each `width` bytes wide, built by shifting.
template <class Range>
std::uint64_t xxh3_of_elements(const Range& values, unsigned width, std::uint64_t seed) {
    std::vector<unsigned char> bytes;
    for (const auto value : values) {
        for (unsigned i = 0; i < width; ++i) {
            bytes.push_back(static_cast<unsigned char>(static_cast<std::uint64_t>(value) >> (8 * i)));
        }
    }
    return static_cast<std::uint64_t>(XXH3_64bits_withSeed(bytes.data(), bytes.size(), seed));
}

enum class small_enum : std::uint8_t { a = 1, b = 200 };
enum class signed_enum : std::int16_t { negative = -5, positive = 7 };
enum plain_enum { plain_zero, plain_one };

} // namespace

TEST_CASE("bloom::hash<std::string> hashes every string type of the same characters alike", "[hash]") {
    const bloom::hash<std::string> hash;
    for (const std::uint64_t seed : seeds) {
        const std::uint64_t expected = hash(std::string("abc"), seed);
        const char* pointer = "abc";
        char mutable_array[] = "abc";
        char* mutable_pointer = mutable_array;
        const char array_without_terminator[3] = {'a', 'b', 'c'};
        CHECK(hash(std::string_view("abc"), seed) == expected);
        CHECK(hash(pointer, seed) == expected);
        CHECK(hash(mutable_pointer, seed) == expected);
        CHECK(hash("abc", seed) == expected);
        CHECK(hash(mutable_array, seed) == expected);
        CHECK(hash(array_without_terminator, seed) == expected);

        const std::uint64_t empty = hash(std::string(), seed);
        const char* empty_pointer = "";
        CHECK(hash(std::string_view(), seed) == empty);
        CHECK(hash(empty_pointer, seed) == empty);
        CHECK(hash("", seed) == empty);
        CHECK(empty != expected);
    }
}

TEST_CASE("bloom::hash<std::string> is XXH3 over the string's bytes", "[hash]") {
    const bloom::hash<std::string> hash;
    const std::string with_nul("ab\0cd", 5);
    const std::string texts[] = {"",       "a",
                                 "abc",    std::string(1000, 'q'),
                                 with_nul, "https://www.example.com/catalog/products/category/item?id=12345"};
    for (const std::uint64_t seed : seeds) {
        for (const std::string& text : texts) {
            CHECK(hash(text, seed) == bloom_test::xxh3_of_string(text, seed));
        }
        // A std::string hashes all its bytes, embedded NULs included.
        CHECK(hash(with_nul, seed) != hash(std::string("ab"), seed));
    }
}

TEST_CASE("different seeds give different hashes", "[hash]") {
    const bloom::hash<std::string> string_hash;
    const bloom::hash<std::uint64_t> integer_hash;
    for (std::size_t i = 0; i < std::size(seeds); ++i) {
        for (std::size_t j = i + 1; j < std::size(seeds); ++j) {
            CHECK(string_hash("abc", seeds[i]) != string_hash("abc", seeds[j]));
            CHECK(string_hash("", seeds[i]) != string_hash("", seeds[j]));
            CHECK(integer_hash(5, seeds[i]) != integer_hash(5, seeds[j]));
        }
    }
}

TEST_CASE("integers hash by two multiply-fold rounds over their 64-bit word", "[hash]") {
    const std::uint64_t values[] = {0,
                                    1,
                                    5,
                                    0xff,
                                    0x0123456789abcdefULL,
                                    0x8000000000000000ULL,
                                    std::numeric_limits<std::uint64_t>::max()};
    for (const std::uint64_t seed : seeds) {
        for (const std::uint64_t value : values) {
            CHECK(bloom::hash<std::uint64_t>{}(value, seed) == bloom_test::mum2_of_word(value, seed));
        }
        // Narrower and signed integers are widened to 64 bits (signed ones sign-extended).
        CHECK(bloom::hash<std::uint32_t>{}(std::uint32_t{5}, seed) == bloom_test::mum2_of_word(5, seed));
        CHECK(bloom::hash<std::uint8_t>{}(std::uint8_t{200}, seed) == bloom_test::mum2_of_word(200, seed));
        CHECK(bloom::hash<int>{}(-1, seed) == bloom_test::mum2_of_word(0xffffffffffffffffULL, seed));
        CHECK(bloom::hash<std::int16_t>{}(std::int16_t{-2}, seed) ==
              bloom_test::mum2_of_word(0xfffffffffffffffeULL, seed));
    }
    STATIC_REQUIRE(bloom::hash<std::uint64_t>::format_id == 0x4d554d3200000108ULL);
    STATIC_REQUIRE(bloom::hash<std::int8_t>::format_id == 0x4d554d3200000108ULL);
    STATIC_REQUIRE(bloom::hash<double>::format_id == 0x4d554d3200000208ULL);
    STATIC_REQUIRE(bloom::hash<float>::format_id == 0x4d554d3200000204ULL);
    STATIC_REQUIRE(bloom::hash<std::string>::format_id == 0x5858483300000001ULL);
    STATIC_REQUIRE(bloom::hash<long double>::format_id == bloom::xxh3_hash<long double>::format_id);
}

TEST_CASE("xxh3_hash hashes integers as XXH3 over their 8 little-endian bytes", "[hash]") {
    const std::uint64_t values[] = {0,
                                    1,
                                    5,
                                    0xff,
                                    0x0123456789abcdefULL,
                                    0x8000000000000000ULL,
                                    std::numeric_limits<std::uint64_t>::max()};
    for (const std::uint64_t seed : seeds) {
        for (const std::uint64_t value : values) {
            CHECK(bloom::xxh3_hash<std::uint64_t>{}(value, seed) == bloom_test::xxh3_of_le64(value, seed));
        }
        // Narrower and signed integers are widened to 64 bits (signed ones sign-extended).
        CHECK(bloom::xxh3_hash<std::uint32_t>{}(std::uint32_t{5}, seed) == bloom_test::xxh3_of_le64(5, seed));
        CHECK(bloom::xxh3_hash<std::uint8_t>{}(std::uint8_t{200}, seed) ==
              bloom_test::xxh3_of_le64(200, seed));
        CHECK(bloom::xxh3_hash<int>{}(-1, seed) == bloom_test::xxh3_of_le64(0xffffffffffffffffULL, seed));
        CHECK(bloom::xxh3_hash<std::int16_t>{}(std::int16_t{-2}, seed) ==
              bloom_test::xxh3_of_le64(0xfffffffffffffffeULL, seed));
    }
    STATIC_REQUIRE(bloom::xxh3_hash<std::uint64_t>::format_id == 0x5858483300000108ULL);
    STATIC_REQUIRE(bloom::xxh3_hash<double>::format_id == 0x5858483300000208ULL);
    STATIC_REQUIRE(bloom::xxh3_hash<std::string>::format_id == bloom::hash<std::string>::format_id);
}

TEST_CASE("integer keys are widened: one value, one hash, whatever its type", "[hash]") {
    for (const std::uint64_t seed : seeds) {
        const std::uint64_t five = bloom::hash<std::uint64_t>{}(std::uint64_t{5}, seed);
        CHECK(bloom::hash<std::uint64_t>{}(5, seed) == five);
        CHECK(bloom::hash<std::uint64_t>{}(5U, seed) == five);
        CHECK(bloom::hash<std::uint64_t>{}(static_cast<short>(5), seed) == five);
        CHECK(bloom::hash<int>{}(5, seed) == bloom::hash<std::int64_t>{}(std::int64_t{5}, seed));
        CHECK(bloom::hash<int>{}(5, seed) == five);
        CHECK(bloom::hash<int>{}(-7, seed) == bloom::hash<std::int64_t>{}(std::int64_t{-7}, seed));
        CHECK(bloom::hash<std::int8_t>{}(std::int8_t{-7}, seed) == bloom::hash<long long>{}(-7LL, seed));
        CHECK(bloom::hash<unsigned char>{}(static_cast<unsigned char>(9), seed) ==
              bloom::hash<unsigned long>{}(9UL, seed));
    }
}

TEST_CASE("floating point hashes its IEEE bits, -0.0 as 0.0 and one NaN", "[hash]") {
    const bloom::hash<double> hash;
    const bloom::hash<float> float_hash;
    const double nans[] = {std::numeric_limits<double>::quiet_NaN(),
                           -std::numeric_limits<double>::quiet_NaN(), double_from_bits(0x7ff0000000000001ULL),
                           double_from_bits(0x7ff8000000000123ULL), double_from_bits(0xfff8000000000000ULL)};
    const float float_nans[] = {std::numeric_limits<float>::quiet_NaN(), float_from_bits(0x7f800001U),
                                float_from_bits(0xffc00000U), float_from_bits(0x7fc00042U)};
    for (const std::uint64_t seed : seeds) {
        // 1.5 is 0x3ff8000000000000 as an IEEE double, 0x3fc00000 as a float: the word bloom::hash
        // folds, and the bytes bloom::xxh3_hash runs XXH3 over.
        CHECK(hash(1.5, seed) == bloom_test::mum2_of_word(0x3ff8000000000000ULL, seed));
        CHECK(float_hash(1.5F, seed) == bloom_test::mum2_of_word(0x3fc00000U, seed));
        CHECK(bloom::xxh3_hash<double>{}(1.5, seed) == bloom_test::xxh3_of_le64(0x3ff8000000000000ULL, seed));
        const unsigned char float_bytes[4] = {0x00, 0x00, 0xc0, 0x3f};
        CHECK(bloom::xxh3_hash<float>{}(1.5F, seed) == XXH3_64bits_withSeed(float_bytes, 4, seed));
        CHECK(bloom::xxh3_hash<double>{}(-0.0, seed) == bloom::xxh3_hash<double>{}(0.0, seed));

        CHECK(hash(-0.0, seed) == hash(0.0, seed));
        CHECK(hash(0.0, seed) == bloom_test::mum2_of_word(0, seed));
        CHECK(float_hash(-0.0F, seed) == float_hash(0.0F, seed));
        CHECK(hash(1.0, seed) != hash(-1.0, seed));
        CHECK(hash(std::numeric_limits<double>::infinity(), seed) !=
              hash(-std::numeric_limits<double>::infinity(), seed));

        for (const double value : nans) {
            CHECK(hash(value, seed) == hash(nans[0], seed));
        }
        for (const float value : float_nans) {
            CHECK(float_hash(value, seed) == float_hash(float_nans[0], seed));
        }
        CHECK(hash(nans[0], seed) != hash(std::numeric_limits<double>::infinity(), seed));

        // A long double (no word form: XXH3) that a double holds exactly hashes as that double's bytes.
        const bloom::xxh3_hash<double> xxh3_double;
        CHECK(bloom::hash<long double>{}(1.5L, seed) == xxh3_double(1.5, seed));
        CHECK(bloom::hash<long double>{}(-0.0L, seed) == xxh3_double(0.0, seed));
    }
}

TEST_CASE("contiguous containers hash their elements' little-endian bytes", "[hash]") {
    const std::vector<std::uint32_t> vector_values = {1, 2, 3, 0xdeadbeef};
    const std::array<std::uint32_t, 4> array_values = {1, 2, 3, 0xdeadbeef};
    const std::vector<std::uint8_t> bytes = {1, 2, 3};
    const std::vector<std::int64_t> signed_values = {-1, 0, 1};
    for (const std::uint64_t seed : seeds) {
        const std::uint64_t expected = xxh3_of_elements(vector_values, 4, seed);
        CHECK(bloom::hash<std::vector<std::uint32_t>>{}(vector_values, seed) == expected);
        CHECK(bloom::hash<std::array<std::uint32_t, 4>>{}(array_values, seed) == expected);
        // A vector filter accepts a std::array of the same elements, and vice versa.
        CHECK(bloom::hash<std::vector<std::uint32_t>>{}(array_values, seed) == expected);
        CHECK(bloom::hash<std::array<std::uint32_t, 4>>{}(vector_values, seed) == expected);

        CHECK(bloom::hash<std::vector<std::uint8_t>>{}(bytes, seed) == xxh3_of_elements(bytes, 1, seed));
        CHECK(bloom::hash<std::vector<std::int64_t>>{}(signed_values, seed) ==
              xxh3_of_elements(signed_values, 8, seed));
        CHECK(bloom::hash<std::vector<std::uint32_t>>{}(std::vector<std::uint32_t>(), seed) ==
              XXH3_64bits_withSeed(nullptr, 0, seed));
    }
}

TEST_CASE("containers of floating point hash canonical elements", "[hash]") {
    const std::vector<double> with_negative_zero = {1.0, -0.0, 2.5};
    const std::vector<double> with_zero = {1.0, 0.0, 2.5};
    const std::vector<double> with_nan = {std::numeric_limits<double>::quiet_NaN(), 3.0};
    const std::vector<double> with_other_nan = {double_from_bits(0xfff8000000000abcULL), 3.0};
    // Long enough (300 elements, 2400 bytes) to run through the canonicalising buffer several times.
    std::vector<double> long_values(300);
    std::vector<std::uint64_t> long_bits(300);
    for (std::size_t i = 0; i < long_values.size(); ++i) {
        long_values[i] = i % 7 == 0 ? -0.0 : static_cast<double>(i) * 0.25;
        std::memcpy(&long_bits[i], &long_values[i], sizeof(double));
        long_bits[i] = i % 7 == 0 ? 0 : long_bits[i];
    }
    const bloom::hash<std::vector<double>> hash;
    for (const std::uint64_t seed : seeds) {
        CHECK(hash(with_negative_zero, seed) == hash(with_zero, seed));
        CHECK(hash(with_nan, seed) == hash(with_other_nan, seed));
        CHECK(hash(with_zero, seed) != hash(with_nan, seed));
        // {1.0, 0.0, 2.5} as IEEE bits.
        const std::uint64_t bits[] = {0x3ff0000000000000ULL, 0, 0x4004000000000000ULL};
        CHECK(hash(with_zero, seed) == xxh3_of_elements(bits, 8, seed));
        CHECK(hash(long_values, seed) == xxh3_of_elements(long_bits, 8, seed));
        CHECK(hash(std::vector<double>(), seed) == XXH3_64bits_withSeed(nullptr, 0, seed));
    }
}

TEST_CASE("enums hash like their underlying value, bool like 0 and 1", "[hash]") {
    for (const std::uint64_t seed : seeds) {
        CHECK(bloom::hash<small_enum>{}(small_enum::b, seed) ==
              bloom::hash<std::uint8_t>{}(std::uint8_t{200}, seed));
        CHECK(bloom::hash<small_enum>{}(small_enum::a, seed) == bloom_test::mum2_of_word(1, seed));
        CHECK(bloom::hash<signed_enum>{}(signed_enum::negative, seed) ==
              bloom::hash<std::int16_t>{}(std::int16_t{-5}, seed));
        CHECK(bloom::hash<plain_enum>{}(plain_one, seed) == bloom_test::mum2_of_word(1, seed));

        CHECK(bloom::hash<bool>{}(true, seed) == bloom_test::mum2_of_word(1, seed));
        CHECK(bloom::hash<bool>{}(false, seed) == bloom_test::mum2_of_word(0, seed));
        CHECK(bloom::hash<bool>{}(true, seed) != bloom::hash<bool>{}(false, seed));
    }
}

TEST_CASE("the default hasher declares itself avalanching and transparent", "[hash]") {
    STATIC_REQUIRE(std::is_same_v<bloom::hash<std::string>::is_avalanching, void>);
    STATIC_REQUIRE(std::is_same_v<bloom::hash<std::string>::is_transparent, void>);
    STATIC_REQUIRE(std::is_same_v<bloom::std_hash_adapter<int>::is_avalanching, void>);
    STATIC_REQUIRE(noexcept(bloom::hash<std::uint64_t>{}(std::uint64_t{1}, std::uint64_t{2})));
}

TEST_CASE("std_hash_adapter runs XXH3 over the std::hash value", "[hash]") {
    const bloom::std_hash_adapter<std::uint64_t> adapter;
    for (const std::uint64_t seed : seeds) {
        for (const std::uint64_t value : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{123456789}}) {
            const auto std_value = static_cast<std::uint64_t>(std::hash<std::uint64_t>{}(value));
            CHECK(adapter(value, seed) == bloom_test::xxh3_of_le64(std_value, seed));
        }
    }
}

namespace user {
struct point {
    int x;
    int y;
};
} // namespace user

namespace bloom {
template <>
struct hash<user::point> {
    std::uint64_t operator()(const user::point& value, std::uint64_t seed) const noexcept {
        const auto bits = static_cast<std::uint64_t>(static_cast<std::uint32_t>(value.x)) << 32 |
                          static_cast<std::uint32_t>(value.y);
        return bloom_test::xxh3_of_le64(bits, seed);
    }
};
} // namespace bloom

TEST_CASE("a user type plugs in by specialising bloom::hash", "[hash]") {
    bloom::bloom_filter<user::point> filter(1000, 0.01);
    for (int i = 0; i < 100; ++i) {
        CHECK(filter.insert(user::point{i, -i}));
    }
    for (int i = 0; i < 100; ++i) {
        CHECK(filter.contains(user::point{i, -i}));
    }
    int false_positives = 0;
    for (int i = 0; i < 1000; ++i) {
        false_positives += filter.contains(user::point{i, i + 1}) ? 1 : 0;
    }
    // 100 items in a filter sized for 1000 at 1%: a rate of about 1e-8, so a handful would mean the
    // specialisation was not used.
    CHECK(false_positives <= 2);
}

namespace {
struct seeded_callable {
    std::uint64_t operator()(std::uint64_t value, std::uint64_t seed) const noexcept {
        return bloom_test::splitmix64_mix(value ^ seed);
    }
};
} // namespace

TEST_CASE("any callable can be the Hasher", "[hash]") {
    SECTION("a struct") {
        bloom::bloom_filter<std::uint64_t, seeded_callable> filter(1000, 0.01);
        for (std::uint64_t i = 0; i < 1000; ++i) {
            filter.insert(i * 3);
        }
        for (std::uint64_t i = 0; i < 1000; ++i) {
            REQUIRE(filter.contains(i * 3));
        }
        CHECK(filter.item_count() > 950);
    }
    SECTION("a lambda") {
        const auto lambda = [](const std::string& value, std::uint64_t seed) {
            return static_cast<std::uint64_t>(std::hash<std::string>{}(value)) ^ seed;
        };
        bloom::bloom_filter<std::string, decltype(lambda)> filter(1000, 0.01, bloom::default_seed, lambda);
        for (int i = 0; i < 1000; ++i) {
            filter.insert(std::to_string(i));
        }
        for (int i = 0; i < 1000; ++i) {
            REQUIRE(filter.contains(std::to_string(i)));
        }
        int false_positives = 0;
        for (int i = 1000; i < 11000; ++i) {
            false_positives += filter.contains(std::to_string(i)) ? 1 : 0;
        }
        // Expected about 100 (1% of 10^4); a broken hash path would give thousands.
        CHECK(false_positives < 300);
    }
}

namespace {
/// Ignores the seed and does not avalanche.
struct seedless_hasher {
    std::uint64_t operator()(std::uint64_t value, std::uint64_t) const noexcept { return value; }
};
} // namespace

TEST_CASE("a hasher that ignores the seed still gets the filter's seed", "[hash]") {
    bloom::bloom_filter<std::uint64_t, seedless_hasher> first(bloom::filter_geometry{1000, 5}, 1);
    bloom::bloom_filter<std::uint64_t, seedless_hasher> second(bloom::filter_geometry{1000, 5},
                                                               bloom::default_seed);
    for (std::uint64_t value = 0; value < 20; ++value) {
        first.insert(value);
        second.insert(value);
    }
    std::size_t differing_words = 0;
    for (std::size_t i = 0; i < first.word_count(); ++i) {
        differing_words += first.data()[i] != second.data()[i] ? 1 : 0;
    }
    CHECK(differing_words > 0);
}

TEST_CASE("bloom::default_seed is a fixed constant and random_seed varies", "[hash]") {
    STATIC_REQUIRE(bloom::default_seed == 0x626c6f6f6d5f7631ULL); // "bloom_v1" in ASCII
    constexpr std::uint64_t seed_in_constant_expression = bloom::default_seed;
    STATIC_REQUIRE(seed_in_constant_expression != 0);
    const std::uint64_t first = bloom::random_seed();
    const std::uint64_t second = bloom::random_seed();
    CHECK(first != second);
}

TEST_CASE("a key the filter's type cannot hold is hashed as itself, never narrowed", "[hash]") {
    constexpr std::uint64_t all_ones = std::numeric_limits<std::uint64_t>::max();
    for (const std::uint64_t seed : seeds) {
        // Integer keys out of range: 300 is not std::uint8_t{44}, 255 is not std::int8_t{-1}, ...
        CHECK(bloom::hash<std::uint8_t>{}(300, seed) != bloom::hash<std::uint8_t>{}(std::uint8_t{44}, seed));
        CHECK(bloom::hash<std::int8_t>{}(255, seed) != bloom::hash<std::int8_t>{}(std::int8_t{-1}, seed));
        CHECK(bloom::hash<std::uint32_t>{}(-1, seed) != bloom::hash<std::uint32_t>{}(0xffffffffU, seed));
        CHECK(bloom::hash<std::uint64_t>{}(-1, seed) != bloom::hash<std::uint64_t>{}(all_ones, seed));
        CHECK(bloom::hash<std::int64_t>{}(all_ones, seed) !=
              bloom::hash<std::int64_t>{}(std::int64_t{-1}, seed));
        CHECK(bloom::xxh3_hash<std::uint8_t>{}(300, seed) !=
              bloom::xxh3_hash<std::uint8_t>{}(std::uint8_t{44}, seed));
        // ... while a key in range keeps the one hash its value has in every type.
        CHECK(bloom::hash<std::uint8_t>{}(44, seed) == bloom::hash<std::uint8_t>{}(std::uint8_t{44}, seed));
        CHECK(bloom::hash<std::int8_t>{}(-1LL, seed) == bloom::hash<std::int8_t>{}(std::int8_t{-1}, seed));
        CHECK(bloom::hash<std::uint64_t>{}(all_ones, seed) == bloom::hash<std::int64_t>{}(-1, seed));

        // Integers a floating type cannot hold exactly are not rounded into a neighbour.
        const std::int64_t two_53 = std::int64_t{1} << 53;
        CHECK(bloom::hash<double>{}(two_53 + 1, seed) != bloom::hash<double>{}(9007199254740992.0, seed));
        CHECK(bloom::hash<double>{}(two_53, seed) == bloom::hash<double>{}(9007199254740992.0, seed));
        CHECK(bloom::hash<double>{}(all_ones, seed) != bloom::hash<double>{}(18446744073709551616.0, seed));
        CHECK(bloom::hash<float>{}(16777217, seed) != bloom::hash<float>{}(16777216.0F, seed));
        // Doubles a float cannot hold: 0.1 is not 0.1f, 1e300 is not infinity; 0.5 and NaN are held.
        CHECK(bloom::hash<float>{}(0.1, seed) != bloom::hash<float>{}(0.1F, seed));
        CHECK(bloom::hash<float>{}(1e300, seed) !=
              bloom::hash<float>{}(std::numeric_limits<float>::infinity(), seed));
        CHECK(bloom::hash<float>{}(0.5, seed) == bloom::hash<float>{}(0.5F, seed));
        CHECK(bloom::hash<float>{}(std::numeric_limits<double>::quiet_NaN(), seed) ==
              bloom::hash<float>{}(std::numeric_limits<float>::quiet_NaN(), seed));
    }
}
