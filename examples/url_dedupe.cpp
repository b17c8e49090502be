// SPDX-License-Identifier: MIT
//
// url_dedupe: a crawler frontier that enqueues each URL once, using insert()'s "was new" answer.
//
// A crawler extracts links from every page it fetches; most of them it has seen before (navigation, "related
// products", pagination). The frontier must enqueue each URL once. Here a deterministic stream of
// `--stream` URLs, `--unique` of them distinct, goes through a bloom::bloom_filter<std::string> sized for the
// distinct count at `--rate`: fragments ("#reviews") are stripped, then one insert() both checks and adds,
// and a true answer ("definitely new") enqueues the URL. A false answer for a URL never seen before is a
// false positive: the crawler wrongly skips that page. A std::unordered_set<std::string> replays the same
// stream to count those exactly, to check that no URL is enqueued twice, and to compare memory and time.
// With `--scalable` a bloom::scalable_bloom_filter, which needs no distinct count up front, runs too.
//
// The URLs look like a real site's: one dominant shop host and three smaller ones, long shared paths
// ("/products/category/electronics/phones/..."), query strings and fragments. A URL is either new or a
// repeat of an earlier one: exactly `--unique` new ones, spread at random over the stream; a repeat is
// either a recently found URL (link locality) or, skewed towards the first-found, popular pages.
//
// smoke-test: --unique 20000 --stream 60000 --scalable

#include "support/example_support.hpp"

#include <bloom/bloom.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

using example_support::grouped;
using example_support::mebibytes;
using example_support::splitmix64;
using example_support::splitmix64_finalize;
using example_support::stopwatch;

struct options {
    std::uint64_t unique = 1'000'000;
    std::uint64_t stream = 3'000'000;
    double rate = 0.01;
    bool scalable = false;
    std::uint64_t initial = 10'000;
};

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: url_dedupe [--unique N] [--stream N] [--rate P] [--scalable] [--initial N]\n"
                 "  --unique N    distinct URLs in the stream (default 1000000)\n"
                 "  --stream N    URLs in the stream, repeats included; at least --unique (default 3000000)\n"
                 "  --rate P      target false-positive rate, in (0, 1) (default 0.01)\n"
                 "  --scalable    also run a scalable_bloom_filter that is not told the distinct count\n"
                 "  --initial N   first-stage capacity of the scalable filter (default 10000)\n"
                 "  --help        print this help\n");
}

/// Fills `parsed` from the command line. Returns -1 to go on, otherwise the exit code (0 after --help).
int parse_options(int argc, char** argv, options& parsed) {
    example_support::option_parser args("url_dedupe", argc, argv, print_usage);
    while (args.next()) {
        const bool known = args.count("--unique", parsed.unique, 1) ||
                           args.count("--stream", parsed.stream, 1) || args.rate("--rate", parsed.rate) ||
                           args.flag("--scalable", parsed.scalable) ||
                           args.count("--initial", parsed.initial, 1);
        if (!known) {
            args.unknown();
        }
    }
    if (args.status() < 0 && parsed.stream < parsed.unique) {
        return args.fail("--stream must be at least --unique");
    }
    return args.status();
}

template <std::size_t N>
const char* pick(const char* const (&choices)[N], std::uint64_t bits) {
    return choices[bits % N];
}

/// Writes URL number `id` to `url` (fragment-free). The id appears in the URL, so distinct ids give distinct
/// URLs; the host, path and query are derived from a hash of it.
void url_of(std::uint64_t id, std::string& url) {
    static const char* const categories[] = {
        "electronics/phones/smartphones", "electronics/laptops/ultrabooks", "home/kitchen/small-appliances",
        "sports/outdoor/camping-gear",    "fashion/shoes/running",          "books/fiction/science-fiction"};
    static const char* const sorts[] = {"price", "rating", "newest"};
    static const char* const sources[] = {"newsletter", "twitter", "partner-feed", "search-ads"};
    static const char* const sections[] = {"containers", "algorithms", "io-streams", "networking"};
    static const char* const regions[] = {"europe", "asia-pacific", "americas", "middle-east"};
    const std::uint64_t bits = splitmix64_finalize(id ^ 0x5eedf00dULL);
    const std::uint64_t host = bits % 100;
    const std::string number = std::to_string(id);
    if (host < 70) {
        url = "https://shop.example.com/products/category/";
        url += pick(categories, bits >> 8);
        url += "/item-" + number + "?page=" + std::to_string(1 + (bits >> 16) % 9) + "&sort=";
        url += pick(sorts, bits >> 20);
        url += "&utm_source=";
        url += pick(sources, bits >> 24);
    } else if (host < 85) {
        char date[16];
        std::snprintf(date, sizeof date, "%u/%02u", static_cast<unsigned>(2018 + (bits >> 8) % 7),
                      static_cast<unsigned>(1 + (bits >> 16) % 12));
        url = "https://blog.example.com/blog/";
        url += date;
        url += "/post-" + number + "-how-we-scaled-our-checkout";
    } else if (host < 95) {
        url = "https://docs.example.org/docs/v2/api/reference/";
        url += pick(sections, bits >> 8);
        url += "/page-" + number;
    } else {
        url = "https://news.example.net/news/world/";
        url += pick(regions, bits >> 8);
        url += "/article-" + number + "?ref=homepage";
    }
}

/// The links a crawler extracts, in order: `length` URLs of which exactly `unique` are distinct. Each one is
/// new with probability (new ones left) / (URLs left) (selection sampling: exactly `unique` in all), else a
/// repeat: half the time a URL found among the last 1,000, half the time one skewed towards the first
/// found (index = found * u^3), like a site's home and category pages. Some carry a fragment.
class url_stream {
  public:
    url_stream(std::uint64_t unique, std::uint64_t length) : m_unique(unique), m_length(length) {}

    /// Writes the next URL to `url`. Precondition: fewer than `length` URLs taken so far.
    void next(std::string& url) {
        const std::uint64_t left = m_length - m_position;
        const std::uint64_t new_left = m_unique - m_found;
        std::uint64_t id = 0;
        if (m_found == 0 || m_random.below(left) < new_left) {
            id = m_found++;
        } else if (m_random.below(2) == 0) {
            const std::uint64_t window = m_found < 1000 ? m_found : 1000;
            id = m_found - 1 - m_random.below(window);
        } else {
            const double u = m_random.uniform();
            id = static_cast<std::uint64_t>(static_cast<double>(m_found) * u * u * u);
        }
        url_of(id, url);
        const std::uint64_t fragment = m_random.below(16);
        if (fragment == 0) {
            url += "#reviews";
        } else if (fragment == 1) {
            url += "#comments";
        }
        ++m_position;
    }

  private:
    std::uint64_t m_unique;
    std::uint64_t m_length;
    std::uint64_t m_position = 0;
    std::uint64_t m_found = 0;
    splitmix64 m_random{0x0123456789abcdefULL};
};

/// The frontier's normal form: the fragment never reaches the server, so "#..." is dropped.
void strip_fragment(std::string& url) {
    const std::size_t hash_mark = url.find('#');
    if (hash_mark != std::string::npos) {
        url.erase(hash_mark);
    }
}

constexpr std::size_t batch_size = 1 << 16;

/// Reads the next min(batch_size, left) URLs of `stream`, fragments stripped, into `batch`; returns how many.
std::size_t fill_batch(url_stream& stream, std::uint64_t left, std::vector<std::string>& batch) {
    const std::size_t count = left < batch_size ? static_cast<std::size_t>(left) : batch_size;
    for (std::size_t i = 0; i < count; ++i) {
        stream.next(batch[i]);
        strip_fragment(batch[i]);
    }
    return count;
}

/// Feeds the whole stream through `filter.insert` and records each answer ("was new") in `said_new`.
/// Returns the seconds spent in insert alone (the URLs are built outside the timed loop).
template <class Filter>
double run_frontier(Filter& filter, const options& opts, std::vector<bool>& said_new) {
    said_new.assign(static_cast<std::size_t>(opts.stream), false);
    url_stream stream(opts.unique, opts.stream);
    std::vector<std::string> batch(batch_size);
    double seconds = 0.0;
    for (std::uint64_t done = 0; done < opts.stream;) {
        const std::size_t count = fill_batch(stream, opts.stream - done, batch);
        std::vector<bool>::iterator answer = said_new.begin() + static_cast<std::ptrdiff_t>(done);
        const stopwatch timer;
        for (std::size_t i = 0; i < count; ++i, ++answer) {
            *answer = filter.insert(batch[i]);
        }
        seconds += timer.seconds();
        done += count;
    }
    return seconds;
}

/// What one filter did to the stream, judged against the exact set.
struct tally {
    std::uint64_t enqueued = 0;
    std::uint64_t duplicates_skipped = 0;
    std::uint64_t wrongly_skipped = 0; // false positives: a URL never seen, reported as seen
    std::uint64_t enqueued_twice = 0;  // "was new" for a URL already seen: impossible for a Bloom filter
    double expected_wrongly_skipped = 0.0;

    void count(bool filter_said_new, bool truly_new) {
        if (filter_said_new) {
            ++(truly_new ? enqueued : enqueued_twice);
        } else {
            ++(truly_new ? wrongly_skipped : duplicates_skipped);
        }
    }
};

/// Bytes a std::unordered_set<std::string> holds on the heap, estimated for libstdc++ on 64-bit glibc:
/// - each element is one node allocation: the next-node pointer, the std::string object (32 bytes: pointer,
///   size, 16-byte small-string buffer) and the cached hash code (libstdc++ caches std::hash<std::string>),
///   48 bytes requested;
/// - a string longer than its small-string buffer (15 chars) has its own buffer of capacity() + 1 bytes;
/// - glibc's malloc adds an 8-byte header and rounds each chunk to 16 bytes, 32 at least: 48 becomes 64;
/// - the bucket array is bucket_count() pointers.
/// Allocator bookkeeping beyond that (free lists, fragmentation) is left out, so this is a lower bound.
std::uint64_t estimated_set_bytes(const std::unordered_set<std::string>& set) {
    const auto malloc_chunk = [](std::uint64_t requested) {
        const std::uint64_t chunk = (requested + 8 + 15) / 16 * 16;
        return chunk < 32 ? std::uint64_t{32} : chunk;
    };
    const std::size_t small_capacity = std::string().capacity();
    const std::uint64_t node_bytes = malloc_chunk(sizeof(void*) + sizeof(std::string) + sizeof(std::size_t));
    std::uint64_t bytes = malloc_chunk(set.bucket_count() * sizeof(void*));
    for (const std::string& url : set) {
        bytes += node_bytes;
        if (url.capacity() > small_capacity) {
            bytes += malloc_chunk(url.capacity() + 1);
        }
    }
    return bytes;
}

/// Prints one filter's line-up and checks it; returns false if a check failed.
bool report(const char* title, const tally& result, const options& opts, double current_rate,
            std::size_t memory_bytes, std::uint64_t set_bytes, double insert_seconds, bool has_expected) {
    const double new_urls = static_cast<double>(result.enqueued + result.wrongly_skipped);
    const double measured = static_cast<double>(result.wrongly_skipped) / new_urls;
    const double sigma = std::sqrt(opts.rate * (1.0 - opts.rate) / new_urls);
    const double limit = opts.rate + 6.0 * sigma;
    std::printf("%s\n", title);
    std::printf("  URLs enqueued                   %15s\n", grouped(result.enqueued).c_str());
    std::printf("  duplicates skipped              %15s\n", grouped(result.duplicates_skipped).c_str());
    std::printf("  wrongly skipped (never seen)    %15s\n", grouped(result.wrongly_skipped).c_str());
    std::printf("  wrongly skipped / new URLs      %14.3f%%   target %.3f%% (6-sigma limit %.3f%%)\n",
                100.0 * measured, 100.0 * opts.rate, 100.0 * limit);
    if (has_expected) {
        std::printf("  formula, averaged over the fill %14.3f%%   (each new URL meets the filter as full as "
                    "it is then)\n",
                    100.0 * result.expected_wrongly_skipped / new_urls);
    }
    std::printf("  current_false_positive_rate()   %14.3f%%   (the rate a new URL meets now, at the end)\n",
                100.0 * current_rate);
    std::printf(
        "  memory                          %15s   (%s, %.1f bits per distinct URL; the exact set takes "
        "%.1fx)\n",
        grouped(memory_bytes).c_str(), mebibytes(memory_bytes).c_str(),
        8.0 * static_cast<double>(memory_bytes) / static_cast<double>(opts.unique),
        static_cast<double>(set_bytes) / static_cast<double>(memory_bytes));
    std::printf("  time per URL (insert only)      %12.1f ns\n\n",
                1e9 * insert_seconds / static_cast<double>(opts.stream));

    bool ok = true;
    if (result.enqueued_twice != 0) {
        std::fprintf(stderr, "error: %s: %s URLs were enqueued a second time (a false negative)\n", title,
                     grouped(result.enqueued_twice).c_str());
        ok = false;
    }
    if (result.enqueued + result.wrongly_skipped != opts.unique) {
        std::fprintf(stderr, "error: %s: %s enqueued + %s wrongly skipped != %s distinct URLs\n", title,
                     grouped(result.enqueued).c_str(), grouped(result.wrongly_skipped).c_str(),
                     grouped(opts.unique).c_str());
        ok = false;
    }
    if (measured > limit) {
        std::fprintf(stderr, "error: %s: %.4f%% of new URLs wrongly skipped, above the %.4f%% limit\n", title,
                     100.0 * measured, 100.0 * limit);
        ok = false;
    }
    return ok;
}

} // namespace

int main(int argc, char** argv) {
    options opts;
    const int parse_result = parse_options(argc, argv, opts);
    if (parse_result >= 0) {
        return parse_result;
    }

    bloom::bloom_filter<std::string> filter(opts.unique, opts.rate);
    std::printf("Crawler frontier: %s URLs, %s distinct, fragments stripped; each enqueued once\n",
                grouped(opts.stream).c_str(), grouped(opts.unique).c_str());
    {
        // One URL of each host: the first id whose hash picks it.
        std::string url;
        std::string seen_hosts;
        for (std::uint64_t id = 0; id < opts.unique && seen_hosts.size() < 4; ++id) {
            url_of(id, url);
            const char host = url[8];
            if (seen_hosts.find(host) == std::string::npos) {
                seen_hosts += host;
                std::printf("  e.g. %s\n", url.c_str());
            }
        }
    }
    std::printf("bloom_filter<std::string> sized for %s URLs at %.3f%%: %s bits, k = %u\n\n",
                grouped(opts.unique).c_str(), 100.0 * opts.rate, grouped(filter.bit_count()).c_str(),
                filter.hash_count());

    std::vector<bool> filter_said_new;
    const double filter_seconds = run_frontier(filter, opts, filter_said_new);

    std::vector<bool> scalable_said_new;
    bloom::scalable_bloom_filter<std::string> scalable(opts.initial, opts.rate);
    double scalable_seconds = 0.0;
    if (opts.scalable) {
        scalable_seconds = run_frontier(scalable, opts, scalable_said_new);
    }

    // The exact replay: the same stream through a std::unordered_set, not reserved (a crawler does not know
    // the distinct count either).
    tally classic;
    tally grown;
    std::unordered_set<std::string> exact;
    double exact_seconds = 0.0;
    {
        url_stream stream(opts.unique, opts.stream);
        std::vector<std::string> batch(batch_size);
        std::vector<char> truly_new(batch_size);
        std::uint64_t filter_items = 0; // the filter's item_count() when each URL arrived
        for (std::uint64_t done = 0; done < opts.stream;) {
            const std::size_t count = fill_batch(stream, opts.stream - done, batch);
            const stopwatch timer;
            for (std::size_t i = 0; i < count; ++i) {
                truly_new[i] = exact.insert(batch[i]).second ? 1 : 0;
            }
            exact_seconds += timer.seconds();
            for (std::size_t i = 0; i < count; ++i) {
                const auto position = static_cast<std::size_t>(done + i);
                classic.count(filter_said_new[position], truly_new[i] != 0);
                if (truly_new[i] != 0 && filter_items != 0) {
                    classic.expected_wrongly_skipped +=
                        bloom::false_positive_rate(filter.bit_count(), filter.hash_count(), filter_items);
                }
                filter_items += filter_said_new[position] ? 1 : 0;
                if (opts.scalable) {
                    grown.count(scalable_said_new[position], truly_new[i] != 0);
                }
            }
            done += count;
        }
    }
    const std::uint64_t set_bytes = estimated_set_bytes(exact);

    bool ok =
        report("bloom_filter (sized for the distinct count)", classic, opts,
               filter.current_false_positive_rate(), filter.memory_bytes(), set_bytes, filter_seconds, true);
    if (opts.scalable) {
        char title[128];
        std::snprintf(title, sizeof title,
                      "scalable_bloom_filter (first stage %s URLs, %zu stages at the end)",
                      grouped(opts.initial).c_str(), scalable.stage_count());
        ok = report(title, grown, opts, scalable.current_false_positive_rate(), scalable.memory_bytes(),
                    set_bytes, scalable_seconds, false) &&
             ok;
    }
    std::printf("std::unordered_set<std::string> (exact, for comparison)\n");
    std::printf("  distinct URLs                   %15s\n", grouped(exact.size()).c_str());
    std::printf("  memory (estimated, see source)  %15s   (%s, %.1f bytes per distinct URL)\n",
                grouped(set_bytes).c_str(), mebibytes(set_bytes).c_str(),
                static_cast<double>(set_bytes) / static_cast<double>(exact.size()));
    std::printf("  time per URL (insert only)      %12.1f ns\n",
                1e9 * exact_seconds / static_cast<double>(opts.stream));

    if (exact.size() != opts.unique) {
        std::fprintf(stderr, "error: the stream held %s distinct URLs, not %s\n",
                     grouped(exact.size()).c_str(), grouped(opts.unique).c_str());
        ok = false;
    }
    if (!ok) {
        return EXIT_FAILURE;
    }
    std::printf(
        "\nAll checks passed: no URL enqueued twice, every distinct URL enqueued or counted as wrongly "
        "skipped, wrongly skipped within the target's 6-sigma limit.\n");
    return EXIT_SUCCESS;
}
