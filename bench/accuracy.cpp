// SPDX-License-Identifier: MIT
//
// bloom_accuracy: the measured false-positive rate of each filter kind next to its formula, for 4 to 20
// bits per item. Prints CSV on standard output, one row per (filter kind, bits per item):
//
//   kind,bits_per_item,bit_count,hash_count,items,queries,false_positives,measured_rate,formula_rate,sigma,z
//
//   classic  bloom::bloom_filter of m = b·n bits, k = bloom::optimal_hash_count(m, n);
//            formula bloom::false_positive_rate(m, k, n)
//   blocked  bloom::blocked_bloom_filter of m = b·n bits rounded up to whole 512-bit blocks (k is always 8);
//            formula bloom::blocked_false_positive_rate(m, n)
//
// Each filter holds n random std::uint64_t keys and answers `queries` random keys never inserted; sigma
// is the standard error of the measured rate, sqrt(p(1 - p) / queries) at the formula's p, and z the
// deviation (measured - formula) / sigma (|z| < 4 but for 1 in 16,000 rows if the formula is right).
//
// Usage: bloom_accuracy [--items N] [--queries Q] [--min-bits B] [--max-bits B]
//        defaults: 10^6 items, 10^7 queries, 4 to 20 bits per item (about 10 s on one core).

#include "keys.hpp"

#include <bloom/bloom.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace {

struct options {
    std::uint64_t items = 1'000'000;
    std::uint64_t queries = 10'000'000;
    unsigned min_bits = 4;
    unsigned max_bits = 20;
};

[[noreturn]] void usage(const char* problem) {
    std::fprintf(stderr,
                 "bloom_accuracy: %s\n"
                 "usage: bloom_accuracy [--items N] [--queries Q] [--min-bits B] [--max-bits B]\n",
                 problem);
    std::exit(2);
}

std::uint64_t parse_count(const char* text) {
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(value >= 1.0 && value < 1e12)) {
        usage("expected a count such as 1000000 or 1e6");
    }
    return static_cast<std::uint64_t>(value);
}

options parse(int argc, char** argv) {
    options chosen;
    for (int i = 1; i < argc; ++i) {
        const char* const flag = argv[i];
        if (i + 1 == argc) {
            usage("every option takes a value");
        }
        const char* const value = argv[++i];
        if (std::strcmp(flag, "--items") == 0) {
            chosen.items = parse_count(value);
        } else if (std::strcmp(flag, "--queries") == 0) {
            chosen.queries = parse_count(value);
        } else if (std::strcmp(flag, "--min-bits") == 0) {
            chosen.min_bits = static_cast<unsigned>(parse_count(value));
        } else if (std::strcmp(flag, "--max-bits") == 0) {
            chosen.max_bits = static_cast<unsigned>(parse_count(value));
        } else {
            usage("unknown option");
        }
    }
    if (chosen.min_bits > chosen.max_bits) {
        usage("--min-bits is larger than --max-bits");
    }
    return chosen;
}

/// Inserts every member, then counts the queries reported present, both through the bulk calls.
template <class Filter>
std::uint64_t count_false_positives(Filter& filter, const std::vector<std::uint64_t>& members,
                                    const std::vector<std::uint64_t>& queries) {
    filter.insert(members.begin(), members.end());
    const std::unique_ptr<bool[]> found(new bool[queries.size()]);
    filter.contains(queries.begin(), queries.end(), found.get());
    std::uint64_t positives = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
        positives += found[i] ? 1 : 0;
    }
    return positives;
}

void print_row(const char* kind, const options& chosen, std::uint64_t bit_count, unsigned hash_count,
               std::uint64_t positives, double formula) {
    const double queries = static_cast<double>(chosen.queries);
    const double sigma = std::sqrt(formula * (1.0 - formula) / queries);
    const double measured = static_cast<double>(positives) / queries;
    std::printf("%s,%.4f,%llu,%u,%llu,%llu,%llu,%.6e,%.6e,%.3e,%.2f\n", kind,
                static_cast<double>(bit_count) / static_cast<double>(chosen.items),
                static_cast<unsigned long long>(bit_count), hash_count,
                static_cast<unsigned long long>(chosen.items),
                static_cast<unsigned long long>(chosen.queries), static_cast<unsigned long long>(positives),
                measured, formula, sigma, (measured - formula) / sigma);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) try {
    const options chosen = parse(argc, argv);

    // Random members and non-members from one stream: a repeat among 10^7 random 64-bit values has
    // probability ~3e-6, far too rare to move a rate.
    bench::splitmix64 random(0xacc0de);
    std::vector<std::uint64_t> members(chosen.items);
    std::vector<std::uint64_t> queries(chosen.queries);
    for (auto& key : members) {
        key = random();
    }
    for (auto& key : queries) {
        key = random();
    }

    std::printf("kind,bits_per_item,bit_count,hash_count,items,queries,false_positives,measured_rate,"
                "formula_rate,sigma,z\n");
    for (unsigned bits = chosen.min_bits; bits <= chosen.max_bits; ++bits) {
        const std::uint64_t classic_bits = bits * chosen.items;
        const unsigned hash_count = bloom::optimal_hash_count(classic_bits, chosen.items);
        bloom::bloom_filter<std::uint64_t> classic(bloom::filter_geometry{classic_bits, hash_count});
        print_row("classic", chosen, classic_bits, hash_count,
                  count_false_positives(classic, members, queries),
                  bloom::false_positive_rate(classic_bits, hash_count, chosen.items));

        const std::uint64_t blocked_bits = (classic_bits + 511) / 512 * 512;
        bloom::blocked_bloom_filter<std::uint64_t> blocked(bloom::filter_geometry{blocked_bits, 8});
        print_row("blocked", chosen, blocked_bits, blocked.hash_count(),
                  count_false_positives(blocked, members, queries),
                  bloom::blocked_false_positive_rate(blocked_bits, chosen.items));
    }
    return 0;
} catch (const std::exception& error) {
    std::fprintf(stderr, "bloom_accuracy: %s\n", error.what());
    return 1;
}
