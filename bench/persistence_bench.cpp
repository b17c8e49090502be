// SPDX-License-Identifier: MIT
//
// bloom_persistence_bench: what saving, loading and viewing cost. Random std::uint64_t keys, 1% target
// rate, 10^5 to 10^7 items (BLOOM_BENCH_MAX_ITEMS caps the sizes, as for bloom_bench):
//
//   save/<layout>/<items>              to_bytes: header, words, XXH3 checksum (bytes_per_second)
//   load/<layout>/<items>              from_bytes: every check, the checksum, one copy of the words
//   view_open/<layout>/<check>/<items> opening a view in place: checksum verify (reads every byte) or skip
//   lookup/<layout>/<source>/<items>   contains() on the filter itself, or on a view of its saved bytes;
//                                      2n keys, members and non-members alternating (per_item: ns)
//
// <layout> is classic or blocked. Sizes are the filter's items; the record is about 1.2 bytes per item.

#include <benchmark/benchmark.h>
#include <bloom/blocked_bloom_filter.hpp>
#include <bloom/bloom_filter.hpp>
#include <bloom/filter_view.hpp>
#include <bloom/serialization.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

std::uint64_t mix(std::uint64_t value) {
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
    return value ^ (value >> 31);
}

/// A filter of `items` keys mix(1..items); lookups ask mix(1..2 items).
template <class Filter>
Filter filled(std::size_t items) {
    Filter filter(items, 0.01);
    for (std::size_t i = 1; i <= items; ++i) {
        filter.insert(mix(i));
    }
    return filter;
}

template <class Filter>
void save_benchmark(benchmark::State& state, std::size_t items) {
    const Filter filter = filled<Filter>(items);
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::vector<std::byte> record = bloom::to_bytes(filter);
        bytes = record.size();
        benchmark::DoNotOptimize(record.data());
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}

template <class Filter>
void load_benchmark(benchmark::State& state, std::size_t items) {
    const std::vector<std::byte> record = bloom::to_bytes(filled<Filter>(items));
    for (auto _ : state) {
        const Filter loaded = bloom::from_bytes<Filter>(record.data(), record.size());
        benchmark::DoNotOptimize(loaded.data());
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(record.size()));
}

template <class Filter, class View>
void view_open_benchmark(benchmark::State& state, std::size_t items, bloom::checksum check) {
    const std::vector<std::byte> record = bloom::to_bytes(filled<Filter>(items));
    for (auto _ : state) {
        const View view(record.data(), record.size(), check);
        benchmark::DoNotOptimize(view.bit_count());
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(record.size()));
}

template <class Subject>
void lookup_loop(benchmark::State& state, const Subject& subject, std::size_t items) {
    std::size_t found = 0;
    for (auto _ : state) {
        for (std::size_t i = 1; i <= 2 * items; ++i) {
            found += subject.contains(mix(i)) ? 1 : 0;
        }
    }
    benchmark::DoNotOptimize(found);
    state.counters["per_item"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * 2.0 * static_cast<double>(items),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class Filter>
void filter_lookup_benchmark(benchmark::State& state, std::size_t items) {
    const Filter filter = filled<Filter>(items);
    lookup_loop(state, filter, items);
}

template <class Filter, class View>
void view_lookup_benchmark(benchmark::State& state, std::size_t items) {
    const std::vector<std::byte> record = bloom::to_bytes(filled<Filter>(items));
    const View view(record.data(), record.size());
    lookup_loop(state, view, items);
}

template <class Filter, class View>
void register_layout(const std::string& layout, std::size_t items) {
    const std::string size = "/" + std::to_string(items);
    benchmark::RegisterBenchmark(("save/" + layout + size).c_str(), save_benchmark<Filter>, items);
    benchmark::RegisterBenchmark(("load/" + layout + size).c_str(), load_benchmark<Filter>, items);
    benchmark::RegisterBenchmark(("view_open/" + layout + "/verify" + size).c_str(),
                                 view_open_benchmark<Filter, View>, items, bloom::checksum::verify);
    benchmark::RegisterBenchmark(("view_open/" + layout + "/skip" + size).c_str(),
                                 view_open_benchmark<Filter, View>, items, bloom::checksum::skip);
    benchmark::RegisterBenchmark(("lookup/" + layout + "/filter" + size).c_str(),
                                 filter_lookup_benchmark<Filter>, items);
    benchmark::RegisterBenchmark(("lookup/" + layout + "/view" + size).c_str(),
                                 view_lookup_benchmark<Filter, View>, items);
}

} // namespace

int main(int argc, char** argv) {
    std::size_t max_items = 10'000'000;
    if (const char* cap = std::getenv("BLOOM_BENCH_MAX_ITEMS")) {
        max_items = static_cast<std::size_t>(std::strtod(cap, nullptr)); // "1e6" or "1000000"
    }
    for (std::size_t items = max_items < 100'000 ? max_items : 100'000; items <= max_items; items *= 10) {
        register_layout<bloom::bloom_filter<std::uint64_t>, bloom::bloom_filter_view<std::uint64_t>>(
            "classic", items);
        register_layout<bloom::blocked_bloom_filter<std::uint64_t>,
                        bloom::blocked_bloom_filter_view<std::uint64_t>>("blocked", items);
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
