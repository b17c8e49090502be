// SPDX-License-Identifier: MIT
//
// negative_cache: a Bloom filter as a cache-penetration guard in front of a SQLite key-value table.
//
// A cache keeps values that exist; requests for keys that do not exist miss it every time and "penetrate"
// to the database. Here a SQLite table kv(key TEXT PRIMARY KEY, value TEXT) holds 200,000 keys and 90% of
// 1,000,000 read requests ask for keys it does not have. A bloom::bloom_filter<std::string> of the existing
// keys answers those "definitely not" without touching the database. Every 100th request writes a new key,
// to the database and to the filter at once, so later reads of it are found. The run is made twice, with
// every read going to the database and with the filter in front; every answer with the filter must equal
// the database's (no existing key is ever answered "absent"), and the false-positive rate must stay below
// target + 6 sigma, or the program exits with status 1.
//
// Then it deletes keys from the database: a plain Bloom filter cannot forget them, so they keep reading
// "maybe" and each read costs a lookup; a bloom::counting_bloom_filter<std::string> removes them and
// answers "definitely not" again, while still finding every key that remains.
//
// smoke-test: --keys 20000 --requests 50000 --deletes 2000

#include "support/example_support.hpp"
#include "support/sqlite_support.hpp"

#include <bloom/bloom.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using example_support::database;
using example_support::database_file;
using example_support::grouped;
using example_support::percent;
using example_support::query_count;
using example_support::splitmix64;
using example_support::splitmix64_hash;
using example_support::statement;
using example_support::stopwatch;

struct options {
    std::uint64_t keys = 200'000;
    std::uint64_t requests = 1'000'000;
    double miss_share = 0.9;
    std::uint64_t write_every = 100;
    std::uint64_t deletes = 20'000;
    double rate = 0.01;
    std::string db_path; // empty: a new file in the temp directory
    bool keep = false;
};

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: negative_cache [options]\n"
                 "  --keys N         keys in the database at the start (default 200000)\n"
                 "  --requests N     requests to serve (default 1000000)\n"
                 "  --miss-share S   share of reads asking for keys that do not exist, 0 <= S <= 1\n"
                 "                   (default 0.9)\n"
                 "  --write-every N  every Nth request writes a new key; 0: no writes (default 100)\n"
                 "  --deletes N      keys deleted afterwards, at most --keys (default 20000)\n"
                 "  --rate P         the filters' target false-positive rate, 0 < P < 1 (default 0.01)\n"
                 "  --db PATH        database file to create; must not exist (default: a new file in the\n"
                 "                   temp directory)\n"
                 "  --keep           keep the database file at exit\n"
                 "  --help           print this help\n");
}

/// Fills `parsed` from the command line. Returns -1 to run, or the exit status (0 after --help, 2 on error).
int parse_options(int argc, char** argv, options& parsed) {
    example_support::option_parser args("negative_cache", argc, argv, print_usage);
    while (args.next()) {
        const bool known = args.count("--keys", parsed.keys, 1) ||
                           args.count("--requests", parsed.requests, 1) ||
                           args.share("--miss-share", parsed.miss_share) ||
                           args.count("--write-every", parsed.write_every) ||
                           args.count("--deletes", parsed.deletes) || args.rate("--rate", parsed.rate) ||
                           args.path("--db", parsed.db_path) || args.flag("--keep", parsed.keep);
        if (!known) {
            args.unknown();
        }
    }
    if (args.status() < 0 && parsed.deletes > parsed.keys) {
        return args.fail("--deletes (" + std::to_string(parsed.deletes) + ") must not exceed --keys (" +
                         std::to_string(parsed.keys) + ")");
    }
    return args.status();
}

// ---- Deterministic keys ----------------------------------------------------------------------------------

std::string item_key(std::uint64_t id) {
    char text[32];
    std::snprintf(text, sizeof text, "item:%016llx", static_cast<unsigned long long>(splitmix64_hash(id)));
    return text;
}

// Existing keys come from even ids, missing ones from odd ids: splitmix64_hash() is a bijection, so the two
// families never share a key and every key of a family is distinct.

/// Key number `index` of the keys that exist: 0 .. keys-1 at the start, then the keys written later.
std::string existing_key(std::uint64_t index) { return item_key(2 * index); }
/// Key number `index` of the keys that never exist (what scanners and stale links ask for).
std::string missing_key(std::uint64_t index) { return item_key(2 * index + 1); }

std::string value_of(std::uint64_t index) {
    return "{\"stock\":" + std::to_string(splitmix64_hash(index) % 1000) + "}";
}

struct request {
    bool write;          // true: store a new key; false: read one
    std::uint64_t index; // existing_key(index) for writes and hits; missing_key(index) for misses
    bool missing;        // a read of a key that was never stored
};

/// The key-value store: a read returns the value, if the key exists; a write stores a new key.
class kv_store {
  public:
    explicit kv_store(database& db)
        : m_db(db), m_get(db, "SELECT value FROM kv WHERE key = ?1"),
          m_put(db, "INSERT INTO kv (key, value) VALUES (?1, ?2)"),
          m_erase(db, "DELETE FROM kv WHERE key = ?1") {}

    /// One indexed lookup. True if `key` exists; its value is copied into `value`.
    bool get(std::string_view key, std::string& value) {
        m_get.bind(1, key);
        const bool found = m_get.step();
        if (found) {
            value.assign(m_get.column_text(0));
        }
        m_get.reset();
        return found;
    }
    /// Stores a new key (its own transaction). Throws if the key exists.
    void put(std::string_view key, std::string_view value) {
        m_put.bind(1, key);
        m_put.bind(2, value);
        m_put.step();
        m_put.reset();
    }
    /// Deletes `key`. Returns true if it existed.
    bool erase(std::string_view key) {
        m_erase.bind(1, key);
        m_erase.step();
        m_erase.reset();
        return sqlite3_changes(m_db.handle()) == 1;
    }

  private:
    database& m_db;
    statement m_get;
    statement m_put;
    statement m_erase;
};

// ---- The run --------------------------------------------------------------------------------------------

constexpr std::uint64_t request_seed = 0x6e65676361636865ULL;

/// The request stream: every `write_every`-th request writes the next new key; reads ask for a missing key
/// with probability `miss_share`, otherwise for an existing one (a fifth of those for a key written
/// during the run, once there is one).
std::vector<request> make_requests(const options& opts) {
    std::vector<request> requests;
    requests.reserve(opts.requests);
    // The stream starts one step past its seed, as it did when the README's sample output was made.
    splitmix64 random(request_seed + splitmix64::increment);
    std::uint64_t written = 0;
    for (std::uint64_t r = 0; r < opts.requests; ++r) {
        if (opts.write_every != 0 && r % opts.write_every == opts.write_every - 1) {
            requests.push_back({true, opts.keys + written++, false});
        } else if (random.uniform() < opts.miss_share) {
            requests.push_back({false, random.below(std::uint64_t{1} << 40), true});
        } else if (written != 0 && random.below(5) == 0) {
            requests.push_back({false, opts.keys + random.below(written), false});
        } else {
            requests.push_back({false, random.below(opts.keys + written), false});
        }
    }
    return requests;
}

std::string key_of(const request& req) {
    return req.missing ? missing_key(req.index) : existing_key(req.index);
}

struct pass_result {
    std::vector<char> found; // per request: the read found its key (writes: 0)
    std::uint64_t lookups = 0;
    std::uint64_t avoided = 0;
    std::uint64_t false_positives = 0;
    double seconds = 0.0;       // the whole pass
    double write_seconds = 0.0; // of which the writes
};

/// Serves every request. With a filter, a read asks the database only when the filter says "maybe", and
/// a write adds its key to the filter as it stores it.
template <class Filter>
pass_result serve(kv_store& store, const std::vector<request>& requests, Filter* filter) {
    pass_result result;
    result.found.assign(requests.size(), 0);
    std::string key;
    std::string value;
    const stopwatch timer;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const request& req = requests[i];
        key = key_of(req);
        if (req.write) {
            const stopwatch write_timer;
            store.put(key, value_of(req.index));
            if (filter != nullptr) {
                filter->insert(key);
            }
            result.write_seconds += write_timer.seconds();
            continue;
        }
        if (filter != nullptr && !filter->contains(key)) {
            ++result.avoided; // "definitely not": answered absent without the database
            continue;
        }
        ++result.lookups;
        const bool found = store.get(key, value);
        result.found[i] = found ? 1 : 0;
        result.false_positives += filter != nullptr && !found ? 1 : 0;
    }
    result.seconds = timer.seconds();
    return result;
}

int run(const options& opts) {
    const database_file file(opts.db_path, "bloom_negative_cache_", opts.keep); // before the connection
    database db(file.path().string());
    // WAL with synchronous=NORMAL: each write commits without waiting for the disk, as caches usually run.
    db.execute("PRAGMA journal_mode = WAL");
    db.execute("PRAGMA synchronous = NORMAL");
    db.execute("CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT)");

    std::printf(
        "negative_cache: a Bloom filter stops requests for missing keys before they reach SQLite\n\n");
    stopwatch timer;
    {
        kv_store store(db);
        db.execute("BEGIN");
        for (std::uint64_t i = 0; i < opts.keys; ++i) {
            store.put(existing_key(i), value_of(i));
        }
        db.execute("COMMIT");
    }
    std::printf("Database  %s (%s at exit)\n", file.shown_path().c_str(), opts.keep ? "kept" : "removed");
    std::printf("  table              kv(key TEXT PRIMARY KEY, value TEXT), WAL journal\n");
    std::printf("  keys               %s (e.g. %s = %s), loaded in %.2f s\n", grouped(opts.keys).c_str(),
                existing_key(0).c_str(), value_of(0).c_str(), timer.seconds());

    const std::vector<request> requests = make_requests(opts);
    std::uint64_t reads = 0;
    std::uint64_t written_key_reads = 0;
    for (const request& req : requests) {
        reads += req.write ? 0 : 1;
        written_key_reads += !req.write && !req.missing && req.index >= opts.keys ? 1 : 0;
    }
    const std::uint64_t writes = opts.requests - reads;

    // Sized for every key the run will hold, so the rate holds after the writes too.
    bloom::bloom_filter<std::string> filter(opts.keys + writes, opts.rate);
    timer.restart();
    {
        statement all_keys(db, "SELECT key FROM kv");
        while (all_keys.step()) {
            filter.insert(all_keys.column_text(0));
        }
    }
    std::printf("\nFilter  built from SELECT key FROM kv in %.3f s, sized for %s keys (%s now + %s writes)\n",
                timer.seconds(), grouped(filter.expected_items()).c_str(), grouped(opts.keys).c_str(),
                grouped(writes).c_str());
    std::printf("  bits (m)           %s, %u hashes (k), %s bytes\n", grouped(filter.bit_count()).c_str(),
                filter.hash_count(), grouped(filter.memory_bytes()).c_str());

    // Without the filter: every read is a database lookup. These answers are the reference.
    const std::uint64_t rows_before = query_count(db, "SELECT MAX(rowid) FROM kv");
    pass_result plain;
    {
        kv_store store(db);
        plain = serve<bloom::bloom_filter<std::string>>(store, requests, nullptr);
    }
    // Undo the run's writes, so the filtered run starts from the same table.
    {
        statement undo(db, "DELETE FROM kv WHERE rowid > ?1");
        sqlite3_bind_int64(undo.handle(), 1, static_cast<sqlite3_int64>(rows_before));
        undo.step();
    }
    if (query_count(db, "SELECT COUNT(*) FROM kv") != opts.keys) {
        throw std::runtime_error("the table did not return to its starting keys between the runs");
    }
    pass_result guarded;
    {
        kv_store store(db);
        guarded = serve(store, requests, &filter);
    }

    std::fflush(stdout); // keep the report and any error in order when both go to one file
    std::uint64_t hits = 0;
    std::uint64_t absent_reads = 0;
    std::uint64_t false_negatives = 0;
    std::uint64_t mismatches = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        if (requests[i].write) {
            continue;
        }
        hits += plain.found[i] != 0 ? 1 : 0;
        absent_reads += plain.found[i] != 0 ? 0 : 1;
        if (plain.found[i] != guarded.found[i]) {
            ++mismatches;
            false_negatives += plain.found[i] != 0 ? 1 : 0;
            if (mismatches <= 5) {
                std::fprintf(stderr,
                             "error: request %zu for %s: the database %s it, the filtered path said %s\n", i,
                             key_of(requests[i]).c_str(), plain.found[i] != 0 ? "has" : "does not have",
                             guarded.found[i] != 0 ? "found" : "absent");
            }
        }
    }
    const auto per_op_ns = [&](double seconds, std::uint64_t operations) {
        return grouped(static_cast<std::uint64_t>(
            std::llround(operations == 0 ? 0.0 : 1e9 * seconds / static_cast<double>(operations))));
    };

    std::printf("\nServed %s requests\n", grouped(opts.requests).c_str());
    std::printf("  reads              %s: %s found (%s of them keys written during the run), %s absent\n",
                grouped(reads).c_str(), grouped(hits).c_str(), grouped(written_key_reads).c_str(),
                grouped(absent_reads).c_str());
    std::printf(
        "  writes             %s new keys, each committed to the database and inserted into the filter\n\n",
        grouped(writes).c_str());
    std::printf("                          without filter   with filter\n");
    std::printf("  database lookups     %16s  %12s\n", grouped(plain.lookups).c_str(),
                grouped(guarded.lookups).c_str());
    std::printf("  lookups avoided      %16s  %12s  (%.1f%% of reads answered \"definitely not\")\n", "0",
                grouped(guarded.avoided).c_str(), percent(guarded.avoided, reads));
    std::printf("  false positives      %16s  %12s  (filter said maybe, key absent)\n", "-",
                grouped(guarded.false_positives).c_str());
    const double plain_read_seconds = plain.seconds - plain.write_seconds;
    const double guarded_read_seconds = guarded.seconds - guarded.write_seconds;
    std::printf("  time per read        %13s ns  %9s ns  (speed-up %.1fx)\n",
                per_op_ns(plain_read_seconds, reads).c_str(), per_op_ns(guarded_read_seconds, reads).c_str(),
                plain_read_seconds / guarded_read_seconds);
    std::printf("  time per write       %13s ns  %9s ns  (one SQLite commit each)\n",
                per_op_ns(plain.write_seconds, writes).c_str(),
                per_op_ns(guarded.write_seconds, writes).c_str());
    std::printf("  time per request     %13s ns  %9s ns  (speed-up %.1fx, writes included)\n\n",
                per_op_ns(plain.seconds, opts.requests).c_str(),
                per_op_ns(guarded.seconds, opts.requests).c_str(), plain.seconds / guarded.seconds);
    std::printf("  filter now         %s keys: formula rate %.3f%%, current_false_positive_rate() %.3f%%\n",
                grouped(opts.keys + writes).c_str(),
                100.0 *
                    bloom::false_positive_rate(filter.bit_count(), filter.hash_count(), opts.keys + writes),
                100.0 * filter.current_false_positive_rate());

    int status = EXIT_SUCCESS;
    if (absent_reads > 0) {
        const double measured =
            static_cast<double>(guarded.false_positives) / static_cast<double>(absent_reads);
        const double sigma = std::sqrt(opts.rate * (1.0 - opts.rate) / static_cast<double>(absent_reads));
        const double limit = opts.rate + 6.0 * sigma;
        std::printf("  measured rate      %.3f%% of %s absent reads (target %.3f%%, limit %.3f%% = target + "
                    "6 sigma)\n",
                    100.0 * measured, grouped(absent_reads).c_str(), 100.0 * opts.rate, 100.0 * limit);
        if (measured > limit) {
            std::fprintf(stderr, "error: the measured false-positive rate %.4f%% exceeds %.4f%%\n",
                         100.0 * measured, 100.0 * limit);
            status = EXIT_FAILURE;
        }
    }
    if (mismatches != 0) {
        std::fprintf(stderr, "error: %s filtered answers disagree with the database (%s false negatives)\n",
                     grouped(mismatches).c_str(), grouped(false_negatives).c_str());
        return EXIT_FAILURE;
    }
    std::printf("  verified           all %s reads answered as the database does: no false negatives\n",
                grouped(reads).c_str());

    // Deletions. The plain filter above holds every key; a counting filter is built from the same table.
    bloom::counting_bloom_filter<std::string> counting(opts.keys + writes, opts.rate);
    {
        statement all_keys(db, "SELECT key FROM kv");
        while (all_keys.step()) {
            counting.insert(all_keys.column_text(0));
        }
    }
    const std::uint64_t key_count = opts.keys + writes;
    const std::uint64_t step = opts.deletes == 0 ? 1 : key_count / opts.deletes;
    std::vector<std::string> deleted;
    deleted.reserve(opts.deletes);
    {
        kv_store store(db);
        db.execute("BEGIN");
        for (std::uint64_t d = 0; d < opts.deletes; ++d) {
            deleted.push_back(existing_key(d * step));
            if (!store.erase(deleted.back())) {
                throw std::runtime_error("key " + deleted.back() + " to delete was not in the table");
            }
            if (!counting.remove(deleted.back())) { // only keys it holds are removed, as the filter requires
                throw std::runtime_error("the counting filter refused to remove " + deleted.back());
            }
        }
        db.execute("COMMIT");
    }

    // Read every deleted key once: each "maybe" costs a database lookup, which finds nothing.
    std::uint64_t plain_stale = 0;
    std::uint64_t counting_stale = 0;
    {
        kv_store store(db);
        std::string value;
        for (const std::string& key : deleted) {
            if (store.get(key, value)) {
                throw std::runtime_error("deleted key " + key + " is still in the table");
            }
            plain_stale += filter.contains(key) ? 1 : 0;
            counting_stale += counting.contains(key) ? 1 : 0;
        }
    }
    // No false negatives: both filters must still report every key that remains.
    std::uint64_t remaining = 0;
    std::uint64_t counting_missed = 0;
    std::uint64_t plain_missed = 0;
    {
        statement all_keys(db, "SELECT key FROM kv");
        while (all_keys.step()) {
            ++remaining;
            counting_missed += counting.contains(all_keys.column_text(0)) ? 0 : 1;
            plain_missed += filter.contains(all_keys.column_text(0)) ? 0 : 1;
        }
    }

    std::printf("\nDeleted %s keys from the database, then read each of them once\n",
                grouped(opts.deletes).c_str());
    std::printf("                           bloom_filter   counting_bloom_filter (4-bit counters)\n");
    std::printf("  deleted keys \"maybe\"  %12s  %12s  (%.1f%% vs %.1f%%: each one a wasted lookup)\n",
                grouped(plain_stale).c_str(), grouped(counting_stale).c_str(),
                percent(plain_stale, opts.deletes), percent(counting_stale, opts.deletes));
    std::printf("  remaining keys missed %12s  %12s  (of %s still in the table: no false negatives)\n",
                grouped(plain_missed).c_str(), grouped(counting_missed).c_str(), grouped(remaining).c_str());
    std::printf("  memory bytes          %12s  %12s  (same %u hashes; a counter per bit)\n",
                grouped(filter.memory_bytes()).c_str(), grouped(counting.memory_bytes()).c_str(),
                counting.hash_count());
    std::printf("  saturated counters    %12s  %12s\n", "-", grouped(counting.saturated_counters()).c_str());
    std::printf("A plain Bloom filter cannot clear a deleted key's bits (other keys share them), so deleted "
                "keys stay\n"
                "\"maybe\" and cost a lookup each; the counting filter's remove() decrements counters and "
                "forgets them.\n");

    if (counting_missed != 0 || plain_missed != 0) {
        std::fprintf(stderr, "error: a filter reported a key that is still in the table as absent\n");
        return EXIT_FAILURE;
    }
    if (opts.deletes > 0) {
        // The counting filter's "maybe" for a deleted key is an ordinary false positive now: same
        // bound.
        const double sigma = std::sqrt(opts.rate * (1.0 - opts.rate) / static_cast<double>(opts.deletes));
        const double limit = opts.rate + 6.0 * sigma;
        if (static_cast<double>(counting_stale) / static_cast<double>(opts.deletes) > limit) {
            std::fprintf(stderr,
                         "error: the counting filter still reports %.3f%% of deleted keys (limit "
                         "%.3f%%)\n",
                         percent(counting_stale, opts.deletes), 100.0 * limit);
            return EXIT_FAILURE;
        }
    }
    if (plain_stale != opts.deletes) {
        std::fprintf(stderr, "error: the plain filter forgot a key it was never told to forget\n");
        return EXIT_FAILURE;
    }
    return status;
}

} // namespace

int main(int argc, char** argv) {
    options opts;
    const int parsed = parse_options(argc, argv, opts);
    if (parsed >= 0) {
        return parsed;
    }
    try {
        return run(opts);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "error: %s\n", error.what());
        return EXIT_FAILURE;
    }
}
