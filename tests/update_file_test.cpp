// SPDX-License-Identifier: MIT
// Changing saved files (<bloom/update_file.hpp>, and save_file's choices of what to replace): concurrent
// updates that all land, exclusive creation, symbolic links followed, special files refused, dead
// writers' temporary files removed.
#include "catch.hpp"
#include "test_support.hpp"

#include <bloom/bloom.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#if defined(BLOOM_HAS_UPDATE_FILE)
#    include <sys/stat.h>
#    include <unistd.h>

namespace {

using bloom_test::scratch_directory;
using filter = bloom::bloom_filter<std::uint64_t>;

TEST_CASE("update_file: concurrent updates of one file all land", "[update_file]") {
    // Each thread adds its own 2,000 keys in 40 updates of 50; without the lock, updates that overlap load
    // the same old file and the later rename drops the earlier batch.
    const scratch_directory directory;
    const auto path = directory.path() / "shared.bloom";
    bloom::save_file(filter(100000, 0.01), path);
    constexpr std::uint64_t threads = 4;
    constexpr std::uint64_t batches = 40;
    constexpr std::uint64_t batch = 50;
    std::vector<std::thread> workers;
    for (std::uint64_t t = 0; t < threads; ++t) {
        workers.emplace_back([&path, t] {
            for (std::uint64_t b = 0; b < batches; ++b) {
                bloom::update_file<filter>(path, [&](filter& f) {
                    for (std::uint64_t i = 0; i < batch; ++i) {
                        f.insert((t << 32) | (b * batch + i));
                    }
                });
            }
        });
    }
    for (std::thread& worker : workers) {
        worker.join();
    }
    const auto loaded = bloom::load_file<filter>(path);
    std::uint64_t missing = 0;
    for (std::uint64_t t = 0; t < threads; ++t) {
        for (std::uint64_t i = 0; i < batches * batch; ++i) {
            missing += loaded.contains((t << 32) | i) ? 0 : 1;
        }
    }
    CHECK(missing == 0);
    CHECK(directory.entry_count() == 1); // no temporary file left
}

TEST_CASE("update_file: returns the update's result; a throwing update leaves the file as it was",
          "[update_file]") {
    const scratch_directory directory;
    const auto path = directory.path() / "f.bloom";
    bloom::save_file(filter(1000, 0.01), path);
    const bool was_new =
        bloom::update_file<filter>(path, [](filter& f) { return f.insert(std::uint64_t{7}); });
    CHECK(was_new);
    CHECK(bloom::load_file<filter>(path).contains(std::uint64_t{7}));
    const auto before = bloom::load_file<filter>(path);
    CHECK_THROWS_AS(bloom::update_file<filter>(path,
                                               [](filter& f) {
                                                   f.insert(std::uint64_t{8});
                                                   throw std::runtime_error("changed my mind");
                                               }),
                    std::runtime_error);
    CHECK(bloom::load_file<filter>(path) == before);
    CHECK(directory.entry_count() == 1);
    // A missing file, and a file of another kind, are errors naming the file.
    CHECK_THROWS_AS(bloom::update_file<filter>(directory.path() / "missing.bloom", [](filter&) {}),
                    std::filesystem::filesystem_error);
    CHECK_THROWS_AS(bloom::update_file<bloom::blocked_bloom_filter<std::uint64_t>>(path, [](auto&) {}),
                    bloom::format_error);
}

TEST_CASE("save_file: create_new never replaces a file", "[update_file]") {
    const scratch_directory directory;
    const auto path = directory.path() / "f.bloom";
    filter first(1000, 0.01);
    first.insert(std::uint64_t{1});
    bloom::save_file(first, path, bloom::save_mode::create_new);
    try {
        bloom::save_file(filter(1000, 0.01), path, bloom::save_mode::create_new);
        FAIL("create_new replaced an existing file");
    } catch (const std::filesystem::filesystem_error& error) {
        CHECK(error.code() == std::errc::file_exists);
    }
    CHECK(bloom::load_file<filter>(path) == first);
    CHECK(directory.entry_count() == 1);
}

TEST_CASE("save_file: writes through symbolic links and refuses special files", "[update_file]") {
    const scratch_directory directory;
    const auto target = directory.path() / "target.bloom";
    const auto link = directory.path() / "link.bloom";
    bloom::save_file(filter(1000, 0.01), target);
    std::filesystem::create_symlink("target.bloom", link); // relative, as `ln -s` makes it
    filter changed(1000, 0.01);
    changed.insert(std::uint64_t{42});
    bloom::save_file(changed, link);
    CHECK(std::filesystem::is_symlink(link));
    CHECK(bloom::load_file<filter>(target) == changed);
    bloom::update_file<filter>(link, [](filter& f) { f.insert(std::uint64_t{43}); });
    CHECK(std::filesystem::is_symlink(link));
    CHECK(bloom::load_file<filter>(target).contains(std::uint64_t{43}));

    const auto fifo = directory.path() / "fifo.bloom";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THROWS_AS(bloom::save_file(changed, fifo), std::filesystem::filesystem_error);
    CHECK(std::filesystem::is_fifo(fifo));
    CHECK_THROWS_AS(bloom::update_file<filter>(fifo, [](filter&) {}), std::filesystem::filesystem_error);
    CHECK_THROWS_AS(bloom::save_file(changed, directory.path()), std::filesystem::filesystem_error);
    CHECK(std::filesystem::is_directory(directory.path()));
}

TEST_CASE("save_file: removes temporary files of dead writers, keeps the living's; long names fit",
          "[update_file]") {
    const scratch_directory directory;
    const auto path = directory.path() / "f.bloom";
    const auto touch = [](const std::filesystem::path& file) { std::ofstream(file) << "partial"; };
    const auto dead = directory.path() / "f.bloom.tmp-2147483646-3"; // above any pid_max: no such process
    const auto living = directory.path() / ("f.bloom.tmp-" + std::to_string(::getpid()) + "-9");
    const auto other = directory.path() / "g.bloom.tmp-2147483646-3";
    touch(dead);
    touch(living);
    touch(other);
    bloom::save_file(filter(1000, 0.01), path);
    CHECK_FALSE(std::filesystem::exists(dead));
    CHECK(std::filesystem::exists(living));
    CHECK(std::filesystem::exists(other));
    // 251 bytes of name: the temporary name beside it still fits in 255.
    const auto long_path = directory.path() / (std::string(245, 'n') + ".bloom");
    bloom::save_file(filter(1000, 0.01), long_path);
    CHECK(std::filesystem::exists(long_path));
}

} // namespace

#endif
