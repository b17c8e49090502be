// SPDX-License-Identifier: MIT
//
// parquet_row_groups: a query engine in miniature that skips Parquet row groups with the Bloom filters the
// file's writer stored per column chunk, as Spark, DuckDB and Trino do for `WHERE name = X`.
//
// Opens a Parquet file written by DuckDB (by default the committed tests/data/parquet/small.parquet;
// scripts/check-duckdb.sh passes a 200,000-row file DuckDB writes on the spot) and answers, for members and
// non-members of its `name` (BYTE_ARRAY) and `id` (INT64) columns, "the rows where column = value" twice: by
// a full scan of every row group, and by reading only the row groups whose filter says "maybe"
// (bloom::parquet::might_contain). It prints the row-group reads each way, how many were skipped, and the
// reads a false positive caused. Decoding Parquet's data pages (dictionaries, RLE, Snappy) is a Parquet
// reader's job, not a Bloom filter library's: the rows come from FILE_rows.csv, DuckDB's export of the same
// rows with the row group each is stored in, and "reading a row group" means taking its rows from there.
// It exits 1 if the filtered answer differs from the full scan's for any query (a filter that said "absent"
// for a row group holding the value: a false negative).
//
//   parquet_row_groups [FILE.parquet [FILE_rows.csv]]
//
// smoke-test:

#include "support/example_support.hpp"

#include <bloom/parquet_file.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#ifndef BLOOM_EXAMPLE_DATA_DIR
#    define BLOOM_EXAMPLE_DATA_DIR "tests/data" // run from the source tree
#endif

namespace {

struct row {
    std::string name;
    std::int64_t id = 0;
    std::size_t group = 0;
};

/// The rows of a CSV file of `name,id,row_group` with a header line.
std::vector<row> read_rows(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error("cannot read " + path.string());
    }
    std::vector<row> rows;
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        const std::size_t first = line.find(',');
        const std::size_t second = line.find(',', first + 1);
        if (first == std::string::npos || second == std::string::npos) {
            throw std::runtime_error(path.string() + ": not a name,id,row_group line: " + line);
        }
        rows.push_back({line.substr(0, first), std::stoll(line.substr(first + 1, second - first - 1)),
                        static_cast<std::size_t>(std::stoul(line.substr(second + 1)))});
    }
    return rows;
}

struct totals {
    std::uint64_t queries = 0;
    std::uint64_t full_reads = 0;     // row groups a full scan reads
    std::uint64_t filtered_reads = 0; // row groups whose filter said maybe (or that had none)
    std::uint64_t wasted_reads = 0;   // of those, row groups without a matching row (false positives)
    std::uint64_t mismatches = 0;     // queries whose filtered answer differs from the full scan's
};

/// "SELECT * WHERE column = value" both ways; `matches(row)` says whether a row has the value.
template <class Value, class Matches>
void query(const bloom::parquet::file& parquet, const std::vector<std::vector<const row*>>& groups,
           const char* column, const Value& value, Matches&& matches, totals& sum) {
    std::vector<const row*> full;
    for (const auto& group : groups) {
        for (const row* candidate : group) {
            if (matches(*candidate)) {
                full.push_back(candidate);
            }
        }
    }
    std::vector<const row*> filtered;
    const std::vector<bool> maybe = bloom::parquet::might_contain(parquet, column, value);
    for (std::size_t group = 0; group < groups.size(); ++group) {
        if (!maybe[group]) {
            continue; // the filter says this row group cannot hold the value: skip reading it
        }
        ++sum.filtered_reads;
        bool found = false;
        for (const row* candidate : groups[group]) {
            if (matches(*candidate)) {
                filtered.push_back(candidate);
                found = true;
            }
        }
        sum.wasted_reads += found ? 0 : 1;
    }
    ++sum.queries;
    sum.full_reads += groups.size();
    sum.mismatches += filtered == full ? 0 : 1;
}

void print(const char* what, const totals& sum) {
    std::printf("%-34s %6s queries: full scans read %s row groups, filtered reads %s (%.1f%% skipped), "
                "%s of them false positives\n",
                what, example_support::grouped(sum.queries).c_str(),
                example_support::grouped(sum.full_reads).c_str(),
                example_support::grouped(sum.filtered_reads).c_str(),
                100.0 - example_support::percent(sum.filtered_reads, sum.full_reads),
                example_support::grouped(sum.wasted_reads).c_str());
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::printf(
            "usage: parquet_row_groups [FILE.parquet [FILE_rows.csv]]\n"
            "Skips the row groups of a Parquet file whose Bloom filters exclude a value, and checks every\n"
            "answer against a full scan. Default: the committed tests/data/parquet/small.parquet.\n");
        return 0;
    }
    try {
        const std::filesystem::path file =
            argc > 1 ? std::filesystem::path(argv[1])
                     : std::filesystem::path(BLOOM_EXAMPLE_DATA_DIR) / "parquet" / "small.parquet";
        std::filesystem::path rows_file = file;
        rows_file.replace_filename(file.stem().string() + "_rows.csv");
        if (argc > 2) {
            rows_file = argv[2];
        }
        const bloom::parquet::file parquet = bloom::parquet::file::open(file);
        const std::vector<row> rows = read_rows(rows_file);
        std::vector<std::vector<const row*>> groups(parquet.row_groups().size());
        for (const row& each : rows) {
            if (each.group >= groups.size()) {
                throw std::runtime_error(rows_file.string() + ": a row of row group " +
                                         std::to_string(each.group) + ", but the file has " +
                                         std::to_string(groups.size()));
            }
            groups[each.group].push_back(&each);
        }
        std::printf("%s: %s rows in %zu row groups (%s rows listed in %s)\n", file.string().c_str(),
                    example_support::grouped(static_cast<std::uint64_t>(parquet.num_rows())).c_str(),
                    groups.size(), example_support::grouped(rows.size()).c_str(),
                    rows_file.filename().string().c_str());

        // Members: every distinct value, up to 2,000 of each column; non-members: as many values never
        // stored.
        std::set<std::string> names;
        std::set<std::int64_t> ids;
        for (const row& each : rows) {
            if (names.size() < 300) {
                names.insert(each.name);
            }
            if (ids.size() < 300) {
                ids.insert(each.id);
            }
        }
        totals name_members, name_others, id_members, id_others;
        for (const std::string& name : names) {
            query(
                parquet, groups, "name", name, [&](const row& r) { return r.name == name; }, name_members);
        }
        for (std::size_t i = 0; i < names.size(); ++i) {
            const std::string name = "nobody-" + std::to_string(i);
            query(
                parquet, groups, "name", name, [&](const row& r) { return r.name == name; }, name_others);
        }
        for (const std::int64_t id : ids) {
            query(
                parquet, groups, "id", id, [&](const row& r) { return r.id == id; }, id_members);
        }
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const std::int64_t id = -1 - static_cast<std::int64_t>(i); // ids are never negative
            query(
                parquet, groups, "id", id, [&](const row& r) { return r.id == id; }, id_others);
        }
        print("name = <a stored name>", name_members);
        print("name = <a name never stored>", name_others);
        print("id = <a stored id>", id_members);
        print("id = <an id never stored>", id_others);

        const std::uint64_t mismatches =
            name_members.mismatches + name_others.mismatches + id_members.mismatches + id_others.mismatches;
        if (mismatches != 0) {
            std::printf("FAILED: %s queries found other rows than the full scan\n",
                        example_support::grouped(mismatches).c_str());
            return 1;
        }
        std::printf("every filtered answer equals the full scan's\n");
        return 0;
    } catch (const std::exception& problem) {
        std::fprintf(stderr, "parquet_row_groups: %s\n", problem.what());
        return 2;
    }
}
