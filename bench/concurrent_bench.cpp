// SPDX-License-Identifier: MIT
//
// bloom_concurrent_bench: what thread safety costs and what a second thread buys. Inserts and lookups of
// random std::uint64_t keys, 1% target rate, at 10^6 and 10^7 items:
//
//   plain/<layout>/...        bloom::bloom_filter / bloom::blocked_bloom_filter, one thread
//   concurrent/<layout>/...   bloom::concurrent_bloom_filter / concurrent_blocked_bloom_filter, 1 and 2
//                             threads sharing one filter (each thread takes its own share of the keys)
//
// Names: <kind>/<layout>/<operation>/<items>/threads:<n>. per_item is wall-clock time divided by the
// operations of all threads together: with two threads that scale perfectly it halves. Each run builds a
// fresh filter (thread 0, before the threads start together) and does one pass: inserts fill the empty
// filter with n keys; lookups ask 2n keys, members and non-members alternating. Median of 3 runs.

#include <benchmark/benchmark.h>
#include <bloom/blocked_bloom_filter.hpp>
#include <bloom/bloom_filter.hpp>
#include <bloom/concurrent_bloom_filter.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace {

std::uint64_t mix(std::uint64_t value) {
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
    return value ^ (value >> 31);
}

/// Keys 0..n-1 are members; lookups walk 2n keys, every other one a non-member.
const std::vector<std::uint64_t>& keys_for(std::size_t count) {
    static std::size_t cached_count = 0;
    static std::vector<std::uint64_t> keys;
    if (cached_count != count) {
        keys.resize(2 * count);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            keys[i] = mix(i + 1);
        }
        cached_count = count;
    }
    return keys;
}

/// The shared filter of one benchmark: built by thread 0 before the others start.
template <class Filter>
std::unique_ptr<Filter>& shared_filter() {
    static std::unique_ptr<Filter> filter;
    return filter;
}

template <class Filter>
void insert_benchmark(benchmark::State& state) {
    const auto item_count = static_cast<std::size_t>(state.range(0));
    const std::vector<std::uint64_t>& keys = keys_for(item_count);
    if (state.thread_index() == 0) {
        shared_filter<Filter>() = std::make_unique<Filter>(item_count, 0.01);
    }
    const auto threads = static_cast<std::size_t>(state.threads());
    const std::size_t share = item_count / threads;
    const std::size_t begin = share * static_cast<std::size_t>(state.thread_index());
    for (auto _ : state) {
        Filter& filter = *shared_filter<Filter>();
        std::size_t inserted = 0;
        for (std::size_t i = begin; i < begin + share; ++i) {
            inserted += filter.insert(keys[i]) ? 1 : 0;
        }
        benchmark::DoNotOptimize(inserted);
    }
    state.counters["per_item"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(share),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class Filter>
void lookup_benchmark(benchmark::State& state) {
    const auto item_count = static_cast<std::size_t>(state.range(0));
    const std::vector<std::uint64_t>& keys = keys_for(item_count);
    if (state.thread_index() == 0) {
        auto filter = std::make_unique<Filter>(item_count, 0.01);
        for (std::size_t i = 0; i < item_count; ++i) {
            filter->insert(keys[i]);
        }
        shared_filter<Filter>() = std::move(filter);
    }
    const auto threads = static_cast<std::size_t>(state.threads());
    const std::size_t share = keys.size() / threads;
    const std::size_t begin = share * static_cast<std::size_t>(state.thread_index());
    for (auto _ : state) {
        const Filter& filter = *shared_filter<Filter>();
        std::size_t found = 0;
        for (std::size_t i = begin; i < begin + share; ++i) {
            // Interleave members and non-members: key i and key n + i.
            const std::size_t index = i % 2 == 0 ? i / 2 : item_count + i / 2;
            found += filter.contains(keys[index]) ? 1 : 0;
        }
        benchmark::DoNotOptimize(found);
    }
    state.counters["per_item"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(share),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class Filter>
void register_pair(const std::string& name, bool threaded) {
    for (const std::int64_t items : {std::int64_t{1'000'000}, std::int64_t{10'000'000}}) {
        auto* insert = benchmark::RegisterBenchmark((name + "/insert").c_str(), insert_benchmark<Filter>);
        auto* lookup = benchmark::RegisterBenchmark((name + "/lookup").c_str(), lookup_benchmark<Filter>);
        for (auto* bench : {insert, lookup}) {
            bench->Arg(items)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
            bench->ReportAggregatesOnly(true);
            bench->Threads(1);
            if (threaded) {
                bench->Threads(2);
            }
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    register_pair<bloom::bloom_filter<std::uint64_t>>("plain/classic", false);
    register_pair<bloom::concurrent_bloom_filter<std::uint64_t>>("concurrent/classic", true);
    register_pair<bloom::blocked_bloom_filter<std::uint64_t>>("plain/blocked", false);
    register_pair<bloom::concurrent_blocked_bloom_filter<std::uint64_t>>("concurrent/blocked", true);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
