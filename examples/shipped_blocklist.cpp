// SPDX-License-Identifier: MIT
//
// shipped_blocklist: one filter file built once and shipped to many clients, as browsers ship a list of
// unsafe URLs. A blocklist of --urls URLs (deterministic, 1,000,000 by default) is built into a classic
// Bloom filter and into a static fuse filter at the same rate (2^-8 = 0.39%, the rate of the fuse filter's
// 8-bit fingerprints), both saved with bloom::save_file. It prints their sizes, raw and compressed with
// `gzip -9` (what a download costs), side by side. Then a client maps each file (bloom::mapped_file) and
// answers a stream of --queries URLs, half listed and half not, through bloom::bloom_filter_view and
// bloom::fuse_filter_view, without loading either: it verifies every "absent" against the list itself (a
// false negative would let a listed URL through) and counts the false positives against the rate. It
// exits 1 if any listed URL is reported absent.
//
// smoke-test: --urls 20000 --queries 20000

#include "support/example_support.hpp"

#include <bloom/bloom.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

struct options {
    std::uint64_t urls = 1'000'000;
    std::uint64_t queries = 1'000'000;
    std::string dir;
};

void print_usage(std::FILE* out) {
    std::fprintf(out, "usage: shipped_blocklist [--urls N] [--queries N] [--dir DIR]\n"
                      "  --urls N       URLs in the blocklist (default 1000000)\n"
                      "  --queries N    URLs the client checks, half of them listed (default 1000000)\n"
                      "  --dir DIR      where the filter files go (default: a temporary folder, removed)\n"
                      "  --help         print this and exit\n");
}

int parse_options(int argc, char** argv, options& parsed) {
    example_support::option_parser args("shipped_blocklist", argc, argv, print_usage);
    while (args.next()) {
        const bool known = args.count("--urls", parsed.urls, 1, 100'000'000) ||
                           args.count("--queries", parsed.queries, 1) || args.path("--dir", parsed.dir);
        if (!known) {
            args.unknown();
        }
    }
    return args.status();
}

/// URL number `index`: listed ones come from even indexes, the client's unlisted ones from odd ones.
std::string url_of(std::uint64_t index) {
    const std::uint64_t mixed = example_support::splitmix64_finalize(index);
    return "https://host-" + std::to_string(mixed % 1'000'003) + ".example/" + std::to_string(mixed >> 20) +
           "/page-" + std::to_string(index);
}

/// The size `gzip -9` compresses `path` to, or 0 if gzip is not there.
std::uint64_t gzip_size(const std::filesystem::path& path) {
    const std::filesystem::path compressed = path.string() + ".gz";
    const std::string command =
        "gzip -9 -c '" + path.string() + "' > '" + compressed.string() + "' 2>/dev/null";
    if (std::system(command.c_str()) != 0 || !std::filesystem::exists(compressed)) {
        return 0;
    }
    const auto size = std::filesystem::file_size(compressed);
    std::filesystem::remove(compressed);
    return size;
}

struct client_result {
    std::uint64_t false_negatives = 0;
    std::uint64_t false_positives = 0;
    std::uint64_t unlisted = 0;
};

/// The client: maps the file, opens a view of it, and checks the stream of URLs.
template <class View>
client_result check_stream(const std::filesystem::path& path, const options& opts,
                           const std::unordered_set<std::string>& list) {
    const bloom::mapped_file file(path);
    const View view(file.data(), file.size());
    client_result result;
    for (std::uint64_t i = 0; i < opts.queries; ++i) {
        // Alternately a listed URL and one never listed.
        const std::uint64_t index = i % 2 == 0 ? 2 * ((i / 2) % opts.urls) : 2 * i + 1;
        const std::string url = url_of(index);
        const bool listed = list.count(url) != 0;
        if (!view.contains(url)) {
            result.false_negatives += listed ? 1 : 0; // "absent", verified against the list
        } else if (!listed) {
            ++result.false_positives;
        }
        result.unlisted += listed ? 0 : 1;
    }
    return result;
}

void print_row(const char* name, std::uint64_t raw, std::uint64_t gzipped, std::uint64_t urls,
               const client_result& result) {
    const double rate = result.unlisted == 0 ? 0.0
                                             : 100.0 * static_cast<double>(result.false_positives) /
                                                   static_cast<double>(result.unlisted);
    std::printf("%-28s %12s %9.2f %12s %9.2f %10.3f%% %8s\n", name, example_support::grouped(raw).c_str(),
                8.0 * static_cast<double>(raw) / static_cast<double>(urls),
                gzipped == 0 ? "-" : example_support::grouped(gzipped).c_str(),
                8.0 * static_cast<double>(gzipped) / static_cast<double>(urls), rate,
                example_support::grouped(result.false_negatives).c_str());
}

} // namespace

int main(int argc, char** argv) {
    options opts;
    const int status = parse_options(argc, argv, opts);
    if (status >= 0) {
        return status;
    }
    try {
        const bool temporary = opts.dir.empty();
        const std::filesystem::path dir =
            temporary ? std::filesystem::temp_directory_path() /
                            ("shipped-blocklist-" + std::to_string(example_support::splitmix64_finalize(
                                                        static_cast<std::uint64_t>(std::time(nullptr)))))
                      : std::filesystem::path(opts.dir);
        std::filesystem::create_directories(dir);

        // The server: the list, then both filters at 2^-8.
        std::vector<std::string> urls;
        urls.reserve(opts.urls);
        for (std::uint64_t i = 0; i < opts.urls; ++i) {
            urls.push_back(url_of(2 * i));
        }
        const double rate = bloom::fuse_filter<std::string>::false_positive_rate();
        bloom::bloom_filter<std::string> bloom_list(opts.urls, rate);
        bloom_list.insert(urls.begin(), urls.end());
        const bloom::fuse_filter<std::string> fuse_list(urls);
        const std::filesystem::path bloom_path = dir / "blocklist-bloom.bloom";
        const std::filesystem::path fuse_path = dir / "blocklist-fuse.bloom";
        bloom::save_file(bloom_list, bloom_path);
        bloom::save_file(fuse_list, fuse_path);

        // The clients.
        const std::unordered_set<std::string> list(urls.begin(), urls.end());
        const auto bloom_result = check_stream<bloom::bloom_filter_view<std::string>>(bloom_path, opts, list);
        const auto fuse_result = check_stream<bloom::fuse_filter_view<std::string>>(fuse_path, opts, list);

        std::printf(
            "blocklist of %s URLs, both filters at %.3f%% (2^-8); a client checked %s URLs, half listed\n\n",
            example_support::grouped(opts.urls).c_str(), 100.0 * rate,
            example_support::grouped(opts.queries).c_str());
        std::printf("%-28s %12s %9s %12s %9s %11s %8s\n", "file", "bytes", "bits/url", "gzip -9", "bits/url",
                    "measured", "missed");
        print_row("bloom_filter (classic)", std::filesystem::file_size(bloom_path), gzip_size(bloom_path),
                  opts.urls, bloom_result);
        print_row("fuse_filter (8-bit, static)", std::filesystem::file_size(fuse_path), gzip_size(fuse_path),
                  opts.urls, fuse_result);
        if (temporary) {
            std::filesystem::remove_all(dir);
        }
        if (bloom_result.false_negatives + fuse_result.false_negatives != 0) {
            std::printf("FAILED: a listed URL was reported absent\n");
            return 1;
        }
        std::printf("\nno listed URL was ever reported absent\n");
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "shipped_blocklist: %s\n", error.what());
        return 2;
    }
}
