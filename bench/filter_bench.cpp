// SPDX-License-Identifier: MIT
//
// Insert and lookup cost of every bloom filter kind beside three references, at 10^4 to 10^8 items, 1%
// target rate, std::uint64_t and 16-character string keys (bench/README.md has the full description).
//
// Benchmark names are <structure>/<keys>/<operation>/<calls>/<items>:
//   structure  classic, blocked, counting, scalable, classic_hugepage, blocked_hugepage, textbook,
//              unordered_set, flat_hash_set
//   keys       u64, str16
//   operation  insert (fill the cleared structure with all n members), lookup_hit (members, shuffled),
//              lookup_miss (keys never inserted), lookup_mixed (half members, half not, shuffled)
//   calls      single (one call per key; one key per benchmark iteration for lookups) or bulk (the range
//              insert / range contains over the whole pre-shuffled key array per iteration)
// Counters: per_item (seconds per operation; the console shows it in ns), bits_per_item (memory / n),
// fpr (filters: the share of non-members reported present), huge_page_share (filters, Linux: the share of
// the bit array the kernel backs with transparent huge pages).
//
// Environment: BLOOM_BENCH_MAX_ITEMS (default 1e8) drops the sizes above it (a smaller value alone if it
// is below 10^4); BLOOM_BENCH_MAX_SET_ITEMS (default 1e7) is the largest size at which the hash sets run.
//
// Benchmarks run in registration order, grouped by (keys, items); each group's keys and structures are
// built on first use and dropped when the next group starts, so only the largest group must fit in memory
// (about 6.5 GB: 10^8 string keys, four arrays of 1.6 GB). Do not pass
// --benchmark_enable_random_interleaving: it would rebuild them over and over.

#include "huge_page_allocator.hpp"
#include "keys.hpp"
#include "reference_filters.hpp"
#include "subjects.hpp"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace bench;

// ---- one group's data: built on first use, dropped when another group starts ----

std::vector<std::function<void()>>& group_releasers() {
    static std::vector<std::function<void()>> releasers;
    return releasers;
}

/// Makes `group` the current group; the previous group's keys and structures are freed first.
void enter_group(const std::string& group) {
    static std::string current;
    if (group != current) {
        for (const auto& release : group_releasers()) {
            release();
        }
        current = group;
    }
}

/// The current group's T, empty until made.
template <class T>
std::unique_ptr<T>& group_slot() {
    static std::unique_ptr<T> slot;
    static const bool registered = (group_releasers().emplace_back([] { slot.reset(); }), true);
    (void)registered;
    return slot;
}

template <class Keys>
const key_set<Keys>& keys_for(std::size_t item_count) {
    enter_group(std::string(Keys::name) + "/" + std::to_string(item_count));
    std::unique_ptr<key_set<Keys>>& slot = group_slot<key_set<Keys>>();
    if (!slot) {
        slot = std::make_unique<key_set<Keys>>(make_key_set<Keys>(item_count));
    }
    return *slot;
}

/// Static filters (fuse) are built once from every member: no insert workloads.
template <class Subject, class = void>
struct is_static_subject : std::false_type {};
template <class Subject>
struct is_static_subject<Subject, std::void_t<decltype(Subject::is_static)>> : std::true_type {};

template <class Subject>
struct built_subject {
    Subject subject;
    double bits_per_item = 0.0;
    double false_positive_rate = 0.0;
    double huge_page_share = 0.0;
};

/// Lookups on at most this many non-members measure a filter's rate (σ ≈ 0.003% at 1%).
constexpr std::size_t rate_sample = 10'000'000;

/// The structure holding all n members, with its measured rate; built once per group.
template <class Subject>
built_subject<Subject>& built_for(std::size_t item_count) {
    using Keys = typename Subject::keys;
    const key_set<Keys>& keys = keys_for<Keys>(item_count);
    std::unique_ptr<built_subject<Subject>>& slot = group_slot<built_subject<Subject>>();
    if (!slot) {
        slot = std::make_unique<built_subject<Subject>>(built_subject<Subject>{Subject(item_count)});
        Subject& subject = slot->subject;
        for (const auto& key : keys.members) {
            subject.insert(key);
        }
        if constexpr (is_static_subject<Subject>::value) {
            subject.finish(); // a static filter is built once from all the members
        }
        const double count = static_cast<double>(item_count);
        slot->bits_per_item = subject.memory_bits() / count;
        if constexpr (Subject::is_filter) {
            const std::size_t sample = std::min(item_count, rate_sample);
            std::size_t positives = 0;
            for (std::size_t i = 0; i < sample; ++i) {
                positives += subject.contains(keys.misses[i]) ? 1 : 0;
            }
            slot->false_positive_rate = static_cast<double>(positives) / static_cast<double>(sample);
#if defined(BLOOM_BENCH_HAVE_HUGE_PAGES)
            // At most 1: the huge-page allocator rounds the storage up to whole huge pages.
            slot->huge_page_share =
                std::min(1.0, static_cast<double>(resident_huge_page_bytes(subject.storage())) /
                                  (subject.memory_bits() / 8.0));
#endif
        }
    }
    return *slot;
}

template <class Subject>
void report(benchmark::State& state, const built_subject<Subject>& built, std::size_t items_per_iteration) {
    const double items = static_cast<double>(state.iterations()) * static_cast<double>(items_per_iteration);
    state.counters["per_item"] =
        benchmark::Counter(items, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["bits_per_item"] = built.bits_per_item;
    if constexpr (Subject::is_filter) {
        state.counters["fpr"] = built.false_positive_rate;
#if defined(BLOOM_BENCH_HAVE_HUGE_PAGES)
        state.counters["huge_page_share"] = built.huge_page_share;
#endif
    }
}

// ---- workloads ----

enum class operation { insert, lookup_hit, lookup_miss, lookup_mixed, build };
enum class calls { single, bulk };

const char* name_of(operation op) {
    switch (op) {
    case operation::insert:
        return "insert";
    case operation::lookup_hit:
        return "lookup_hit";
    case operation::lookup_miss:
        return "lookup_miss";
    case operation::build:
        return "build";
    case operation::lookup_mixed:
        break;
    }
    return "lookup_mixed";
}

template <class Keys>
const typename Keys::array& lookup_keys(const key_set<Keys>& keys, operation op) {
    return op == operation::lookup_hit ? keys.hits : op == operation::lookup_miss ? keys.misses : keys.mixed;
}

/// Each iteration clears the structure (not timed) and inserts all n members again, so it ends as the
/// lookups expect it.
template <class Subject>
void run_insert(benchmark::State& state, std::size_t item_count, calls mode) {
    const auto& members = keys_for<typename Subject::keys>(item_count).members;
    built_subject<Subject>& built = built_for<Subject>(item_count);
    for (auto _ : state) {
        state.PauseTiming();
        built.subject.clear();
        state.ResumeTiming();
        if (mode == calls::bulk) {
            if constexpr (Subject::has_bulk) {
                benchmark::DoNotOptimize(built.subject.insert(members.begin(), members.end()));
            }
        } else {
            for (const auto& key : members) {
                benchmark::DoNotOptimize(built.subject.insert(key));
            }
        }
        benchmark::ClobberMemory();
    }
    report(state, built, item_count);
}

/// A static filter's construction from all n members, per member (the members' copy is not timed).
template <class Subject>
void run_build(benchmark::State& state, std::size_t item_count) {
    const auto& members = keys_for<typename Subject::keys>(item_count).members;
    built_subject<Subject>& built = built_for<Subject>(item_count);
    for (auto _ : state) {
        state.PauseTiming();
        Subject fresh(item_count);
        for (const auto& key : members) {
            fresh.insert(key);
        }
        state.ResumeTiming();
        fresh.finish();
        benchmark::DoNotOptimize(fresh);
        state.PauseTiming();
        fresh = Subject(item_count); // freeing the filter is not part of its construction
        state.ResumeTiming();
    }
    report(state, built, item_count);
}

/// Single: one lookup per iteration, walking the keys in their (shuffled) order.
template <class Subject>
void run_lookup_single(benchmark::State& state, std::size_t item_count, operation op) {
    const auto& keys = lookup_keys(keys_for<typename Subject::keys>(item_count), op);
    const built_subject<Subject>& built = built_for<Subject>(item_count);
    std::size_t next = 0;
    std::size_t found = 0;
    for (auto _ : state) {
        const bool present = built.subject.contains(keys[next]);
        benchmark::DoNotOptimize(present);
        found += present ? 1 : 0;
        next = next + 1 == item_count ? 0 : next + 1;
    }
    if (op == operation::lookup_hit && found != static_cast<std::size_t>(state.iterations())) {
        state.SkipWithError("an inserted key was not found");
    }
    report(state, built, 1);
}

/// Bulk: one range contains over all n keys per iteration, one bool per key.
template <class Subject>
void run_lookup_bulk(benchmark::State& state, std::size_t item_count, operation op) {
    const auto& keys = lookup_keys(keys_for<typename Subject::keys>(item_count), op);
    const built_subject<Subject>& built = built_for<Subject>(item_count);
    const std::unique_ptr<bool[]> results(new bool[item_count]);
    for (auto _ : state) {
        if constexpr (Subject::has_bulk) {
            benchmark::DoNotOptimize(built.subject.contains(keys.begin(), keys.end(), results.get()));
        }
        benchmark::ClobberMemory();
    }
    if (op == operation::lookup_hit && std::count(results.get(), results.get() + item_count, true) !=
                                           static_cast<std::ptrdiff_t>(item_count)) {
        state.SkipWithError("an inserted key was not found");
    }
    report(state, built, item_count);
}

// ---- registration ----

struct settings {
    std::vector<std::size_t> sizes;
    std::size_t max_set_items;
};

std::size_t size_from_environment(const char* variable, std::size_t fallback) {
    const char* const text = std::getenv(variable);
    if (text == nullptr || *text == '\0') {
        return fallback;
    }
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    // Key permutations are 32-bit: at most 2^32 - 1 items.
    if (end == text || *end != '\0' || !(value >= 1.0 && value < 4294967296.0)) {
        std::fprintf(stderr, "bloom_bench: %s=%s is not an item count in [1, 2^32); using %zu\n", variable,
                     text, fallback);
        return fallback;
    }
    return static_cast<std::size_t>(value);
}

settings settings_from_environment() {
    const std::size_t max_items = size_from_environment("BLOOM_BENCH_MAX_ITEMS", 100'000'000);
    settings chosen{{}, size_from_environment("BLOOM_BENCH_MAX_SET_ITEMS", 10'000'000)};
    for (const std::size_t size :
         {std::size_t{10'000}, std::size_t{1'000'000}, std::size_t{10'000'000}, std::size_t{100'000'000}}) {
        if (size <= max_items) {
            chosen.sizes.push_back(size);
        }
    }
    if (chosen.sizes.empty()) {
        chosen.sizes.push_back(max_items);
    }
    return chosen;
}

template <class Subject>
void register_subject(const char* structure, std::size_t item_count, bool lookups_only = false) {
    const std::string prefix = std::string(structure) + "/" + Subject::keys::name + "/";
    const auto add = [&](operation op, calls mode, auto run) {
        const std::string name =
            prefix + name_of(op) + (mode == calls::bulk ? "/bulk/" : "/single/") + std::to_string(item_count);
        benchmark::RegisterBenchmark(name.c_str(), run)->Unit(benchmark::kNanosecond);
    };
    if constexpr (is_static_subject<Subject>::value) {
        const std::string name = prefix + "build/single/" + std::to_string(item_count);
        benchmark::RegisterBenchmark(name.c_str(), [item_count](benchmark::State& state) {
            run_build<Subject>(state, item_count);
        })->Unit(benchmark::kNanosecond);
    } else {
        if (!lookups_only) {
            add(operation::insert, calls::single, [item_count](benchmark::State& state) {
                run_insert<Subject>(state, item_count, calls::single);
            });
            if (Subject::has_bulk) {
                add(operation::insert, calls::bulk, [item_count](benchmark::State& state) {
                    run_insert<Subject>(state, item_count, calls::bulk);
                });
            }
        }
    }
    for (const operation op : {operation::lookup_hit, operation::lookup_miss, operation::lookup_mixed}) {
        if (lookups_only && op == operation::lookup_mixed) {
            continue;
        }
        add(op, calls::single,
            [item_count, op](benchmark::State& state) { run_lookup_single<Subject>(state, item_count, op); });
        if (Subject::has_bulk) {
            add(op, calls::bulk, [item_count, op](benchmark::State& state) {
                run_lookup_bulk<Subject>(state, item_count, op);
            });
        }
    }
}

/// Registers every structure for one key type, sizes in increasing order.
template <class Keys>
void register_keys(const settings& chosen) {
    for (const std::size_t item_count : chosen.sizes) {
        register_subject<classic_subject<Keys>>("classic", item_count);
        if constexpr (std::is_same_v<Keys, u64_keys>) {
            register_subject<reference_subject<classic_reference, Keys>>("classic_reference", item_count);
        }
        register_subject<blocked_subject<Keys>>("blocked", item_count);
        register_subject<blocked_word_subject<Keys>>("blocked_word", item_count);
        if constexpr (std::is_same_v<Keys, u64_keys>) {
            register_subject<reference_subject<blocked_reference, Keys>>("blocked_reference", item_count);
        }
        // Static filters beside the Bloom filters of their rates: 2^-8 (0.39%) and 2^-16 (0.0015%).
        register_subject<fuse_subject<Keys, std::uint8_t>>("fuse8", item_count);
        register_subject<
            filter_at_subject<bloom::blocked_bloom_filter<typename Keys::filter_value>, Keys, 3906>>(
            "blocked_at_fuse8", item_count);
        register_subject<fuse_subject<Keys, std::uint16_t>>("fuse16", item_count);
        register_subject<
            filter_at_subject<bloom::blocked_bloom_filter<typename Keys::filter_value>, Keys, 15>>(
            "blocked_at_fuse16", item_count);
        register_subject<counting_subject<Keys>>("counting", item_count);
        register_subject<scalable_subject<Keys>>("scalable", item_count);
#if defined(BLOOM_BENCH_HAVE_HUGE_PAGES)
        // The huge-page experiment matters only far beyond the cache: 10^7 items and up (or the largest
        // size of a short run, so a smoke run still covers it), integer keys, lookups.
        const std::size_t huge_page_from = std::min<std::size_t>(10'000'000, chosen.sizes.back());
        if (std::is_same_v<Keys, u64_keys> && item_count >= huge_page_from) {
            register_subject<classic_hugepage_subject<Keys>>("classic_hugepage", item_count, true);
            register_subject<blocked_hugepage_subject<Keys>>("blocked_hugepage", item_count, true);
        }
#endif
        register_subject<textbook_subject<Keys>>("textbook", item_count);
        if (item_count <= chosen.max_set_items) {
            register_subject<unordered_set_subject<Keys>>("unordered_set", item_count);
#if defined(BLOOM_BENCH_HAVE_ABSL)
            register_subject<flat_hash_set_subject<Keys>>("flat_hash_set", item_count);
#endif
        }
    }
}

const char* simd_kernel() {
#if defined(BLOOM_DISABLE_SIMD)
    return "scalar (BLOOM_DISABLE_SIMD)";
#elif defined(__AVX512F__)
    return "avx512";
#elif defined(__AVX2__)
    return "avx2";
#elif defined(__SSE2__) || defined(_M_X64)
    return "sse2";
#elif defined(__ARM_NEON) && defined(__aarch64__)
    return "neon";
#else
    return "scalar";
#endif
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    const settings chosen = settings_from_environment();
    register_keys<u64_keys>(chosen);
    register_keys<str16_keys>(chosen);

    std::string sizes;
    for (const std::size_t size : chosen.sizes) {
        sizes += (sizes.empty() ? "" : ",") + std::to_string(size);
    }
    benchmark::AddCustomContext("bloom_sizes", sizes);
    benchmark::AddCustomContext("bloom_max_set_items", std::to_string(chosen.max_set_items));
    benchmark::AddCustomContext("bloom_block_kernel", simd_kernel());
#if defined(BLOOM_BENCH_HAVE_ABSL)
    benchmark::AddCustomContext("bloom_abseil", "yes");
#else
    benchmark::AddCustomContext("bloom_abseil", "no (flat_hash_set not built)");
#endif
#if defined(BLOOM_BENCH_HAVE_HUGE_PAGES)
    benchmark::AddCustomContext("bloom_transparent_hugepage", transparent_huge_page_mode());
#endif
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
