// SPDX-License-Identifier: MIT
// Golden tests: the exact bits a filter sets, from an independent reimplementation of the documented
// probe scheme and from literal positions. A change to hashing, probing or the word layout fails here;
// such a change breaks every saved and exchanged filter, so it needs a new format version, not a new
// literal.
#include "catch.hpp"
#include "test_support.hpp"

#include <bloom/bloom_filter.hpp>
#include <bloom/hash.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

// ---- the documented scheme, written again from its description ----

/// MurmurHash3's fmix64.
std::uint64_t fmix64(std::uint64_t value) {
    value ^= value >> 33;
    value *= 0xff51afd7ed558ccdULL;
    value ^= value >> 33;
    value *= 0xc4ceb9fe1a85ec53ULL;
    value ^= value >> 33;
    return value;
}

/// The high 64 bits of the 128-bit product a * b, from 32-bit halves.
std::uint64_t multiply_high(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t a_low = a & 0xffffffffU;
    const std::uint64_t a_high = a >> 32;
    const std::uint64_t b_low = b & 0xffffffffU;
    const std::uint64_t b_high = b >> 32;
    const std::uint64_t low_low = a_low * b_low;
    const std::uint64_t low_high = a_low * b_high;
    const std::uint64_t high_low = a_high * b_low;
    const std::uint64_t middle = (low_low >> 32) + (low_high & 0xffffffffU) + (high_low & 0xffffffffU);
    return a_high * b_high + (low_high >> 32) + (high_low >> 32) + (middle >> 32);
}

/// The k positions of an item whose 64-bit hash is `hash`: enhanced double hashing over the 64-bit ring,
/// x = h, y = rotl(h, 32) | 1; position_i = (x * m) >> 64; x += y; y += (i + 1) * 0x9e3779b97f4a7c15.
std::vector<std::uint64_t> positions(std::uint64_t hash, std::uint64_t bit_count, unsigned hash_count) {
    std::vector<std::uint64_t> result;
    std::uint64_t x = hash;
    std::uint64_t y = ((hash << 32) | (hash >> 32)) | 1;
    for (unsigned i = 0; i < hash_count; ++i) {
        result.push_back(multiply_high(x, bit_count));
        x += y;
        y += (i + 1) * 0x9e3779b97f4a7c15ULL;
    }
    return result;
}

/// The words of a filter of `bit_count` bits after setting the probes of every hash in `hashes`:
/// bit i is bit i % 64 of word i / 64.
std::vector<std::uint64_t> expected_words(const std::vector<std::uint64_t>& hashes, std::uint64_t bit_count,
                                          unsigned hash_count) {
    std::vector<std::uint64_t> words(static_cast<std::size_t>((bit_count + 63) / 64), 0);
    for (const std::uint64_t hash : hashes) {
        for (const std::uint64_t position : positions(hash, bit_count, hash_count)) {
            words[static_cast<std::size_t>(position / 64)] |= std::uint64_t{1} << (position % 64);
        }
    }
    return words;
}

template <class Filter>
std::vector<std::uint64_t> words_of(const Filter& filter) {
    return std::vector<std::uint64_t>(filter.data(), filter.data() + filter.word_count());
}

template <class Filter>
std::vector<std::uint64_t> set_positions(const Filter& filter) {
    std::vector<std::uint64_t> result;
    for (std::uint64_t i = 0; i < filter.bit_count(); ++i) {
        if ((filter.data()[i / 64] >> (i % 64)) & 1) {
            result.push_back(i);
        }
    }
    return result;
}

/// Not avalanching and ignoring the seed: the filter must mix its output and bring in the seed.
struct raw_hasher {
    std::uint64_t operator()(std::uint64_t value, std::uint64_t) const noexcept { return value * 3; }
};

} // namespace

TEST_CASE("default_seed is pinned", "[golden]") {
    STATIC_REQUIRE(bloom::default_seed == 0x626c6f6f6d5f7631ULL);
    // "bloom_v1", most significant byte first.
    const char text[] = "bloom_v1";
    std::uint64_t from_text = 0;
    for (std::size_t i = 0; i < 8; ++i) {
        from_text = from_text << 8 | static_cast<unsigned char>(text[i]);
    }
    CHECK(from_text == bloom::default_seed);
}

TEST_CASE("the reference multiply_high is right", "[golden]") {
    CHECK(multiply_high(0, 12345) == 0);
    CHECK(multiply_high(0xffffffffffffffffULL, 0xffffffffffffffffULL) == 0xfffffffffffffffeULL);
    CHECK(multiply_high(std::uint64_t{1} << 63, 1000) == 500);
    CHECK(multiply_high(0x8000000000000001ULL, 3) == 1);
    CHECK(multiply_high(0x0123456789abcdefULL, 0xfedcba9876543210ULL) == 0x0121fa00ad77d742ULL);
}

TEST_CASE("hashes of fixed values are pinned", "[golden]") {
    // XXH3 with default_seed over the canonical bytes; a new xxHash or a new byte form changes them.
    CHECK(bloom::hash<std::string>{}("bloom", bloom::default_seed) == 0xd823c729c62bdf6eULL);
    CHECK(bloom::hash<std::uint64_t>{}(std::uint64_t{42}, bloom::default_seed) == 0xec0686d61a0d7d3cULL);
    CHECK(bloom::hash<std::string>{}("", bloom::default_seed) == 0x2be6ab3881adbfcfULL);
}

TEST_CASE("literal bit positions are pinned", "[golden]") {
    SECTION("\"bloom\" in a {1000, 5} filter") {
        bloom::bloom_filter<std::string> filter(bloom::filter_geometry{1000, 5});
        filter.insert("bloom");
        CHECK(positions(0xd823c729c62bdf6eULL, 1000, 5) ==
              std::vector<std::uint64_t>{844, 618, 10, 638, 121});
        CHECK(set_positions(filter) == std::vector<std::uint64_t>{10, 121, 618, 638, 844});
    }
    SECTION("std::uint64_t 42 in a {1000, 5} filter") {
        bloom::bloom_filter<std::uint64_t> filter(bloom::filter_geometry{1000, 5});
        filter.insert(std::uint64_t{42});
        CHECK(positions(0xec0686d61a0d7d3cULL, 1000, 5) ==
              std::vector<std::uint64_t>{921, 23, 743, 699, 509});
        CHECK(set_positions(filter) == std::vector<std::uint64_t>{23, 509, 699, 743, 921});
    }
}

TEST_CASE("a {1000, 5} filter sets exactly the documented bits", "[golden]") {
    const std::vector<std::string> strings = {"bloom", "", "a", "https://www.example.com/",
                                              std::string(300, 'z')};
    bloom::bloom_filter<std::string> string_filter(bloom::filter_geometry{1000, 5});
    std::vector<std::uint64_t> string_hashes;
    for (const std::string& value : strings) {
        string_filter.insert(value);
        string_hashes.push_back(bloom_test::xxh3_of_string(value, bloom::default_seed));
    }
    CHECK(words_of(string_filter) == expected_words(string_hashes, 1000, 5));

    const std::vector<std::uint64_t> integers = {0, 1, 42, 0xffffffffffffffffULL, 0x0123456789abcdefULL};
    bloom::bloom_filter<std::uint64_t> integer_filter(bloom::filter_geometry{1000, 5});
    std::vector<std::uint64_t> integer_hashes;
    for (const std::uint64_t value : integers) {
        integer_filter.insert(value);
        integer_hashes.push_back(bloom_test::xxh3_of_le64(value, bloom::default_seed));
    }
    CHECK(words_of(integer_filter) == expected_words(integer_hashes, 1000, 5));
}

TEST_CASE("other shapes and seeds set exactly the documented bits", "[golden]") {
    struct shape {
        std::uint64_t bit_count;
        unsigned hash_count;
        std::uint64_t seed;
    };
    const shape shapes[] = {
        {1, 3, bloom::default_seed},       {64, 1, bloom::default_seed},        {65, 2, 7},
        {100'003, 7, bloom::default_seed}, {std::uint64_t{1} << 20, 10, 12345}, {3'000'017, 13, 0}};
    for (const shape& s : shapes) {
        INFO("m " << s.bit_count << ", k " << s.hash_count << ", seed " << s.seed);
        bloom::bloom_filter<std::uint64_t> filter(bloom::filter_geometry{s.bit_count, s.hash_count}, s.seed);
        std::vector<std::uint64_t> hashes;
        for (std::uint64_t i = 0; i < 200; ++i) {
            const std::uint64_t value = bloom_test::splitmix64_mix(i);
            filter.insert(value);
            hashes.push_back(bloom_test::xxh3_of_le64(value, s.seed));
        }
        CHECK(words_of(filter) == expected_words(hashes, s.bit_count, s.hash_count));
    }
}

TEST_CASE("a hasher that does not avalanche is finished with fmix64(hash ^ fmix64(seed))", "[golden]") {
    for (const std::uint64_t seed : {bloom::default_seed, std::uint64_t{0}, std::uint64_t{99}}) {
        bloom::bloom_filter<std::uint64_t, raw_hasher> filter(bloom::filter_geometry{10'000, 6}, seed);
        std::vector<std::uint64_t> hashes;
        for (std::uint64_t value = 0; value < 100; ++value) {
            filter.insert(value);
            hashes.push_back(fmix64(raw_hasher{}(value, seed) ^ fmix64(seed)));
        }
        CHECK(words_of(filter) == expected_words(hashes, 10'000, 6));
    }
}
