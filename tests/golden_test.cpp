// SPDX-License-Identifier: MIT
// Golden tests: the exact bits a filter sets, from an independent reimplementation of the documented
// probe scheme and block layout and from literal positions. A change to hashing, probing or the word
// layout fails here; such a change breaks every saved and exchanged filter, so it needs a new format
// version, not a new literal. The blocked filter's SIMD kernel must set exactly the scalar kernel's bits.
#include "catch.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <bloom/blocked_bloom_filter.hpp>
#include <bloom/bloom_filter.hpp>
#include <bloom/detail/block_kernels.hpp>
#include <bloom/detail/blocked_layout.hpp>
#include <bloom/detail/classic_kernels.hpp>
#include <bloom/hash.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

// ---- the documented scheme, written again from its description ----

using bloom_test::reference_fmix64;
using bloom_test::reference_multiply_high;
constexpr auto one_bit_per_word = bloom::probe_scheme::one_bit_per_word;

/// The k positions of an item whose 64-bit hash is `hash`, by the scheme of every new filter.
std::vector<std::uint64_t> positions(std::uint64_t hash, std::uint64_t bit_count, unsigned hash_count) {
    return bloom_test::mixed_positions(hash, bit_count, hash_count);
}

/// The words of a filter of `bit_count` bits after setting the probes of every hash in `hashes`:
/// bit i is bit i % 64 of word i / 64.
std::vector<std::uint64_t> expected_words(const std::vector<std::uint64_t>& hashes, std::uint64_t bit_count,
                                          unsigned hash_count,
                                          bloom::probe_scheme scheme = bloom::probe_scheme::mixed) {
    std::vector<std::uint64_t> words(static_cast<std::size_t>((bit_count + 63) / 64), 0);
    for (const std::uint64_t hash : hashes) {
        for (const std::uint64_t position : scheme == bloom::probe_scheme::mixed
                                                ? positions(hash, bit_count, hash_count)
                                                : bloom_test::legacy_positions(hash, bit_count, hash_count)) {
            words[static_cast<std::size_t>(position / 64)] |= std::uint64_t{1} << (position % 64);
        }
    }
    return words;
}

/// The words of a blocked filter of `block_count` 512-bit blocks after inserting items whose 64-bit hashes
/// are `hashes`: block (h * blocks) >> 64, pattern fmix64(h), and word i of the block gets bit
/// (pattern >> 6i) & 63.
std::vector<std::uint64_t> expected_blocked_words(const std::vector<std::uint64_t>& hashes,
                                                  std::uint64_t block_count) {
    std::vector<std::uint64_t> words(static_cast<std::size_t>(block_count * 8), 0);
    for (const std::uint64_t hash : hashes) {
        const std::uint64_t block = reference_multiply_high(hash, block_count);
        const std::uint64_t pattern = reference_fmix64(hash);
        for (unsigned i = 0; i < 8; ++i) {
            words[static_cast<std::size_t>(block * 8 + i)] |= std::uint64_t{1} << ((pattern >> (6 * i)) & 63);
        }
    }
    return words;
}

/// The block bit of probe i of an item with hash h under bits_anywhere, as docs/FORMAT.md states it: with
/// s = h mod 2^32 and t = s * 0x9e3779b9 mod 2^32, a = 2 (s mod 2^8) + 1, b = (s >> 8) mod 2^9,
/// d = (s >> 17) mod 2^9, c = 2 (t >> 24) + 1; x = ((a i + b) mod 512) xor d, x = x xor (x >> 4),
/// bit = c x mod 512.
std::uint64_t format_anywhere_bit(std::uint64_t hash, std::uint64_t i) {
    const std::uint64_t s = hash % (std::uint64_t{1} << 32);
    const std::uint64_t t = (s * 0x9e3779b9ULL) % (std::uint64_t{1} << 32);
    const std::uint64_t a = 2 * (s % 256) + 1;
    const std::uint64_t b = (s >> 8) % 512;
    const std::uint64_t d = (s >> 17) % 512;
    const std::uint64_t c = 2 * (t >> 24) + 1;
    std::uint64_t x = ((a * i + b) % 512) ^ d;
    x ^= x >> 4;
    return (c * x) % 512;
}

/// The words of a bits_anywhere blocked filter of `block_count` blocks after inserting items whose hashes
/// are `hashes`: block (h * blocks) >> 64, and for i < k block bit format_anywhere_bit(h, i), which is bit
/// b % 64 of the block's word b / 64.
std::vector<std::uint64_t> expected_anywhere_words(const std::vector<std::uint64_t>& hashes,
                                                   std::uint64_t block_count, unsigned hash_count) {
    std::vector<std::uint64_t> words(static_cast<std::size_t>(block_count * 8), 0);
    for (const std::uint64_t hash : hashes) {
        const std::uint64_t block = reference_multiply_high(hash, block_count);
        for (unsigned i = 0; i < hash_count; ++i) {
            const std::uint64_t bit = format_anywhere_bit(hash, i);
            words[static_cast<std::size_t>(block * 8 + bit / 64)] |= std::uint64_t{1} << (bit % 64);
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
    CHECK(reference_multiply_high(0, 12345) == 0);
    CHECK(reference_multiply_high(0xffffffffffffffffULL, 0xffffffffffffffffULL) == 0xfffffffffffffffeULL);
    CHECK(reference_multiply_high(std::uint64_t{1} << 63, 1000) == 500);
    CHECK(reference_multiply_high(0x8000000000000001ULL, 3) == 1);
    CHECK(reference_multiply_high(0x0123456789abcdefULL, 0xfedcba9876543210ULL) == 0x0121fa00ad77d742ULL);
}

TEST_CASE("hashes of fixed values are pinned", "[golden]") {
    // XXH3 with default_seed over the canonical bytes; a new xxHash or a new byte form changes them.
    CHECK(bloom::hash<std::string>{}("bloom", bloom::default_seed) == 0xd823c729c62bdf6eULL);
    CHECK(bloom::xxh3_hash<std::uint64_t>{}(std::uint64_t{42}, bloom::default_seed) == 0xec0686d61a0d7d3cULL);
    CHECK(bloom::hash<std::string>{}("", bloom::default_seed) == 0x2be6ab3881adbfcfULL);
    // The word path ("MUM2", docs/FORMAT.md), values computed from the documented formula with Python's
    // integers, not by this library.
    CHECK(bloom::hash<std::uint64_t>{}(std::uint64_t{42}, bloom::default_seed) == 0x34c3aa34c4ee406fULL);
    CHECK(bloom::hash<std::uint64_t>{}(std::uint64_t{0}, bloom::default_seed) == 0xf961f5b6f617f305ULL);
    CHECK(bloom::hash<int>{}(-1, bloom::default_seed) == 0xb19f6ce882e12591ULL);
    CHECK(bloom::hash<double>{}(1.5, bloom::default_seed) == 0xf3a5f5c6c1a6ebafULL);
    CHECK(bloom::hash<float>{}(1.5F, bloom::default_seed) == 0x3ccd98ef9a019921ULL);
}

TEST_CASE("literal bit positions are pinned", "[golden]") {
    SECTION("\"bloom\" in a {1000, 5} filter") {
        bloom::bloom_filter<std::string> filter(bloom::filter_geometry{1000, 5});
        filter.insert("bloom");
        CHECK(positions(0xd823c729c62bdf6eULL, 1000, 5) == std::vector<std::uint64_t>{62, 317, 34, 264, 611});
        CHECK(set_positions(filter) == std::vector<std::uint64_t>{34, 62, 264, 317, 611});
    }
    SECTION("std::uint64_t 42 in a {1000, 5} filter") {
        bloom::bloom_filter<std::uint64_t> filter(bloom::filter_geometry{1000, 5});
        filter.insert(std::uint64_t{42});
        CHECK(positions(0x34c3aa34c4ee406fULL, 1000, 5) ==
              std::vector<std::uint64_t>{576, 202, 557, 323, 198});
        CHECK(set_positions(filter) == std::vector<std::uint64_t>{198, 202, 323, 557, 576});
    }
    SECTION("std::uint64_t 42 in a {1000, 5} filter with the earlier integer hash") {
        bloom::bloom_filter<std::uint64_t, bloom::xxh3_hash<std::uint64_t>> filter(
            bloom::filter_geometry{1000, 5});
        filter.insert(std::uint64_t{42});
        CHECK(positions(0xec0686d61a0d7d3cULL, 1000, 5) ==
              std::vector<std::uint64_t>{149, 499, 901, 442, 296});
        CHECK(set_positions(filter) == std::vector<std::uint64_t>{149, 296, 442, 499, 901});
    }
    SECTION("the scheme of earlier files, for filters loaded from them") {
        constexpr auto legacy = bloom::probe_scheme::enhanced_double_hashing;
        bloom::bloom_filter<std::string> strings(bloom::filter_geometry{1000, 5, legacy});
        strings.insert("bloom");
        CHECK(bloom_test::legacy_positions(0xd823c729c62bdf6eULL, 1000, 5) ==
              std::vector<std::uint64_t>{844, 618, 10, 638, 121});
        CHECK(set_positions(strings) == std::vector<std::uint64_t>{10, 121, 618, 638, 844});
        bloom::bloom_filter<std::uint64_t> integers(bloom::filter_geometry{1000, 5, legacy});
        integers.insert(std::uint64_t{42});
        CHECK(set_positions(integers) == std::vector<std::uint64_t>{206, 362, 463, 975, 986});
        bloom::bloom_filter<std::uint64_t, bloom::xxh3_hash<std::uint64_t>> xxh3_integers(
            bloom::filter_geometry{1000, 5, legacy});
        xxh3_integers.insert(std::uint64_t{42});
        CHECK(set_positions(xxh3_integers) == std::vector<std::uint64_t>{23, 509, 699, 743, 921});
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
        integer_hashes.push_back(bloom_test::mum2_of_word(value, bloom::default_seed));
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
            hashes.push_back(bloom_test::mum2_of_word(value, s.seed));
        }
        CHECK(words_of(filter) == expected_words(hashes, s.bit_count, s.hash_count));

        constexpr auto legacy = bloom::probe_scheme::enhanced_double_hashing;
        bloom::bloom_filter<std::uint64_t> old(bloom::filter_geometry{s.bit_count, s.hash_count, legacy},
                                               s.seed);
        for (std::uint64_t i = 0; i < 200; ++i) {
            old.insert(bloom_test::splitmix64_mix(i));
        }
        CHECK(words_of(old) == expected_words(hashes, s.bit_count, s.hash_count, legacy));
    }
}

TEST_CASE("a hasher that does not avalanche is finished with fmix64(hash ^ fmix64(seed))", "[golden]") {
    for (const std::uint64_t seed : {bloom::default_seed, std::uint64_t{0}, std::uint64_t{99}}) {
        bloom::bloom_filter<std::uint64_t, raw_hasher> filter(bloom::filter_geometry{10'000, 6}, seed);
        std::vector<std::uint64_t> hashes;
        for (std::uint64_t value = 0; value < 100; ++value) {
            filter.insert(value);
            hashes.push_back(reference_fmix64(raw_hasher{}(value, seed) ^ reference_fmix64(seed)));
        }
        CHECK(words_of(filter) == expected_words(hashes, 10'000, 6));
    }
}

// ---- the blocked filter ----

TEST_CASE("the block kernel is the one the instruction set calls for", "[golden][blocked]") {
    const std::string kernel = bloom::detail::block_kernel_name();
#if defined(BLOOM_DISABLE_SIMD)
    CHECK(kernel == "scalar");
#elif defined(__AVX512F__)
    CHECK(kernel == "avx512");
#elif defined(__AVX2__)
    CHECK(kernel == "avx2");
#elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    // Built for plain x86-64: AVX-512 or AVX2 chosen at run time where the CPU has it.
    __builtin_cpu_init();
    CHECK(kernel == (__builtin_cpu_supports("avx512f") ? "avx512"
                     : __builtin_cpu_supports("avx2")  ? "avx2"
                                                       : "sse2"));
#elif defined(__SSE2__) || defined(_M_X64)
    CHECK(kernel == "sse2");
#elif defined(__ARM_NEON) && defined(__aarch64__)
    CHECK(kernel == "neon");
#else
    CHECK(kernel == "scalar");
#endif
}

TEST_CASE("the scalar block kernel sets the documented bits", "[golden][blocked]") {
    bloom_test::splitmix64 random(0x5ca1a4ULL);
    for (int trial = 0; trial < 1000; ++trial) {
        const std::uint64_t pattern = random.next();
        std::uint64_t block[8] = {};
        CHECK(bloom::detail::scalar_block_insert(block, pattern));
        for (unsigned i = 0; i < 8; ++i) {
            REQUIRE(block[i] == std::uint64_t{1} << ((pattern >> (6 * i)) & 63));
        }
        CHECK(bloom::detail::scalar_block_contains(block, pattern));
        CHECK_FALSE(bloom::detail::scalar_block_insert(block, pattern));
        // Bits 48-63 of the pattern are not used.
        CHECK(bloom::detail::scalar_block_contains(block, pattern ^ (random.next() << 48)));
    }
}

namespace {

using block_contains_kernel = bool (*)(const std::uint64_t*, std::uint64_t);
using block_insert_kernel = bool (*)(std::uint64_t*, std::uint64_t);

/// Every SIMD kernel this build holds and this CPU runs, by name: the one block_contains chooses, and in a
/// build for plain x86-64 the SSE2 kernel and the AVX2 and AVX-512 ones it picks from at run time.
std::vector<std::tuple<std::string, block_contains_kernel, block_insert_kernel>> compiled_block_kernels() {
    std::vector<std::tuple<std::string, block_contains_kernel, block_insert_kernel>> kernels;
    kernels.emplace_back(
        std::string("chosen: ") + bloom::detail::block_kernel_name(),
        [](const std::uint64_t* block, std::uint64_t pattern) {
            return bloom::detail::block_contains(block, pattern);
        },
        [](std::uint64_t* block, std::uint64_t pattern) {
            return bloom::detail::block_insert(block, pattern);
        });
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    kernels.emplace_back("sse2", &bloom::detail::sse2_block_contains, &bloom::detail::sse2_block_insert);
    if (bloom::detail::cpu_runs_avx2()) {
        kernels.emplace_back("avx2", &bloom::detail::avx2_block_contains, &bloom::detail::avx2_block_insert);
    }
    if (bloom::detail::cpu_runs_avx512()) {
        kernels.emplace_back("avx512", &bloom::detail::avx512_block_contains,
                             &bloom::detail::avx512_block_insert);
    }
#endif
    return kernels;
}

} // namespace

TEST_CASE("the compiled-in block kernels set and test exactly the scalar kernels' bits",
          "[golden][blocked]") {
    for (const auto& [name, kernel_contains, kernel_insert] : compiled_block_kernels()) {
        INFO("kernel " << name);
        bloom_test::splitmix64 random(0x6b65726eULL);
        // A word of one of five densities: empty, 1/8, 1/2 and 7/8 of its bits set, full.
        const auto random_word = [&random] {
            switch (random.next() % 5) {
            case 0:
                return std::uint64_t{0};
            case 1:
                return random.next() & random.next() & random.next();
            case 2:
                return random.next();
            case 3:
                return random.next() | random.next() | random.next();
            default:
                return ~std::uint64_t{0};
            }
        };
        // Blocks start on a cache line, as in the filter, or one word past it, as with an allocator that does
        // not align.
        alignas(64) std::uint64_t simd_storage[9];
        alignas(64) std::uint64_t scalar_storage[9];
        std::uint64_t mismatches = 0;
        std::uint64_t present = 0;
        std::string first_mismatch;
        const auto note_mismatch = [&](const char* what, std::uint64_t pattern, const std::uint64_t* block) {
            if (mismatches++ == 0) {
                first_mismatch = std::string(what) + ", pattern " + std::to_string(pattern) + ", block";
                for (unsigned i = 0; i < 8; ++i) {
                    first_mismatch += " " + std::to_string(block[i]);
                }
            }
        };
        for (int trial = 0; trial < 200'000; ++trial) {
            const std::size_t offset = static_cast<std::size_t>(trial % 2);
            std::uint64_t* const simd_block = simd_storage + offset;
            std::uint64_t* const scalar_block = scalar_storage + offset;
            std::uint64_t before[8];
            for (std::uint64_t& word : before) {
                word = random_word();
            }
            const std::uint64_t pattern = random.next();
            // A third of the trials hold all of the pattern's bits, or all but one: the hard cases for
            // contains.
            if (trial % 3 == 1) {
                bloom::detail::scalar_block_insert(before, pattern);
                if (random.next() % 2 == 0) {
                    const unsigned word = static_cast<unsigned>(random.next() % 8);
                    before[word] &= ~bloom::detail::block_word_mask(pattern, word);
                }
            }
            std::memcpy(simd_block, before, sizeof before);
            std::memcpy(scalar_block, before, sizeof before);

            const bool simd_contains = kernel_contains(simd_block, pattern);
            const bool scalar_contains = bloom::detail::scalar_block_contains(scalar_block, pattern);
            present += scalar_contains ? 1 : 0;
            if (simd_contains != scalar_contains) {
                note_mismatch("contains", pattern, before);
            }
            const bool simd_new = kernel_insert(simd_block, pattern);
            const bool scalar_new = bloom::detail::scalar_block_insert(scalar_block, pattern);
            if (simd_new != scalar_new || simd_new == scalar_contains ||
                std::memcmp(simd_block, scalar_block, sizeof before) != 0) {
                note_mismatch("insert", pattern, before);
            }
            if (!kernel_contains(simd_block, pattern)) {
                note_mismatch("contains after insert", pattern, before);
            }
        }
        INFO("first mismatch: " << first_mismatch);
        CHECK(mismatches == 0);
        // Both answers occur often: about a sixth of the trials hold the whole pattern.
        CHECK(present > 20'000);
        CHECK(present < 180'000);
    }
}

TEST_CASE("a blocked filter sets exactly the documented bits", "[golden][blocked]") {
    const std::vector<std::string> strings = {"bloom", "", "a", "https://www.example.com/",
                                              std::string(300, 'z')};
    bloom::blocked_bloom_filter<std::string> string_filter(
        bloom::filter_geometry{512 * 16, 8, one_bit_per_word});
    std::vector<std::uint64_t> string_hashes;
    for (const std::string& value : strings) {
        string_filter.insert(value);
        string_hashes.push_back(bloom_test::xxh3_of_string(value, bloom::default_seed));
    }
    CHECK(words_of(string_filter) == expected_blocked_words(string_hashes, 16));

    const std::vector<std::uint64_t> integers = {0, 1, 42, 0xffffffffffffffffULL, 0x0123456789abcdefULL};
    bloom::blocked_bloom_filter<std::uint64_t> integer_filter(
        bloom::filter_geometry{512 * 16, 8, one_bit_per_word});
    std::vector<std::uint64_t> integer_hashes;
    for (const std::uint64_t value : integers) {
        integer_filter.insert(value);
        integer_hashes.push_back(bloom_test::mum2_of_word(value, bloom::default_seed));
    }
    CHECK(words_of(integer_filter) == expected_blocked_words(integer_hashes, 16));
}

TEST_CASE("blocked filters of other sizes and seeds set exactly the documented bits", "[golden][blocked]") {
    struct shape {
        std::uint64_t block_count;
        std::uint64_t seed;
    };
    const shape shapes[] = {
        {1, bloom::default_seed}, {3, 7}, {1000, bloom::default_seed}, {19'726, 0}, {1 << 16, 12345}};
    for (const shape& s : shapes) {
        INFO("blocks " << s.block_count << ", seed " << s.seed);
        bloom::blocked_bloom_filter<std::uint64_t> filter(
            bloom::filter_geometry{s.block_count * 512, 8, one_bit_per_word}, s.seed);
        std::vector<std::uint64_t> hashes;
        for (std::uint64_t i = 0; i < 500; ++i) {
            const std::uint64_t value = bloom_test::splitmix64_mix(i);
            filter.insert(value);
            hashes.push_back(bloom_test::mum2_of_word(value, s.seed));
        }
        CHECK(words_of(filter) == expected_blocked_words(hashes, s.block_count));
    }
}

TEST_CASE("a blocked filter finishes a hasher that does not avalanche like the classic one",
          "[golden][blocked]") {
    for (const std::uint64_t seed : {bloom::default_seed, std::uint64_t{0}, std::uint64_t{99}}) {
        bloom::blocked_bloom_filter<std::uint64_t, raw_hasher> filter(
            bloom::filter_geometry{512 * 100, 8, one_bit_per_word}, seed);
        std::vector<std::uint64_t> hashes;
        for (std::uint64_t value = 0; value < 100; ++value) {
            filter.insert(value);
            hashes.push_back(reference_fmix64(raw_hasher{}(value, seed) ^ reference_fmix64(seed)));
        }
        CHECK(words_of(filter) == expected_blocked_words(hashes, 100));
    }
}

TEST_CASE("literal blocked bit positions are pinned", "[golden][blocked]") {
    SECTION("\"bloom\" in a 16-block filter: block 13") {
        bloom::blocked_bloom_filter<std::string> filter(
            bloom::filter_geometry{512 * 16, 8, one_bit_per_word});
        filter.insert("bloom");
        CHECK(reference_multiply_high(0xd823c729c62bdf6eULL, 16) == 13);
        CHECK(set_positions(filter) ==
              std::vector<std::uint64_t>{6703, 6755, 6827, 6849, 6968, 7036, 7058, 7133});
    }
    SECTION("std::uint64_t 42 in a 16-block filter: block 3") {
        bloom::blocked_bloom_filter<std::uint64_t> filter(
            bloom::filter_geometry{512 * 16, 8, one_bit_per_word});
        filter.insert(std::uint64_t{42});
        CHECK(reference_multiply_high(0x34c3aa34c4ee406fULL, 16) == 3);
        CHECK(set_positions(filter) ==
              std::vector<std::uint64_t>{1562, 1657, 1685, 1764, 1808, 1897, 1959, 2008});
    }
    SECTION("std::uint64_t 42 in a 16-block filter with the earlier integer hash: block 14") {
        bloom::blocked_bloom_filter<std::uint64_t, bloom::xxh3_hash<std::uint64_t>> filter(
            bloom::filter_geometry{512 * 16, 8, one_bit_per_word});
        filter.insert(std::uint64_t{42});
        CHECK(reference_multiply_high(0xec0686d61a0d7d3cULL, 16) == 14);
        CHECK(set_positions(filter) ==
              std::vector<std::uint64_t>{7175, 7277, 7299, 7394, 7461, 7518, 7604, 7637});
    }
}

TEST_CASE("bits_anywhere blocked filters set exactly the documented bits", "[golden][blocked]") {
    struct shape {
        std::uint64_t block_count;
        unsigned hash_count;
        std::uint64_t seed;
    };
    const shape shapes[] = {
        {1, 1, bloom::default_seed}, {3, 6, 7}, {16, 7, bloom::default_seed}, {1000, 8, 0}, {19'726, 9, 5},
        {1 << 16, 16, 12345}};
    for (const shape& s : shapes) {
        INFO("blocks " << s.block_count << ", k " << s.hash_count << ", seed " << s.seed);
        bloom::blocked_bloom_filter<std::uint64_t> filter(
            bloom::filter_geometry{s.block_count * 512, s.hash_count, bloom::probe_scheme::bits_anywhere},
            s.seed);
        bloom::blocked_bloom_filter<std::string> strings(
            bloom::filter_geometry{s.block_count * 512, s.hash_count}, s.seed);
        std::vector<std::uint64_t> hashes;
        std::vector<std::uint64_t> string_hashes;
        for (std::uint64_t i = 0; i < 500; ++i) {
            const std::uint64_t value = bloom_test::splitmix64_mix(i);
            filter.insert(value);
            hashes.push_back(bloom_test::mum2_of_word(value, s.seed));
            const std::string text = "item-" + std::to_string(i);
            strings.insert(text);
            string_hashes.push_back(bloom_test::xxh3_of_string(text, s.seed));
        }
        CHECK(words_of(filter) == expected_anywhere_words(hashes, s.block_count, s.hash_count));
        CHECK(words_of(strings) == expected_anywhere_words(string_hashes, s.block_count, s.hash_count));
    }
}

TEST_CASE("literal bits_anywhere positions are pinned", "[golden][blocked]") {
    // Computed by hand (Python) from the hashes pinned in hash_test and the formula of docs/FORMAT.md.
    SECTION("std::uint64_t 42 in a 16-block filter, k = 7: block 3") {
        bloom::blocked_bloom_filter<std::uint64_t> filter(bloom::filter_geometry{512 * 16, 7});
        filter.insert(std::uint64_t{42});
        CHECK(set_positions(filter) == std::vector<std::uint64_t>{1568, 1638, 1658, 1700, 1757, 1785, 1899});
    }
    SECTION("std::uint64_t 42 in a 16-block filter, k = 16: block 3") {
        bloom::blocked_bloom_filter<std::uint64_t> filter(bloom::filter_geometry{512 * 16, 16});
        filter.insert(std::uint64_t{42});
        CHECK(set_positions(filter) == std::vector<std::uint64_t>{1539, 1568, 1582, 1596, 1624, 1638, 1658,
                                                                  1700, 1714, 1729, 1757, 1785, 1823, 1899,
                                                                  1909, 1956});
    }
    SECTION("\"bloom\" in a 16-block filter, k = 7: block 13") {
        bloom::blocked_bloom_filter<std::string> filter(bloom::filter_geometry{512 * 16, 7});
        filter.insert("bloom");
        CHECK(set_positions(filter) == std::vector<std::uint64_t>{6810, 6903, 6929, 6955, 6964, 7118, 7141});
    }
}

TEST_CASE("every bits_anywhere kernel on this machine agrees with the scalar one", "[golden][blocked]") {
    using contains_kernel = bool (*)(const std::uint64_t*, std::uint64_t, unsigned);
    using insert_kernel = bool (*)(std::uint64_t*, std::uint64_t, unsigned);
    std::vector<std::tuple<const char*, contains_kernel, insert_kernel>> kernels = {
        {"chosen",
         [](const std::uint64_t* block, std::uint64_t hash, unsigned k) {
             return bloom::detail::anywhere_block_contains(block, hash, k);
         },
         [](std::uint64_t* block, std::uint64_t hash, unsigned k) {
             return bloom::detail::anywhere_block_insert(block, hash, k);
         }},
        {"chosen, bits broadcast from registers",
         [](const std::uint64_t* block, std::uint64_t hash, unsigned k) {
             return bloom::detail::anywhere_block_contains(block, hash, k);
         },
         [](std::uint64_t* block, std::uint64_t hash, unsigned k) {
             return bloom::detail::anywhere_block_insert<bloom::detail::bit_broadcast::from_registers>(
                 block, hash, k);
         }}};
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
#    if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    if (bloom::detail::cpu_runs_avx2())
#    endif
    {
        kernels.emplace_back(
            "avx2",
            [](const std::uint64_t* block, std::uint64_t hash, unsigned k) {
                return bloom::detail::avx2_anywhere_contains(block, hash, k);
            },
            [](std::uint64_t* block, std::uint64_t hash, unsigned k) {
                return bloom::detail::avx2_anywhere_insert(block, hash, k);
            });
    }
#endif
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512_AT_RUN_TIME)
    if (bloom::detail::cpu_runs_avx512()) {
        kernels.emplace_back(
            "avx512",
            [](const std::uint64_t* block, std::uint64_t hash, unsigned k) {
                return bloom::detail::avx512_anywhere_contains(block, hash, k);
            },
            [](std::uint64_t* block, std::uint64_t hash, unsigned k) {
                return bloom::detail::avx512_anywhere_insert(block, hash, k);
            });
        kernels.emplace_back(
            "avx512, bits broadcast from registers",
            [](const std::uint64_t* block, std::uint64_t hash, unsigned k) {
                return bloom::detail::avx512_anywhere_contains(block, hash, k);
            },
            [](std::uint64_t* block, std::uint64_t hash, unsigned k) {
                return bloom::detail::avx512_anywhere_insert<bloom::detail::bit_broadcast::from_registers>(
                    block, hash, k);
            });
    }
#endif
    for (const auto& [name, kernel_contains, kernel_insert] : kernels) {
        INFO("kernel " << name);
        bloom_test::splitmix64 random(0x616e7977ULL);
        alignas(64) std::uint64_t storage[9];
        alignas(64) std::uint64_t scalar_block[8];
        std::uint64_t mismatches = 0;
        std::uint64_t present = 0;
        for (int trial = 0; trial < 200'000; ++trial) {
            std::uint64_t* const block = storage + trial % 2; // on a cache line, or one word past it
            for (unsigned i = 0; i < 8; ++i) {
                // Mostly full words, so that long patterns are found as well as missed.
                block[i] = random.next() | random.next() | random.next();
                scalar_block[i] = block[i];
            }
            const std::uint64_t seed = random.next();
            const unsigned k = 1 + static_cast<unsigned>(trial % 16);
            const bool expected = bloom::detail::scalar_anywhere_contains(scalar_block, seed, k);
            present += expected ? 1 : 0;
            mismatches += kernel_contains(block, seed, k) != expected ? 1 : 0;
            const bool was_new = kernel_insert(block, seed, k);
            const bool scalar_was_new = bloom::detail::scalar_anywhere_insert(scalar_block, seed, k);
            mismatches += was_new != scalar_was_new || was_new == expected ? 1 : 0;
            mismatches += std::memcmp(block, scalar_block, sizeof scalar_block) != 0 ? 1 : 0;
            mismatches += kernel_contains(block, seed, k) ? 0 : 1;
        }
        CHECK(mismatches == 0);
        // Both answers occur often (a word is 7/8 full: k bits are all set with probability 0.875^k).
        CHECK(present > 40'000);
        CHECK(present < 160'000);
    }
}

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
namespace {

// What a blocked filter of `geometry` answers for `hashes`, inserted one by one and then looked up (the
// first half members, the second half not), by the kernel set `Kernels`, singly and as staged slots.
struct kernel_set_run {
    std::vector<std::uint64_t> words;
    std::vector<bool> answers; // insert's "was new", then lookup, lookup of a slot, for each hash
};

template <bloom::detail::kernel_set Kernels>
kernel_set_run run_blocked_steps(bloom::filter_geometry geometry, const std::vector<std::uint64_t>& hashes) {
    using layout = bloom::detail::blocked_layout;
    kernel_set_run run{std::vector<std::uint64_t>(layout::word_count(geometry)), {}};
    const std::size_t members = hashes.size() / 2;
    for (std::size_t i = 0; i < members; ++i) {
        // Alternately the single step and the staged one (bulk inserts past the cache).
        run.answers.push_back(
            i % 2 == 0 ? layout::insert<Kernels>(run.words.data(), geometry, hashes[i])
                       : layout::insert<Kernels>(run.words.data(), geometry, layout::bulk_slot{hashes[i]}));
    }
    for (const std::uint64_t hash : hashes) {
        run.answers.push_back(layout::lookup<Kernels>(run.words.data(), geometry.bit_count,
                                                      geometry.hash_count, geometry.probes, hash));
        run.answers.push_back(layout::contains<Kernels>(run.words.data(), geometry, layout::bulk_slot{hash}));
    }
    return run;
}

} // namespace

TEST_CASE("a loop compiled for each kernel set this CPU runs sets and tests the chosen kernels' bits",
          "[golden][blocked]") {
    // Builds for plain x86-64 compile bulk operations as a whole for the widest kernel set the CPU runs
    // (with_block_kernels); this runs every set the CPU has, not just the widest, through that path.
    bloom_test::splitmix64 random(0x6b65726eULL);
    std::vector<std::uint64_t> hashes(4'000);
    for (std::uint64_t& hash : hashes) {
        hash = random.next();
    }
    using bloom::detail::kernel_set;
    int sets_run = 0;
    for (const bloom::filter_geometry geometry :
         {bloom::filter_geometry{64 * 512, 8, bloom::probe_scheme::one_bit_per_word},
          bloom::filter_geometry{64 * 512, 3, bloom::probe_scheme::bits_anywhere},
          bloom::filter_geometry{64 * 512, 7, bloom::probe_scheme::bits_anywhere},
          bloom::filter_geometry{64 * 512, 16, bloom::probe_scheme::bits_anywhere}}) {
        INFO("k = " << geometry.hash_count);
        const kernel_set_run chosen = run_blocked_steps<kernel_set::chosen>(geometry, hashes);
        // Some answers of each kind, so that equal answers mean something.
        CHECK(std::count(chosen.answers.begin(), chosen.answers.end(), true) > 1'000);
        CHECK(std::count(chosen.answers.begin(), chosen.answers.end(), false) > 1'000);
        const auto in_set = [&](auto kernels) {
            return run_blocked_steps<decltype(kernels)::value>(geometry, hashes);
        };
        if (bloom::detail::cpu_runs_avx512()) {
            const kernel_set_run avx512 = bloom::detail::run_with_avx512_kernels(in_set);
            CHECK(avx512.words == chosen.words);
            CHECK(avx512.answers == chosen.answers);
            ++sets_run;
        }
        if (bloom::detail::cpu_runs_avx2()) {
            const kernel_set_run avx2 = bloom::detail::run_with_avx2_kernels(in_set);
            CHECK(avx2.words == chosen.words);
            CHECK(avx2.answers == chosen.answers);
            ++sets_run;
        }
    }
    if (sets_run == 0) {
        WARN("this CPU runs neither AVX2 nor AVX-512: only the chosen kernels ran");
    }
}
#endif

#if defined(BLOOM_DETAIL_HAS_CLASSIC_BATCH_KERNELS)
namespace {
/// One instruction set's classic batch kernels (detail/classic_kernels.hpp).
struct classic_batch_kernels {
    const char* name;
    void (*narrow_positions)(std::uint64_t, unsigned, const std::uint64_t*, std::uint64_t*);
    void (*wide_positions)(std::uint64_t, unsigned, const std::uint64_t*, std::uint64_t*);
    unsigned (*narrow_contains)(const std::uint64_t*, std::uint64_t, unsigned, const std::uint64_t*);
    unsigned (*positions_contain)(const std::uint64_t*, unsigned, const std::uint64_t*);
};

/// The batch kernels this build has and this CPU runs: AVX-512 where the compiler targets it, AVX2 where
/// it targets AVX2, and in a build for plain x86-64 each one the CPU has.
std::vector<classic_batch_kernels> classic_batch_kernel_sets() {
    std::vector<classic_batch_kernels> sets;
#    if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
#        if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512_AT_RUN_TIME)
    if (bloom::detail::cpu_runs_avx512())
#        endif
        sets.push_back({"avx512", &bloom::detail::avx512_mixed_positions<true>,
                        &bloom::detail::avx512_mixed_positions<false>,
                        &bloom::detail::avx512_mixed_contains<true, std::uint64_t>,
                        &bloom::detail::avx512_positions_contain<std::uint64_t>});
#    endif
#    if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
#        if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    if (bloom::detail::cpu_runs_avx2())
#        endif
        sets.push_back({"avx2", &bloom::detail::avx2_mixed_positions<true>,
                        &bloom::detail::avx2_mixed_positions<false>,
                        &bloom::detail::avx2_mixed_contains<true>, &bloom::detail::avx2_positions_contain});
#    endif
    if (sets.empty()) {
        WARN("this CPU has neither AVX-512 nor AVX2: the classic batch kernels did not run");
    }
    return sets;
}
} // namespace

TEST_CASE("the classic batch kernels place eight items' probes where the mixed scheme does",
          "[golden][classic]") {
    constexpr unsigned batch = bloom::detail::classic_batch_items;
    constexpr unsigned probes = bloom::detail::max_block_hash_count; // a batch slot's most
    for (const classic_batch_kernels& kernels : classic_batch_kernel_sets()) {
        INFO(kernels.name);
        bloom_test::splitmix64 random(0x62617463ULL);
        // Narrow ranges (below 2^32: two 32-bit products) and wide ones (four), at the boundary and far
        // past it.
        for (const std::uint64_t bit_count :
             {std::uint64_t{1}, std::uint64_t{64}, std::uint64_t{1000}, std::uint64_t{9'585'059},
              std::uint64_t{0xffffffff}, std::uint64_t{1} << 32, (std::uint64_t{1} << 32) + 1,
              (std::uint64_t{3} << 33) + 12345, (std::uint64_t{1} << 63) + 5, ~std::uint64_t{0}}) {
            INFO(bit_count << " bits");
            const bool narrow = bit_count <= 0xffffffff;
            std::size_t mismatches = 0;
            for (int round = 0; round < 500; ++round) {
                std::uint64_t hashes[batch];
                for (std::uint64_t& hash : hashes) {
                    hash = random.next();
                }
                std::uint64_t positions[probes * batch];
                (narrow ? kernels.narrow_positions : kernels.wide_positions)(bit_count, probes, hashes,
                                                                             positions);
                for (unsigned item = 0; item < batch; ++item) {
                    bloom::detail::mixed_probes expected(hashes[item]);
                    for (unsigned i = 0; i < probes; ++i) {
                        mismatches += positions[batch * i + item] != expected.next(bit_count) ? 1 : 0;
                    }
                }
            }
            CHECK(mismatches == 0);
        }
    }
}

TEST_CASE("the classic batch lookup answers eight items as the scalar lookup does, plain and shared words",
          "[golden][classic]") {
    constexpr unsigned batch = bloom::detail::classic_batch_items;
    for (const classic_batch_kernels& kernels : classic_batch_kernel_sets()) {
        INFO(kernels.name);
        bloom_test::splitmix64 random(0x6c6f6f6bULL);
        // About half the bits set: each probe fails half the time, so answers of both kinds come at every k.
        constexpr std::uint64_t bit_count = 10'007;
        std::vector<std::uint64_t> words((bit_count + 63) / 64);
        for (std::uint64_t& word : words) {
            word = random.next() | random.next();
        }
        const std::unique_ptr<bloom::detail::atomic_word[]> shared_words(
            new bloom::detail::atomic_word[words.size()]);
        for (std::size_t i = 0; i < words.size(); ++i) {
            shared_words[i].store(words[i], std::memory_order_relaxed);
        }
        const bool avx512 = std::string(kernels.name) == "avx512";
        for (const unsigned hash_count : {1U, 2U, 7U, 16U}) {
            INFO("k = " << hash_count);
            std::size_t mismatches = 0;
            std::size_t found = 0;
            for (int round = 0; round < 2'000; ++round) {
                std::uint64_t hashes[batch];
                for (std::uint64_t& hash : hashes) {
                    hash = random.next();
                }
                const unsigned answers = kernels.narrow_contains(words.data(), bit_count, hash_count, hashes);
                std::uint64_t positions[bloom::detail::max_block_hash_count * batch];
                kernels.narrow_positions(bit_count, hash_count, hashes, positions);
                const unsigned staged_answers =
                    kernels.positions_contain(words.data(), hash_count, positions);
                unsigned shared_answers = answers;
                unsigned shared_staged_answers = answers;
#    if defined(BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS) && defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
                if (avx512) {
                    // A concurrent filter's words: the gathers written as assembly.
                    shared_answers = bloom::detail::avx512_mixed_contains<true>(shared_words.get(), bit_count,
                                                                                hash_count, hashes);
                    shared_staged_answers =
                        bloom::detail::avx512_positions_contain(shared_words.get(), hash_count, positions);
                }
#    else
                (void)avx512;
#    endif
                for (unsigned item = 0; item < batch; ++item) {
                    const bool expected = bloom::detail::classic_contains(
                        words.data(), bit_count, hash_count, bloom::probe_scheme::mixed, hashes[item]);
                    mismatches += (((answers >> item) & 1U) != 0) != expected ? 1 : 0;
                    mismatches += (((staged_answers >> item) & 1U) != 0) != expected ? 1 : 0;
                    mismatches += (((shared_answers >> item) & 1U) != 0) != expected ? 1 : 0;
                    mismatches += (((shared_staged_answers >> item) & 1U) != 0) != expected ? 1 : 0;
                    found += expected ? 1 : 0;
                }
            }
            CHECK(mismatches == 0);
            CHECK(found > 100);
            CHECK(found < 16'000 - 100);
        }
    }
}
#endif

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
namespace {
// A classic filter of `geometry` by the range forms' batch steps of the kernel set `Kernels`: `inserts`
// inserted by staged batches (answers: "was new"), then every hash of `lookups` looked up by
// contains_by_batches.
template <bloom::detail::kernel_set Kernels>
kernel_set_run run_classic_batches(bloom::filter_geometry geometry, const std::vector<std::uint64_t>& inserts,
                                   const std::vector<std::uint64_t>& lookups) {
    using layout = bloom::detail::classic_layout;
    constexpr std::size_t batch = bloom::detail::classic_batch_items;
    kernel_set_run run{std::vector<std::uint64_t>(layout::word_count(geometry)), {}};
    for (std::size_t first = 0; first < inserts.size(); first += batch) {
        const std::size_t count = std::min(batch, inserts.size() - first);
        std::uint64_t hashes[batch] = {};
        std::copy(inserts.begin() + static_cast<std::ptrdiff_t>(first),
                  inserts.begin() + static_cast<std::ptrdiff_t>(first + count), hashes);
        layout::batch_slot slot;
        layout::stage_batch<Kernels, false, true>(run.words.data(), geometry, hashes, count, slot);
        for (std::size_t item = 0; item < count; ++item) {
            run.answers.push_back(layout::insert(run.words.data(), geometry, slot, item));
        }
    }
    const auto identity = [](std::uint64_t hash) { return hash; };
    std::vector<bool> answers;
    layout::contains_by_batches<Kernels>(static_cast<const std::uint64_t*>(run.words.data()), geometry,
                                         lookups.begin(), lookups.end(), identity,
                                         std::back_inserter(answers));
    run.answers.insert(run.answers.end(), answers.begin(), answers.end());
    return run;
}
} // namespace

TEST_CASE("a classic filter's batches by each kernel set this CPU runs set and find the bits of single steps",
          "[golden][classic]") {
    // A build for plain x86-64 runs the classic range forms by the AVX-512 batch kernels on CPUs with
    // AVX-512 and by the AVX2 ones on CPUs with AVX2 only; this runs both wherever the CPU has them.
    using bloom::detail::kernel_set;
    using layout = bloom::detail::classic_layout;
    bloom_test::splitmix64 random(0x62617463ULL);
    std::vector<std::uint64_t> inserts(3'001); // a last batch of one
    for (std::uint64_t& hash : inserts) {
        hash = random.next();
    }
    std::vector<std::uint64_t> lookups(inserts.begin(), inserts.begin() + 1'500);
    for (int i = 0; i < 1'503; ++i) {
        lookups.push_back(random.next());
    }
    // In the cache (answered as hashed) and past it (staged and prefetched). Positions of 2^32 bits and more
    // (a 512 MiB filter) are checked against the scalar ones above.
    for (const bloom::filter_geometry geometry :
         {bloom::filter_geometry{30'011, 7, bloom::probe_scheme::mixed},
          bloom::filter_geometry{layout::prefetch_from_bits + 4'099, 3, bloom::probe_scheme::mixed},
          bloom::filter_geometry{layout::prefetch_from_bits + 64, 16, bloom::probe_scheme::mixed}}) {
        INFO(geometry.bit_count << " bits, k = " << geometry.hash_count);
        // The expected bits and answers: the single steps.
        kernel_set_run single{std::vector<std::uint64_t>(layout::word_count(geometry)), {}};
        for (const std::uint64_t hash : inserts) {
            single.answers.push_back(layout::insert(single.words.data(), geometry, hash));
        }
        for (const std::uint64_t hash : lookups) {
            single.answers.push_back(layout::contains(single.words.data(), geometry, hash));
        }
        const auto in_set = [&](auto kernels) {
            return run_classic_batches<decltype(kernels)::value>(geometry, inserts, lookups);
        };
        if (bloom::detail::cpu_runs_avx512()) {
            const kernel_set_run avx512 = bloom::detail::run_with_avx512_kernels(in_set);
            CHECK(avx512.words == single.words);
            CHECK(avx512.answers == single.answers);
        }
        if (bloom::detail::cpu_runs_avx2()) {
            const kernel_set_run avx2 = bloom::detail::run_with_avx2_kernels(in_set);
            CHECK(avx2.words == single.words);
            CHECK(avx2.answers == single.answers);
        } else {
            WARN("this CPU has no AVX2: the classic batch kernels did not run");
        }
    }
}
#endif
