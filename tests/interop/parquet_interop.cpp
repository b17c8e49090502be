// SPDX-License-Identifier: MIT
// bloom's side of the Parquet interoperability test (scripts/check-duckdb.sh): DuckDB wrote Parquet files
// and answered parquet_bloom_probe for members and non-members of every column
// (tests/interop/duckdb/parquet_interop.mjs describes answers.tsv). bloom::parquet::file must give the same
// answer for every value and row group, and never call a member absent.
//   bloom_parquet_interop DIR      exit status 0 all agree, 1 a difference, 2 an error
#include "parquet_answers.hpp"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: bloom_parquet_interop DIR\n";
        return 2;
    }
    try {
        const auto tallies = parquet_answers::compare(argv[1]);
        if (tallies.empty()) {
            std::cerr << "bloom_parquet_interop: no answers in " << argv[1] << "/answers.tsv\n";
            return 2;
        }
        return parquet_answers::report(tallies, std::cout) == 0 ? 0 : 1;
    } catch (const std::exception& problem) {
        std::cerr << "bloom_parquet_interop: " << problem.what() << '\n';
        return 2;
    }
}
