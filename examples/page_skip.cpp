// SPDX-License-Identifier: MIT
//
// page_skip: a storage engine in miniature, with one Bloom filter per page that lets a lookup skip the
// pages that cannot hold what it is looking for.
//
// Writes a data file of fixed-size pages (--page-bytes) of Listens(user_id u64, song_id u64, ts i64) rows,
// 24 bytes each, little-endian and packed, generated deterministically: uniform user ids, Zipf-ish (or
// --uniform) song ids, increasing timestamps. For every page it builds one small filter over the page's
// song ids, sized for that page's distinct songs at --rate, and saves them all, one record after another,
// into a sidecar file beside the data with bloom::save. Then it "reopens" the table as a restarted process
// would: it loads the filters back from the sidecar with bloom::load (the in-memory ones are gone) and
// answers "rows for song X" for a mix of popular, rare and absent songs twice: by a full scan of every
// page, and by reading (seekg + read on an unbuffered std::ifstream) only the pages whose filter says
// "maybe". It prints pages and bytes read both ways, the false-positive page reads and the per-page
// false-positive rate against the target, the time both ways and the sidecar's size next to the data's.
// The data file was just written, so both ways read from the page cache: their times are CPU and system
// calls (the full scan reads 256 KiB per call, a lookup one page per call), not disk I/O, and a cold disk
// would widen the gap. It exits 1 if the filtered answer differs from the full scan's for any query, or if a
// filter ever says "no" for a page that holds the song (a false negative).
//
// smoke-test: --rows 100000 --songs 20000 --queries 150

#include "support/example_support.hpp"

#include <algorithm>
#include <bloom/bloom.hpp>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <ios>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace {

using example_support::grouped;
using example_support::mebibytes;
using example_support::splitmix64;
using example_support::splitmix64_finalize;
using example_support::stopwatch;

constexpr std::size_t row_bytes = 24;

struct options {
    std::uint64_t rows = 2'000'000;
    std::uint64_t page_bytes = 4096;
    std::uint64_t songs = 200'000;
    std::uint64_t users = 100'000;
    std::uint64_t queries = 1'000;
    double rate = 0.01;
    bool uniform = false;
    std::string filter = "classic";
    bool keep = false;
    std::string dir;
};

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: page_skip [options]\n"
                 "  --rows N          rows in the data file (default 2000000)\n"
                 "  --page-bytes N    bytes per page, at least 24 (default 4096)\n"
                 "  --songs N         distinct song ids the generator draws from (default 200000)\n"
                 "  --users N         distinct user ids the generator draws from (default 100000)\n"
                 "  --queries N       songs to look up: popular, rare and absent in turn (default 1000)\n"
                 "  --rate P          target false-positive rate of each page's filter (default 0.01)\n"
                 "  --uniform         uniform song ids instead of Zipf-ish ones\n"
                 "  --filter KIND     classic (bloom::bloom_filter, default) or blocked\n"
                 "                    (bloom::blocked_bloom_filter)\n"
                 "  --dir PATH        write the files into PATH instead of a fresh temporary directory\n"
                 "  --keep            keep the data and sidecar files at exit\n"
                 "  --help            print this and exit\n");
}

/// Reads argv into `parsed`. Returns -1 to go on, otherwise the exit status (0 after --help, 2 on an error).
int parse_options(int argc, char** argv, options& parsed) {
    example_support::option_parser args("page_skip", argc, argv, print_usage);
    while (args.next()) {
        const bool known = args.count("--rows", parsed.rows, 1) ||
                           args.count("--page-bytes", parsed.page_bytes, row_bytes, std::uint64_t{1} << 30) ||
                           args.count("--songs", parsed.songs, 1, (std::uint64_t{1} << 31) - 1) ||
                           args.count("--users", parsed.users, 1) ||
                           args.count("--queries", parsed.queries, 1) || args.rate("--rate", parsed.rate) ||
                           args.choice("--filter", parsed.filter, {"classic", "blocked"}) ||
                           args.path("--dir", parsed.dir) || args.flag("--uniform", parsed.uniform) ||
                           args.flag("--keep", parsed.keep);
        if (!known) {
            args.unknown();
        }
    }
    return args.status();
}

/// The song id of popularity rank `rank`: splitmix64's finaliser is a bijection, so distinct ranks give
/// distinct ids, ids look arbitrary (popular songs are not the small ids), and the ids of ranks past
/// --songs are certainly absent from the data.
std::uint64_t song_id_of_rank(std::uint64_t rank) { return splitmix64_finalize(rank ^ 0x50a65f1e5eedULL); }

void store_u64(unsigned char* out, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        out[i] = static_cast<unsigned char>(value >> (8 * i));
    }
}

/// Written out byte by byte so that it reads the same on any host, and as one expression so that GCC and
/// Clang turn it into a single load on a little-endian one (they leave the equivalent loop as 8 loads).
std::uint64_t load_u64(const unsigned char* in) {
    return std::uint64_t{in[0]} | std::uint64_t{in[1]} << 8 | std::uint64_t{in[2]} << 16 |
           std::uint64_t{in[3]} << 24 | std::uint64_t{in[4]} << 32 | std::uint64_t{in[5]} << 40 |
           std::uint64_t{in[6]} << 48 | std::uint64_t{in[7]} << 56;
}

struct listen {
    std::uint64_t user_id;
    std::uint64_t song_id;
    std::int64_t ts;

    bool operator==(const listen& other) const {
        return user_id == other.user_id && song_id == other.song_id && ts == other.ts;
    }
};

/// The table's layout: every page holds rows_per_page rows (the last one possibly fewer) and then zero
/// padding up to page_bytes. A real engine keeps each page's row count in a page header.
struct table_shape {
    std::uint64_t rows;
    std::size_t page_bytes;
    std::size_t rows_per_page;
    std::size_t page_count;

    std::size_t rows_in_page(std::size_t page) const {
        return static_cast<std::size_t>(std::min<std::uint64_t>(rows_per_page, rows - page * rows_per_page));
    }
};

/// Reads whole pages from the data file on an unbuffered stream, so that the bytes counted are the bytes
/// asked of the operating system (a buffered stream would read ahead into its own buffer). A read that
/// starts where the previous one ended skips the seek: the stream is already there.
class page_reader {
  public:
    page_reader(const std::filesystem::path& path, std::size_t page_bytes, std::size_t most_pages)
        : m_page_bytes(page_bytes), m_buffer(page_bytes * most_pages) {
        m_file.rdbuf()->pubsetbuf(nullptr, 0); // must precede open() to take effect
        m_file.open(path, std::ios::binary);
        if (!m_file) {
            throw std::runtime_error("cannot open " + path.string());
        }
    }

    /// Pages [first, first + count) with one read call (count at most the constructor's most_pages).
    const unsigned char* read(std::size_t first, std::size_t count = 1) {
        const std::size_t offset = first * m_page_bytes;
        const std::size_t bytes = count * m_page_bytes;
        if (offset != m_position) {
            m_file.seekg(static_cast<std::streamoff>(offset));
        }
        m_file.read(reinterpret_cast<char*>(m_buffer.data()), static_cast<std::streamsize>(bytes));
        if (static_cast<std::size_t>(m_file.gcount()) != bytes) {
            throw std::runtime_error("short read of page " + std::to_string(first));
        }
        m_position = offset + bytes;
        return m_buffer.data();
    }

  private:
    std::ifstream m_file;
    std::size_t m_page_bytes;
    std::vector<unsigned char> m_buffer;
    std::size_t m_position = 0;
};

/// Appends the rows of `page` whose song is `song_id` to `out`; returns whether there was any.
bool collect_matches(const unsigned char* page, std::size_t rows, std::uint64_t song_id,
                     std::vector<listen>& out) {
    bool found = false;
    for (std::size_t row = 0; row < rows; ++row) {
        const unsigned char* at = page + row * row_bytes;
        if (load_u64(at + 8) == song_id) {
            out.push_back({load_u64(at), song_id, static_cast<std::int64_t>(load_u64(at + 16))});
            found = true;
        }
    }
    return found;
}

/// The files of one run; removes them (or the fresh directory holding them) at exit unless kept.
class scratch_files {
  public:
    explicit scratch_files(const options& opts) : m_keep(opts.keep) {
        if (!opts.dir.empty()) {
            m_dir = opts.dir;
            std::filesystem::create_directories(m_dir);
        } else {
            std::random_device entropy;
            std::mt19937_64 names(
                (std::uint64_t{entropy()} << 32) ^
                static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
            do {
                m_dir = std::filesystem::temp_directory_path() / ("page_skip-" + std::to_string(names()));
            } while (!std::filesystem::create_directory(m_dir));
            m_fresh = true;
        }
        data = m_dir / "listens.pages";
        sidecar = m_dir / "listens.pages.bloom";
    }
    scratch_files(const scratch_files&) = delete;
    scratch_files& operator=(const scratch_files&) = delete;
    ~scratch_files() {
        if (m_keep) {
            std::printf("\nKept the files in %s (--keep)\n", m_dir.string().c_str());
            return;
        }
        std::error_code ignored;
        if (m_fresh) {
            std::filesystem::remove_all(m_dir, ignored);
        } else {
            std::filesystem::remove(data, ignored);
            std::filesystem::remove(sidecar, ignored);
        }
    }

    std::filesystem::path data;
    std::filesystem::path sidecar;

  private:
    std::filesystem::path m_dir;
    bool m_fresh = false;
    bool m_keep;
};

struct build_result {
    std::vector<std::uint64_t> count_by_rank; // rows per song, index = popularity rank (1-based)
    std::uint64_t distinct_total = 0;         // sum over pages of the page's distinct songs
    std::size_t distinct_min = 0;
    std::size_t distinct_max = 0;
    double seconds = 0.0;
};

/// Generates the rows page by page, writes the data file and, for each page, saves one Filter over the
/// page's song ids into the sidecar, one record after another.
template <class Filter>
build_result write_table(const options& opts, const table_shape& shape, const scratch_files& files) {
    const stopwatch timer;
    build_result result;
    result.count_by_rank.assign(static_cast<std::size_t>(opts.songs) + 1, 0);
    result.distinct_min = shape.rows_per_page;

    std::ofstream data(files.data, std::ios::binary | std::ios::trunc);
    std::ofstream sidecar(files.sidecar, std::ios::binary | std::ios::trunc);
    if (!data || !sidecar) {
        throw std::runtime_error("cannot create the files in " + files.data.parent_path().string());
    }
    splitmix64 random{20240601};
    const double log_songs = std::log(static_cast<double>(opts.songs) + 1.0);
    std::int64_t ts = 1'700'000'000'000; // milliseconds, increasing row by row
    std::vector<unsigned char> page(shape.page_bytes);
    std::vector<std::uint64_t> songs;
    for (std::size_t p = 0; p < shape.page_count; ++p) {
        std::fill(page.begin(), page.end(), static_cast<unsigned char>(0));
        songs.clear();
        for (std::size_t row = 0; row < shape.rows_in_page(p); ++row) {
            const std::uint64_t user_id = 1 + random.below(opts.users);
            // Zipf-ish: rank = floor((songs + 1)^u) has P(rank = r) = ln(1 + 1/r) / ln(songs + 1) ~ 1/r.
            std::uint64_t rank = opts.uniform
                                     ? 1 + random.below(opts.songs)
                                     : static_cast<std::uint64_t>(std::exp(random.uniform() * log_songs));
            rank = std::min(std::max<std::uint64_t>(rank, 1), opts.songs);
            ts += static_cast<std::int64_t>(1 + random.below(2000));
            const std::uint64_t song_id = song_id_of_rank(rank);
            ++result.count_by_rank[static_cast<std::size_t>(rank)];
            songs.push_back(song_id);
            unsigned char* at = page.data() + row * row_bytes;
            store_u64(at, user_id);
            store_u64(at + 8, song_id);
            store_u64(at + 16, static_cast<std::uint64_t>(ts));
        }
        data.write(reinterpret_cast<const char*>(page.data()), static_cast<std::streamsize>(page.size()));

        std::sort(songs.begin(), songs.end());
        songs.erase(std::unique(songs.begin(), songs.end()), songs.end());
        result.distinct_total += songs.size();
        result.distinct_min = std::min(result.distinct_min, songs.size());
        result.distinct_max = std::max(result.distinct_max, songs.size());
        Filter filter(songs.size(), opts.rate);
        filter.insert(songs.begin(), songs.end());
        bloom::save(filter, sidecar);
    }
    data.close();
    sidecar.close();
    if (!data || !sidecar) {
        throw std::runtime_error("writing the files in " + files.data.parent_path().string() + " failed");
    }
    result.seconds = timer.seconds();
    return result;
}

/// Loads the sidecar's records one after another: exactly one filter per page, nothing after the last.
template <class Filter>
std::vector<Filter> load_filters(const std::filesystem::path& path, std::size_t page_count) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot open " + path.string());
    }
    std::vector<Filter> filters;
    filters.reserve(page_count);
    for (std::size_t p = 0; p < page_count; ++p) {
        filters.push_back(bloom::load<Filter>(in));
    }
    if (in.peek() != std::ifstream::traits_type::eof()) {
        throw std::runtime_error(path.string() + " holds more records than the data file has pages");
    }
    return filters;
}

enum query_kind { popular, rare, absent, kind_count };

struct query {
    query_kind kind;
    std::uint64_t song_id;
};

/// Popular: the top 1% of the songs present by row count. Rare: the bottom 10%. Absent: ids of ranks past
/// --songs, which the generator never produced (the filters know nothing of ranks: to them these are just
/// more 64-bit ids). The kinds take turns.
std::vector<query> make_queries(const options& opts, const std::vector<std::uint64_t>& count_by_rank) {
    std::vector<std::uint64_t> present;
    for (std::uint64_t rank = 1; rank < count_by_rank.size(); ++rank) {
        if (count_by_rank[static_cast<std::size_t>(rank)] != 0) {
            present.push_back(rank);
        }
    }
    std::stable_sort(present.begin(), present.end(), [&](std::uint64_t a, std::uint64_t b) {
        return count_by_rank[static_cast<std::size_t>(a)] > count_by_rank[static_cast<std::size_t>(b)];
    });
    const std::size_t popular_pool = std::max<std::size_t>(1, present.size() / 100);
    const std::size_t rare_pool = std::max<std::size_t>(1, present.size() / 10);
    splitmix64 random{7};
    std::vector<query> queries;
    for (std::uint64_t q = 0; q < opts.queries; ++q) {
        const auto kind = static_cast<query_kind>(q % kind_count);
        std::uint64_t rank = 0;
        if (kind == popular) {
            rank = present[static_cast<std::size_t>(random.below(popular_pool))];
        } else if (kind == rare) {
            rank = present[present.size() - 1 - static_cast<std::size_t>(random.below(rare_pool))];
        } else {
            rank = opts.songs + 1 + random.below(opts.songs);
        }
        queries.push_back({kind, song_id_of_rank(rank)});
    }
    return queries;
}

struct kind_stats {
    std::uint64_t queries = 0;
    std::uint64_t matching_rows = 0;
    std::uint64_t pages_with_match = 0;
    std::uint64_t pages_read = 0;
    std::uint64_t false_positive_reads = 0;
};

double average(std::uint64_t total, std::uint64_t count) {
    return count == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(count);
}

template <class Filter>
int run(const options& opts, const char* filter_name) {
    table_shape shape{};
    shape.rows = opts.rows;
    shape.page_bytes = static_cast<std::size_t>(opts.page_bytes);
    shape.rows_per_page = shape.page_bytes / row_bytes;
    shape.page_count = static_cast<std::size_t>((opts.rows + shape.rows_per_page - 1) / shape.rows_per_page);
    const scratch_files files(opts);

    const build_result built = write_table<Filter>(opts, shape, files);
    std::uint64_t songs_present = 0;
    for (const std::uint64_t count : built.count_by_rank) {
        songs_present += count != 0 ? 1 : 0;
    }
    const std::uint64_t data_bytes = std::filesystem::file_size(files.data);
    const std::uint64_t sidecar_bytes = std::filesystem::file_size(files.sidecar);
    const std::uint64_t record_overhead = 136; // docs/FORMAT.md: 128-byte header + 8-byte checksum
    const std::uint64_t filter_words_bytes = sidecar_bytes - record_overhead * shape.page_count;

    std::printf("page_skip: one Bloom filter per page, saved beside the data, skips pages on lookups\n\n");
    std::printf("Data file  %s\n", files.data.filename().string().c_str());
    std::printf("  rows                %s Listens(user_id u64, song_id u64, ts i64), 24 B each, LE, packed\n",
                grouped(opts.rows).c_str());
    std::printf("  pages               %s of %s B: %s rows each, %s B of padding\n",
                grouped(shape.page_count).c_str(), grouped(shape.page_bytes).c_str(),
                grouped(shape.rows_per_page).c_str(),
                grouped(shape.page_bytes - shape.rows_per_page * row_bytes).c_str());
    std::printf("  songs               %s over %s ids: %s of them in the data\n",
                opts.uniform ? "uniform" : "Zipf-ish (s = 1)", grouped(opts.songs).c_str(),
                grouped(songs_present).c_str());
    std::printf("  size                %s B (%s)\n", grouped(data_bytes).c_str(),
                mebibytes(data_bytes, 1).c_str());
    std::printf("Sidecar    %s, written with bloom::save, one record after another\n",
                files.sidecar.filename().string().c_str());
    std::printf("  filters             %s %s, one per page, each sized for its\n",
                grouped(shape.page_count).c_str(), filter_name);
    std::printf("                      page's distinct songs (mean %.1f, min %s, max %s) at a %.3g%% rate\n",
                average(built.distinct_total, shape.page_count), grouped(built.distinct_min).c_str(),
                grouped(built.distinct_max).c_str(), 100.0 * opts.rate);
    std::printf("  size                %s B (%s) = %.2f%% of the data file\n", grouped(sidecar_bytes).c_str(),
                mebibytes(sidecar_bytes, 1).c_str(),
                100.0 * static_cast<double>(sidecar_bytes) / static_cast<double>(data_bytes));
    std::printf("  per page            %.1f B: %s B of record header and checksum + %.1f B of bits\n",
                average(sidecar_bytes, shape.page_count), grouped(record_overhead).c_str(),
                average(filter_words_bytes, shape.page_count));
    std::printf("                      (%.2f bits per distinct song)\n",
                8.0 * static_cast<double>(filter_words_bytes) / static_cast<double>(built.distinct_total));
    std::printf("  wrote both files in %.2f s\n\n", built.seconds);

    // Reopen as a restarted process would: the filters built above are gone; read them back from disk.
    const stopwatch load_timer;
    const std::vector<Filter> filters = load_filters<Filter>(files.sidecar, shape.page_count);
    const double load_seconds = load_timer.seconds();
    double formula_rate = 0.0;
    for (const Filter& filter : filters) {
        formula_rate += filter.current_false_positive_rate();
    }
    formula_rate /= static_cast<double>(filters.size());
    std::printf("Reopened: loaded %s filters from the sidecar with bloom::load in %.1f ms\n\n",
                grouped(filters.size()).c_str(), 1000.0 * load_seconds);

    const std::vector<query> queries = make_queries(opts, built.count_by_rank);
    // A full scan reads sequentially, so it reads many pages per call (256 KiB), as an engine's scan would;
    // a filtered lookup reads each page it cannot skip with a call of its own.
    const std::size_t scan_pages = std::max<std::size_t>(1, (std::size_t{256} << 10) / shape.page_bytes);
    page_reader reader(files.data, shape.page_bytes, scan_pages);
    kind_stats stats[kind_count];
    double full_seconds = 0.0;
    double filtered_seconds = 0.0;
    std::vector<listen> full_rows;
    std::vector<listen> filtered_rows;
    std::vector<std::size_t> match_pages;
    std::uint64_t mismatches = 0;
    std::uint64_t false_negatives = 0;
    // The two ways alternate query by query, so that neither finds the page cache warmer than the other.
    for (const query& q : queries) {
        kind_stats& s = stats[q.kind];
        ++s.queries;

        full_rows.clear();
        match_pages.clear();
        stopwatch timer;
        for (std::size_t first = 0; first < shape.page_count; first += scan_pages) {
            const std::size_t count = std::min(scan_pages, shape.page_count - first);
            const unsigned char* pages = reader.read(first, count);
            for (std::size_t p = first; p < first + count; ++p) {
                if (collect_matches(pages + (p - first) * shape.page_bytes, shape.rows_in_page(p), q.song_id,
                                    full_rows)) {
                    match_pages.push_back(p);
                }
            }
        }
        full_seconds += timer.seconds();

        filtered_rows.clear();
        timer.restart();
        for (std::size_t p = 0; p < shape.page_count; ++p) {
            if (filters[p].contains(q.song_id)) {
                ++s.pages_read;
                if (!collect_matches(reader.read(p), shape.rows_in_page(p), q.song_id, filtered_rows)) {
                    ++s.false_positive_reads;
                }
            }
        }
        filtered_seconds += timer.seconds();

        s.matching_rows += full_rows.size();
        s.pages_with_match += match_pages.size();
        for (const std::size_t p : match_pages) {
            false_negatives += filters[p].contains(q.song_id) ? 0 : 1;
        }
        // Both ways visit the pages in file order, so equal multisets of rows are equal sequences.
        if (filtered_rows != full_rows) {
            ++mismatches;
            if (mismatches <= 5) {
                std::fprintf(
                    stderr, "error: song %llu: the filtered read found %zu rows, the full scan %zu\n",
                    static_cast<unsigned long long>(q.song_id), filtered_rows.size(), full_rows.size());
            }
        }
    }

    kind_stats all;
    for (const kind_stats& s : stats) {
        all.queries += s.queries;
        all.matching_rows += s.matching_rows;
        all.pages_with_match += s.pages_with_match;
        all.pages_read += s.pages_read;
        all.false_positive_reads += s.false_positive_reads;
    }
    const std::uint64_t page_count = shape.page_count;
    std::printf(
        "Queries    %s \"rows for song X\": popular (top 1%% of the songs present), rare (bottom 10%%)\n",
        grouped(all.queries).c_str());
    std::printf("           and absent songs in turn\n");
    std::printf("  per query, on average        popular         rare       absent          all\n");
    const auto row = [&](const char* label, auto value) {
        std::printf("  %-22s", label);
        for (const kind_stats& s : stats) {
            std::printf(" %12.1f", value(s));
        }
        std::printf(" %12.1f\n", value(all));
    };
    std::printf("  %-22s", "queries");
    for (const kind_stats& s : stats) {
        std::printf(" %12s", grouped(s.queries).c_str());
    }
    std::printf(" %12s\n", grouped(all.queries).c_str());
    row("matching rows", [](const kind_stats& s) { return average(s.matching_rows, s.queries); });
    row("pages holding a match", [](const kind_stats& s) { return average(s.pages_with_match, s.queries); });
    row("pages read", [](const kind_stats& s) { return average(s.pages_read, s.queries); });
    row("pages skipped",
        [&](const kind_stats& s) { return average(s.queries * page_count - s.pages_read, s.queries); });
    row("false-positive reads",
        [](const kind_stats& s) { return average(s.false_positive_reads, s.queries); });

    const std::uint64_t full_pages = all.queries * page_count;
    const std::uint64_t negatives = full_pages - all.pages_with_match;
    std::printf("\n  totals                        full scan     filtered\n");
    std::printf("  pages read             %16s %12s  (%.2f%% of the full scan's)\n",
                grouped(full_pages).c_str(), grouped(all.pages_read).c_str(),
                100.0 * static_cast<double>(all.pages_read) / static_cast<double>(full_pages));
    std::printf("  pages skipped          %16s %12s\n", "0", grouped(full_pages - all.pages_read).c_str());
    std::printf("  bytes read             %16s %12s\n", grouped(full_pages * shape.page_bytes).c_str(),
                grouped(all.pages_read * shape.page_bytes).c_str());
    std::printf("  time                   %14.3f s %10.3f s  (speed-up %.1fx)\n", full_seconds,
                filtered_seconds, full_seconds / std::max(filtered_seconds, 1e-9));
    std::printf("  time per query         %13.3f ms %9.3f ms\n",
                1000.0 * full_seconds / static_cast<double>(all.queries),
                1000.0 * filtered_seconds / static_cast<double>(all.queries));
    std::printf("  (the full scan reads %s pages per call, as a sequential scan would; the filtered path\n"
                "   reads each page it cannot skip with a seek and a read of its own)\n",
                grouped(scan_pages).c_str());
    std::printf(
        "  (the file was just written, so the page cache holds it: both times are mostly CPU and\n"
        "   system calls, not disk I/O; on a cold disk every skipped page also saves a device read)\n\n");

    std::printf("False-positive page reads: %s of the %s (query, page) pairs whose page holds no match\n",
                grouped(all.false_positive_reads).c_str(), grouped(negatives).c_str());
    std::printf("  measured rate per page  %.3f%%\n",
                100.0 * static_cast<double>(all.false_positive_reads) /
                    static_cast<double>(std::max<std::uint64_t>(negatives, 1)));
    std::printf("  target rate             %.3f%% (the formula at each page's load, averaged: %.3f%%)\n",
                100.0 * opts.rate, 100.0 * formula_rate);

    std::printf("\nCheck: filtered answers equal the full scan's for %s of %s queries; %s false negatives\n",
                grouped(all.queries - mismatches).c_str(), grouped(all.queries).c_str(),
                grouped(false_negatives).c_str());
    if (false_negatives != 0) {
        std::fprintf(stderr, "error: a filter said \"no\" for a page that holds the song (%s times)\n",
                     grouped(false_negatives).c_str());
        return EXIT_FAILURE;
    }
    if (mismatches != 0) {
        std::fprintf(stderr, "error: %s queries answered differently from the full scan\n",
                     grouped(mismatches).c_str());
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}

} // namespace

int main(int argc, char** argv) {
    options opts;
    const int status = parse_options(argc, argv, opts);
    if (status >= 0) {
        return status;
    }
    try {
        if (opts.filter == "blocked") {
            return run<bloom::blocked_bloom_filter<std::uint64_t>>(
                opts, "bloom::blocked_bloom_filter<std::uint64_t>");
        }
        return run<bloom::bloom_filter<std::uint64_t>>(opts, "bloom::bloom_filter<std::uint64_t>");
    } catch (const std::exception& error) {
        std::fprintf(stderr, "page_skip: %s\n", error.what());
        return EXIT_FAILURE;
    }
}
