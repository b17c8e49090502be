// SPDX-License-Identifier: MIT
//
// username_checker: "is this username taken?" answered by a Bloom filter in front of a real SQLite database.
//
// Creates a SQLite database file whose `users` table holds 1,000,000 realistic usernames ("alice_smith1987",
// "J.Doe42"), stored lower-cased under a unique index, as sign-up forms compare them. Builds a
// bloom::bloom_filter<std::string> from `SELECT username FROM users`, then checks 1,000,000 candidate names
// typed in mixed case, 90% of them free: once asking the database for every name, once asking it only when
// the filter says "maybe". Prints how many queries reached the database each way, how many of those were
// false positives, the measured false-positive rate next to the target, and the time per check.
// Every answer of the filtered path is compared with the database's answer for the same name; any
// disagreement (a wrong "available"), or a false-positive rate above target + 6 sigma, exits with status 1.
//
// smoke-test: --users 20000 --queries 20000

#include "support/example_support.hpp"
#include "support/sqlite_support.hpp"

#include <algorithm>
#include <array>
#include <bloom/bloom.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using example_support::database;
using example_support::database_file;
using example_support::grouped;
using example_support::mebibytes;
using example_support::query_count;
using example_support::splitmix64;
using example_support::splitmix64_hash;
using example_support::statement;
using example_support::stopwatch;

struct options {
    std::uint64_t users = 1'000'000;
    std::uint64_t queries = 1'000'000;
    double rate = 0.01;
    double taken_share = 0.1;
    std::string db_path; // empty: a new file in the temp directory
    bool keep = false;
};

void print_usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: username_checker [options]\n"
                 "  --users N        usernames in the database (default 1000000)\n"
                 "  --queries N      candidate names to check (default 1000000)\n"
                 "  --rate P         the filter's target false-positive rate, 0 < P < 1 (default 0.01)\n"
                 "  --taken-share S  share of candidates that are already taken, 0 <= S <= 1 (default 0.1)\n"
                 "  --db PATH        database file to create; must not exist (default: a new file in the\n"
                 "                   temp directory)\n"
                 "  --keep           keep the database file at exit\n"
                 "  --help           print this help\n");
}

/// Fills `parsed` from the command line. Returns -1 to run, or the exit status (0 after --help, 2 on error).
int parse_options(int argc, char** argv, options& parsed) {
    example_support::option_parser args("username_checker", argc, argv, print_usage);
    while (args.next()) {
        const bool known = args.count("--users", parsed.users, 1) ||
                           args.count("--queries", parsed.queries, 1) || args.rate("--rate", parsed.rate) ||
                           args.share("--taken-share", parsed.taken_share) ||
                           args.path("--db", parsed.db_path) || args.flag("--keep", parsed.keep);
        if (!known) {
            args.unknown();
        }
    }
    return args.status();
}

// ---- Deterministic name generator ------------------------------------------------------------------------

constexpr std::array<const char*, 64> first_names = {
    "alice", "bob",   "carol",  "dave",   "emma",  "frank", "grace", "henry", "isla",  "jack",  "kate",
    "liam",  "maria", "noah",   "olivia", "paul",  "quinn", "rosa",  "sam",   "tara",  "umar",  "vera",
    "will",  "xena",  "yusuf",  "zoe",    "anna",  "ben",   "chloe", "dan",   "eva",   "finn",  "gina",
    "hugo",  "ivy",   "jon",    "kim",    "leo",   "mia",   "nina",  "omar",  "pia",   "raj",   "sara",
    "tom",   "una",   "victor", "wen",    "adam",  "beth",  "carl",  "diana", "elena", "felix", "george",
    "hana",  "igor",  "julia",  "karl",   "lucia", "marco", "nora",  "oscar", "priya"};

constexpr std::array<const char*, 64> last_names = {
    "smith",    "jones",   "brown",    "taylor",   "wilson",   "davies",   "evans",  "thomas",
    "johnson",  "roberts", "walker",   "wright",   "robinson", "thompson", "white",  "hughes",
    "edwards",  "green",   "hall",     "wood",     "harris",   "lewis",    "martin", "jackson",
    "clarke",   "turner",  "hill",     "scott",    "cooper",   "morris",   "ward",   "moore",
    "king",     "watson",  "baker",    "harrison", "morgan",   "patel",    "young",  "allen",
    "mitchell", "james",   "anderson", "phillips", "lee",      "bell",     "parker", "doe",
    "garcia",   "muller",  "rossi",    "silva",    "kowalski", "nguyen",   "kim",    "tanaka",
    "novak",    "jensen",  "dubois",   "costa",    "ivanov",   "schmidt",  "meyer",  "weber"};

/// A lower-case username drawn from `random`, in one of the shapes people pick.
std::string draw_name(splitmix64& random) {
    const std::string first = first_names[random.below(first_names.size())];
    const std::string last = last_names[random.below(last_names.size())];
    const std::string initial = first.substr(0, 1);
    const std::uint64_t shape = random.below(100);
    if (shape < 12) {
        return first + '_' + last + std::to_string(1940 + random.below(76)); // alice_smith1987
    }
    if (shape < 27) {
        return initial + '.' + last + std::to_string(random.below(1000)); // j.doe42
    }
    if (shape < 52) {
        return first + last + std::to_string(random.below(10000)); // alicesmith123
    }
    if (shape < 62) {
        return first + '.' + last + std::to_string(random.below(100)); // alice.smith7
    }
    if (shape < 70) {
        return last + '_' + first + std::to_string(random.below(100)); // smith_alice12
    }
    if (shape < 82) {
        return first + std::to_string(random.below(100000)); // alice48213
    }
    if (shape < 90) {
        const std::uint64_t year = random.below(100);
        return initial + last + (year < 10 ? "0" : "") + std::to_string(year); // asmith87
    }
    return first + '-' + last + std::to_string(random.below(1000)); // alice-smith311
}

char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// `name` as someone might type it: lower case, Capitalised_Words, a capital first letter, or ALL CAPS.
std::string typed(std::string name, splitmix64& random) {
    const std::uint64_t style = random.below(100);
    if (style < 50) {
        return name;
    }
    if (style < 85) {
        bool word_start = true;
        for (char& c : name) {
            const bool letter = c >= 'a' && c <= 'z';
            if (letter && word_start) {
                c = upper(c);
            }
            word_start = !letter;
        }
    } else if (style < 95) {
        name[0] = upper(name[0]);
    } else {
        for (char& c : name) {
            c = upper(c);
        }
    }
    return name;
}

/// Writes `name` lower-cased into `out` (reusing its buffer): sign-up forms compare names without case.
void lower_case(std::string_view name, std::string& out) {
    out.assign(name.data(), name.size());
    for (char& c : out) {
        c = lower(c);
    }
}

/// Splits the name space in two halves by a hash of the lower-case name: registered users are drawn from
/// one half, new sign-ups from the other, so "new" names are free by construction. (The database still
/// decides every answer; this only makes the workload mostly free, as real sign-up traffic is.)
bool in_registered_half(std::string_view lower_name) {
    std::uint64_t hash = 0xcbf29ce484222325ULL; // FNV-1a, then mixed
    for (const char c : lower_name) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    return (splitmix64_hash(hash) & 1) == 0;
}

struct generated_name {
    std::string lower; // as stored and compared
    std::string shown; // as typed at sign-up
};

constexpr std::uint64_t registered_seed = 0x7573657273000001ULL;
constexpr std::uint64_t fresh_seed = 0x6e65776e616d6502ULL;
constexpr std::uint64_t candidate_seed = 0x63616e6469646103ULL;

/// Name number `index` of the stream `seed`, drawn from the registered half of the name space or the other.
generated_name stream_name(std::uint64_t seed, std::uint64_t index, bool registered) {
    // The stream starts one step past its seed, as it did when the README's sample output was made.
    splitmix64 random(splitmix64_hash(seed ^ splitmix64_hash(index)) + splitmix64::increment);
    for (;;) {
        std::string name = draw_name(random);
        if (in_registered_half(name) == registered) {
            std::string shown = typed(name, random);
            return {std::move(name), std::move(shown)};
        }
    }
}

/// The exact check: is `lower_name` in the users table? One indexed lookup.
bool taken_in_database(statement& lookup, std::string_view lower_name) {
    lookup.bind(1, lower_name);
    const bool found = lookup.step();
    lookup.reset();
    return found;
}

// ---- The run --------------------------------------------------------------------------------------------

/// Creates the users table with `count` distinct usernames inside one transaction. Returns how many names
/// the generator drew (duplicates of a taken name, as at a real sign-up, are skipped).
std::uint64_t create_users(database& db, std::uint64_t count) {
    db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE, "
               "display_name TEXT NOT NULL)");
    db.execute("PRAGMA cache_size = -131072"); // a 128 MiB page cache for the bulk load only
    db.execute("BEGIN");
    statement insert(db, "INSERT OR IGNORE INTO users (username, display_name) VALUES (?1, ?2)");
    std::uint64_t inserted = 0;
    std::uint64_t drawn = 0;
    while (inserted < count) {
        if (drawn > 4 * count + 1000) {
            throw std::runtime_error("the name generator ran out of distinct names; use a smaller --users");
        }
        const generated_name name = stream_name(registered_seed, drawn++, true);
        insert.bind(1, name.lower);
        insert.bind(2, name.shown);
        insert.step();
        insert.reset();
        inserted += sqlite3_changes(db.handle()) > 0 ? 1 : 0;
    }
    db.execute("COMMIT");
    db.execute("PRAGMA cache_size = -2000"); // back to SQLite's default (2 MiB) for the lookups
    return drawn;
}

int run(const options& opts) {
    const database_file file(opts.db_path, "bloom_username_checker_", opts.keep); // before the connection
    database db(file.path().string());

    std::printf("username_checker: is this username taken? A Bloom filter in front of SQLite\n\n");
    stopwatch timer;
    const std::uint64_t drawn = create_users(db, opts.users);
    const double create_seconds = timer.seconds();
    std::printf("Database  %s (%s at exit)\n", file.shown_path().c_str(), opts.keep ? "kept" : "removed");
    std::printf("  users              %s (%s names drawn, %s duplicates skipped)\n",
                grouped(opts.users).c_str(), grouped(drawn).c_str(), grouped(drawn - opts.users).c_str());
    {
        statement sample(db, "SELECT display_name FROM users ORDER BY id LIMIT 4");
        std::string names;
        while (sample.step()) {
            names += (names.empty() ? "" : ", ") + std::string(sample.column_text(0));
        }
        std::printf("  first users        %s, ...\n", names.c_str());
    }
    std::printf("  schema             users(id, username UNIQUE (lower-cased, indexed), display_name)\n");
    std::printf("  created in         %.2f s (one transaction, one prepared INSERT)\n", create_seconds);
    std::printf("  file size          %s\n\n", mebibytes(std::filesystem::file_size(file.path()), 1).c_str());

    // The filter: sized for the rows there are, filled from the column the exact check compares.
    timer.restart();
    const std::uint64_t row_count = query_count(db, "SELECT COUNT(*) FROM users");
    bloom::bloom_filter<std::string> filter(row_count, opts.rate);
    {
        statement all_names(db, "SELECT username FROM users");
        while (all_names.step()) {
            filter.insert(all_names.column_text(0));
        }
    }
    const double filter_seconds = timer.seconds();
    std::printf("Filter  built from SELECT username FROM users in %.2f s\n", filter_seconds);
    std::printf("  rows inserted      %s (item_count() %s: the other %s already read \"maybe\")\n",
                grouped(row_count).c_str(), grouped(filter.item_count()).c_str(),
                grouped(row_count - filter.item_count()).c_str());
    std::printf("  bits (m)           %s (%.2f per item)\n", grouped(filter.bit_count()).c_str(),
                static_cast<double>(filter.bit_count()) / static_cast<double>(row_count));
    std::printf("  hashes (k)         %u\n", filter.hash_count());
    std::printf("  memory             %s bytes (%s)\n", grouped(filter.memory_bytes()).c_str(),
                mebibytes(filter.memory_bytes()).c_str());
    std::printf(
        "  expected rate      %.3f%% at %s rows (current_false_positive_rate() %.3f%%, target %.3f%%)\n\n",
        100.0 * bloom::false_positive_rate(filter.bit_count(), filter.hash_count(), row_count),
        grouped(row_count).c_str(), 100.0 * filter.current_false_positive_rate(), 100.0 * opts.rate);

    // Candidates as people type them: most are new names, the rest existing ones in another casing.
    std::vector<std::string> candidates;
    candidates.reserve(opts.queries);
    {
        splitmix64 random(candidate_seed + splitmix64::increment); // one step past its seed, as above
        for (std::uint64_t q = 0; q < opts.queries; ++q) {
            if (random.uniform() < opts.taken_share) {
                std::string name = stream_name(registered_seed, random.below(drawn), true).lower;
                candidates.push_back(typed(std::move(name), random));
            } else {
                candidates.push_back(stream_name(fresh_seed, q, false).shown);
            }
        }
    }

    statement lookup(db, "SELECT 1 FROM users WHERE username = ?1");
    std::string lower_name;

    // Without the filter: one indexed query per candidate. These are the reference answers.
    std::vector<char> taken(candidates.size());
    timer.restart();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        lower_case(candidates[i], lower_name);
        taken[i] = taken_in_database(lookup, lower_name) ? 1 : 0;
    }
    const double plain_seconds = timer.seconds();

    // With the filter: the database is asked only when the filter says "maybe".
    std::vector<char> answered_taken(candidates.size());
    std::uint64_t filtered_queries = 0;
    std::uint64_t false_positives = 0;
    timer.restart();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        lower_case(candidates[i], lower_name);
        bool answer = false; // "definitely not taken": available, no query
        if (filter.contains(lower_name)) {
            ++filtered_queries;
            answer = taken_in_database(lookup, lower_name);
            false_positives += answer ? 0 : 1;
        }
        answered_taken[i] = answer ? 1 : 0;
    }
    const double filtered_seconds = timer.seconds();

    std::fflush(stdout); // keep the report and any error in order when both go to one file
    std::uint64_t taken_count = 0;
    std::uint64_t mismatches = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        taken_count += taken[i] != 0 ? 1 : 0;
        if (taken[i] != answered_taken[i]) {
            if (++mismatches <= 5) {
                std::fprintf(stderr, "error: '%s' is %s in the database but the filtered check said %s\n",
                             candidates[i].c_str(), taken[i] != 0 ? "taken" : "free",
                             answered_taken[i] != 0 ? "taken" : "available");
            }
        }
    }
    const std::uint64_t free_count = opts.queries - taken_count;
    const auto per_check_ns = [&](double seconds) {
        return 1e9 * seconds / static_cast<double>(opts.queries);
    };

    std::printf("Checked %s candidate names, typed in mixed case and lower-cased before the check\n",
                grouped(opts.queries).c_str());
    std::printf("  e.g.               %s, %s, %s, %s\n", candidates[0].c_str(),
                candidates[std::min<std::size_t>(1, candidates.size() - 1)].c_str(),
                candidates[std::min<std::size_t>(2, candidates.size() - 1)].c_str(),
                candidates[std::min<std::size_t>(3, candidates.size() - 1)].c_str());
    std::printf("  taken / free       %s / %s (the database's answers)\n\n", grouped(taken_count).c_str(),
                grouped(free_count).c_str());
    std::printf("                          without filter   with filter\n");
    std::printf("  database queries     %16s  %12s\n", grouped(opts.queries).c_str(),
                grouped(filtered_queries).c_str());
    std::printf("  answered by filter   %16s  %12s  (\"definitely not taken\": available)\n", "0",
                grouped(opts.queries - filtered_queries).c_str());
    std::printf("  false positives      %16s  %12s  (filter said maybe, database said free)\n", "-",
                grouped(false_positives).c_str());
    std::printf("  time per check       %13s ns  %9s ns  (speed-up %.1fx)\n",
                grouped(static_cast<std::uint64_t>(std::llround(per_check_ns(plain_seconds)))).c_str(),
                grouped(static_cast<std::uint64_t>(std::llround(per_check_ns(filtered_seconds)))).c_str(),
                plain_seconds / filtered_seconds);
    std::printf("  total time           %14.3f s  %10.3f s\n\n", plain_seconds, filtered_seconds);

    int status = EXIT_SUCCESS;
    if (free_count > 0) {
        const double measured = static_cast<double>(false_positives) / static_cast<double>(free_count);
        const double sigma = std::sqrt(opts.rate * (1.0 - opts.rate) / static_cast<double>(free_count));
        const double limit = opts.rate + 6.0 * sigma;
        std::printf("False-positive rate  %.3f%% of %s free names (target %.3f%%, limit %.3f%% = target + "
                    "6 sigma)\n",
                    100.0 * measured, grouped(free_count).c_str(), 100.0 * opts.rate, 100.0 * limit);
        if (measured > limit) {
            std::fprintf(stderr, "error: the measured false-positive rate %.4f%% exceeds %.4f%%\n",
                         100.0 * measured, 100.0 * limit);
            status = EXIT_FAILURE;
        }
    }
    if (mismatches != 0) {
        std::fprintf(stderr, "error: %s of %s filtered answers disagree with the database\n",
                     grouped(mismatches).c_str(), grouped(opts.queries).c_str());
        return EXIT_FAILURE;
    }
    std::printf("Verified: all %s filtered answers match the database; every \"available\" was really free\n",
                grouped(opts.queries).c_str());
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
