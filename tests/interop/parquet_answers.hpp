// SPDX-License-Identifier: MIT
#ifndef BLOOM_TESTS_INTEROP_PARQUET_ANSWERS_HPP
#define BLOOM_TESTS_INTEROP_PARQUET_ANSWERS_HPP

// DuckDB's parquet_bloom_probe answers (tests/interop/duckdb/parquet_interop.mjs describes answers.tsv)
// against bloom::parquet::file's, per file and column. Shared by the unit test (the committed files of
// tests/data/parquet) and the interop program scripts/check-duckdb.sh runs against DuckDB itself.

#include <bloom/parquet_file.hpp>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace parquet_answers {

inline std::string from_hex(const std::string& hex) {
    std::string text;
    if (hex == "-") {
        return text;
    }
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
        text += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    }
    return text;
}

struct tally {
    std::size_t answers = 0;        // row-group answers DuckDB gave
    std::size_t different = 0;      // ours differ (absent vs not)
    std::size_t members_absent = 0; // a member we call absent
    std::size_t excluded = 0;       // our absent answers
    std::size_t without_filter = 0; // chunks without a filter
};

/// Our answers against DuckDB's, per (file, column), for the files and DIR/answers.tsv in `dir`. Throws
/// std::runtime_error if the answers cannot be read.
inline std::map<std::pair<std::string, std::string>, tally> compare(const std::string& dir) {
    std::ifstream in(dir + "/answers.tsv");
    if (!in) {
        throw std::runtime_error("cannot read " + dir + "/answers.tsv");
    }
    std::map<std::string, bloom::parquet::file> files;
    std::map<std::pair<std::string, std::string>, tally> tallies;
    std::string cached_key;
    std::vector<bloom::parquet::probe_result> cached;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string name, column, hex, member, group, excludes;
        if (!std::getline(fields, name, '\t') || !std::getline(fields, column, '\t') ||
            !std::getline(fields, hex, '\t') || !std::getline(fields, member, '\t') ||
            !std::getline(fields, group, '\t') || !std::getline(fields, excludes, '\t')) {
            throw std::runtime_error("bad line in answers.tsv: " + line);
        }
        auto found = files.find(name);
        if (found == files.end()) {
            found = files.emplace(name, bloom::parquet::file::open(dir + "/" + name)).first;
        }
        const std::string key = name + '\t' + column + '\t' + hex;
        if (key != cached_key) {
            cached = found->second.probe_text(column, from_hex(hex));
            cached_key = key;
        }
        const auto index = static_cast<std::size_t>(std::stoul(group));
        tally& counts = tallies[{name, column}];
        ++counts.answers;
        const bool ours_absent =
            index < cached.size() && cached[index] == bloom::parquet::probe_result::absent;
        counts.different += (index >= cached.size() || ours_absent != (excludes == "1")) ? 1 : 0;
        counts.members_absent += (member == "1" && ours_absent) ? 1 : 0;
        counts.excluded += ours_absent ? 1 : 0;
        counts.without_filter +=
            index < cached.size() && cached[index] == bloom::parquet::probe_result::no_filter ? 1 : 0;
    }
    return tallies;
}

/// Prints one line per (file, column); returns how many disagree.
inline int report(const std::map<std::pair<std::string, std::string>, tally>& tallies, std::ostream& out) {
    int failures = 0;
    for (const auto& [where, counts] : tallies) {
        const bool ok = counts.different == 0 && counts.members_absent == 0;
        out << (ok ? "ok   " : "FAIL ") << where.first << " " << where.second << ": " << counts.answers
            << " row-group answers, " << counts.excluded << " absent, " << counts.without_filter
            << " without a filter, " << counts.different << " different from DuckDB, "
            << counts.members_absent << " members called absent\n";
        failures += ok ? 0 : 1;
    }
    return failures;
}

} // namespace parquet_answers

#endif // BLOOM_TESTS_INTEROP_PARQUET_ANSWERS_HPP
