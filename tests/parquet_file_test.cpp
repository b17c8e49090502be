// SPDX-License-Identifier: MIT
// bloom/parquet_file.hpp: the Bloom filters inside a Parquet file. The committed
// tests/data/parquet/small.parquet was written by DuckDB 1.5 (tests/interop/duckdb/parquet_interop.mjs
// --small) with DuckDB's own parquet_bloom_probe answers beside it: ours must equal them for every value and
// row group. Then the footer reader on truncated, mangled and hostile input: always bloom::format_error,
// never a read out of bounds or an allocation beyond the input.
#include "catch.hpp"
#include "interop/parquet_answers.hpp"
#include "test_support.hpp"

#include <bloom/detail/byte_order.hpp>
#include <bloom/format_error.hpp>
#include <bloom/parquet_file.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using bloom::parquet::probe_result;
using bloom_test::require_invalid_argument;

const std::filesystem::path parquet_data = std::filesystem::path(BLOOM_TEST_DATA_DIR) / "parquet";

using bloom_test::read_file_bytes;

template <class Call>
void require_format_error(Call&& call, const std::string& part) {
    bloom_test::require_format_error_containing(std::forward<Call>(call), part);
}

/// The footer's length, from the last 8 bytes.
std::uint32_t footer_length(const std::vector<std::byte>& bytes) {
    return static_cast<std::uint32_t>(bloom::detail::load_little_endian(
        reinterpret_cast<const unsigned char*>(bytes.data()) + bytes.size() - 8, 4));
}

} // namespace

TEST_CASE("bloom::parquet::file answers as DuckDB's parquet_bloom_probe",
          "[parquet][parquet_file][interop]") {
    const auto tallies = parquet_answers::compare(parquet_data.string());
    REQUIRE(tallies.size() == 6); // six columns of small.parquet
    std::size_t answers = 0;
    std::size_t excluded = 0;
    std::size_t with_filter = 0;
    for (const auto& [where, counts] : tallies) {
        INFO(where.second);
        CHECK(counts.different == 0);
        CHECK(counts.members_absent == 0);
        answers += counts.answers;
        excluded += counts.excluded;
        with_filter += counts.answers - counts.without_filter;
    }
    // Both answers occur, and most chunks carry a filter: the comparison cannot pass by a constant.
    CHECK(answers == 1800);
    CHECK(excluded > 1000);
    CHECK(excluded < with_filter);
}

TEST_CASE("bloom::parquet::file lists row groups, columns and filters", "[parquet][parquet_file]") {
    const auto from_path = bloom::parquet::file::open(parquet_data / "small.parquet");
    const auto from_memory =
        bloom::parquet::file::from_bytes(read_file_bytes(parquet_data / "small.parquet"));
    for (const auto* parquet : {&from_path, &from_memory}) {
        CHECK(parquet->num_rows() == 6000);
        REQUIRE(parquet->row_groups().size() == 3);
        std::int64_t rows = 0;
        for (const auto& group : parquet->row_groups()) {
            rows += group.num_rows;
            REQUIRE(group.columns.size() == 6);
            CHECK(group.columns[0].path == "name");
            CHECK(group.columns[0].type == bloom::parquet::physical_type::byte_array);
            CHECK(group.columns[2].path == "id");
            CHECK(group.columns[2].type == bloom::parquet::physical_type::int64);
            CHECK(group.columns[3].type == bloom::parquet::physical_type::int32);
            CHECK(group.columns[4].type == bloom::parquet::physical_type::float64);
            CHECK(group.columns[5].type == bloom::parquet::physical_type::float32);
            CHECK(group.columns[2].has_bloom_filter());
        }
        CHECK(rows == 6000);
        CHECK(parquet->column_index("id") == std::optional<std::size_t>(2));
        CHECK_FALSE(parquet->column_index("nope").has_value());
        // 'user-0' .. 'user-199' are rows 0-1999: row group 0 only; id 150 is rows 3000-3019: group 1.
        const auto name = bloom::parquet::might_contain(*parquet, "name", "user-5");
        REQUIRE(name.size() == 3);
        CHECK(name[0]);
        const auto id = parquet->probe("id", 150);
        CHECK(id[1] == probe_result::maybe);
        CHECK(parquet->probe_text("id", "150") == id);
        CHECK(parquet->probe("id", std::int64_t{150}) == id);
        CHECK(parquet->probe("id", 150.0) == id); // a whole double is the integer it equals
        // Values the column's type cannot hold are absent from every row group.
        const std::vector<probe_result> nowhere(3, probe_result::absent);
        CHECK(parquet->probe("small", std::int64_t{1} << 40) == nowhere);
        CHECK(parquet->probe("id", 150.5) == nowhere);
        CHECK(parquet->probe("id", std::numeric_limits<std::uint64_t>::max()) == nowhere);
        CHECK(parquet->probe_text("small", "99999999999999999999999") == nowhere);
        // A typed filter of the chunk answers as probe() does.
        const auto filter = parquet->bloom_filter<std::int64_t>(1, 2);
        CHECK(filter.contains(150));
        CHECK(parquet->bloom_filter_bytes(1, 2).size() ==
              static_cast<std::size_t>(parquet->row_groups()[1].columns[2].bloom_filter_length));
    }
}

TEST_CASE("bloom::parquet::file refuses wrong values, types and indexes", "[parquet][parquet_file][errors]") {
    const auto parquet = bloom::parquet::file::open(parquet_data / "small.parquet");
    require_invalid_argument([&] { (void)parquet.probe("nope", 1); }, {"column", "'nope'"});
    require_invalid_argument([&] { (void)parquet.probe("id", "150"); }, {"value", "a string", "INT64"});
    require_invalid_argument([&] { (void)parquet.probe("name", 5); }, {"value", "an integer", "BYTE_ARRAY"});
    require_invalid_argument([&] { (void)parquet.probe("name", 5.0); }, {"value", "BYTE_ARRAY"});
    require_invalid_argument([&] { (void)parquet.probe_text("id", "12abc"); }, {"text", "not an integer"});
    require_invalid_argument([&] { (void)parquet.probe_text("d", "x1"); }, {"text", "not a number"});
    require_invalid_argument([&] { (void)parquet.bloom_filter<std::string>(0, 2); }, {"T", "INT64"});
    CHECK_THROWS_AS(parquet.bloom_filter_bytes(3, 0), std::out_of_range);
    CHECK_THROWS_AS(parquet.bloom_filter_bytes(0, 6), std::out_of_range);
    CHECK_THROWS_AS(bloom::parquet::file::open(parquet_data / "missing.parquet"),
                    std::filesystem::filesystem_error);
}

TEST_CASE("bloom::parquet::file refuses malformed files with format_error",
          "[parquet][parquet_file][errors]") {
    const std::vector<std::byte> good = read_file_bytes(parquet_data / "small.parquet");
    const auto read = [](std::vector<std::byte> bytes) {
        return [bytes] { return bloom::parquet::file::from_bytes(bytes); };
    };
    // Too short, wrong magic at either end, an encrypted footer.
    require_format_error(read(std::vector<std::byte>(good.begin(), good.begin() + 11)), "not a Parquet file");
    auto bad_end = good;
    bad_end.back() = std::byte{'X'};
    require_format_error(read(bad_end), "PAR1");
    auto bad_start = good;
    bad_start[0] = std::byte{'Q'};
    require_format_error(read(bad_start), "PAR1");
    auto encrypted = good;
    encrypted.back() = std::byte{'E'};
    require_format_error(read(encrypted), "encrypted");
    // A footer length past the file, and zero.
    for (const std::uint32_t length : {static_cast<std::uint32_t>(good.size()), 0xffffffffU, 0U}) {
        auto wrong = good;
        bloom::detail::store_little_endian(reinterpret_cast<unsigned char*>(wrong.data()) + wrong.size() - 8,
                                           length, 4);
        require_format_error(read(wrong), "footer length");
    }
    // Every truncation of the footer (the length shrunk to match): an error naming the footer, never a
    // crash (ASan runs this), and the same for every single-byte change to a footer byte (each either
    // still decodes or is refused).
    const std::uint32_t length = footer_length(good);
    const std::size_t footer_start = good.size() - 8 - length;
    for (std::uint32_t cut = 1; cut < length; cut += 7) {
        std::vector<std::byte> shorter(
            good.begin(), good.begin() + static_cast<std::ptrdiff_t>(footer_start + length - cut));
        std::vector<std::byte> trailer(good.end() - 8, good.end());
        bloom::detail::store_little_endian(reinterpret_cast<unsigned char*>(trailer.data()), length - cut, 4);
        shorter.insert(shorter.end(), trailer.begin(), trailer.end());
        CHECK_THROWS_AS(bloom::parquet::file::from_bytes(shorter), bloom::format_error);
    }
    for (std::size_t at = footer_start; at < good.size() - 8; at += 3) {
        auto changed = good;
        changed[at] ^= std::byte{0x5d};
        try {
            const auto parquet = bloom::parquet::file::from_bytes(changed);
            for (std::size_t group = 0; group < parquet.row_groups().size(); ++group) {
                for (std::size_t column = 0; column < parquet.row_groups()[group].columns.size(); ++column) {
                    if (parquet.row_groups()[group].columns[column].has_bloom_filter()) {
                        (void)parquet.bloom_filter_bytes(group, column);
                    }
                }
            }
        } catch (const bloom::format_error&) {
        } catch (const std::invalid_argument&) {
        }
    }
    // A filter offset past the end of the file.
    const auto parquet = bloom::parquet::file::from_bytes(good);
    const auto offset = static_cast<std::size_t>(parquet.row_groups()[0].columns[2].bloom_filter_offset);
    auto short_file =
        std::vector<std::byte>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(offset + 10));
    short_file.insert(short_file.end(), good.begin() + static_cast<std::ptrdiff_t>(footer_start), good.end());
    // The footer now sits earlier, but its offsets still point where they did: past the shortened file.
    const auto moved = bloom::parquet::file::from_bytes(short_file);
    require_format_error([&] { return moved.bloom_filter_bytes(2, 2); }, "past the file's end");
}
