// SPDX-License-Identifier: MIT
//
// cdn_admission: keep "one-hit wonders" off a CDN's SSD cache by admitting an object on its second request.
//
// Many objects a CDN serves are requested once and never again; writing each of them to the SSD cache wears
// the SSD and evicts objects that would have been hit. The remedy (Maggs & Sitaraman 2015, Akamai) is to
// admit an object only on its second request within a recent window, remembering first requests in a Bloom
// filter. Two filters age the memory: a miss is admitted if `current` or `previous` holds the object,
// otherwise it is inserted into `current` and served without caching; every `--window` requests,
// previous = current and current starts empty, so an object is remembered for one to two windows.
//
// A deterministic trace of `--requests` Zipf-distributed requests (exponent `--zipf`) over `--objects`
// objects runs through a simulated LRU SSD cache of `--cache` objects under three policies: (a) admit every
// miss, (b) second hit with the two Bloom filters, (c) second hit with two exact std::unordered_set windows.
// It prints SSD writes and hit ratios, the writes (b) avoids, and the share of one-hit wonders. Then it
// checks (b) decision by decision against exact windows that shadow its filters: a Bloom filter has no false
// negatives, so every object the exact windows would admit, (b) admits; it may admit a first-time object on
// a false positive, and those extra admissions must stay within `--rate` (plus 6 sigma) of first-time
// misses. Each filter is sized for a whole window at rate/2, so the pair together stays below `--rate`.
//
// smoke-test: --objects 20000 --requests 200000 --cache 1000 --window 10000

#include "support/example_support.hpp"

#include <algorithm>
#include <bloom/bloom.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <list>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace {

using example_support::grouped;
using example_support::percent;
using example_support::splitmix64;

struct options {
    std::uint64_t objects = 1'000'000;
    double zipf = 0.9;
    std::uint64_t requests = 5'000'000;
    std::uint64_t cache = 50'000;
    std::uint64_t window = 100'000;
    double rate = 0.01;
};

void print_usage(std::FILE* out) {
    std::fprintf(out, "usage: cdn_admission [--objects N] [--zipf S] [--requests N] [--cache N] [--window N] "
                      "[--rate P]\n"
                      "  --objects N    distinct objects the trace draws from (default 1000000)\n"
                      "  --zipf S       Zipf exponent of object popularity, >= 0 (default 0.9)\n"
                      "  --requests N   requests in the trace (default 5000000)\n"
                      "  --cache N      SSD cache capacity in objects (default 50000)\n"
                      "  --window N     requests per filter window (default 100000)\n"
                      "  --rate P       false-positive rate of the pair of window filters, in (0, 1) "
                      "(default 0.01)\n"
                      "  --help         print this help\n");
}

/// Fills `parsed` from the command line. Returns -1 to go on, otherwise the exit code (0 after --help).
int parse_options(int argc, char** argv, options& parsed) {
    example_support::option_parser args("cdn_admission", argc, argv, print_usage);
    while (args.next()) {
        const bool known =
            args.count("--objects", parsed.objects, 1, std::numeric_limits<std::uint32_t>::max()) ||
            args.number("--zipf", parsed.zipf, 0.0) || args.count("--requests", parsed.requests, 1) ||
            args.count("--cache", parsed.cache, 1) || args.count("--window", parsed.window, 1) ||
            args.rate("--rate", parsed.rate);
        if (!known) {
            args.unknown();
        }
    }
    return args.status();
}

/// `requests` object ids in [0, objects), id r drawn with probability proportional to 1 / (r + 1)^zipf:
/// the cumulative weights are built once, and each request is a binary search for a uniform point in them.
std::vector<std::uint32_t> zipf_trace(const options& opts) {
    std::vector<double> cumulative(static_cast<std::size_t>(opts.objects));
    double total = 0.0;
    for (std::size_t rank = 0; rank < cumulative.size(); ++rank) {
        total += std::pow(static_cast<double>(rank + 1), -opts.zipf);
        cumulative[rank] = total;
    }
    std::vector<std::uint32_t> trace(static_cast<std::size_t>(opts.requests));
    splitmix64 random(0x2545f4914f6cdd1dULL);
    for (std::uint32_t& id : trace) {
        const double point = random.uniform() * total;
        const auto found = std::upper_bound(cumulative.begin(), cumulative.end(), point);
        const auto rank = static_cast<std::size_t>(found - cumulative.begin());
        id = static_cast<std::uint32_t>(rank < cumulative.size() ? rank : cumulative.size() - 1);
    }
    return trace;
}

/// A simulated SSD cache of `capacity` objects that evicts the least recently used.
class lru_cache {
  public:
    explicit lru_cache(std::uint64_t capacity) : m_capacity(capacity) {
        m_where.reserve(static_cast<std::size_t>(capacity));
    }

    /// On a hit, marks `id` most recently used and returns true; returns false on a miss.
    bool lookup(std::uint64_t id) {
        const auto found = m_where.find(id);
        if (found == m_where.end()) {
            return false;
        }
        m_order.splice(m_order.begin(), m_order, found->second);
        return true;
    }

    /// Writes `id` (not cached) to the cache, evicting the least recently used object when full.
    void admit(std::uint64_t id) {
        if (m_where.size() >= m_capacity) {
            m_where.erase(m_order.back());
            m_order.pop_back();
        }
        m_order.push_front(id);
        m_where.emplace(id, m_order.begin());
    }

  private:
    std::uint64_t m_capacity;
    std::list<std::uint64_t> m_order; // most recently used first
    std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> m_where;
};

struct cache_result {
    std::uint64_t hits = 0;
    std::uint64_t writes = 0; // admissions: objects written to the SSD
};

/// Replays `trace` through an LRU cache of `opts.cache` objects. Before each request `policy.tick(index)`
/// runs; on a miss `policy.admit(id)` decides whether the object is written to the cache.
template <class Policy>
cache_result simulate(const std::vector<std::uint32_t>& trace, const options& opts, Policy& policy) {
    lru_cache cache(opts.cache);
    cache_result result;
    for (std::size_t i = 0; i < trace.size(); ++i) {
        policy.tick(i);
        const std::uint64_t id = trace[i];
        if (cache.lookup(id)) {
            ++result.hits;
        } else if (policy.admit(id)) {
            cache.admit(id);
            ++result.writes;
        }
    }
    return result;
}

/// (a) Every miss is written to the SSD.
struct admit_every_miss {
    void tick(std::size_t) {}
    bool admit(std::uint64_t) { return true; }
};

/// Heap bytes of a std::unordered_set<std::uint64_t>, estimated for libstdc++ on 64-bit glibc: a node per
/// id (next pointer + the id, 16 bytes; std::hash of an integer is not cached), which glibc's malloc turns
/// into a 32-byte chunk (8-byte header, 16-byte rounding, 32 at least), plus bucket_count() pointers.
std::uint64_t estimated_set_bytes(const std::unordered_set<std::uint64_t>& set) {
    return 32 * static_cast<std::uint64_t>(set.size()) +
           static_cast<std::uint64_t>(set.bucket_count()) * sizeof(void*);
}

/// (c) Second request within the window, remembered exactly: two std::unordered_set windows.
class exact_second_hit {
  public:
    explicit exact_second_hit(std::uint64_t window) : m_window(window) {}

    void tick(std::size_t index) {
        if (index != 0 && index % m_window == 0) {
            m_peak_bytes =
                std::max(m_peak_bytes, estimated_set_bytes(m_current) + estimated_set_bytes(m_previous));
            m_previous.swap(m_current);
            m_current.clear();
        }
    }

    bool admit(std::uint64_t id) {
        if (m_current.count(id) != 0 || m_previous.count(id) != 0) {
            return true;
        }
        m_current.insert(id);
        return false;
    }

    std::uint64_t peak_bytes() const {
        return std::max(m_peak_bytes, estimated_set_bytes(m_current) + estimated_set_bytes(m_previous));
    }

  private:
    std::uint64_t m_window;
    std::unordered_set<std::uint64_t> m_current;
    std::unordered_set<std::uint64_t> m_previous;
    std::uint64_t m_peak_bytes = 0;
};

/// (b) Second request within the window, remembered by two rotating Bloom filters. Exact sets shadow the
/// filters (they receive the same inserts and rotate with them), so each decision can be checked: the
/// filters hold a superset of what the sets hold, and the difference is their false positives.
/// The rate formula at a filter's item count, 0 while it is empty.
double formula_rate(const bloom::bloom_filter<std::uint64_t>& filter) {
    return filter.item_count() == 0
               ? 0.0
               : bloom::false_positive_rate(filter.bit_count(), filter.hash_count(), filter.item_count());
}

class bloom_second_hit {
  public:
    /// Each filter holds at most `window` inserts (one per request at most) at rate/2, so a first-time
    /// object passes one of the two with probability 1 - (1 - rate/2)^2 < rate.
    bloom_second_hit(std::uint64_t window, double rate)
        : m_window(window), m_current(window, rate / 2.0), m_previous(window, rate / 2.0) {}

    void tick(std::size_t index) {
        if (index != 0 && index % m_window == 0) {
            m_peak_inserts = std::max(m_peak_inserts, m_current.item_count());
            swap(m_previous, m_current);
            m_current.clear();
            m_exact_previous.swap(m_exact_current);
            m_exact_current.clear();
        }
    }

    bool admit(std::uint64_t id) {
        const bool seen = m_current.contains(id) || m_previous.contains(id);
        const bool truly_seen = m_exact_current.count(id) != 0 || m_exact_previous.count(id) != 0;
        ++m_decisions;
        if (truly_seen) {
            ++m_exact_admissions;
            m_false_negatives += seen ? 0 : 1;
        } else {
            // A first request within the window: the formula's chance that either filter reports it anyway,
            // at each filter's item count (O(1) per decision; current_false_positive_rate() would scan the
            // bits on every request).
            const double pass = 1.0 - (1.0 - formula_rate(m_current)) * (1.0 - formula_rate(m_previous));
            ++m_first_time;
            m_extra_admissions += seen ? 1 : 0;
            m_expected_extra += pass;
        }
        if (seen) {
            return true;
        }
        m_current.insert(id);
        m_exact_current.insert(id);
        return false;
    }

    const bloom::bloom_filter<std::uint64_t>& filter() const { return m_current; }
    std::uint64_t decisions() const { return m_decisions; }
    std::uint64_t exact_admissions() const { return m_exact_admissions; }
    std::uint64_t false_negatives() const { return m_false_negatives; }
    std::uint64_t first_time() const { return m_first_time; }
    std::uint64_t extra_admissions() const { return m_extra_admissions; }
    double expected_extra() const { return m_expected_extra; }
    /// The most objects one window's filter received.
    std::uint64_t peak_inserts() const { return std::max(m_peak_inserts, m_current.item_count()); }

  private:
    std::uint64_t m_window;
    bloom::bloom_filter<std::uint64_t> m_current;
    bloom::bloom_filter<std::uint64_t> m_previous;
    std::unordered_set<std::uint64_t> m_exact_current;
    std::unordered_set<std::uint64_t> m_exact_previous;
    std::uint64_t m_decisions = 0;
    std::uint64_t m_exact_admissions = 0;
    std::uint64_t m_false_negatives = 0;
    std::uint64_t m_first_time = 0;
    std::uint64_t m_extra_admissions = 0;
    double m_expected_extra = 0.0;
    std::uint64_t m_peak_inserts = 0;
};

void print_policy(const char* name, const cache_result& result, std::uint64_t requests) {
    std::printf("  %-34s %13s %12.2f%%\n", name, grouped(result.writes).c_str(),
                percent(result.hits, requests));
}

} // namespace

int main(int argc, char** argv) {
    options opts;
    const int parse_result = parse_options(argc, argv, opts);
    if (parse_result >= 0) {
        return parse_result;
    }

    const std::vector<std::uint32_t> trace = zipf_trace(opts);
    std::vector<std::uint32_t> request_counts(static_cast<std::size_t>(opts.objects), 0);
    for (const std::uint32_t id : trace) {
        ++request_counts[id];
    }
    std::uint64_t requested_objects = 0;
    std::uint64_t one_hit_wonders = 0;
    for (const std::uint32_t count : request_counts) {
        requested_objects += count != 0 ? 1 : 0;
        one_hit_wonders += count == 1 ? 1 : 0;
    }

    std::printf("CDN trace: %s requests over %s objects (Zipf %.2f); SSD cache of %s objects (LRU)\n",
                grouped(opts.requests).c_str(), grouped(opts.objects).c_str(), opts.zipf,
                grouped(opts.cache).c_str());
    std::printf("  objects requested          %13s\n", grouped(requested_objects).c_str());
    std::printf("  one-hit wonders            %13s   (%.1f%% of objects requested, %.1f%% of requests)\n\n",
                grouped(one_hit_wonders).c_str(), percent(one_hit_wonders, requested_objects),
                percent(one_hit_wonders, opts.requests));

    admit_every_miss every_miss;
    const cache_result all = simulate(trace, opts, every_miss);
    bloom_second_hit bloom_policy(opts.window, opts.rate);
    const cache_result filtered = simulate(trace, opts, bloom_policy);
    exact_second_hit exact_policy(opts.window);
    const cache_result exact = simulate(trace, opts, exact_policy);

    std::printf("  policy                                SSD writes    hit ratio\n");
    print_policy("(a) admit every miss", all, opts.requests);
    print_policy("(b) second hit, 2 Bloom filters", filtered, opts.requests);
    print_policy("(c) second hit, 2 exact sets", exact, opts.requests);
    const std::uint64_t avoided = all.writes > filtered.writes ? all.writes - filtered.writes : 0;
    std::printf("  SSD writes avoided by (b)  %13s   (%.1f%% of (a)'s)\n\n", grouped(avoided).c_str(),
                percent(avoided, all.writes));

    const bloom::bloom_filter<std::uint64_t>& shape = bloom_policy.filter();
    std::printf("Window memory: an object is remembered for 1-2 windows of %s requests\n",
                grouped(opts.window).c_str());
    std::printf("  2 Bloom filters            %13s bytes   (each %s bits, k = %u, sized for %s at %.3f%%)\n",
                grouped(2 * shape.memory_bytes()).c_str(), grouped(shape.bit_count()).c_str(),
                shape.hash_count(), grouped(opts.window).c_str(), 100.0 * opts.rate / 2.0);
    std::printf("  most inserts in one window %13s   (%.1f%% of the %s each filter is sized for)\n",
                grouped(bloom_policy.peak_inserts()).c_str(),
                percent(bloom_policy.peak_inserts(), opts.window), grouped(opts.window).c_str());
    std::printf("  2 exact sets, at peak      %13s bytes   (estimated for libstdc++, see source)\n\n",
                grouped(exact_policy.peak_bytes()).c_str());

    // Each first-time decision is a false positive with probability at most opts.rate (the pair's rate when
    // both filters hold a full window), so the extra admissions are bounded by a binomial's mean + 6 sigma.
    const double first_time = static_cast<double>(bloom_policy.first_time());
    const double limit = opts.rate * first_time + 6.0 * std::sqrt(opts.rate * (1.0 - opts.rate) * first_time);
    std::printf("Check of (b), decision by decision, against exact windows that shadow its filters\n");
    std::printf("  misses decided             %13s\n", grouped(bloom_policy.decisions()).c_str());
    std::printf("  admitted by the exact sets %13s\n", grouped(bloom_policy.exact_admissions()).c_str());
    std::printf("  ... refused by the filters %13s   (false negatives: must be 0)\n",
                grouped(bloom_policy.false_negatives()).c_str());
    std::printf("  first request in window    %13s\n", grouped(bloom_policy.first_time()).c_str());
    std::printf("  ... admitted by the filters%13s   (%.3f%%; formula %.3f%%; limit %.3f%% = %.0f)\n",
                grouped(bloom_policy.extra_admissions()).c_str(),
                percent(bloom_policy.extra_admissions(), bloom_policy.first_time()),
                first_time > 0 ? 100.0 * bloom_policy.expected_extra() / first_time : 0.0,
                first_time > 0 ? 100.0 * limit / first_time : 0.0, limit);

    bool ok = true;
    if (bloom_policy.false_negatives() != 0) {
        std::fprintf(stderr, "error: the filters refused %s objects the exact windows admitted\n",
                     grouped(bloom_policy.false_negatives()).c_str());
        ok = false;
    }
    if (bloom_policy.exact_admissions() + bloom_policy.extra_admissions() != filtered.writes) {
        std::fprintf(stderr, "error: %s exact + %s extra admissions != %s SSD writes of (b)\n",
                     grouped(bloom_policy.exact_admissions()).c_str(),
                     grouped(bloom_policy.extra_admissions()).c_str(), grouped(filtered.writes).c_str());
        ok = false;
    }
    if (static_cast<double>(bloom_policy.extra_admissions()) > limit) {
        std::fprintf(stderr, "error: %s first-time objects admitted, above the limit of %.0f\n",
                     grouped(bloom_policy.extra_admissions()).c_str(), limit);
        ok = false;
    }
    if (!ok) {
        return EXIT_FAILURE;
    }
    std::printf(
        "\nAll checks passed: every admission of the exact windows made by the filters, and few more.\n");
    return EXIT_SUCCESS;
}
