// SPDX-License-Identifier: MIT
// bloom/parquet.hpp: Parquet's split-block Bloom filter. The bits a hash sets, the header bytes, the hash of
// each physical type and the writers' sizing are worked out here by hand, from the Parquet and Thrift specs,
// with code independent of the header; then the properties (no false negatives, the SBBF rate formula), the
// round trip through the on-disk form, and the reader on malformed, truncated, reordered and extended input.
#include "catch.hpp"
#include "test_support.hpp"

#include <bloom/detail/byte_order.hpp>
#include <bloom/format_error.hpp>
#include <bloom/parquet.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

template <class T>
using sbbf = bloom::parquet::split_block_filter<T>;

using bloom_test::require_invalid_argument;

constexpr std::size_t mib128 = std::size_t{128} * 1024 * 1024;

// The salts as the Parquet spec (BloomFilter.md) lists them, typed in again here.
constexpr std::uint32_t spec_salts[8] = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
                                         0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};

/// Bytes from small integers, for hand-written inputs.
std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
    std::vector<std::byte> out;
    for (const int value : values) {
        out.push_back(static_cast<std::byte>(value));
    }
    return out;
}

std::vector<std::byte> concat(std::initializer_list<std::vector<std::byte>> parts) {
    std::vector<std::byte> out;
    for (const auto& part : parts) {
        out.insert(out.end(), part.begin(), part.end());
    }
    return out;
}

/// A Thrift unsigned varint, written here by the spec: 7 bits at a time, low first, high bit = more.
std::vector<std::byte> varint(std::uint64_t value) {
    std::vector<std::byte> out;
    do {
        const auto low = static_cast<unsigned>(value & 0x7f);
        value >>= 7;
        out.push_back(static_cast<std::byte>(value != 0 ? low | 0x80 : low));
    } while (value != 0);
    return out;
}

/// Thrift's zigzag of a 32-bit integer: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ...
std::uint64_t zigzag(std::int64_t value) {
    return value >= 0 ? static_cast<std::uint64_t>(value) * 2
                      : static_cast<std::uint64_t>(-(value + 1)) * 2 + 1;
}

// The pieces of a BloomFilterHeader, in the compact protocol: field header byte (delta << 4) | type.
const std::vector<std::byte> empty_union_member = bytes_of({0x1c, 0x00, 0x00}); // field 1 {} and union stop
std::vector<std::byte> num_bytes_field(std::int64_t num_bytes) {
    return concat({bytes_of({0x15}), varint(zigzag(num_bytes))});
}
const std::vector<std::byte> algorithm_block = concat({bytes_of({0x1c}), empty_union_member});
const std::vector<std::byte> hash_xxhash = concat({bytes_of({0x1c}), empty_union_member});
const std::vector<std::byte> compression_none = concat({bytes_of({0x1c}), empty_union_member});
const std::vector<std::byte> stop = bytes_of({0x00});

std::vector<std::byte> valid_header(std::int64_t num_bytes) {
    return concat({num_bytes_field(num_bytes), algorithm_block, hash_xxhash, compression_none, stop});
}

/// Runs read() on `input`, which must throw bloom::format_error whose message contains `expected`.
template <class T = std::string>
void require_format_error(const std::vector<std::byte>& input, const std::string& expected) {
    bool threw = false;
    try {
        static_cast<void>(sbbf<T>::read(input.data(), input.size()));
    } catch (const bloom::format_error& error) {
        threw = true;
        const std::string message = error.what();
        INFO("message: " << message << "\nexpected to contain: " << expected);
        CHECK(message.find(expected) != std::string::npos);
        CHECK(message.rfind("bloom::parquet::split_block_filter::read: ", 0) == 0);
    }
    INFO("expected bloom::format_error containing: " << expected);
    CHECK(threw);
}

/// The bitset a set of hashes must produce, computed from the spec with code of its own: block
/// ((h >> 32) * z) >> 32, in word i bit ((uint32)(low32(h) * salt[i])) >> 27, words little-endian.
std::vector<std::byte> expected_bitset(std::size_t num_bytes, const std::vector<std::uint64_t>& hashes) {
    std::vector<unsigned char> bits(num_bytes, 0);
    const std::uint64_t blocks = num_bytes / 32;
    for (const std::uint64_t h : hashes) {
        const std::uint64_t block = ((h >> 32) * blocks) >> 32;
        const std::uint32_t low = static_cast<std::uint32_t>(h & 0xffffffffU);
        for (unsigned i = 0; i < 8; ++i) {
            const std::uint32_t bit = static_cast<std::uint32_t>(low * spec_salts[i]) >> 27;
            const std::size_t byte = static_cast<std::size_t>(block) * 32 + i * 4 + bit / 8;
            bits[byte] = static_cast<unsigned char>(bits[byte] | (1U << (bit % 8)));
        }
    }
    std::vector<std::byte> out;
    for (const unsigned char byte : bits) {
        out.push_back(static_cast<std::byte>(byte));
    }
    return out;
}

std::vector<std::byte> tail(const std::vector<std::byte>& bytes, std::size_t from) {
    return std::vector<std::byte>(bytes.begin() + static_cast<std::ptrdiff_t>(from), bytes.end());
}

std::uint64_t xxh64(const void* data, std::size_t size) {
    return static_cast<std::uint64_t>(XXH64(data, size, 0));
}

/// Calls f with the key of `index` for a filter of T: distinct indices give distinct keys.
template <class T, class Function>
void with_key(std::uint64_t index, std::string& buffer, Function&& f) {
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>) {
        buffer.assign("https://example.com/parquet/column/value?id=");
        buffer.append(std::to_string(index));
        f(T(buffer));
    } else {
        // Indices stay below 2^24, so every one is exact in a float.
        f(static_cast<T>(index));
    }
}

template <class T>
void insert_range(sbbf<T>& filter, std::uint64_t first, std::uint64_t last) {
    std::string buffer;
    for (std::uint64_t i = first; i < last; ++i) {
        with_key<T>(i, buffer, [&](const T& value) { filter.insert(value); });
    }
}

template <class T>
std::uint64_t count_found(const sbbf<T>& filter, std::uint64_t first, std::uint64_t last) {
    std::string buffer;
    std::uint64_t found = 0;
    for (std::uint64_t i = first; i < last; ++i) {
        with_key<T>(i, buffer, [&](const T& value) { found += filter.contains(value) ? 1 : 0; });
    }
    return found;
}

// ---- the SBBF rate, computed here ----

// A word's bit stays clear after one more item of its block with probability 31/32 (one bit per word).
constexpr double sbbf_word_miss = 31.0 / 32.0;

/// The rate of a block holding i items: each of the query's 8 bits, one per 32-bit word, is set with
/// probability 1 - (31/32)^i.
double sbbf_block_rate(double items) { return std::pow(1.0 - std::pow(sbbf_word_miss, items), 8.0); }

/// The SBBF formula: sum over j of Poisson(j; lambda = n / z) (1 - (31/32)^j)^8.
double sbbf_formula_rate(std::size_t num_bytes, std::uint64_t items) {
    const double lambda = static_cast<double>(items) / static_cast<double>(num_bytes / 32);
    return bloom_test::poisson_expectation(lambda, sbbf_block_rate);
}

/// The variance of one filter's own rate around the formula (as test_support.hpp derives it for 64-bit
/// words): r_b = prod over the 8 words of X_w / 32, X_w the set bits; E[X/32 | i] = 1 - q^i and
/// E[(X/32)^2 | i] = (1 - q^i)/32 + (31/32)(1 - 2q^i + (30/32)^i), q = 31/32. The fixed total n cancels
/// the part linear in the block's count: (Var(r_b) - Cov(r_b, i)^2 / lambda) / blocks.
double sbbf_filter_rate_variance(std::size_t num_bytes, std::uint64_t items) {
    const double blocks = static_cast<double>(num_bytes / 32);
    const double lambda = static_cast<double>(items) / blocks;
    const auto square = [](double i) {
        const double miss = std::pow(sbbf_word_miss, i);
        const double pair =
            (1.0 - miss) / 32.0 + (31.0 / 32.0) * (1.0 - 2.0 * miss + std::pow(30.0 / 32.0, i));
        return std::pow(pair, 8.0);
    };
    const double mean = bloom_test::poisson_expectation(lambda, sbbf_block_rate);
    const double variance = bloom_test::poisson_expectation(lambda, square) - mean * mean;
    const double covariance =
        bloom_test::poisson_expectation(lambda, [](double i) { return i * sbbf_block_rate(i); }) -
        mean * lambda;
    return std::max(0.0, variance - covariance * covariance / lambda) / blocks;
}

} // namespace

// ---- the on-disk header ----

TEST_CASE("parquet: the header for 1024 bytes is the Thrift compact encoding worked out by hand",
          "[parquet]") {
    // Field 1 numBytes, i32: (delta 1 << 4) | 5 = 0x15, zigzag(1024) = 2048 = varint 0x80 0x10.
    // Fields 2, 3, 4, unions: (1 << 4) | 12 = 0x1c, holding field 1 (0x1c), an empty struct (its stop
    // 0x00), then the union's stop 0x00. Then the header's stop 0x00.
    const std::vector<std::byte> header = bytes_of(
        {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00});
    const std::vector<std::byte> written = sbbf<std::string>(1024).write();
    REQUIRE(written.size() == header.size() + 1024);
    CHECK(std::vector<std::byte>(written.begin(), written.begin() + 16) == header);
    CHECK(tail(written, 16) == std::vector<std::byte>(1024, std::byte{0}));
    CHECK(valid_header(1024) == header);

    SECTION("one block: zigzag(32) = 64, a one-byte varint") {
        const std::vector<std::byte> small = sbbf<std::int32_t>(32).write();
        REQUIRE(small.size() == 15 + 32);
        CHECK(std::vector<std::byte>(small.begin(), small.begin() + 15) ==
              bytes_of({0x15, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00,
                        0x00}));
    }
    SECTION("128 MiB: zigzag(2^27) = 2^28, a five-byte varint") {
        const std::vector<std::byte> large = sbbf<double>(mib128).write();
        REQUIRE(large.size() == 19 + mib128);
        CHECK(std::vector<std::byte>(large.begin(), large.begin() + 6) ==
              bytes_of({0x15, 0x80, 0x80, 0x80, 0x80, 0x01}));
        CHECK(sbbf<double>::stored_size(large.data(), 19) == large.size());
    }
}

// ---- the bits a hash sets ----

TEST_CASE("parquet: 32-bit words are read and swapped as little-endian bytes on any host", "[parquet]") {
    static_assert(bloom::detail::byte_swap(std::uint32_t{0x01020304U}) == 0x04030201U);
    static_assert(bloom::detail::byte_swap(std::uint64_t{0x0102030405060708ULL}) == 0x0807060504030201ULL);
    const unsigned char stored[9] = {0xff, 0x04, 0x03, 0x02, 0x01, 0xdd, 0xcc, 0xbb, 0xaa};
    // Unaligned on purpose: the bitset of a mapped file sits wherever the header ends.
    const bloom::detail::little_endian_words32 words{stored + 1};
    CHECK(words[0] == 0x01020304U);
    CHECK(words[1] == 0xaabbccddU);
}

TEST_CASE("parquet: a hash sets exactly the block and the eight bits the spec names", "[parquet]") {
    const std::vector<std::uint64_t> hashes = {0x0123456789abcdefULL, 0xfedcba9876543210ULL, 0,
                                               0xffffffffffffffffULL, 0x8000000000000001ULL};
    for (const std::size_t num_bytes :
         {std::size_t{32}, std::size_t{96}, std::size_t{1024}, std::size_t{4096}}) {
        for (const std::uint64_t h : hashes) {
            INFO(num_bytes << " bytes, hash " << h);
            sbbf<std::int64_t> filter(num_bytes);
            filter.insert_hash(h);
            CHECK(filter.contains_hash(h));
            const std::vector<std::byte> expected = expected_bitset(num_bytes, {h});
            CHECK(filter.bitset() == expected);
            // The header is 15 bytes while zigzag(numBytes) fits one varint byte (numBytes < 64), else 16.
            CHECK(tail(filter.write(), num_bytes < 64 ? 15 : 16) == expected);
        }
        sbbf<std::int64_t> all(num_bytes);
        for (const std::uint64_t h : hashes) {
            all.insert_hash(h);
        }
        CHECK(all.bitset() == expected_bitset(num_bytes, hashes));
    }

    SECTION("worked example: h = 0x0123456789abcdef in 1024 bytes (32 blocks)") {
        // Block ((0x01234567 * 32) >> 32) = 0 (0x01234567 < 2^27). Bits: (0x89abcdef * salt[i]) mod 2^32
        // >> 27.
        const std::uint64_t h = 0x0123456789abcdefULL;
        sbbf<std::int64_t> filter(1024);
        filter.insert_hash(h);
        const std::uint32_t* words = filter.words();
        for (unsigned i = 0; i < 8; ++i) {
            const std::uint32_t bit = static_cast<std::uint32_t>(0x89abcdefU * spec_salts[i]) >> 27;
            CHECK(words[i] == (std::uint32_t{1} << bit));
        }
        for (std::size_t i = 8; i < filter.word_count(); ++i) {
            CHECK(words[i] == 0);
        }
    }
    SECTION("the top of the hash range maps to the last block") {
        sbbf<std::int64_t> filter(96);
        filter.insert_hash(0xffffffff00000000ULL);
        CHECK(filter.block_count() == 3);
        for (std::size_t i = 0; i < 16; ++i) {
            CHECK(filter.words()[i] == 0);
        }
        for (std::size_t i = 16; i < 24; ++i) {
            CHECK(filter.words()[i] == 1); // low32 = 0: every product is 0, bit 0
        }
    }
}

// ---- hashing ----

TEST_CASE("parquet: values hash with XXH64, seed 0, over their plain encoding", "[parquet]") {
    SECTION("INT32: four little-endian bytes, two's complement") {
        const unsigned char minus_two[4] = {0xfe, 0xff, 0xff, 0xff};
        CHECK(sbbf<std::int32_t>::hash(-2) == xxh64(minus_two, 4));
        const unsigned char value[4] = {0x78, 0x56, 0x34, 0x12};
        CHECK(sbbf<std::int32_t>::hash(0x12345678) == xxh64(value, 4));
    }
    SECTION("INT64: eight little-endian bytes") {
        const unsigned char value[8] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01};
        CHECK(sbbf<std::int64_t>::hash(0x0102030405060708LL) == xxh64(value, 8));
        const unsigned char minus_one[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
        CHECK(sbbf<std::int64_t>::hash(-1) == xxh64(minus_one, 8));
    }
    SECTION("FLOAT and DOUBLE: the IEEE bits, little-endian, -0.0 not folded into 0.0") {
        const unsigned char one_and_a_half[4] = {0x00, 0x00, 0xc0, 0x3f}; // 0x3fc00000
        CHECK(sbbf<float>::hash(1.5f) == xxh64(one_and_a_half, 4));
        const unsigned char minus_two[8] = {0, 0, 0, 0, 0, 0, 0x00, 0xc0}; // 0xc000000000000000
        CHECK(sbbf<double>::hash(-2.0) == xxh64(minus_two, 8));
        const unsigned char negative_zero[8] = {0, 0, 0, 0, 0, 0, 0, 0x80};
        const unsigned char positive_zero[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        CHECK(sbbf<double>::hash(-0.0) == xxh64(negative_zero, 8));
        CHECK(sbbf<double>::hash(0.0) == xxh64(positive_zero, 8));
        CHECK(sbbf<double>::hash(-0.0) != sbbf<double>::hash(0.0));
        const unsigned char negative_zero_float[4] = {0, 0, 0, 0x80};
        CHECK(sbbf<float>::hash(-0.0f) == xxh64(negative_zero_float, 4));
    }
    SECTION("BYTE_ARRAY: the raw bytes, no length prefix") {
        CHECK(sbbf<std::string>::hash(std::string("hello")) == xxh64("hello", 5));
        CHECK(sbbf<std::string_view>::hash("parquet") == xxh64("parquet", 7));
        CHECK(sbbf<std::string>::hash(std::string()) == xxh64("", 0));
        CHECK(sbbf<std::string_view>::hash(std::string_view()) == xxh64("", 0));
        const std::string binary("a\0b", 3);
        CHECK(sbbf<std::string>::hash(binary) == xxh64("a\0b", 3));
        // A string filter takes any string type without building a std::string; the hash is the same.
        CHECK(sbbf<std::string>::hash("hello") == sbbf<std::string>::hash(std::string("hello")));
        CHECK(sbbf<std::string>::hash(std::string_view("hello")) ==
              sbbf<std::string>::hash(std::string("hello")));
        CHECK(sbbf<std::string_view>::hash(std::string("hello")) == xxh64("hello", 5));
    }
    SECTION("insert and contains go through hash()") {
        sbbf<std::string> by_value(256);
        sbbf<std::string> by_hash(256);
        for (const char* text : {"a", "b", "parquet", ""}) {
            by_value.insert(std::string(text));
            by_hash.insert_hash(xxh64(text, std::strlen(text)));
        }
        CHECK(by_value == by_hash);
        CHECK(by_value.contains("parquet"));
        CHECK(by_value.contains(std::string_view("a")));
        sbbf<std::string> via_views(256);
        for (const char* text : {"a", "b", "parquet", ""}) {
            via_views.insert(std::string_view(text));
        }
        CHECK(via_views == by_value);
    }
}

// ---- sizing ----

TEST_CASE("parquet: optimal_num_bytes sizes filters as Parquet writers do", "[parquet]") {
    // bits = -8 n / ln(1 - p^(1/8)), worked out separately: n = 100'000, p = 0.01 gives 968'152.7 bits,
    // 121'019.1 bytes, next power of two 131'072. n = 10^6: 1'210'190.8 bytes -> 2^21. n = 1000, p = 0.05:
    // 859.4 bytes -> 1024. n = 12'345, p = 0.001: 22'541.5 bytes -> 32'768.
    CHECK(sbbf<std::string>::optimal_num_bytes(100'000, 0.01) == 131'072);
    CHECK(sbbf<std::string>::optimal_num_bytes(1'000'000, 0.01) == 2'097'152);
    CHECK(sbbf<std::int64_t>::optimal_num_bytes(1000, 0.05) == 1024);
    CHECK(sbbf<double>::optimal_num_bytes(12'345, 0.001) == 32'768);

    SECTION("clamped to [32 B, 128 MiB]") {
        CHECK(sbbf<std::int32_t>::optimal_num_bytes(1, 0.5) == 32);
        CHECK(sbbf<std::int32_t>::optimal_num_bytes(1, 0.999999) == 32);
        CHECK(sbbf<std::int32_t>::optimal_num_bytes(1'000'000'000, 0.001) == mib128);
        CHECK(sbbf<std::int32_t>::optimal_num_bytes(1, 1e-300) == mib128); // 1 - p^(1/8) rounds to 1
        // The largest rate below 1: p^(1/8) rounds to 1, ln(0) is -inf and the formula gives 0 bits.
        CHECK(sbbf<std::int32_t>::optimal_num_bytes(1'000'000, std::nextafter(1.0, 0.0)) == 32);
        CHECK(sbbf<std::int32_t>::optimal_num_bytes(std::numeric_limits<std::uint64_t>::max(), 1e-300) ==
              mib128);
    }
    SECTION("always the smallest power of two that holds the formula's bits") {
        for (const std::uint64_t n : {1ULL, 7ULL, 100ULL, 4321ULL, 99'999ULL, 1'000'003ULL, 30'000'000ULL}) {
            for (const double p : {0.5, 0.1, 0.01, 0.003, 1e-4, 1e-6}) {
                INFO("n = " << n << ", p = " << p);
                const std::size_t bytes = sbbf<float>::optimal_num_bytes(n, p);
                const double bits = -8.0 * static_cast<double>(n) / std::log(1.0 - std::pow(p, 0.125));
                CHECK((bytes & (bytes - 1)) == 0);
                CHECK(bytes >= 32);
                CHECK(bytes <= mib128);
                if (bytes < mib128) {
                    CHECK(static_cast<double>(bytes) * 8.0 >= bits);
                }
                if (bytes > 32) {
                    CHECK(static_cast<double>(bytes) * 4.0 < bits);
                }
                CHECK_NOTHROW(sbbf<float>(bytes));
            }
        }
    }
    SECTION("invalid arguments name the parameter") {
        require_invalid_argument([] { static_cast<void>(sbbf<std::string>::optimal_num_bytes(0, 0.01)); },
                                 "expected_items");
        for (const double p : {0.0, 1.0, 1.5, -0.1, std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::infinity()}) {
            require_invalid_argument([p] { static_cast<void>(sbbf<std::string>::optimal_num_bytes(10, p)); },
                                     "false_positive_rate");
        }
        try {
            static_cast<void>(sbbf<std::string>::optimal_num_bytes(10, 1.5));
            FAIL("no exception");
        } catch (const std::invalid_argument& error) {
            CHECK(std::string(error.what()) == "bloom::parquet::split_block_filter::optimal_num_bytes: "
                                               "false_positive_rate must be in (0, 1), got 1.5");
        }
    }
}

TEST_CASE("parquet: the constructor takes any whole number of blocks up to 128 MiB", "[parquet]") {
    for (const std::size_t bytes :
         {std::size_t{32}, std::size_t{64}, std::size_t{96}, std::size_t{1024 + 32}}) {
        const sbbf<std::int32_t> filter(bytes);
        CHECK(filter.num_bytes() == bytes);
        CHECK(filter.block_count() == bytes / 32);
        CHECK(filter.word_count() == bytes / 4);
        CHECK(filter.bitset() == std::vector<std::byte>(bytes, std::byte{0}));
    }
    for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{16}, std::size_t{40},
                                    mib128 + 32, std::numeric_limits<std::size_t>::max()}) {
        require_invalid_argument([bytes] { static_cast<void>(sbbf<std::int32_t>(bytes)); }, "num_bytes");
    }
}

// ---- properties ----

TEMPLATE_TEST_CASE("parquet: inserted values are always found", "[parquet]", std::string, std::string_view,
                   std::int32_t, std::int64_t, float, double) {
    constexpr std::uint64_t items = 100'000;
    for (const double rate : {0.01, 0.5}) {
        sbbf<TestType> filter(sbbf<TestType>::optimal_num_bytes(items, rate));
        insert_range(filter, 0, items);
        INFO("rate " << rate);
        CHECK(count_found(filter, 0, items) == items);
    }
    SECTION("also far past what the filter was sized for") {
        sbbf<TestType> crowded(64);
        insert_range(crowded, 0, 10'000);
        CHECK(count_found(crowded, 0, 10'000) == 10'000);
    }
}

TEST_CASE("parquet: bulk insert and contains give the answers of one call per value", "[parquet][bulk]") {
    // Across the pipeline's window (32) and its tail: ranges shorter than, equal to and longer than it.
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{32},
                                    std::size_t{33}, std::size_t{5000}}) {
        INFO(count << " values");
        std::vector<std::int64_t> values(count);
        for (std::size_t i = 0; i < count; ++i) {
            values[i] = static_cast<std::int64_t>(i * 2654435761U);
        }
        // In the cache (2 KiB: one item at a time) and past it (4 MiB: hashed a window ahead, prefetched).
        for (const std::size_t bytes : {std::size_t{2048}, std::size_t{4} << 20}) {
            INFO(bytes << " bytes");
            sbbf<std::int64_t> one_by_one(bytes);
            std::size_t new_singly = 0;
            for (const std::int64_t value : values) {
                new_singly += one_by_one.insert(value) ? 1 : 0;
            }
            sbbf<std::int64_t> bulk(bytes);
            CHECK(bulk.insert(values.begin(), values.end()) == new_singly);
            CHECK(bulk == one_by_one);

            std::vector<std::int64_t> queries = values;
            for (std::size_t i = 0; i < count; ++i) {
                queries.push_back(-1 - static_cast<std::int64_t>(i));
            }
            std::vector<char> answers(queries.size(), 2);
            bulk.contains(queries.begin(), queries.end(), answers.begin());
            for (std::size_t i = 0; i < queries.size(); ++i) {
                REQUIRE(static_cast<bool>(answers[i]) == one_by_one.contains(queries[i]));
            }
        }
    }
    SECTION("an empty filter answers false in bulk and refuses a bulk insert") {
        const sbbf<std::string> empty;
        const std::vector<std::string> names = {"a", "b", "c"};
        std::vector<char> answers(names.size(), 1);
        empty.contains(names.begin(), names.end(), answers.begin());
        CHECK(answers == std::vector<char>(names.size(), 0));
        sbbf<std::string> target;
        CHECK_THROWS_AS(target.insert(names.begin(), names.end()), std::logic_error);
        CHECK(target.insert(names.end(), names.end()) == 0);
    }
}

TEMPLATE_TEST_CASE("parquet: the measured false-positive rate matches the SBBF formula", "[parquet][fpr]",
                   std::string, std::string_view, std::int32_t, std::int64_t, float, double) {
    // n = 10^5 at 1%: 131'072 bytes (4096 blocks, 24.4 items each). The writers' sizing treats blocks as
    // evenly loaded; with the blocks' Poisson spread the formula's rate here is 1.02%, not below 1%.
    constexpr std::uint64_t items = 100'000;
    constexpr std::uint64_t queries = 1'000'000;
    const std::size_t bytes = sbbf<TestType>::optimal_num_bytes(items, 0.01);
    REQUIRE(bytes == 131'072);
    sbbf<TestType> filter(bytes);
    insert_range(filter, 0, items);
    const double measured =
        static_cast<double>(count_found(filter, items, items + queries)) / static_cast<double>(queries);
    const double expected = sbbf_formula_rate(bytes, items);
    // 4 sigma, sigma^2 = the queries' binomial variance p (1 - p) / queries plus this one filter's own spread
    // (sbbf_filter_rate_variance), and 1% of p for the formula's approximations: a block's count taken as
    // Poisson(n / z) where it is Binomial(n, 1 / z), and the block and the bits taken from one hash.
    const double sigma = std::sqrt(expected * (1.0 - expected) / static_cast<double>(queries) +
                                   sbbf_filter_rate_variance(bytes, items));
    const double tolerance = 4.0 * sigma + 0.01 * expected;
    INFO("measured " << measured << ", formula " << expected << ", tolerance " << tolerance);
    CHECK(std::fabs(measured - expected) <= tolerance);
}

// ---- the round trip ----

TEST_CASE("parquet: a filter round-trips through its on-disk form", "[parquet]") {
    sbbf<std::string> filter(1024);
    const std::vector<std::string> words = {"hello", "parquet", "bloom", "filter"};
    for (const std::string& word : words) {
        filter.insert(word);
    }
    const std::vector<std::byte> written = filter.write();
    REQUIRE(written.size() == 16 + 1024);
    CHECK(tail(written, 16) == filter.bitset());

    const sbbf<std::string> loaded = sbbf<std::string>::read(written.data(), written.size());
    CHECK(loaded == filter);
    CHECK_FALSE(loaded != filter);
    CHECK(loaded.write() == written);
    CHECK(loaded.num_bytes() == 1024);
    CHECK(loaded.block_count() == 32);
    for (const std::string& word : words) {
        CHECK(loaded.contains(word));
    }
    std::vector<std::uint64_t> hashes;
    for (const std::string& word : words) {
        hashes.push_back(xxh64(word.data(), word.size()));
    }
    CHECK(loaded.bitset() == expected_bitset(1024, hashes));
    CHECK(sbbf<std::string>::stored_size(written.data(), 16) == written.size());

    SECTION("bytes after the bitset are ignored") {
        std::vector<std::byte> longer = written;
        longer.resize(longer.size() + 100, std::byte{0xab});
        CHECK(sbbf<std::string>::read(longer.data(), longer.size()) == filter);
        CHECK(sbbf<std::string>::stored_size(longer.data(), longer.size()) == written.size());
    }
    SECTION("a reader of another physical type reads the same bits") {
        CHECK(sbbf<std::string_view>::read(written.data(), written.size()).bitset() == filter.bitset());
    }
    SECTION("different bits compare unequal") {
        sbbf<std::string> other = filter;
        CHECK(other == filter);
        other.insert("another");
        CHECK(other != filter);
        CHECK(sbbf<std::string>(1024) != sbbf<std::string>(2048));
    }
    SECTION("a hand-built header with a bitset of every byte value reads back those bytes") {
        std::vector<std::byte> input = valid_header(64);
        for (int i = 0; i < 64; ++i) {
            input.push_back(static_cast<std::byte>(i * 4 + 1));
        }
        const sbbf<std::int64_t> read = sbbf<std::int64_t>::read(input.data(), input.size());
        CHECK(read.bitset() == tail(input, input.size() - 64));
        CHECK(read.write() == input);
        // Words are little-endian on disk: word 0 is bytes 01 05 09 0d.
        CHECK(read.words()[0] == 0x0d090501U);
    }
}

// ---- malformed input ----

TEST_CASE("parquet: truncated input throws format_error at every length", "[parquet][read]") {
    for (const std::size_t bytes : {std::size_t{32}, std::size_t{1024}}) {
        sbbf<std::int64_t> filter(bytes);
        filter.insert(42);
        const std::vector<std::byte> written = filter.write();
        for (std::size_t cut = 0; cut < written.size(); ++cut) {
            INFO(cut << " of " << written.size() << " bytes");
            // A copy of exactly `cut` bytes, so a sanitizer catches any read past the end.
            const std::vector<std::byte> prefix(written.begin(),
                                                written.begin() + static_cast<std::ptrdiff_t>(cut));
            CHECK_THROWS_AS(sbbf<std::int64_t>::read(prefix.data(), prefix.size()), bloom::format_error);
        }
        CHECK(sbbf<std::int64_t>::read(written.data(), written.size()) == filter);
    }
    CHECK_THROWS_AS(sbbf<std::int64_t>::read(nullptr, 0), bloom::format_error);
    require_format_error(bytes_of({0x15}), "truncated header");
    require_format_error(concat({valid_header(1024), std::vector<std::byte>(12)}),
                         "bitset truncated: header promises 1024 bytes, 12 remain");
}

TEST_CASE("parquet: another algorithm, hash or compression is refused", "[parquet][read]") {
    const std::vector<std::byte> bits(1024);
    // Union member 2 (struct, delta 2: 0x2c), an empty struct, then the union's stop.
    const std::vector<std::byte> member_two = bytes_of({0x1c, 0x2c, 0x00, 0x00});
    const std::vector<std::byte> empty_union = bytes_of({0x1c, 0x00});
    require_format_error(
        concat({num_bytes_field(1024), member_two, hash_xxhash, compression_none, stop, bits}),
        "unsupported algorithm");
    require_format_error(
        concat({num_bytes_field(1024), algorithm_block, member_two, compression_none, stop, bits}),
        "unsupported hash");
    require_format_error(
        concat({num_bytes_field(1024), algorithm_block, hash_xxhash, member_two, stop, bits}),
        "unsupported compression");
    require_format_error(
        concat({num_bytes_field(1024), empty_union, hash_xxhash, compression_none, stop, bits}),
        "unsupported algorithm");
    require_format_error(
        concat({num_bytes_field(1024), algorithm_block, empty_union, compression_none, stop, bits}),
        "unsupported hash");
    // BLOCK and a second member: still not the algorithm this reader knows.
    require_format_error(concat({num_bytes_field(1024), bytes_of({0x1c, 0x1c, 0x00, 0x1c, 0x00, 0x00}),
                                 hash_xxhash, compression_none, stop, bits}),
                         "unsupported algorithm");
    // BLOCK as an i32 instead of a struct.
    require_format_error(concat({num_bytes_field(1024), bytes_of({0x1c, 0x15, 0x02, 0x00}), hash_xxhash,
                                 compression_none, stop, bits}),
                         "algorithm BLOCK has compact type 5");
}

TEST_CASE("parquet: numBytes must be a positive whole number of blocks within Parquet's limit",
          "[parquet][read]") {
    const auto with_num_bytes = [](std::int64_t num_bytes, std::size_t bitset_size) {
        return concat({valid_header(num_bytes), std::vector<std::byte>(bitset_size)});
    };
    require_format_error(with_num_bytes(40, 64), "numBytes 40 is not a multiple of 32");
    require_format_error(with_num_bytes(0, 64), "numBytes 0 is not positive");
    require_format_error(with_num_bytes(-32, 64), "numBytes -32 is not positive");
    require_format_error(with_num_bytes(std::int64_t{256} * 1024 * 1024, 64), "exceeds Parquet's maximum");
    // Huge sizes with a tiny input fail on the header alone: nothing is allocated for the bitset.
    require_format_error(with_num_bytes(std::numeric_limits<std::int32_t>::max(), 8), "numBytes 2147483647");
    require_format_error(with_num_bytes(static_cast<std::int64_t>(mib128), 8),
                         "bitset truncated: header promises 134217728 bytes, 8 remain");
    // An i32 varint beyond 32 bits.
    require_format_error(concat({bytes_of({0x15}), varint(std::uint64_t{1} << 33), algorithm_block,
                                 hash_xxhash, compression_none, stop}),
                         "out of range");
    // numBytes as a binary instead of an i32.
    require_format_error(
        concat({bytes_of({0x18, 0x01, 0x41}), algorithm_block, hash_xxhash, compression_none, stop}),
        "field 1 (numBytes) has compact type 8");
}

TEST_CASE("parquet: a required field that is missing is named", "[parquet][read]") {
    const std::vector<std::byte> bits(1024);
    require_format_error(
        concat({bytes_of({0x2c}), empty_union_member, hash_xxhash, compression_none, stop, bits}),
        "numBytes (1) is missing");
    require_format_error(
        concat({num_bytes_field(1024), bytes_of({0x2c}), empty_union_member, compression_none, stop, bits}),
        "algorithm (2) is missing");
    require_format_error(
        concat({num_bytes_field(1024), algorithm_block, bytes_of({0x2c}), empty_union_member, stop, bits}),
        "hash (3) is missing");
    require_format_error(concat({num_bytes_field(1024), algorithm_block, hash_xxhash, stop, bits}),
                         "compression (4) is missing");
    require_format_error(concat({stop, bits}), "is missing");
}

TEST_CASE("parquet: varints longer than 10 bytes or past 64 bits are refused", "[parquet][read]") {
    // As the skipped value of an unknown i64 field 5 (0x46 after field 4), after a valid start.
    const std::vector<std::byte> start =
        concat({num_bytes_field(32), algorithm_block, hash_xxhash, compression_none});
    require_format_error(
        concat({start, bytes_of({0x16, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}),
                stop, std::vector<std::byte>(32)}),
        "varint longer than 10 bytes");
    require_format_error(
        concat({start, bytes_of({0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}), stop,
                std::vector<std::byte>(32)}),
        "varint overflows 64 bits");
    // The largest 64-bit varint is fine.
    const std::vector<std::byte> largest =
        concat({start, bytes_of({0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), stop,
                std::vector<std::byte>(32)});
    CHECK(sbbf<std::string>::read(largest.data(), largest.size()) == sbbf<std::string>(32));
    // And numBytes itself with an overlong varint.
    require_format_error(
        bytes_of({0x15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}),
        "varint longer than 10 bytes");
}

TEST_CASE("parquet: unknown fields of every type are skipped", "[parquet][read]") {
    const std::vector<std::byte> bits = expected_bitset(64, {0x1234567890abcdefULL});
    // Each field below is a complete value of one compact type. Short-form headers (0x5t) are delta 5
    // from the previous id, so never one of the header's ids 1..4 after field 4, after each other or first.
    // `nested`: a struct holding a list of 16 empty structs (long-form count 0xfc 0x10), then struct { {} }.
    const std::vector<std::byte> nested =
        bytes_of({0x5c, 0x19, 0xfc, 0x10, 0, 0, 0, 0,    0,    0,    0,    0,   0,
                  0,    0,    0,    0,    0, 0, 0, 0x1c, 0x1c, 0x00, 0x00, 0x00});
    const std::vector<std::vector<std::byte>> fields = {
        bytes_of({0x51}),                                          // bool true, no payload
        bytes_of({0x52}),                                          // bool false, no payload
        bytes_of({0x53, 0x7f}),                                    // byte
        bytes_of({0x54, 0x03}),                                    // i16
        bytes_of({0x55, 0xac, 0x02}),                              // i32
        bytes_of({0x56, 0xff, 0xff, 0xff, 0xff, 0x0f}),            // i64
        bytes_of({0x57, 1, 2, 3, 4, 5, 6, 7, 8}),                  // double
        bytes_of({0x58, 0x03, 'a', 'b', 'c'}),                     // binary
        bytes_of({0x59, 0x35, 0x02, 0x04, 0x06}),                  // list of 3 i32
        bytes_of({0x5a, 0x21, 0x01, 0x02}),                        // set of 2 bools, a byte each
        bytes_of({0x5b, 0x02, 0x58, 0x02, 0x01, 'x', 0x04, 0x00}), // map i32 -> binary, 2 entries
        bytes_of({0x5b, 0x00}),                                    // empty map
        nested,                                                    // nested structs and lists
        bytes_of({0x5d, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}), // uuid
        bytes_of({0x59, 0x29, 0x24, 0x02, 0x04, 0x15, 0x06}), // list of 2 lists: 2 i16, 1 i32
        bytes_of({0x0c, 0xc8, 0x01, 0x00}), // field 100, long form (zigzag 200): empty struct
        bytes_of({0x08, 0x01, 0x00}),       // field -1, long form (zigzag 1): empty binary
    };
    for (std::size_t i = 0; i < fields.size(); ++i) {
        INFO("unknown field " << i);
        // After the known fields, and before them (which then use long-form ids, as any order may).
        const std::vector<std::byte> after = concat(
            {num_bytes_field(64), algorithm_block, hash_xxhash, compression_none, fields[i], stop, bits});
        const auto read_after = sbbf<std::int32_t>::read(after.data(), after.size());
        CHECK(read_after.bitset() == bits);
        const std::vector<std::byte> before =
            concat({fields[i], bytes_of({0x05, 0x02}), varint(zigzag(64)), bytes_of({0x0c, 0x04}),
                    empty_union_member, hash_xxhash, compression_none, stop, bits});
        const auto read_before = sbbf<std::int32_t>::read(before.data(), before.size());
        CHECK(read_before.bitset() == bits);
    }
    SECTION("all of them at once, and inside the BLOCK, XXHASH and UNCOMPRESSED structs") {
        // Each union member holds an empty map (field 5) and an empty binary (field 6).
        std::vector<std::byte> input = num_bytes_field(64);
        for (int member = 0; member < 3; ++member) {
            input = concat({input, bytes_of({0x1c, 0x1c, 0x5b, 0x00, 0x18, 0x00, 0x00, 0x00})});
        }
        for (const auto& field : fields) {
            input = concat({input, field});
        }
        input = concat({input, stop, bits});
        const auto read = sbbf<std::int32_t>::read(input.data(), input.size());
        CHECK(read.bitset() == bits);
    }
}

TEST_CASE("parquet: the header's fields parse in any order", "[parquet][read]") {
    const std::vector<std::byte> bits = expected_bitset(96, {42, 0xdeadbeefcafef00dULL});
    // Long-form field headers: the type byte with delta 0, then the id as a zigzag i16 (id 4 -> 0x08).
    const std::vector<std::byte> reversed = concat(
        {bytes_of({0x0c, 0x08}), empty_union_member, bytes_of({0x0c, 0x06}), empty_union_member,
         bytes_of({0x0c, 0x04}), empty_union_member, bytes_of({0x05, 0x02}), varint(zigzag(96)), stop, bits});
    const auto read = sbbf<std::int64_t>::read(reversed.data(), reversed.size());
    CHECK(read.bitset() == bits);
    CHECK(read.num_bytes() == 96);
    // Mixed: hash (short form, delta 3), then numBytes (long form), then compression and algorithm.
    const std::vector<std::byte> mixed = concat({bytes_of({0x3c}), empty_union_member, bytes_of({0x05, 0x02}),
                                                 varint(zigzag(96)), bytes_of({0x3c}), empty_union_member,
                                                 bytes_of({0x0c, 0x04}), empty_union_member, stop, bits});
    CHECK(sbbf<std::int64_t>::read(mixed.data(), mixed.size()) == read);
    CHECK(sbbf<std::int64_t>::stored_size(mixed.data(), mixed.size()) == mixed.size());
}

TEST_CASE("parquet: malformed Thrift structure throws format_error", "[parquet][read]") {
    const std::vector<std::byte> start =
        concat({num_bytes_field(32), algorithm_block, hash_xxhash, compression_none});
    const std::vector<std::byte> bits(32);
    SECTION("unknown compact types") {
        require_format_error(concat({start, bytes_of({0x5e}), stop, bits}), "unknown compact type 14");
        require_format_error(concat({start, bytes_of({0x5f}), stop, bits}), "unknown compact type 15");
        require_format_error(concat({start, bytes_of({0x59, 0x10}), stop, bits}),
                             "unknown compact element type 0");
        require_format_error(concat({start, bytes_of({0x5b, 0x01, 0xe5}), stop, bits}),
                             "unknown compact element type 14");
    }
    SECTION("collections and binaries longer than the input") {
        require_format_error(
            concat({start, bytes_of({0x59, 0xf5, 0xff, 0xff, 0xff, 0xff, 0x07}), stop, bits}),
            "truncated header");
        require_format_error(concat({start, bytes_of({0x5b, 0xff, 0xff, 0xff, 0xff, 0x07, 0x55})}),
                             "truncated header");
        require_format_error(
            concat({start, bytes_of({0x58, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})}),
            "truncated header");
        // A binary that swallows the stop and the bitset.
        require_format_error(concat({start, bytes_of({0x58, 0x21}), stop, bits}), "truncated header");
    }
    SECTION("nesting beyond the depth limit") {
        std::vector<std::byte> deep = start;
        deep.push_back(std::byte{0x5c});
        for (int i = 0; i < 200; ++i) {
            deep.push_back(std::byte{0x1c});
        }
        deep.insert(deep.end(), 202, std::byte{0x00});
        require_format_error(concat({deep, bits}), "nest deeper than 64 levels");

        std::vector<std::byte> lists = start;
        lists.push_back(std::byte{0x59});
        for (int i = 0; i < 200; ++i) {
            lists.push_back(std::byte{0x19});
        }
        require_format_error(concat({lists, bits}), "nest deeper than 64 levels");

        std::vector<std::byte> shallow = start;
        shallow.push_back(std::byte{0x5c});
        for (int i = 0; i < 30; ++i) {
            shallow.push_back(std::byte{0x1c});
        }
        shallow.insert(shallow.end(), 32, std::byte{0x00});
        shallow.insert(shallow.end(), bits.begin(), bits.end());
        CHECK(sbbf<std::string>::read(shallow.data(), shallow.size()) == sbbf<std::string>(32));
    }
    SECTION("field ids past the i16 range") {
        require_format_error(concat({start, bytes_of({0x05, 0x80, 0x80, 0x04, 0x00}), stop, bits}),
                             "out of range");
        // Long form id 32767 (zigzag 65534), then a short-form delta 1 past it.
        require_format_error(
            concat({start, bytes_of({0x05, 0xfe, 0xff, 0x03, 0x00, 0x15, 0x00}), stop, bits}),
            "field id 32768 is out of range");
    }
}

TEST_CASE("parquet: random corruption never reads out of bounds", "[parquet][read]") {
    sbbf<std::string> filter(64);
    filter.insert("hello");
    const std::vector<std::byte> written = filter.write();
    bloom_test::splitmix64 random(20240601);
    int parsed = 0;
    for (int trial = 0; trial < 20'000; ++trial) {
        std::vector<std::byte> input = written;
        const std::uint64_t edits = 1 + random.next() % 4;
        for (std::uint64_t e = 0; e < edits; ++e) {
            const std::size_t at = static_cast<std::size_t>(random.next() % 20); // mostly the header
            if (at < input.size()) {
                input[at] = static_cast<std::byte>(random.next() & 0xff);
            }
        }
        input.resize(static_cast<std::size_t>(random.next() % (input.size() + 1)));
        try {
            const auto read = sbbf<std::string>::read(input.data(), input.size());
            CHECK(read.num_bytes() % 32 == 0);
            CHECK(read.num_bytes() <= input.size());
            ++parsed;
        } catch (const bloom::format_error&) {
        }
    }
    CHECK(parsed > 0);
}
