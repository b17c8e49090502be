// SPDX-License-Identifier: MIT
//
// bloom_monitoring_bench: what the honest numbers cost, and what the probe scheme costs. Random
// std::uint64_t keys, 1% target rate, 10^6 to 10^8 items (BLOOM_BENCH_MAX_ITEMS caps the sizes, as for
// bloom_bench):
//
//   current_rate/<kind>/<items>     current_false_positive_rate(): one pass of popcounts over the bits
//                                   (bytes_per_second: the bit array's bytes scanned per second)
//   load_factor/<kind>/<items>      load_factor(): the same pass, then a logarithm
//   lookup/classic/<probes>/<items> contains() of 2n keys, members and non-members alternating, with the
//                                   mixed probes of new filters and with the enhanced double hashing of
//                                   filters loaded from earlier files (per_item: ns)
//   insert/classic/<probes>/<items> insert() of the n members into a cleared filter (per_item: ns)
//
// <kind> is classic, blocked or counting (4-bit counters). Nothing is kept up to date on insert for the
// rate: inserts and lookups cost what they did, and a rate costs one scan, O(m / 64).

#include "keys.hpp"

#include <benchmark/benchmark.h>
#include <bloom/blocked_bloom_filter.hpp>
#include <bloom/bloom_filter.hpp>
#include <bloom/counting_bloom_filter.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

namespace {

using bench::splitmix64;

constexpr std::uint64_t member_seed = 1;
constexpr std::uint64_t non_member_seed = 2;

template <class Filter>
void fill(Filter& filter, std::size_t items) {
    splitmix64 members(member_seed);
    for (std::size_t i = 0; i < items; ++i) {
        filter.insert(members());
    }
}

/// One observer that scans the bits (`observe(filter)`), per byte of the bit array.
template <class Filter, class Observe>
void scan_benchmark(benchmark::State& state, std::size_t items, Observe observe) {
    Filter filter(items, 0.01);
    fill(filter, items);
    for (auto _ : state) {
        benchmark::DoNotOptimize(observe(filter));
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(filter.memory_bytes()));
}

using classic = bloom::bloom_filter<std::uint64_t>;

classic classic_of(std::size_t items, bloom::probe_scheme probes) {
    const bloom::filter_geometry sized = classic(items, 0.01).geometry();
    return classic(bloom::filter_geometry{sized.bit_count, sized.hash_count, probes});
}

void per_item(benchmark::State& state, double operations_per_iteration) {
    state.counters["per_item"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * operations_per_iteration,
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void lookup_benchmark(benchmark::State& state, std::size_t items, bloom::probe_scheme probes) {
    classic filter = classic_of(items, probes);
    fill(filter, items);
    std::size_t found = 0;
    for (auto _ : state) {
        splitmix64 members(member_seed);
        splitmix64 non_members(non_member_seed);
        for (std::size_t i = 0; i < items; ++i) {
            found += filter.contains(members()) ? 1 : 0;
            found += filter.contains(non_members()) ? 1 : 0;
        }
    }
    benchmark::DoNotOptimize(found);
    per_item(state, 2.0 * static_cast<double>(items));
}

void insert_benchmark(benchmark::State& state, std::size_t items, bloom::probe_scheme probes) {
    classic filter = classic_of(items, probes);
    for (auto _ : state) {
        state.PauseTiming();
        filter.clear();
        state.ResumeTiming();
        fill(filter, items);
    }
    benchmark::DoNotOptimize(filter.data());
    per_item(state, static_cast<double>(items));
}

template <class Filter>
void register_kind(const std::string& kind, std::size_t items) {
    using observer = double (*)(const Filter&);
    const std::string size = "/" + std::to_string(items);
    const observer rate = [](const Filter& filter) { return filter.current_false_positive_rate(); };
    const observer load = [](const Filter& filter) { return filter.load_factor(); };
    benchmark::RegisterBenchmark(("current_rate/" + kind + size).c_str(), scan_benchmark<Filter, observer>,
                                 items, rate)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("load_factor/" + kind + size).c_str(), scan_benchmark<Filter, observer>,
                                 items, load)
        ->Unit(benchmark::kMillisecond);
}

} // namespace

int main(int argc, char** argv) {
    std::size_t max_items = 100'000'000;
    if (const char* cap = std::getenv("BLOOM_BENCH_MAX_ITEMS")) {
        max_items = static_cast<std::size_t>(std::strtod(cap, nullptr)); // "1e6" or "1000000"
    }
    for (std::size_t items = max_items < 1'000'000 ? max_items : 1'000'000; items <= max_items; items *= 10) {
        register_kind<classic>("classic", items);
        register_kind<bloom::blocked_bloom_filter<std::uint64_t>>("blocked", items);
        register_kind<bloom::counting_bloom_filter<std::uint64_t>>("counting", items);
        if (items <= 10'000'000) {
            const std::string size = "/" + std::to_string(items);
            for (const auto& [name, probes] :
                 {std::pair{"mixed", bloom::probe_scheme::mixed},
                  std::pair{"enhanced_double_hashing", bloom::probe_scheme::enhanced_double_hashing}}) {
                benchmark::RegisterBenchmark(("lookup/classic/" + std::string(name) + size).c_str(),
                                             lookup_benchmark, items, probes);
                benchmark::RegisterBenchmark(("insert/classic/" + std::string(name) + size).c_str(),
                                             insert_benchmark, items, probes);
            }
        }
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
