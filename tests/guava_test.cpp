// SPDX-License-Identifier: MIT
// bloom/guava.hpp: Guava's BloomFilter. MurmurHash3_x64_128 against its published SMHasher verification
// value; the sizing against Guava's formulas worked out by hand; then the committed cases of
// tests/data/guava, written by Guava 31 itself (tests/interop/guava/GuavaInterop.java): every put result and
// mightContain answer, and the bytes of writeTo, for longs, ints, ASCII and non-ASCII strings and chars under
// both strategies. scripts/check-guava.sh runs the larger version of that test against the installed Guava.
#include "catch.hpp"
#include "interop/guava_cases.hpp"
#include "test_support.hpp"

#include <bloom/bloom_filter.hpp>
#include <bloom/detail/byte_order.hpp>
#include <bloom/detail/murmur3.hpp>
#include <bloom/format_error.hpp>
#include <bloom/guava.hpp>
#include <bloom/serialization.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using bloom_test::require_invalid_argument;

template <class T>
using guava_filter = bloom::guava::bloom_filter<T>;

const std::filesystem::path guava_data = std::filesystem::path(BLOOM_TEST_DATA_DIR) / "guava";

std::vector<std::byte> stream_bytes(std::initializer_list<int> header, std::size_t words) {
    std::vector<std::byte> bytes;
    for (const int value : header) {
        bytes.push_back(static_cast<std::byte>(value));
    }
    bytes.resize(bytes.size() + 8 * words, std::byte{0x5a});
    return bytes;
}

template <class Call>
void require_format_error(Call&& call, const std::string& part) {
    bloom_test::require_format_error_containing(std::forward<Call>(call), part);
}

/// Both readers of the serialized form, over the same bytes.
template <class Check>
void for_both_readers(const std::vector<std::byte>& bytes, Check&& check) {
    check([&] { return guava_filter<std::int64_t>::from_bytes(bytes.data(), bytes.size()); });
    check([&] {
        std::istringstream in(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        return guava_filter<std::int64_t>::read_from(in);
    });
}

} // namespace

TEST_CASE("MurmurHash3_x64_128 matches SMHasher's verification value", "[guava][murmur3]") {
    // SMHasher's VerificationTest: hash the keys {}, {0}, {0, 1}, ... {0 .. 254} with seed 256 - length,
    // hash the 256 concatenated results with seed 0; the low 32 bits of that are 0x6384BA69 for x64_128.
    // Every length 0 to 255 passes through the block loop and every tail length.
    unsigned char key[256];
    std::vector<unsigned char> results(256 * 16);
    for (unsigned length = 0; length < 256; ++length) {
        key[length] = static_cast<unsigned char>(length);
        const auto value = bloom::detail::murmur3_x64_128(key, length, 256 - length);
        bloom::detail::store_little_endian(results.data() + 16 * length, value.low, 8);
        bloom::detail::store_little_endian(results.data() + 16 * length + 8, value.high, 8);
    }
    const auto final_value = bloom::detail::murmur3_x64_128(results.data(), results.size(), 0);
    CHECK((final_value.low & 0xffffffffU) == 0x6384ba69U);
    // The empty input with seed 0 hashes to zero (every step keeps 0).
    const auto empty = bloom::detail::murmur3_x64_128(key, 0, 0);
    CHECK(empty.low == 0);
    CHECK(empty.high == 0);
}

TEST_CASE("bloom::guava sizes as BloomFilter.create does", "[guava]") {
    // (long) (-n ln p / ln^2 2) bits, rounded up to whole words; k = max(1, round(m / n ln 2)); worked out
    // with Python's math module.
    struct shape {
        std::uint64_t items;
        double fpp;
        std::uint64_t bits;
        std::uint64_t bit_size;
        unsigned hashes;
    };
    for (const shape& s : {shape{1000000, 0.01, 9585058, 9585088, 7}, shape{1000, 0.03, 7298, 7360, 5},
                           shape{1, 0.03, 7, 64, 5}, shape{5000, 0.01, 47925, 47936, 7},
                           shape{123456, 0.001, 1774999, 1775040, 10}}) {
        INFO(s.items << " at " << s.fpp);
        CHECK(guava_filter<std::int64_t>::optimal_num_of_bits(s.items, s.fpp) == s.bits);
        const guava_filter<std::int64_t> filter(s.items, s.fpp);
        CHECK(filter.bit_size() == s.bit_size);
        CHECK(filter.hash_count() == s.hashes);
        CHECK(filter.hashing_strategy() == bloom::guava::strategy::murmur128_mitz_64);
        CHECK(filter.serialized_size() == 6 + s.bit_size / 8);
    }
    // 0 expected insertions count as 1; the default rate is Guava's 3%.
    CHECK(guava_filter<std::string>(0) == guava_filter<std::string>(1, 0.03));
    CHECK(guava_filter<std::string>(1000).bit_size() == 7360);
}

TEST_CASE("bloom::guava refuses what BloomFilter.create refuses", "[guava][errors]") {
    for (const double fpp : {0.0, 1.0, -0.5, 2.0, std::nan("")}) {
        require_invalid_argument([&] { guava_filter<std::int64_t>(100, fpp); }, "fpp");
    }
    require_invalid_argument([] { guava_filter<std::int64_t>(std::uint64_t{1} << 63, 0.01); },
                             "expected_insertions");
    // 2^40 items at 1% need about 1.5 * 10^11 words; a Java int counts at most 2^31 - 1.
    require_invalid_argument([] { guava_filter<std::int64_t>(std::uint64_t{1} << 40, 0.01); },
                             {"expected_insertions", "2^31 - 1 words"});
    // One item at 99%: (long) 0.02 = 0 bits, which Guava's bit array refuses.
    require_invalid_argument([] { guava_filter<std::int64_t>(1, 0.99); }, "expected_insertions");
    // 1e-80 needs round(383 ln 2) = 266 probes; k is one unsigned byte.
    require_invalid_argument([] { guava_filter<std::int64_t>(10, 1e-80); }, {"fpp", "266 probes"});
}

TEST_CASE("bloom::guava answers and writes exactly as Guava 31 did", "[guava][interop]") {
    std::size_t cases = 0;
    for (const auto& entry : std::filesystem::directory_iterator(guava_data)) {
        if (entry.path().extension() != ".txt") {
            continue;
        }
        ++cases;
        auto binary = entry.path();
        binary.replace_extension(".bin");
        const guava_cases::test_case test = guava_cases::read_case(entry.path().string());
        INFO(entry.path().filename().string());
        const auto result = guava_cases::with_type(test.type, [&](auto tag) {
            return guava_cases::check<decltype(tag)>(test, guava_cases::read_bytes(binary.string()));
        });
        CHECK(result.puts > 100);
        CHECK(result.queries > result.puts);
        CHECK(result.different_answers == 0);
        CHECK(result.read_equals_rebuilt);
        CHECK(result.same_bytes);
        CHECK(result.stream_equals_bytes);
    }
    CHECK(cases == 8);

    // The overfilled case holds both answers, so the comparison above cannot pass by a constant.
    const auto overfilled = guava_cases::read_case((guava_data / "long_overfilled.txt").string());
    std::size_t repeated_puts = 0;
    std::size_t absent = 0;
    for (const auto& put : overfilled.puts) {
        repeated_puts += put.answer ? 0 : 1;
    }
    for (const auto& query : overfilled.queries) {
        absent += query.answer ? 0 : 1;
    }
    CHECK(repeated_puts > 0);
    CHECK(absent > 0);
}

TEST_CASE("bloom::guava: no false negatives, and the rate its bits predict", "[guava]") {
    bloom_test::splitmix64 random(20261206);
    for (const auto hashing :
         {bloom::guava::strategy::murmur128_mitz_64, bloom::guava::strategy::murmur128_mitz_32}) {
        guava_filter<std::int64_t> filter(20000, 0.01, hashing);
        std::vector<std::int64_t> members(20000);
        for (auto& member : members) {
            member = static_cast<std::int64_t>(random.next());
            filter.put(member);
        }
        for (const auto member : members) {
            REQUIRE(filter.might_contain(member));
        }
        const std::size_t trials = 200000;
        std::size_t positives = 0;
        for (std::size_t i = 0; i < trials; ++i) {
            positives += filter.might_contain(static_cast<std::int64_t>(random.next())) ? 1 : 0;
        }
        // A random non-member is a false positive with probability fill^k: within 4 sigma of it.
        const double expected = filter.expected_fpp();
        const double sigma = std::sqrt(expected * (1 - expected) / trials);
        CHECK(std::abs(static_cast<double>(positives) / trials - expected) < 4 * sigma);
        CHECK(expected > 0.005);
        CHECK(expected < 0.015);
        // Guava's estimate of the distinct items from the bits.
        CHECK(std::abs(static_cast<double>(filter.approximate_element_count()) - 20000.0) < 400.0);
    }
}

TEST_CASE("bloom::guava: union, equality and the empty filter", "[guava]") {
    guava_filter<std::string> a(1000, 0.01);
    guava_filter<std::string> b(1000, 0.01);
    CHECK(a.put("alice"));
    CHECK_FALSE(a.put("alice"));
    CHECK(b.put("bob"));
    CHECK(a.is_compatible(b));
    CHECK(a != b);
    a.put_all(b);
    CHECK(a.might_contain("bob"));
    CHECK(a.might_contain("alice"));
    const guava_filter<std::string> other_size(2000, 0.01);
    CHECK_FALSE(a.is_compatible(other_size));
    require_invalid_argument([&] { a.put_all(other_size); }, "other");
    const guava_filter<std::string> legacy(1000, 0.01, bloom::guava::strategy::murmur128_mitz_32);
    CHECK_FALSE(a.is_compatible(legacy));

    guava_filter<std::string> empty;
    CHECK_FALSE(empty.might_contain("alice"));
    CHECK(empty.bit_size() == 0);
    CHECK(empty.expected_fpp() == 0.0);
    CHECK_THROWS_AS(empty.put("alice"), std::logic_error);
    CHECK_THROWS_AS(empty.to_bytes(), std::logic_error);
    guava_filter<std::string> moved = std::move(a);
    CHECK(moved.might_contain("alice"));
}

TEST_CASE("bloom::guava readers refuse malformed streams with format_error", "[guava][errors]") {
    // Every header shorter than 6 bytes.
    for (std::size_t size = 0; size < 6; ++size) {
        auto bytes = stream_bytes({1, 3, 0, 0, 0, 1}, 1);
        bytes.resize(size);
        for_both_readers(bytes, [](auto read) { require_format_error(read, "6-byte header"); });
    }
    for_both_readers(stream_bytes({2, 3, 0, 0, 0, 1}, 1),
                     [](auto read) { require_format_error(read, "strategy ordinal 2"); });
    for_both_readers(stream_bytes({0xff, 3, 0, 0, 0, 1}, 1),
                     [](auto read) { require_format_error(read, "strategy ordinal 255"); });
    for_both_readers(stream_bytes({1, 0, 0, 0, 0, 1}, 1),
                     [](auto read) { require_format_error(read, "hash count 0"); });
    for_both_readers(stream_bytes({1, 3, 0, 0, 0, 0}, 0),
                     [](auto read) { require_format_error(read, "word count 0"); });
    for_both_readers(stream_bytes({1, 3, 0x80, 0, 0, 0}, 1),
                     [](auto read) { require_format_error(read, "word count -2147483648"); });
    // A forged count of 2^31 - 1 words (16 GiB) over 8 bytes: an error, not an allocation of 16 GiB.
    for_both_readers(stream_bytes({1, 3, 0x7f, 0xff, 0xff, 0xff}, 1),
                     [](auto read) { require_format_error(read, "2147483647"); });
    // Words cut short.
    auto truncated = stream_bytes({1, 3, 0, 0, 0, 2}, 2);
    truncated.pop_back();
    for_both_readers(truncated, [](auto read) { require_format_error(read, "16"); });
    // from_bytes takes exactly one filter; read_from leaves what follows in the stream.
    const auto trailing = stream_bytes({1, 3, 0, 0, 0, 1}, 2);
    require_format_error(
        [&] { return guava_filter<std::int64_t>::from_bytes(trailing.data(), trailing.size()); },
        "8 bytes follow");
    std::istringstream in(std::string(reinterpret_cast<const char*>(trailing.data()), trailing.size()));
    const auto first = guava_filter<std::int64_t>::read_from(in);
    CHECK(first.word_count() == 1);
    CHECK(first.hash_count() == 3);
    CHECK(in.tellg() == std::streampos(14));
}

TEST_CASE("bloom::guava filters as records of the portable format", "[guava][serialization]") {
    guava_filter<std::string> names(1000, 0.01);
    names.put("alice");
    names.put("bob");
    const std::vector<std::byte> record = names.to_record();
    CHECK(record.size() == 136 + names.bit_size() / 8);
    const auto info = bloom::inspect(record.data(), record.size());
    CHECK(info.kind == bloom::filter_kind::classic);
    CHECK(info.hasher_id == 0x4755415600000003ULL); // "GUAV", funnel 3: UTF-8 strings
    CHECK(info.bit_count == names.bit_size());
    CHECK(info.hash_count == names.hash_count());
    CHECK(info.expected_items == 1000);
    CHECK(info.target_false_positive_rate == 0.01);
    CHECK(info.item_count == 2);
    const auto loaded = guava_filter<std::string>::from_record(record.data(), record.size());
    CHECK(loaded == names);
    CHECK(loaded.might_contain("alice"));
    CHECK(loaded.expected_insertions() == 1000);
    // The legacy strategy survives the trip.
    guava_filter<std::int64_t> legacy(500, 0.02, bloom::guava::strategy::murmur128_mitz_32);
    legacy.put(7);
    const auto legacy_record = legacy.to_record();
    CHECK(guava_filter<std::int64_t>::from_record(legacy_record.data(), legacy_record.size()) == legacy);

    // Another funnel, a bloom filter of our own, a changed byte, a scheme that is not Guava's.
    bloom_test::require_format_error_containing(
        [&] { return guava_filter<std::int64_t>::from_record(record.data(), record.size()); }, "hasher id");
    const bloom::bloom_filter<std::string> ours(1000, 0.01);
    const std::vector<std::byte> our_record = bloom::to_bytes(ours);
    bloom_test::require_format_error_containing(
        [&] { return guava_filter<std::string>::from_record(our_record.data(), our_record.size()); },
        "hasher id");
    bloom_test::require_format_error_containing(
        [&] { return bloom::from_bytes<bloom::bloom_filter<std::string>>(record.data(), record.size()); },
        "hasher id");
    auto corrupt = record;
    corrupt[200] ^= std::byte{1};
    bloom_test::require_format_error_containing(
        [&] { return guava_filter<std::string>::from_record(corrupt.data(), corrupt.size()); }, "checksum");
    auto other_scheme = record;
    other_scheme[80] = std::byte{1}; // byte 80 is outside the header checksum
    bloom_test::require_format_error_containing(
        [&] { return guava_filter<std::string>::from_record(other_scheme.data(), other_scheme.size()); },
        "probe scheme 1");
    CHECK_THROWS_AS(guava_filter<std::string>().to_record(), std::logic_error);
}
