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
//
// What the atomic words cost a lookup, on one thread, each concurrent filter next to its plain twin:
//
//   <kind>/<layout>/<contains|contains_bulk>/<hit|miss|mixed>/<items>
//
// contains asks one key at a time; contains_bulk passes 4096 keys to the range form (which hashes ahead and
// prefetches). Members (hit), non-members (miss) or both alternating (mixed), of a filter holding n keys
// built once; per_item is the time per lookup. 10^5 items fit the L2 cache, 10^7 do not fit the L3.

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

/// Which keys a lookup benchmark asks: members, non-members, or the two alternating.
enum class query_mix : std::int64_t { hit, miss, mixed };

/// The filter of the lookup-kind benchmarks, holding keys 0..n-1: built once per type and size.
template <class Filter>
const Filter& filled_filter(std::size_t item_count) {
    static std::size_t cached_count = 0;
    static std::unique_ptr<Filter> filter;
    if (filter == nullptr || cached_count != item_count) {
        const std::vector<std::uint64_t>& keys = keys_for(item_count);
        filter = std::make_unique<Filter>(item_count, 0.01);
        filter->insert(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(item_count));
        cached_count = item_count;
    }
    return *filter;
}

/// n keys to ask, in the order of `mix`.
std::vector<std::uint64_t> queries_for(std::size_t item_count, query_mix mix) {
    const std::vector<std::uint64_t>& keys = keys_for(item_count);
    std::vector<std::uint64_t> queries(item_count);
    for (std::size_t i = 0; i < item_count; ++i) {
        const bool member = mix == query_mix::hit || (mix == query_mix::mixed && i % 2 == 0);
        queries[i] = keys[member ? i : item_count + i];
    }
    return queries;
}

// Keys per iteration: enough to amortise the bulk pipeline's fill and drain (a window of 16 or 64 items).
constexpr std::size_t lookup_batch = 4096;

template <class Filter, bool Bulk>
void lookup_kind_benchmark(benchmark::State& state, query_mix mix) {
    const auto item_count = static_cast<std::size_t>(state.range(0));
    const std::vector<std::uint64_t> queries = queries_for(item_count, mix);
    const Filter& filter = filled_filter<Filter>(item_count);
    std::vector<std::uint8_t> results(lookup_batch);
    std::size_t offset = 0;
    for (auto _ : state) {
        const auto first = queries.begin() + static_cast<std::ptrdiff_t>(offset);
        if constexpr (Bulk) {
            filter.contains(first, first + static_cast<std::ptrdiff_t>(lookup_batch), results.begin());
            benchmark::DoNotOptimize(results.data());
            benchmark::ClobberMemory();
        } else {
            std::size_t found = 0;
            for (std::size_t i = 0; i < lookup_batch; ++i) {
                found += filter.contains(first[static_cast<std::ptrdiff_t>(i)]) ? 1 : 0;
            }
            benchmark::DoNotOptimize(found);
        }
        offset = offset + 2 * lookup_batch > queries.size() ? 0 : offset + lookup_batch;
    }
    state.counters["per_item"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(lookup_batch),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// Single and bulk lookups of a plain filter and its concurrent twin, registered side by side.
template <class Plain, class Concurrent>
void register_lookup_kinds(const std::string& layout) {
    constexpr const char* mix_names[] = {"hit", "miss", "mixed"};
    for (const std::int64_t items :
         {std::int64_t{100'000}, std::int64_t{1'000'000}, std::int64_t{10'000'000}}) {
        for (const bool bulk : {false, true}) {
            for (const query_mix mix : {query_mix::hit, query_mix::miss, query_mix::mixed}) {
                const std::string operation = std::string(bulk ? "/contains_bulk/" : "/contains/") +
                                              mix_names[static_cast<std::size_t>(mix)];
                const auto plain =
                    bulk ? lookup_kind_benchmark<Plain, true> : lookup_kind_benchmark<Plain, false>;
                const auto concurrent =
                    bulk ? lookup_kind_benchmark<Concurrent, true> : lookup_kind_benchmark<Concurrent, false>;
                benchmark::RegisterBenchmark(("plain/" + layout + operation).c_str(), plain, mix)->Arg(items);
                benchmark::RegisterBenchmark(("concurrent/" + layout + operation).c_str(), concurrent, mix)
                    ->Arg(items);
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
    register_lookup_kinds<bloom::bloom_filter<std::uint64_t>, bloom::concurrent_bloom_filter<std::uint64_t>>(
        "classic");
    register_lookup_kinds<bloom::blocked_bloom_filter<std::uint64_t>,
                          bloom::concurrent_blocked_bloom_filter<std::uint64_t>>("blocked");
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
