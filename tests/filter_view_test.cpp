// SPDX-License-Identifier: MIT
// Zero-copy views (<bloom/filter_view.hpp>) and mapped files (<bloom/mapped_file.hpp>): a view answers
// exactly as the filter it was saved from, from any address, and refuses records it cannot serve; a
// mapped multi-hundred-megabyte filter is served without growing the process's anonymous memory.
#include "catch.hpp"
#include "test_support.hpp"

#include <bloom/bloom.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#if defined(__SANITIZE_THREAD__)
#    define BLOOM_TEST_UNDER_TSAN 1
#elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#        define BLOOM_TEST_UNDER_TSAN 1
#    endif
#endif

namespace {

using bloom_test::key;

template <class Filter>
Filter make_filled(std::uint64_t items) {
    Filter filter(items, 0.01, 99);
    bloom_test::insert_keys(filter, 0, items);
    return filter;
}

/// The view and the filter agree on every key of [0, 2 * items): members and as many non-members.
template <class Filter, class View>
void require_same_answers(const Filter& filter, const View& view, std::uint64_t items) {
    CHECK(bloom_test::count_disagreements(filter, view, 0, 2 * items) == 0);
    CHECK(view.bit_count() == filter.bit_count());
    CHECK(view.hash_count() == filter.hash_count());
    CHECK(view.seed() == filter.seed());
    CHECK(view.item_count() == filter.item_count());
    CHECK(view.expected_items() == filter.expected_items());
    CHECK(view.target_false_positive_rate() == filter.target_false_positive_rate());
    CHECK(view.current_false_positive_rate() == filter.current_false_positive_rate());
    CHECK(view.fill_ratio() == filter.fill_ratio());
    CHECK(view.memory_bytes() == filter.memory_bytes());
}

} // namespace

TEMPLATE_TEST_CASE("a view answers exactly as the saved filter, at any alignment", "[view]", std::uint64_t,
                   std::string) {
    constexpr std::uint64_t items = 5000;
    SECTION("classic") {
        const auto filter = make_filled<bloom::bloom_filter<TestType>>(items);
        const auto record = bloom::to_bytes(filter);
        for (const std::size_t offset : std::initializer_list<std::size_t>{0, 1, 3, 8, 13}) {
            std::vector<std::byte> storage(record.size() + offset);
            std::memcpy(storage.data() + offset, record.data(), record.size());
            const bloom::bloom_filter_view<TestType> view(storage.data() + offset, record.size());
            require_same_answers(filter, view, items);
        }
    }
    SECTION("blocked") {
        const auto filter = make_filled<bloom::blocked_bloom_filter<TestType>>(items);
        const auto record = bloom::to_bytes(filter);
        for (const std::size_t offset : std::initializer_list<std::size_t>{0, 1, 3, 8, 13}) {
            std::vector<std::byte> storage(record.size() + offset);
            std::memcpy(storage.data() + offset, record.data(), record.size());
            const bloom::blocked_bloom_filter_view<TestType> view(storage.data() + offset, record.size());
            require_same_answers(filter, view, items);
        }
    }
}

TEST_CASE("a view's bulk contains matches its single lookups", "[view]") {
    const auto filter = make_filled<bloom::blocked_bloom_filter<std::uint64_t>>(1000);
    const auto record = bloom::to_bytes(filter);
    const bloom::blocked_bloom_filter_view<std::uint64_t> view(record.data(), record.size());
    std::vector<std::uint64_t> keys;
    for (std::uint64_t i = 0; i < 2000; ++i) {
        keys.push_back(key<std::uint64_t>(i));
    }
    std::vector<bool> bulk;
    view.contains(keys.begin(), keys.end(), std::back_inserter(bulk));
    REQUIRE(bulk.size() == keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        CHECK(bulk[i] == filter.contains(keys[i]));
    }
}

TEST_CASE("a view checks the record when it opens", "[view][malformed]") {
    const auto classic = bloom::to_bytes(make_filled<bloom::bloom_filter<std::string>>(100));
    const auto blocked = bloom::to_bytes(make_filled<bloom::blocked_bloom_filter<std::string>>(100));

    CHECK_THROWS_AS(bloom::bloom_filter_view<std::string>(blocked.data(), blocked.size()),
                    bloom::format_error);
    CHECK_THROWS_AS(bloom::blocked_bloom_filter_view<std::string>(classic.data(), classic.size()),
                    bloom::format_error);
    CHECK_THROWS_AS(bloom::bloom_filter_view<std::uint64_t>(classic.data(), classic.size()),
                    bloom::format_error);
    for (std::size_t size = 0; size < classic.size(); ++size) {
        const std::vector<std::byte> prefix(classic.begin(),
                                            classic.begin() + static_cast<std::ptrdiff_t>(size));
        CHECK_THROWS_AS(bloom::bloom_filter_view<std::string>(prefix.data(), prefix.size()),
                        bloom::format_error);
    }

    auto corrupt = classic;
    corrupt[200] ^= std::byte{4};
    CHECK_THROWS_AS(bloom::bloom_filter_view<std::string>(corrupt.data(), corrupt.size()),
                    bloom::format_error);
    // Skipping the checksum opens it (the header is intact); lookups stay inside the record.
    const bloom::bloom_filter_view<std::string> unchecked(corrupt.data(), corrupt.size(),
                                                          bloom::checksum::skip);
    CHECK(unchecked.contains("x") == unchecked.contains("x"));
    auto corrupt_header = classic;
    corrupt_header[33] ^= std::byte{1};
    CHECK_THROWS_AS(bloom::bloom_filter_view<std::string>(corrupt_header.data(), corrupt_header.size(),
                                                          bloom::checksum::skip),
                    bloom::format_error);
}

TEST_CASE("a mapped file serves a view and moves", "[view][mapped]") {
    const auto directory = std::filesystem::temp_directory_path();
    const auto path = directory / ("bloom-view-test-" + std::to_string(std::random_device{}()) + ".bloom");
    const auto filter = make_filled<bloom::bloom_filter<std::string>>(2000);
    bloom::save_file(filter, path);
    {
        bloom::mapped_file file(path);
        REQUIRE(file.size() == bloom::to_bytes(filter).size());
        bloom::mapped_file moved(std::move(file));
        CHECK(file.data() == nullptr); // NOLINT(bugprone-use-after-move): the moved-from state is specified
        const bloom::bloom_filter_view<std::string> view(moved.data(), moved.size());
        require_same_answers(filter, view, 2000);
    }
    std::filesystem::remove(path);
    CHECK_THROWS_AS(bloom::mapped_file(path), std::filesystem::filesystem_error);
}

#if !defined(BLOOM_TEST_UNDER_TSAN)
namespace {

/// The process's anonymous resident memory (RssAnon in /proc/self/status), in bytes; 0 where unknown.
std::uint64_t anonymous_resident_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("RssAnon:", 0) == 0) {
            return std::stoull(line.substr(8)) * 1024; // "RssAnon:   1234 kB"
        }
    }
    return 0;
}

} // namespace

TEST_CASE("a mapped 256 MB filter answers like the original without growing anonymous memory",
          "[.][view][mapped][large]") {
    // 2^31 bits = 256 MiB. The filter itself is built, saved and kept for the comparison; its memory is
    // counted before the mapping, so what the mapping adds shows on its own.
    constexpr std::uint64_t bit_count = std::uint64_t{1} << 31;
    constexpr std::uint64_t items = 200'000;
    bloom::bloom_filter<std::uint64_t> filter(bloom::filter_geometry{bit_count, 7}, 5);
    bloom_test::insert_keys(filter, 0, items);
    const auto path = std::filesystem::temp_directory_path() /
                      ("bloom-large-view-test-" + std::to_string(std::random_device{}()) + ".bloom");
    bloom::save_file(filter, path);

    const std::uint64_t before = anonymous_resident_bytes();
    {
        const bloom::mapped_file file(path);
        REQUIRE(file.size() >= (bit_count / 8));
        // Opening verifies the checksum: it reads all 256 MiB of the mapping once.
        const bloom::bloom_filter_view<std::uint64_t> view(file.data(), file.size());
        CHECK(bloom_test::count_disagreements(filter, view, 0, 2 * items) == 0);
        const std::uint64_t after = anonymous_resident_bytes();
        if (before != 0) {
            INFO("RssAnon before " << before << " bytes, after " << after);
            // The payload is 256 MiB; a copy would add all of it. A quarter leaves room for a sanitizer's
            // shadow of the pages read and the allocator's own noise.
            CHECK(after < before + bit_count / 8 / 4);
        }
    }
    std::filesystem::remove(path);
}
#endif

TEST_CASE("views of empty filters report a zero rate at once", "[view][fuzz-regression]") {
    // Found by the fuzzer (scripts/fuzz.sh): the blocked view's rate formula looped forever on an empty
    // filter, where the Poisson sum's log(lambda) is -inf. The same input is kept in tests/fuzz/regressions/.
    const auto blocked = bloom::to_bytes(bloom::blocked_bloom_filter<std::uint64_t>(100, 0.01));
    const bloom::blocked_bloom_filter_view<std::uint64_t> blocked_view(blocked.data(), blocked.size());
    CHECK(blocked_view.current_false_positive_rate() == 0.0);
    const auto classic = bloom::to_bytes(bloom::bloom_filter<std::uint64_t>(100, 0.01));
    const bloom::bloom_filter_view<std::uint64_t> classic_view(classic.data(), classic.size());
    CHECK(classic_view.current_false_positive_rate() == 0.0);
    CHECK(bloom::detail::unchecked_blocked_false_positive_rate(512, 0, 7,
                                                               bloom::probe_scheme::bits_anywhere) == 0.0);
    CHECK(bloom::detail::unchecked_blocked_false_positive_rate(512, 0, 8,
                                                               bloom::probe_scheme::one_bit_per_word) == 0.0);
}
