// SPDX-License-Identifier: MIT
// Saving and loading (<bloom/serialization.hpp>): round trips of every filter kind and key type through
// every entry point, the record's bytes against docs/FORMAT.md read independently, the byte-order
// independence of the file, the golden files under tests/data/, and malformed input of every kind.
#include "catch.hpp"
#include "test_support.hpp"

#include <bloom/bloom.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ios>
#include <istream>
#include <iterator>
#include <limits>
#include <numeric>
#include <ostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#if __cplusplus >= 202002L && __has_include(<span>)
#    include <span>
#endif

namespace {

using bloom_test::key;

// ---- reading the format independently of the library, from docs/FORMAT.md ----

std::uint64_t le(const std::vector<std::byte>& bytes, std::size_t offset, std::size_t size) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < size; ++i) {
        value |= std::to_integer<std::uint64_t>(bytes[offset + i]) << (8 * i);
    }
    return value;
}

void put_le(std::vector<std::byte>& bytes, std::size_t offset, std::uint64_t value, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
        bytes[offset + i] = static_cast<std::byte>((value >> (8 * i)) & 0xff);
    }
}

std::uint64_t xxh3(const std::vector<std::byte>& bytes, std::size_t offset, std::size_t size) {
    return XXH3_64bits(bytes.data() + offset, size);
}

/// Re-seals a hand-edited record: recomputes the header checksum and the record checksum, so that a test
/// reaches the check behind them.
void reseal(std::vector<std::byte>& bytes) {
    put_le(bytes, 72, xxh3(bytes, 0, 72), 8);
    const std::size_t covered = bytes.size() - 8;
    put_le(bytes, covered, xxh3(bytes, 0, covered), 8);
}

/// The offsets of a scalable record's stages: its payload opens with 24 bytes of parameters (the stage count
/// at record offset 144), then each stage is a complete record of 136 + payload_bytes bytes.
std::vector<std::size_t> stage_offsets(const std::vector<std::byte>& bytes) {
    std::vector<std::size_t> offsets;
    std::size_t at = 128 + 24;
    for (std::uint64_t i = 0; i < le(bytes, 144, 8); ++i) {
        offsets.push_back(at);
        at += 136 + static_cast<std::size_t>(le(bytes, at + 64, 8));
    }
    return offsets;
}

/// reseal for a hand-edited scalable record: each stage's two checksums, then the record's own.
void reseal_scalable(std::vector<std::byte>& bytes) {
    for (const std::size_t at : stage_offsets(bytes)) {
        put_le(bytes, at + 72, xxh3(bytes, at, 72), 8);
        const std::size_t covered = 128 + static_cast<std::size_t>(le(bytes, at + 64, 8));
        put_le(bytes, at + covered, xxh3(bytes, at, covered), 8);
    }
    reseal(bytes);
}

std::uint64_t double_bits(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

using bloom_test::read_file_bytes;

using bloom_test::scratch_directory;

template <class Call>
std::string format_error_of(Call&& call) {
    try {
        call();
    } catch (const bloom::format_error& error) {
        return error.what();
    }
    FAIL("expected bloom::format_error");
    return {};
}

// ---- the filters under test, filled the same way ----

template <class Filter>
Filter make_filled(std::uint64_t items) {
    Filter filter(items, 0.01, 0x1234567890abcdefULL);
    bloom_test::insert_keys(filter, 0, items);
    return filter;
}

template <class T>
bloom::scalable_bloom_filter<T> make_scalable(std::uint64_t items) {
    bloom::scalable_bloom_filter<T> filter(items / 20 + 1, 0.01,
                                           bloom::scalable_options{}.with_seed(0x1234567890abcdefULL));
    bloom_test::insert_keys(filter, 0, items);
    return filter;
}

/// Both filters answer every key of [0, 2 * items) alike and hold the same counts and parameters.
template <class Filter, class Other>
void require_same_answers(const Filter& original, const Other& loaded, std::uint64_t items) {
    CHECK(bloom_test::count_disagreements(original, loaded, 0, 2 * items) == 0);
    CHECK(loaded.item_count() == original.item_count());
    CHECK(loaded.seed() == original.seed());
    CHECK(loaded.target_false_positive_rate() == original.target_false_positive_rate());
}

template <class Filter>
void require_round_trips(const Filter& original, std::uint64_t items) {
    const std::vector<std::byte> bytes = bloom::to_bytes(original);

    const Filter from_bytes = bloom::from_bytes<Filter>(bytes.data(), bytes.size());
    require_same_answers(original, from_bytes, items);
    CHECK(bloom::to_bytes(from_bytes) == bytes);

    std::stringstream stream;
    bloom::save(original, stream);
    CHECK(stream.str().size() == bytes.size());
    const Filter from_stream = bloom::load<Filter>(stream);
    CHECK(bloom::to_bytes(from_stream) == bytes);

    scratch_directory directory;
    const auto path = directory.path() / "filter.bloom";
    bloom::save_file(original, path);
    CHECK(read_file_bytes(path) == bytes);
    const Filter from_file = bloom::load_file<Filter>(path);
    require_same_answers(original, from_file, items);
    CHECK(directory.entry_count() == 1); // no temporary file left behind
}

} // namespace

TEMPLATE_TEST_CASE("every bit-array filter kind round-trips through bytes, streams and files",
                   "[serialization]", std::uint64_t, std::string) {
    constexpr std::uint64_t items = 3000;
    SECTION("classic") { require_round_trips(make_filled<bloom::bloom_filter<TestType>>(items), items); }
    SECTION("blocked") {
        require_round_trips(make_filled<bloom::blocked_bloom_filter<TestType>>(items), items);
    }
    SECTION("counting, 4-bit counters") {
        auto filter = make_filled<bloom::counting_bloom_filter<TestType, 4>>(items);
        REQUIRE(filter.remove(key<TestType>(7)));
        require_round_trips(filter, items);
        const auto loaded = bloom::from_bytes<decltype(filter)>(bloom::to_bytes(filter).data(),
                                                                bloom::to_bytes(filter).size());
        CHECK(loaded == filter);
        CHECK(loaded.count(key<TestType>(8)) == filter.count(key<TestType>(8)));
    }
    SECTION("counting, 8- and 16-bit counters") {
        require_round_trips(make_filled<bloom::counting_bloom_filter<TestType, 8>>(items), items);
        require_round_trips(make_filled<bloom::counting_bloom_filter<TestType, 16>>(items), items);
    }
    SECTION("an empty filter and a one-bit filter") {
        require_round_trips(bloom::bloom_filter<TestType>(1, 0.5), 10);
        require_round_trips(bloom::bloom_filter<TestType>(bloom::filter_geometry{1, 1}), 10);
        require_round_trips(bloom::bloom_filter<TestType>(bloom::filter_geometry{65, 3}), 10);
    }
}

TEMPLATE_TEST_CASE("a scalable filter round-trips with all its stages", "[serialization]", std::uint64_t,
                   std::string) {
    constexpr std::uint64_t items = 5000;
    const auto original = make_scalable<TestType>(items);
    REQUIRE(original.stage_count() >= 4);
    require_round_trips(original, items);
    auto loaded = bloom::from_bytes<bloom::scalable_bloom_filter<TestType>>(bloom::to_bytes(original).data(),
                                                                            bloom::to_bytes(original).size());
    REQUIRE(loaded.stage_count() == original.stage_count());
    for (std::size_t i = 0; i < original.stage_count(); ++i) {
        CHECK(loaded.stage(i) == original.stage(i));
        CHECK(loaded.stage(i).expected_items() == original.stage(i).expected_items());
    }
    CHECK(loaded.growth_factor() == original.growth_factor());
    CHECK(loaded.tightening_ratio() == original.tightening_ratio());
    CHECK(loaded.initial_capacity() == original.initial_capacity());
    // It keeps growing where the original left off.
    auto grown = original;
    bloom_test::insert_keys(grown, items, 4 * items);
    bloom_test::insert_keys(loaded, items, 4 * items);
    CHECK(bloom::to_bytes(loaded) == bloom::to_bytes(grown));
}

namespace {

/// Saves `filter` to a file, moves it away, and checks that every way to save the moved-from shell is
/// refused before it writes anything: the file keeps its bytes and no temporary file is left.
template <class Filter>
void require_moved_from_refused(Filter& filter) {
    scratch_directory directory;
    const auto path = directory.path() / "filter.bloom";
    bloom::save_file(filter, path);
    const auto before = read_file_bytes(path);
    const Filter taken(std::move(filter));
    // NOLINTBEGIN(bugprone-use-after-move): the moved-from state is what is saved.
    bloom_test::require_invalid_argument([&] { bloom::save_file(filter, path); },
                                         {"bloom::save_file", "moved-from"});
    CHECK(read_file_bytes(path) == before);
    CHECK(directory.entry_count() == 1);
    bloom_test::require_invalid_argument([&] { (void)bloom::to_bytes(filter); },
                                         {"bloom::to_bytes", "moved-from"});
    std::stringstream stream;
    bloom_test::require_invalid_argument([&] { bloom::save(filter, stream); }, {"bloom::save", "moved-from"});
    CHECK(stream.str().empty());
    // NOLINTEND(bugprone-use-after-move)
    CHECK(bloom::to_bytes(taken) == before);
}

} // namespace

TEST_CASE("a moved-from filter of any kind is refused by save_file, save and to_bytes", "[serialization]") {
    SECTION("classic") {
        auto filter = make_filled<bloom::bloom_filter<std::string>>(100);
        require_moved_from_refused(filter);
    }
    SECTION("blocked") {
        auto filter = make_filled<bloom::blocked_bloom_filter<std::uint64_t>>(100);
        require_moved_from_refused(filter);
    }
    SECTION("counting") {
        auto filter = make_filled<bloom::counting_bloom_filter<std::string>>(100);
        require_moved_from_refused(filter);
    }
    SECTION("scalable") {
        // Its moved-from state has no stage; a record without one is refused by the loader (nothing in it
        // backs the size of the first stage an insert would add).
        auto filter = make_scalable<std::uint64_t>(300);
        require_moved_from_refused(filter);
    }
    SECTION("concurrent, classic and blocked") {
        auto classic = make_filled<bloom::concurrent_bloom_filter<std::string>>(100);
        require_moved_from_refused(classic);
        auto blocked = make_filled<bloom::concurrent_blocked_bloom_filter<std::uint64_t>>(100);
        require_moved_from_refused(blocked);
    }
}

TEST_CASE("concurrent filters save as snapshots of their plain layout and load back", "[serialization]") {
    bloom::concurrent_bloom_filter<std::uint64_t> classic(2000, 0.01);
    bloom::concurrent_blocked_bloom_filter<std::uint64_t> blocked(2000, 0.01);
    bloom_test::insert_keys(classic, 0, 2000);
    bloom_test::insert_keys(blocked, 0, 2000);
    CHECK(bloom::to_bytes(classic) == bloom::to_bytes(classic.to_plain()));
    CHECK(bloom::to_bytes(blocked) == bloom::to_bytes(blocked.to_plain()));
    const auto bytes = bloom::to_bytes(blocked);
    const auto loaded =
        bloom::from_bytes<bloom::concurrent_blocked_bloom_filter<std::uint64_t>>(bytes.data(), bytes.size());
    CHECK(loaded.to_plain() == blocked.to_plain());
    const auto plain =
        bloom::from_bytes<bloom::blocked_bloom_filter<std::uint64_t>>(bytes.data(), bytes.size());
    CHECK(plain == blocked.to_plain());
}

TEST_CASE("records follow one another in a stream", "[serialization]") {
    const auto first = make_filled<bloom::bloom_filter<std::string>>(100);
    const auto second = make_filled<bloom::blocked_bloom_filter<std::uint64_t>>(200);
    std::stringstream stream;
    bloom::save(first, stream);
    bloom::save(second, stream);
    CHECK(bloom::load<bloom::bloom_filter<std::string>>(stream) == first);
    CHECK(bloom::load<bloom::blocked_bloom_filter<std::uint64_t>>(stream) == second);
    CHECK(stream.peek() == std::char_traits<char>::eof());
}

TEST_CASE("a record's bytes are those docs/FORMAT.md describes", "[serialization][format]") {
    bloom::bloom_filter<std::string> filter(100, 0.01, 0x0102030405060708ULL);
    bloom_test::insert_keys(filter, 0, 60);
    const std::vector<std::byte> bytes = bloom::to_bytes(filter);
    const std::size_t words = (filter.bit_count() + 63) / 64;
    REQUIRE(bytes.size() == 128 + 8 * words + 8);

    const unsigned char magic[8] = {0x89, 'B', 'L', 'O', 'O', 'M', '\r', '\n'};
    CHECK(std::memcmp(bytes.data(), magic, 8) == 0);
    CHECK(le(bytes, 8, 2) == 1);                      // format version
    CHECK(le(bytes, 10, 1) == 1);                     // kind: classic
    CHECK(le(bytes, 11, 1) == 0);                     // counter bits
    CHECK(le(bytes, 12, 4) == filter.hash_count());   // k
    CHECK(le(bytes, 16, 8) == 0x5858483300000001ULL); // hasher id: "XXH3", strings
    CHECK(le(bytes, 24, 8) == 0x0102030405060708ULL); // seed
    CHECK(le(bytes, 32, 8) == filter.bit_count());    // m
    CHECK(le(bytes, 40, 8) == 100);                   // expected items
    CHECK(le(bytes, 48, 8) == double_bits(0.01));     // target rate, IEEE-754 binary64
    CHECK(le(bytes, 56, 8) == filter.item_count());   // items
    CHECK(le(bytes, 64, 8) == 8 * words);             // payload bytes
    CHECK(le(bytes, 72, 8) == xxh3(bytes, 0, 72));    // header checksum
    CHECK(le(bytes, 80, 1) == 1);                     // probe scheme: mixed
    for (std::size_t i = 81; i < 128; ++i) {          // reserved
        CHECK(std::to_integer<int>(bytes[i]) == 0);
    }
    for (std::size_t i = 0; i < words; ++i) {
        CHECK(le(bytes, 128 + 8 * i, 8) == filter.data()[i]); // words, little-endian
    }
    const std::size_t covered = 128 + 8 * words;
    CHECK(le(bytes, covered, 8) == xxh3(bytes, 0, covered)); // record checksum

    SECTION("the kind, counter width and hasher id of the other kinds") {
        const bloom::blocked_bloom_filter<std::uint64_t> blocked_filter(100, 0.01);
        const auto blocked = bloom::to_bytes(blocked_filter);
        CHECK(le(blocked, 10, 1) == 2);
        CHECK(le(blocked, 12, 4) == blocked_filter.hash_count());
        CHECK(le(blocked, 80, 1) == 1); // bits_anywhere
        const auto original = bloom::to_bytes(bloom::blocked_bloom_filter<std::uint64_t>(
            bloom::filter_geometry{1024, 8, bloom::probe_scheme::one_bit_per_word}));
        CHECK(le(original, 12, 4) == 8);
        CHECK(le(original, 80, 1) == 0);                    // one_bit_per_word, as in every earlier file
        CHECK(le(blocked, 16, 8) == 0x4d554d3200000108ULL); // "MUM2", integers widened to 8 bytes
        const auto xxh3_blocked = bloom::to_bytes(
            bloom::blocked_bloom_filter<std::uint64_t, bloom::xxh3_hash<std::uint64_t>>(100, 0.01));
        CHECK(le(xxh3_blocked, 16, 8) == 0x5858483300000108ULL); // "XXH3", the same family
        const auto counting = bloom::to_bytes(bloom::counting_bloom_filter<int, 8>(100, 0.01));
        CHECK(le(counting, 10, 1) == 3);
        CHECK(le(counting, 11, 1) == 8);
        const auto scalable =
            bloom::to_bytes(bloom::scalable_bloom_filter<double>(100, 0.01, {3.0, 0.25, 7}));
        CHECK(le(scalable, 10, 1) == 4);
        CHECK(le(scalable, 16, 8) == 0x4d554d3200000208ULL); // double
        CHECK(le(scalable, 128, 8) == double_bits(3.0));     // growth factor
        CHECK(le(scalable, 136, 8) == double_bits(0.25));    // tightening ratio
        CHECK(le(scalable, 144, 8) == 1);                    // stages
        CHECK(le(scalable, 152 + 10, 1) == 1);               // stage 0: a classic record
    }
}

TEST_CASE("the file bytes do not depend on the host's byte order", "[serialization][format]") {
    // A big-endian host holds each word's bytes reversed. Reverse them here and tell the writer the words
    // are big-endian: it runs the code a big-endian host runs, and must produce the same file.
    auto filter = make_filled<bloom::counting_bloom_filter<std::uint64_t, 4>>(500);
    const std::vector<std::byte> native = bloom::to_bytes(filter);
    auto flipped = filter;
    std::uint64_t* words = bloom::detail::filter_access::words(flipped);
    for (std::size_t i = 0; i < flipped.word_count(); ++i) {
        words[i] = bloom::detail::byte_swap(words[i]);
    }
    std::vector<std::byte> from_big_endian;
    const auto sink = [&](const unsigned char* data, std::size_t size) {
        const auto* first = reinterpret_cast<const std::byte*>(data);
        from_big_endian.insert(from_big_endian.end(), first, first + size);
    };
    bloom::detail::write_record(sink, flipped, bloom::detail::word_order::big);
    CHECK(from_big_endian == native);

    // And reading the file as a big-endian host gives it back its reversed words.
    using filter_type = decltype(filter);
    const filter_type read_big = bloom::detail::read_record<filter_type>(
        reinterpret_cast<const unsigned char*>(native.data()), native.size(), {}, {},
        bloom::detail::word_order::big, "test");
    REQUIRE(read_big.word_count() == flipped.word_count());
    CHECK(std::memcmp(read_big.data(), flipped.data(), 8 * flipped.word_count()) == 0);
}

// ---- golden files: the format cannot change by accident ----

namespace {

const std::filesystem::path data_directory = BLOOM_TEST_DATA_DIR;

std::string golden_key(int index) { return "golden-" + std::to_string(index); }

// Filters of the probe scheme of earlier files (classic_string, counting8_string, scalable_u64, written
// before probe_scheme::mixed) are rebuilt from the loaded shape; the *_mixed files pin today's filters.
bloom::bloom_filter<std::string> golden_classic(bloom::filter_geometry shape = {}) {
    bloom::bloom_filter<std::string> filter = shape.bit_count == 0
                                                  ? bloom::bloom_filter<std::string>(100, 0.01)
                                                  : bloom::bloom_filter<std::string>(shape);
    for (int i = 0; i < 100; ++i) {
        filter.insert(golden_key(i));
    }
    return filter;
}

// Integer filters of earlier files (blocked_u64, scalable_u64, scalable_u64_mixed, written before the
// integer path of bloom::hash) load through bloom::xxh3_hash; the *_mum2 files pin today's default hasher.
template <class Hasher = bloom::hash<std::uint64_t>>
bloom::blocked_bloom_filter<std::uint64_t, Hasher> golden_blocked(bloom::filter_geometry shape = {}) {
    bloom::blocked_bloom_filter<std::uint64_t, Hasher> filter =
        shape.bit_count == 0 ? bloom::blocked_bloom_filter<std::uint64_t, Hasher>(100, 0.01, 42)
                             : bloom::blocked_bloom_filter<std::uint64_t, Hasher>(shape, 42);
    for (std::uint64_t i = 0; i < 100; ++i) {
        filter.insert(i * 1000);
    }
    return filter;
}

using golden_counting_type = bloom::counting_bloom_filter<std::string, 8>;
golden_counting_type golden_counting(bloom::filter_geometry shape = {}) {
    golden_counting_type filter =
        shape.bit_count == 0 ? golden_counting_type(50, 0.01) : golden_counting_type(shape);
    for (int i = 0; i < 50; ++i) {
        filter.insert(golden_key(i));
    }
    filter.insert(golden_key(0));
    filter.insert(golden_key(0));
    filter.remove(golden_key(1));
    return filter;
}

template <class Hasher = bloom::hash<std::uint64_t>>
bloom::scalable_bloom_filter<std::uint64_t, Hasher> golden_scalable() {
    bloom::scalable_bloom_filter<std::uint64_t, Hasher> filter(10, 0.01);
    for (std::uint64_t i = 0; i < 100; ++i) {
        filter.insert(i);
    }
    return filter;
}

/// A static filter of 100 integer keys, 8-bit fingerprints (kind 5).
bloom::fuse_filter<std::uint64_t> golden_fuse() {
    std::vector<std::uint64_t> keys;
    for (std::uint64_t i = 0; i < 100; ++i) {
        keys.push_back(i * 1000);
    }
    return bloom::fuse_filter<std::uint64_t>(keys, 42);
}

const char* const parquet_words[] = {"hello", "parquet", "bloom", "filter"};

/// Parquet's on-disk Bloom filter block (also a seed of the fuzzer's corpus).
bloom::parquet::split_block_filter<std::string> golden_parquet() {
    bloom::parquet::split_block_filter<std::string> filter(1024);
    for (const char* word : parquet_words) {
        filter.insert(word);
    }
    return filter;
}

} // namespace

TEST_CASE("write the golden files (run by hand after a deliberate format change)", "[.write-golden]") {
    // classic_string, counting8_string and scalable_u64 hold the earlier probe scheme, blocked_u64 and
    // scalable_u64_mixed the earlier integer hash; they are never rewritten.
    bloom::save_file(golden_classic(), data_directory / "classic_string_mixed.bloom");
    bloom::save_file(golden_blocked(), data_directory / "blocked_u64_mum2.bloom");
    bloom::save_file(golden_counting(), data_directory / "counting8_string_mixed.bloom");
    bloom::save_file(golden_scalable(), data_directory / "scalable_u64_mum2.bloom");
    bloom::save_file(golden_fuse(), data_directory / "fuse8_u64.bloom");
    const auto parquet = golden_parquet().write();
    std::ofstream(data_directory / "parquet_1024.sbbf", std::ios::binary)
        .write(reinterpret_cast<const char*>(parquet.data()), static_cast<std::streamsize>(parquet.size()));
}

TEST_CASE("the golden files load, answer as saved, and save back to the same bytes",
          "[serialization][golden]") {
    SECTION("classic") {
        const auto path = data_directory / "classic_string.bloom";
        const auto loaded = bloom::load_file<bloom::bloom_filter<std::string>>(path);
        for (int i = 0; i < 100; ++i) {
            CHECK(loaded.contains(golden_key(i)));
        }
        CHECK(loaded.item_count() == 100);
        CHECK(loaded.probes() == bloom::probe_scheme::enhanced_double_hashing);
        CHECK(loaded == golden_classic(loaded.geometry()));
        CHECK(bloom::to_bytes(loaded) == read_file_bytes(path));
    }
    SECTION("fuse") {
        const auto path = data_directory / "fuse8_u64.bloom";
        const auto loaded = bloom::load_file<bloom::fuse_filter<std::uint64_t>>(path);
        for (std::uint64_t i = 0; i < 100; ++i) {
            CHECK(loaded.contains(i * 1000));
        }
        CHECK(loaded.item_count() == 100);
        // Which slot each key takes depends on the peeling order, which construction may change between
        // versions; the file promises the seed, the shape and its answers (its bytes, below).
        const auto rebuilt = golden_fuse();
        CHECK(loaded.seed() == rebuilt.seed());
        CHECK(loaded.segment_length() == rebuilt.segment_length());
        CHECK(loaded.slot_count() == rebuilt.slot_count());
        CHECK(bloom::to_bytes(loaded) == read_file_bytes(path));
    }
    SECTION("classic, today's probe scheme") {
        const auto path = data_directory / "classic_string_mixed.bloom";
        const auto loaded = bloom::load_file<bloom::bloom_filter<std::string>>(path);
        for (int i = 0; i < 100; ++i) {
            CHECK(loaded.contains(golden_key(i)));
        }
        CHECK(loaded.probes() == bloom::probe_scheme::mixed);
        CHECK(loaded == golden_classic());
        CHECK(bloom::to_bytes(golden_classic()) == read_file_bytes(path));
    }
    SECTION("blocked, the earlier integer hash and the original one-bit-per-word pattern") {
        using xxh3_blocked = bloom::blocked_bloom_filter<std::uint64_t, bloom::xxh3_hash<std::uint64_t>>;
        const auto path = data_directory / "blocked_u64.bloom";
        const auto loaded = bloom::load_file<xxh3_blocked>(path);
        for (std::uint64_t i = 0; i < 100; ++i) {
            CHECK(loaded.contains(i * 1000));
        }
        CHECK(loaded.seed() == 42);
        CHECK(loaded.probes() == bloom::probe_scheme::one_bit_per_word);
        CHECK(loaded.hash_count() == 8);
        // The bits those inserts set by that pattern (the file's shape: 1,024 bits).
        REQUIRE(loaded.bit_count() == 1024);
        CHECK(loaded == golden_blocked<bloom::xxh3_hash<std::uint64_t>>(
                            bloom::filter_geometry{1024, 8, bloom::probe_scheme::one_bit_per_word}));
        CHECK(bloom::to_bytes(loaded) == read_file_bytes(path));
        // Today's default hasher places integers elsewhere: it refuses the file, naming both ids.
        std::string message;
        try {
            (void)bloom::load_file<bloom::blocked_bloom_filter<std::uint64_t>>(path);
        } catch (const bloom::format_error& error) {
            message = error.what();
        }
        INFO("message: " << message);
        CHECK(message.find("hasher id 0x5858483300000108") != std::string::npos);
        CHECK(message.find("0x4d554d3200000108") != std::string::npos);
    }
    SECTION("blocked, today's hash and bits_anywhere") {
        const auto path = data_directory / "blocked_u64_mum2.bloom";
        const auto loaded = bloom::load_file<bloom::blocked_bloom_filter<std::uint64_t>>(path);
        for (std::uint64_t i = 0; i < 100; ++i) {
            CHECK(loaded.contains(i * 1000));
        }
        CHECK(loaded.seed() == 42);
        CHECK(loaded.probes() == bloom::probe_scheme::bits_anywhere);
        CHECK(loaded == golden_blocked());
        CHECK(bloom::to_bytes(golden_blocked()) == read_file_bytes(path));
    }
    SECTION("counting") {
        const auto path = data_directory / "counting8_string.bloom";
        const auto loaded = bloom::load_file<golden_counting_type>(path);
        CHECK(loaded.count(golden_key(0)) >= 3);
        CHECK(loaded.contains(golden_key(2)));
        CHECK(loaded.probes() == bloom::probe_scheme::enhanced_double_hashing);
        CHECK(loaded == golden_counting({loaded.bit_count(), loaded.hash_count(), loaded.probes()}));
        CHECK(bloom::to_bytes(loaded) == read_file_bytes(path));
    }
    SECTION("counting, today's probe scheme") {
        const auto path = data_directory / "counting8_string_mixed.bloom";
        const auto loaded = bloom::load_file<golden_counting_type>(path);
        CHECK(loaded.count(golden_key(0)) >= 3);
        CHECK(loaded.probes() == bloom::probe_scheme::mixed);
        CHECK(loaded == golden_counting());
        CHECK(bloom::to_bytes(golden_counting()) == read_file_bytes(path));
    }
    SECTION("scalable") {
        const auto path = data_directory / "scalable_u64.bloom";
        const auto loaded =
            bloom::load_file<bloom::scalable_bloom_filter<std::uint64_t, bloom::xxh3_hash<std::uint64_t>>>(
                path);
        for (std::uint64_t i = 0; i < 100; ++i) {
            CHECK(loaded.contains(i));
        }
        CHECK(loaded.stage(0).probes() == bloom::probe_scheme::enhanced_double_hashing);
        CHECK(bloom::to_bytes(loaded) == read_file_bytes(path));
        // It keeps growing with the earlier scheme in its old stages and today's in new ones.
        auto grown = loaded;
        std::size_t new_items = 0;
        for (std::uint64_t i = 100; i < 2000; ++i) {
            new_items += grown.insert(i) ? 1 : 0;
        }
        for (std::uint64_t i = 0; i < 2000; ++i) {
            CHECK(grown.contains(i));
        }
        // The range forms ask each stage by its own scheme: they grow it into the same stages and answer
        // as single calls do, for its members in stages of both schemes and for non-members.
        std::vector<std::uint64_t> items(4000);
        std::iota(items.begin(), items.end(), std::uint64_t{0});
        auto grown_by_range = loaded;
        CHECK(grown_by_range.insert(items.begin() + 100, items.begin() + 2000) == new_items);
        REQUIRE(grown_by_range.stage_count() == grown.stage_count());
        REQUIRE(grown.stage(grown.stage_count() - 1).probes() == bloom::probe_scheme::mixed);
        for (std::size_t stage = 0; stage < grown.stage_count(); ++stage) {
            CHECK(grown_by_range.stage(stage) == grown.stage(stage));
        }
        std::vector<bool> answers;
        grown.contains(items.begin(), items.end(), std::back_inserter(answers));
        std::size_t differing = 0;
        for (std::size_t i = 0; i < items.size(); ++i) {
            differing += answers[i] == grown.contains(items[i]) ? 0 : 1;
        }
        CHECK(differing == 0);
    }
    SECTION("scalable, today's probe scheme and the earlier integer hash") {
        using xxh3 = bloom::xxh3_hash<std::uint64_t>;
        const auto path = data_directory / "scalable_u64_mixed.bloom";
        const auto loaded = bloom::load_file<bloom::scalable_bloom_filter<std::uint64_t, xxh3>>(path);
        for (std::uint64_t i = 0; i < 100; ++i) {
            CHECK(loaded.contains(i));
        }
        CHECK(loaded.stage_count() == golden_scalable<xxh3>().stage_count());
        CHECK(bloom::to_bytes(golden_scalable<xxh3>()) == read_file_bytes(path));
    }
    SECTION("scalable, today's hash") {
        const auto path = data_directory / "scalable_u64_mum2.bloom";
        const auto loaded = bloom::load_file<bloom::scalable_bloom_filter<std::uint64_t>>(path);
        for (std::uint64_t i = 0; i < 100; ++i) {
            CHECK(loaded.contains(i));
        }
        CHECK(loaded.stage_count() == golden_scalable().stage_count());
        CHECK(bloom::to_bytes(golden_scalable()) == read_file_bytes(path));
    }
    SECTION("Parquet") {
        const auto bytes = read_file_bytes(data_directory / "parquet_1024.sbbf");
        const auto loaded = bloom::parquet::split_block_filter<std::string>::read(bytes.data(), bytes.size());
        for (const char* word : parquet_words) {
            CHECK(loaded.contains(word));
        }
        CHECK(loaded.num_bytes() == 1024);
        CHECK(loaded.write() == bytes);
    }
}

// ---- bad input is harmless ----

TEST_CASE("every truncation of every kind's record throws format_error", "[serialization][malformed]") {
    const std::vector<std::vector<std::byte>> records = {
        bloom::to_bytes(make_filled<bloom::bloom_filter<std::string>>(40)),
        bloom::to_bytes(make_filled<bloom::blocked_bloom_filter<std::string>>(40)),
        bloom::to_bytes(make_filled<bloom::counting_bloom_filter<std::string>>(40)),
        bloom::to_bytes(make_scalable<std::string>(300)),
    };
    for (std::size_t kind = 0; kind < records.size(); ++kind) {
        const auto& record = records[kind];
        for (std::size_t size = 0; size < record.size(); ++size) {
            INFO("kind " << kind << ", " << size << " of " << record.size() << " bytes");
            // Each loader gets an exact-size copy, so reading past `size` is caught by the sanitizers.
            const std::vector<std::byte> prefix(record.begin(),
                                                record.begin() + static_cast<std::ptrdiff_t>(size));
            const auto try_load = [&] {
                switch (kind) {
                case 0:
                    return (void)bloom::from_bytes<bloom::bloom_filter<std::string>>(prefix.data(), size);
                case 1:
                    return (void)bloom::from_bytes<bloom::blocked_bloom_filter<std::string>>(prefix.data(),
                                                                                             size);
                case 2:
                    return (void)bloom::from_bytes<bloom::counting_bloom_filter<std::string>>(prefix.data(),
                                                                                              size);
                default:
                    return (void)bloom::from_bytes<bloom::scalable_bloom_filter<std::string>>(prefix.data(),
                                                                                              size);
                }
            };
            CHECK_THROWS_AS(try_load(), bloom::format_error);
            std::stringstream stream(std::string(reinterpret_cast<const char*>(prefix.data()), size));
            if (kind == 0) {
                CHECK_THROWS_AS((void)bloom::load<bloom::bloom_filter<std::string>>(stream),
                                bloom::format_error);
            }
        }
    }
}

TEST_CASE("every flipped bit of a record is detected", "[serialization][malformed]") {
    const auto record = bloom::to_bytes(make_filled<bloom::blocked_bloom_filter<std::uint64_t>>(30));
    for (std::size_t bit = 0; bit < 8 * record.size(); ++bit) {
        auto corrupt = record;
        corrupt[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        INFO("bit " << bit);
        CHECK_THROWS_AS((void)bloom::from_bytes<bloom::blocked_bloom_filter<std::uint64_t>>(corrupt.data(),
                                                                                            corrupt.size()),
                        bloom::format_error);
    }
}

TEST_CASE("malformed records throw format_error naming the problem", "[serialization][malformed]") {
    using classic = bloom::bloom_filter<std::string>;
    const auto original = bloom::to_bytes(make_filled<classic>(50));
    const auto load = [](const std::vector<std::byte>& bytes) {
        return format_error_of([&] { (void)bloom::from_bytes<classic>(bytes.data(), bytes.size()); });
    };
    const auto contains = [](const std::string& message, const std::string& part) {
        INFO("message: " << message << "\nexpected: " << part);
        CHECK(message.find(part) != std::string::npos);
    };

    SECTION("wrong magic") {
        auto bytes = original;
        bytes[1] = std::byte{'X'};
        contains(load(bytes), "magic");
    }
    SECTION("unknown version") {
        auto bytes = original;
        put_le(bytes, 8, 2, 2);
        reseal(bytes);
        contains(load(bytes), "version 2");
    }
    SECTION("unknown kind") {
        auto bytes = original;
        bytes[10] = std::byte{9};
        reseal(bytes);
        contains(load(bytes), "kind 9");
    }
    SECTION("another kind") {
        contains(format_error_of([&] {
                     (void)bloom::from_bytes<bloom::blocked_bloom_filter<std::string>>(original.data(),
                                                                                       original.size());
                 }),
                 "not a blocked one");
    }
    SECTION("another hasher") {
        contains(format_error_of([&] {
                     (void)bloom::from_bytes<bloom::bloom_filter<std::uint64_t>>(original.data(),
                                                                                 original.size());
                 }),
                 "hasher id");
    }
    SECTION("a counter width no counting filter has, or one of another filter") {
        using counting16 = bloom::counting_bloom_filter<std::string, 16>;
        auto bytes = bloom::to_bytes(counting16(100, 0.01));
        bytes[11] = std::byte{5};
        reseal(bytes);
        const auto load_counting = [&](auto tag) {
            using filter = typename decltype(tag)::type;
            return format_error_of([&] { (void)bloom::from_bytes<filter>(bytes.data(), bytes.size()); });
        };
        contains(load_counting(std::common_type<counting16>{}), "counter width 5 is unsupported");
        bytes[11] = std::byte{8};
        reseal(bytes);
        contains(load_counting(std::common_type<counting16>{}), "holds 8-bit counters, this filter has 16");
    }
    SECTION("a corrupt header") {
        auto bytes = original;
        bytes[40] ^= std::byte{1};
        contains(load(bytes), "header checksum");
    }
    SECTION("a corrupt payload") {
        auto bytes = original;
        bytes[130] ^= std::byte{1};
        contains(load(bytes), "checksum mismatch");
    }
    SECTION("non-zero reserved bytes") {
        auto bytes = original;
        bytes[100] = std::byte{1};
        reseal(bytes);
        contains(load(bytes), "reserved");
    }
    SECTION("trailing bytes") {
        auto bytes = original;
        bytes.push_back(std::byte{0});
        contains(load(bytes), "1 bytes follow");
    }
    SECTION("a payload that does not match the bit count") {
        auto bytes = original;
        put_le(bytes, 32, le(bytes, 32, 8) + 64, 8);
        reseal(bytes);
        contains(load(bytes), "does not match");
    }
    SECTION("bits set past the bit count") {
        bloom::bloom_filter<std::string> odd(bloom::filter_geometry{100, 3});
        auto bytes = bloom::to_bytes(odd);
        bytes[128 + 15] = std::byte{0x80}; // bit 127 of 100
        reseal(bytes);
        contains(load(bytes), "past bit_count");
    }
    SECTION("zero or absurd hash counts") {
        auto bytes = original;
        put_le(bytes, 12, 0, 4);
        reseal(bytes);
        contains(load(bytes), "hash_count 0");
        put_le(bytes, 12, 0xffffffff, 4);
        reseal(bytes);
        contains(load(bytes), "hash_count 4294967295");
    }
    SECTION("a blocked record of partial blocks") {
        bloom::blocked_bloom_filter<std::string> blocked(100, 0.01);
        auto bytes = bloom::to_bytes(blocked);
        put_le(bytes, 32, le(bytes, 32, 8) - 1, 8);
        reseal(bytes);
        contains(format_error_of([&] {
                     (void)bloom::from_bytes<bloom::blocked_bloom_filter<std::string>>(bytes.data(),
                                                                                       bytes.size());
                 }),
                 "multiple of 512");
    }
    SECTION("a blocked record whose hash count its pattern cannot place, or an unknown pattern") {
        using blocked_type = bloom::blocked_bloom_filter<std::string>;
        const auto blocked_load = [](const std::vector<std::byte>& bytes) {
            return format_error_of(
                [&] { (void)bloom::from_bytes<blocked_type>(bytes.data(), bytes.size()); });
        };
        auto bytes = bloom::to_bytes(blocked_type(100, 0.01));
        put_le(bytes, 12, 17, 4); // bits_anywhere places 1 to 16
        reseal(bytes);
        contains(blocked_load(bytes), "hash_count");
        put_le(bytes, 12, 7, 4);
        put_le(bytes, 80, 0, 1); // one_bit_per_word places exactly 8
        reseal(bytes);
        contains(blocked_load(bytes), "hash_count");
        put_le(bytes, 12, 8, 4);
        put_le(bytes, 80, 2, 1);
        reseal(bytes);
        contains(blocked_load(bytes), "probe scheme 2");
        for (const std::uint64_t hash_count : {0ULL, 17ULL}) {
            put_le(bytes, 12, hash_count, 4);
            put_le(bytes, 80, 1, 1);
            reseal(bytes);
            contains(format_error_of([&] {
                         (void)bloom::blocked_bloom_filter_view<std::string>(bytes.data(), bytes.size());
                     }),
                     "hash_count");
        }
    }
    SECTION("counters of another width") {
        const auto bytes = bloom::to_bytes(bloom::counting_bloom_filter<int, 8>(10, 0.01));
        contains(format_error_of([&] {
                     (void)bloom::from_bytes<bloom::counting_bloom_filter<int, 4>>(bytes.data(),
                                                                                   bytes.size());
                 }),
                 "8-bit counters");
    }
    SECTION("a counter count whose storage overflows 64 bits") {
        using counting16 = bloom::counting_bloom_filter<int, 16>;
        auto bytes = bloom::to_bytes(counting16(10, 0.01));
        put_le(bytes, 32, std::uint64_t{1} << 62, 8); // 2^62 counters of 16 bits: 2^66 bits
        reseal(bytes);
        contains(format_error_of([&] { (void)bloom::from_bytes<counting16>(bytes.data(), bytes.size()); }),
                 "overflows");
    }
    SECTION("a scalable record with more stages than its payload holds") {
        auto bytes = bloom::to_bytes(bloom::scalable_bloom_filter<int>(10, 0.01));
        put_le(bytes, 144, std::uint64_t{1} << 60, 8);
        reseal(bytes);
        contains(format_error_of([&] {
                     (void)bloom::from_bytes<bloom::scalable_bloom_filter<int>>(bytes.data(), bytes.size());
                 }),
                 "stage count");
    }
    SECTION("a scalable record with invalid parameters") {
        auto bytes = bloom::to_bytes(bloom::scalable_bloom_filter<int>(10, 0.01));
        put_le(bytes, 136, double_bits(1.5), 8); // tightening ratio outside (0, 1)
        reseal(bytes);
        contains(format_error_of([&] {
                     (void)bloom::from_bytes<bloom::scalable_bloom_filter<int>>(bytes.data(), bytes.size());
                 }),
                 "tightening_ratio");
    }
}

TEST_CASE("a scalable record whose parameters and stages disagree throws format_error",
          "[serialization][malformed][scalable]") {
    using scalable = bloom::scalable_bloom_filter<std::uint64_t>;
    scalable filter(100, 0.01, bloom::scalable_options{}.with_seed(7));
    bloom_test::insert_keys(filter, 0, 1000);
    REQUIRE(filter.stage_count() == 4);
    const auto original = bloom::to_bytes(filter);
    const auto stages = stage_offsets(original);
    REQUIRE(stages.size() == 4);
    const auto load = [](const std::vector<std::byte>& bytes) {
        return format_error_of([&] { (void)bloom::from_bytes<scalable>(bytes.data(), bytes.size()); });
    };
    const auto contains = [](const std::string& message, const std::string& part) {
        INFO("message: " << message << "\nexpected: " << part);
        CHECK(message.find(part) != std::string::npos);
    };

    SECTION("the test's own resealing leaves a valid record as it was") {
        auto bytes = original;
        reseal_scalable(bytes);
        CHECK(bytes == original);
        CHECK(bloom::to_bytes(bloom::from_bytes<scalable>(bytes.data(), bytes.size())) == original);
    }
    SECTION("a first-stage capacity far above stage 0's") {
        // Issue 14's crafted file: the next stage was sized from the header, 2^41 items (3 GB and more).
        auto bytes = original;
        put_le(bytes, 40, std::uint64_t{1} << 40, 8);
        reseal_scalable(bytes);
        const std::string message = load(bytes);
        contains(message, "stage 0 holds 100 items");
        contains(message, "expected_items");
    }
    SECTION("a header and stage 0 that claim more items than stage 0's bits hold") {
        auto bytes = original;
        put_le(bytes, 40, 1'000'000, 8);
        put_le(bytes, stages[0] + 40, 1'000'000, 8);
        reseal_scalable(bytes);
        contains(load(bytes), "stage 0 has bit_count");
    }
    SECTION("growth factors outside [1.5, 16]") {
        for (const double growth : {1.0, 1.4, std::numeric_limits<double>::quiet_NaN(), 17.0, 1e300}) {
            auto bytes = original;
            put_le(bytes, 128, double_bits(growth), 8);
            reseal_scalable(bytes);
            INFO("growth factor " << growth);
            contains(load(bytes), "growth_factor");
        }
    }
    SECTION("a stage's capacity, rate or hash count other than the parameters give") {
        auto bytes = original;
        put_le(bytes, stages[1] + 40, 2 * le(bytes, stages[1] + 40, 8), 8);
        reseal_scalable(bytes);
        contains(load(bytes), "stage 1 holds 400 items");

        bytes = original;
        put_le(bytes, stages[2] + 48, double_bits(0.01), 8);
        reseal_scalable(bytes);
        contains(load(bytes), "stage 2 has false-positive rate 0.01");

        bytes = original;
        put_le(bytes, stages[3] + 12, le(bytes, stages[3] + 12, 4) + 2, 4);
        reseal_scalable(bytes);
        contains(load(bytes), "stage 3 has hash_count");
    }
    SECTION("a record without stages, as earlier versions saved a moved-from filter") {
        std::vector<std::byte> bytes(original.begin(), original.begin() + 128 + 24 + 8);
        put_le(bytes, 56, 0, 8);  // item count
        put_le(bytes, 64, 24, 8); // payload: the parameters alone
        put_le(bytes, 144, 0, 8); // stage count
        reseal(bytes);
        contains(load(bytes), "stage count 0");
    }
}

TEST_CASE("a record that promises more than the input holds allocates nothing",
          "[serialization][malformed]") {
    // A 40-byte file cannot even hold a header; a whole header claiming 2^60 bits with nothing behind it
    // must fail before the filter allocates its words.
    using counted = bloom::bloom_filter<std::string, bloom::hash<std::string>,
                                        bloom_test::counting_allocator<std::uint64_t>>;
    bloom_test::allocation_stats stats;
    const bloom_test::counting_allocator<std::uint64_t> allocator(&stats);
    auto bytes = bloom::to_bytes(bloom::bloom_filter<std::string>(10, 0.01));
    put_le(bytes, 32, std::uint64_t{1} << 60, 8);
    put_le(bytes, 64, std::uint64_t{1} << 57, 8);
    reseal(bytes);
    const std::vector<std::byte> forty(bytes.begin(), bytes.begin() + 40);
    const std::string short_message =
        format_error_of([&] { (void)bloom::from_bytes<counted>(forty.data(), forty.size(), {}, allocator); });
    CHECK(short_message.find("truncated") != std::string::npos);
    const std::string long_message =
        format_error_of([&] { (void)bloom::from_bytes<counted>(bytes.data(), bytes.size(), {}, allocator); });
    CHECK(long_message.find("truncated") != std::string::npos);
    std::stringstream stream(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    CHECK_THROWS_AS((void)bloom::load<counted>(stream, {}, allocator), bloom::format_error);
    CHECK(stats.allocations == 0);

    // A well-formed record allocates the words it carries, once.
    const auto good = bloom::to_bytes(bloom::bloom_filter<std::string>(1000, 0.01));
    (void)bloom::from_bytes<counted>(good.data(), good.size(), {}, allocator);
    CHECK(stats.largest_bytes == good.size() - 136);
}

TEST_CASE("load_file names the file; save_file replaces files atomically", "[serialization][file]") {
    scratch_directory directory;
    const auto path = directory.path() / "filter.bloom";
    using classic = bloom::bloom_filter<std::string>;

    SECTION("a missing file is a filesystem_error naming it") {
        try {
            (void)bloom::load_file<classic>(path);
            FAIL("expected std::filesystem::filesystem_error");
        } catch (const std::filesystem::filesystem_error& error) {
            CHECK(error.path1() == path);
        }
    }
    SECTION("a malformed file is a format_error naming it") {
        std::ofstream(path) << "not a filter";
        const std::string message = format_error_of([&] { (void)bloom::load_file<classic>(path); });
        CHECK(message.find(path.string()) != std::string::npos);
        CHECK(message.find("truncated") != std::string::npos);
    }
    SECTION("an empty file is a format_error") {
        std::ofstream{path};
        CHECK_THROWS_AS((void)bloom::load_file<classic>(path), bloom::format_error);
    }
    SECTION("a failed save leaves the previous file intact and no temporary file") {
        const auto previous = make_filled<classic>(100);
        bloom::save_file(previous, path);
        const auto before = read_file_bytes(path);
        // A hash count the format refuses fails in the middle of save_file, after the temporary exists.
        const classic refused(bloom::filter_geometry{1024, 5000});
        CHECK_THROWS_AS(bloom::save_file(refused, path), std::invalid_argument);
        CHECK(read_file_bytes(path) == before);
        CHECK(directory.entry_count() == 1);
        // A directory that does not exist is a filesystem_error.
        CHECK_THROWS_AS(bloom::save_file(previous, directory.path() / "missing" / "filter.bloom"),
                        std::filesystem::filesystem_error);
    }
    SECTION("replacing a file keeps its permissions") {
        bloom::save_file(make_filled<classic>(10), path);
        std::filesystem::permissions(path, std::filesystem::perms::owner_read |
                                               std::filesystem::perms::owner_write |
                                               std::filesystem::perms::group_read);
        bloom::save_file(make_filled<classic>(20), path);
        CHECK(std::filesystem::status(path).permissions() ==
              (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
               std::filesystem::perms::group_read));
        CHECK(bloom::load_file<classic>(path).item_count() == 20);
    }
}

namespace {

/// A hasher with state: a salt mixed into every hash. Its id says which function it is; the salt is the
/// caller's to pass back when loading.
struct salted_hasher {
    static constexpr std::uint64_t format_id = 0x73616c7465640001ULL;
    std::uint64_t salt = 0;
    std::uint64_t operator()(std::uint64_t value, std::uint64_t seed) const noexcept {
        return bloom_test::xxh3_of_le64(value ^ salt, seed);
    }
};

} // namespace

TEST_CASE("a filter with a stateful hasher loads with that hasher passed in", "[serialization]") {
    using salted = bloom::bloom_filter<std::uint64_t, salted_hasher>;
    salted original(1000, 0.01, bloom::default_seed, salted_hasher{0xfeed});
    bloom_test::insert_keys(original, 0, 1000);
    const auto bytes = bloom::to_bytes(original);
    CHECK(le(bytes, 16, 8) == salted_hasher::format_id);
    const salted loaded = bloom::from_bytes<salted>(bytes.data(), bytes.size(), salted_hasher{0xfeed});
    CHECK(loaded.hash_function().salt == 0xfeed);
    require_same_answers(original, loaded, 1000);
    // The default hasher of the same key type has another id: the file refuses to load into it.
    CHECK_THROWS_AS((void)bloom::from_bytes<bloom::bloom_filter<std::uint64_t>>(bytes.data(), bytes.size()),
                    bloom::format_error);
}

TEST_CASE("filters of other key types round-trip, and keys of one family share an id", "[serialization]") {
    bloom::bloom_filter<double> doubles(100, 0.01);
    bloom::blocked_bloom_filter<std::int32_t> ints(100, 0.01);
    bloom::counting_bloom_filter<std::vector<std::uint8_t>> byte_strings(100, 0.01);
    for (int i = 0; i < 100; ++i) {
        doubles.insert(i * 0.5);
        ints.insert(-i);
        byte_strings.insert(std::vector<std::uint8_t>{static_cast<std::uint8_t>(i), 1, 2});
    }
    const auto double_bytes = bloom::to_bytes(doubles);
    const auto int_bytes = bloom::to_bytes(ints);
    const auto vector_bytes = bloom::to_bytes(byte_strings);
    CHECK(bloom::from_bytes<bloom::bloom_filter<double>>(double_bytes.data(), double_bytes.size()) ==
          doubles);
    CHECK(le(vector_bytes, 16, 8) == 0x5858483300001101ULL);
    const auto vectors_back = bloom::from_bytes<bloom::counting_bloom_filter<std::vector<std::uint8_t>>>(
        vector_bytes.data(), vector_bytes.size());
    CHECK(vectors_back == byte_strings);
    // std::int32_t and std::int64_t keys hash alike (widened to 64 bits), so the file loads as either.
    const auto wide =
        bloom::from_bytes<bloom::blocked_bloom_filter<std::int64_t>>(int_bytes.data(), int_bytes.size());
    for (int i = 0; i < 100; ++i) {
        CHECK(wide.contains(std::int64_t{-i}));
    }
    CHECK_THROWS_AS(
        (void)bloom::from_bytes<bloom::blocked_bloom_filter<float>>(int_bytes.data(), int_bytes.size()),
        bloom::format_error);
}

TEST_CASE("inspect reads a record's header without loading it", "[serialization]") {
    const auto counting = make_filled<bloom::counting_bloom_filter<std::string, 16>>(300);
    const auto bytes = bloom::to_bytes(counting);
    const bloom::saved_filter_info info = bloom::inspect(bytes.data(), bytes.size());
    CHECK(info.kind == bloom::filter_kind::counting);
    CHECK(std::string(bloom::to_string(info.kind)) == "counting");
    CHECK(info.counter_bits == 16);
    CHECK(info.hash_count == counting.hash_count());
    CHECK(info.hasher_id == bloom::hash<std::string>::format_id);
    CHECK(info.seed == counting.seed());
    CHECK(info.bit_count == counting.counter_count());
    CHECK(info.expected_items == 300);
    CHECK(info.target_false_positive_rate == 0.01);
    CHECK(info.item_count == counting.item_count());
    CHECK(info.record_bytes == bytes.size());
    CHECK(bloom::inspect(bytes.data(), bytes.size() + 0).kind == bloom::filter_kind::counting);
    CHECK_THROWS_AS(bloom::inspect(bytes.data(), bytes.size() - 1), bloom::format_error);
    const auto scalable = bloom::to_bytes(make_scalable<std::uint64_t>(100));
    CHECK(bloom::inspect(scalable.data(), scalable.size()).kind == bloom::filter_kind::scalable);
}

// ---- streams and files that fail ----

namespace {

/// A read buffer that hands out `data`, then fails as a disk would: its underflow throws.
class failing_read_buffer : public std::streambuf {
  public:
    explicit failing_read_buffer(std::string data) : m_data(std::move(data)) {
        setg(m_data.data(), m_data.data(), m_data.data() + m_data.size());
    }

  protected:
    int_type underflow() override { throw std::runtime_error("the disk failed"); }

  private:
    std::string m_data;
};

/// A write buffer of `capacity` bytes that fails once full (overflow returns eof); its sync, which a
/// flush calls, fails if `sync_fails`.
class failing_write_buffer : public std::streambuf {
  public:
    failing_write_buffer(std::size_t capacity, bool sync_fails)
        : m_bytes(capacity), m_sync_fails(sync_fails) {
        setp(m_bytes.data(), m_bytes.data() + m_bytes.size());
    }
    std::size_t written() const { return static_cast<std::size_t>(pptr() - pbase()); }

  protected:
    int_type overflow(int_type) override { return traits_type::eof(); }
    int sync() override { return m_sync_fails ? -1 : 0; }

  private:
    std::vector<char> m_bytes;
    bool m_sync_fails;
};

std::string as_text(const std::vector<std::byte>& bytes, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(bytes.data()), size);
}

template <class Call>
std::error_code file_error_of(Call&& call) {
    try {
        call();
    } catch (const std::filesystem::filesystem_error& error) {
        return error.code();
    }
    FAIL("expected std::filesystem::filesystem_error");
    return {};
}

} // namespace

TEST_CASE("load from a stream that throws on failure still throws only format_error",
          "[serialization][malformed]") {
    constexpr auto mask = std::ios::failbit | std::ios::badbit;
    using classic = bloom::bloom_filter<std::string>;
    using scalable = bloom::scalable_bloom_filter<std::string>;
    const auto classic_bytes = bloom::to_bytes(make_filled<classic>(40));
    const auto scalable_bytes = bloom::to_bytes(make_scalable<std::string>(300));

    SECTION("every truncation") {
        for (std::size_t size = 0; size < scalable_bytes.size(); ++size) {
            INFO(size << " bytes");
            std::istringstream stream(as_text(scalable_bytes, size));
            stream.exceptions(mask);
            CHECK_THROWS_AS((void)bloom::load<scalable>(stream), bloom::format_error);
            CHECK(stream.exceptions() == mask);
            CHECK(stream.fail());
            if (size < classic_bytes.size()) {
                std::istringstream classic_stream(as_text(classic_bytes, size));
                classic_stream.exceptions(mask);
                CHECK_THROWS_AS((void)bloom::load<classic>(classic_stream), bloom::format_error);
            }
        }
    }
    SECTION("a corrupt record, and a whole one after it") {
        auto corrupt = classic_bytes;
        corrupt[130] ^= std::byte{1};
        std::istringstream stream(as_text(corrupt, corrupt.size()) +
                                  as_text(classic_bytes, classic_bytes.size()));
        stream.exceptions(mask);
        CHECK_THROWS_AS((void)bloom::load<classic>(stream), bloom::format_error);
        CHECK(bloom::to_bytes(bloom::load<classic>(stream)) == classic_bytes);
        CHECK(stream.good());
        CHECK(stream.exceptions() == mask);
    }
    SECTION("a read that fails part way") {
        failing_read_buffer buffer(as_text(classic_bytes, 100));
        std::istream stream(&buffer);
        stream.exceptions(mask);
        const std::string message = format_error_of([&] { (void)bloom::load<classic>(stream); });
        CHECK(message.find("read error") != std::string::npos);
        CHECK(stream.bad());
        CHECK(stream.exceptions() == mask);
    }
}

TEST_CASE("save reports a stream whose write or flush fails", "[serialization]") {
    const auto filter = make_filled<bloom::bloom_filter<std::string>>(100);
    const auto bytes = bloom::to_bytes(filter);
    SECTION("a write that fails stops the save") {
        failing_write_buffer buffer(100, false);
        std::ostream out(&buffer);
        CHECK_THROWS_AS(bloom::save(filter, out), std::ios_base::failure);
        CHECK(buffer.written() <= 100);
        std::ostream throwing(&buffer);
        throwing.exceptions(std::ios::badbit);
        CHECK_THROWS_AS(bloom::save(filter, throwing), std::ios_base::failure);
    }
    SECTION("a flush that fails after every write succeeded") {
        failing_write_buffer buffer(1 << 16, true);
        std::ostream out(&buffer);
        try {
            bloom::save(filter, out);
            FAIL("expected std::ios_base::failure");
        } catch (const std::ios_base::failure& error) {
            CHECK(std::string(error.what()).find("flush") != std::string::npos);
        }
        CHECK(buffer.written() == bytes.size());
    }
    SECTION("a stream that works takes the whole record") {
        failing_write_buffer buffer(1 << 16, false);
        std::ostream out(&buffer);
        bloom::save(filter, out);
        CHECK(buffer.written() == bytes.size());
        CHECK(out.good());
    }
}

TEST_CASE("load_file reports the error the system gave, not always ENOENT", "[serialization][file]") {
    using classic = bloom::bloom_filter<std::string>;
    scratch_directory directory;
    const auto path = directory.path() / "filter.bloom";
    // bloom::detail::read_file_bytes is how load_file reads where there is no mmap; on this platform it
    // is checked directly.
    const auto read_without_mmap = [](const std::filesystem::path& file) {
        return [file] { (void)bloom::detail::read_file_bytes(file, "bloom::load_file"); };
    };

    SECTION("a missing file: ENOENT") {
        CHECK(file_error_of([&] { (void)bloom::load_file<classic>(path); }) ==
              std::errc::no_such_file_or_directory);
        CHECK(file_error_of(read_without_mmap(path)) == std::errc::no_such_file_or_directory);
    }
    SECTION("a directory: EISDIR") {
        CHECK(file_error_of([&] { (void)bloom::load_file<classic>(directory.path()); }) ==
              std::errc::is_a_directory);
        CHECK(file_error_of(read_without_mmap(directory.path())) == std::errc::is_a_directory);
    }
    SECTION("a path through a regular file: ENOTDIR, whatever the privileges") {
        bloom::save_file(make_filled<classic>(10), path);
        CHECK(file_error_of([&] { (void)bloom::load_file<classic>(path / "filter.bloom"); }) ==
              std::errc::not_a_directory);
        CHECK(file_error_of(read_without_mmap(path / "filter.bloom")) == std::errc::not_a_directory);
    }
    SECTION("a file without read permission: EACCES, unless the tests run with the privilege to read it") {
        bloom::save_file(make_filled<classic>(10), path);
        std::filesystem::permissions(path, std::filesystem::perms::none);
        if (std::ifstream(path)) {
            WARN("the file is readable without permission (running as root?): EACCES cannot be checked");
        } else {
            CHECK(file_error_of([&] { (void)bloom::load_file<classic>(path); }) ==
                  std::errc::permission_denied);
            CHECK(file_error_of(read_without_mmap(path)) == std::errc::permission_denied);
        }
    }
    SECTION("a readable file: every byte") {
        const auto filter = make_filled<classic>(5000);
        bloom::save_file(filter, path);
        const auto bytes = bloom::detail::read_file_bytes(path, "bloom::load_file");
        CHECK(bytes.size() == read_file_bytes(path).size());
        CHECK(std::memcmp(bytes.data(), read_file_bytes(path).data(), bytes.size()) == 0);
    }
}

#if defined(__cpp_lib_span)
TEST_CASE("C++20: from_bytes and the views take a std::span", "[serialization][view]") {
    const auto filter = make_filled<bloom::blocked_bloom_filter<std::uint64_t>>(500);
    const std::vector<std::byte> bytes = bloom::to_bytes(filter);
    const std::span<const std::byte> span(bytes);
    CHECK(bloom::from_bytes<bloom::blocked_bloom_filter<std::uint64_t>>(span) == filter);
    const bloom::blocked_bloom_filter_view<std::uint64_t> view(span);
    CHECK(bloom_test::count_disagreements(filter, view, 0, 1000) == 0);
    scratch_directory directory;
    bloom::save_file(filter, directory.path() / "f.bloom");
    const bloom::mapped_file file(directory.path() / "f.bloom");
    CHECK(file.bytes().size() == bytes.size());
}
#endif
