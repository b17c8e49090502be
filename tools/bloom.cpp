// SPDX-License-Identifier: MIT
//
// bloom: Bloom filters as files, from the command line. For people who keep filters as files (security
// teams matching indicator lists, data engineers): create one, add values, check values, describe it, merge
// several. The files are the library's portable format (docs/FORMAT.md), so programs using the library load
// them directly.
//
//     bloom create --items 1000000 --rate 0.01 known.bloom
//     cut -f1 indicators.tsv | bloom add known.bloom          # values from stdin, one per line
//     bloom check known.bloom evil.example.com || echo "some are not known"
//     bloom info known.bloom
//     bloom merge all.bloom monday.bloom tuesday.bloom
//
// Values are strings (bloom::hash<std::string>) unless the file's hasher says integers, float or double
// (--type names them for new files). Every write is atomic (bloom::save_file: a temporary file, fsync,
// rename, through symbolic links) and SIGINT/SIGTERM wait until it is done, so a crash or Ctrl-C leaves the
// old file intact; `add` and `merge` into an input hold the file's update lock (docs/FORMAT.md) from load
// to rename, so concurrent updates all land. Files are read into memory, never mapped: one truncated or
// rewritten underneath is an error, not a crash.
// Exit status: 0 success (check: every value present), 1 check found an absent value, 2 any error, with a
// one-line message naming the file and the problem.

#include <algorithm>
#include <bloom/bloom.hpp>
#include <bloom/detail/io/file_lock.hpp>
#include <bloom/parquet_file.hpp>
#include <cerrno>
#include <cfloat>
#include <charconv>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <system_error>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace {

constexpr int exit_ok = 0;
constexpr int exit_absent = 1;
constexpr int exit_error = 2;

/// An error the user caused or can fix; main prints "bloom: <message>" and exits with status 2.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// ---- help ----

constexpr const char* general_help = R"(usage: bloom COMMAND [OPTIONS] ...

Bloom filters as files: "definitely not present" or "probably present", in about 10 bits per value at 1%.

commands:
  create   make an empty filter file sized for N values at a false-positive rate
  build    build a static (binary fuse) filter file from a known set of values
  add      add values (arguments, or one per line from stdin)
  check    print the values that are probably present (or, with --invert, the absent ones)
  info     describe a filter file
  merge    write the union of compatible filters
  parquet  ask the Bloom filters inside Parquet files which row groups may hold values
  guava-import  turn a Guava BloomFilter (its writeTo stream) into a filter file
  guava-export  write a filter file that holds a Guava filter as Guava's stream again

Run `bloom help COMMAND` (or `bloom COMMAND --help`) for a command's options. Exit status: 0 success, 1 `check` found an absent
value, 2 error.
)";

constexpr const char* create_help =
    R"(usage: bloom create --items N --rate P [--kind classic|blocked] [--type T] [--seed S] [--force] FILE

Creates an empty filter sized for N values at false-positive rate P and saves it to FILE.
  --items N     values the filter should hold at rate P (e.g. 1000000, 1e6)
  --rate P      target false-positive rate in (0, 1) (e.g. 0.01 or 1%)
  --kind K      classic (smallest, default) or blocked (one cache line per value: faster, ~3% larger)
  --type T      key type: string (default), u64, i64, u32, i32, u16, i16, u8, i8 (integers of any
                width hash alike, as bloom::hash<T> does), f32 or f64
  --seed S      hash seed (decimal or 0x hex); filters merge only with equal seeds. Default: the
                library's fixed default seed
  --force       replace FILE if it exists (otherwise FILE must not exist, even when another create
                makes it at the same moment)
)";

constexpr const char* add_help = R"(usage: bloom add [--type T] FILE [VALUE...]

Adds each VALUE to the filter in FILE; without VALUEs, adds every line of stdin (streamed, any size; a
trailing CR is removed). Prints how many values were new. The file is replaced atomically at the end (a
symbolic link keeps pointing at it; other hard links keep the old filter), and it stays locked from the
load to the save, so adds and merges running at the same time all land. Values are parsed as the file's
key type (its hasher says: strings, integers, f32 or f64); --type T checks that and narrows integers to
u64, i64, u32, i32, u16, i16, u8 or i8. Put -- before values that start with '-'.
)";

constexpr const char* check_help = R"(usage: bloom check [--invert] [--type T] FILE [VALUE...]

Prints each VALUE (or each line of stdin) that is probably in the filter; with --invert, the ones that are
definitely not. Values are parsed as the file's key type (--type as for add). FILE may be a pipe. Exit
status 0 if every value is probably present, 1 if some value is absent, 2 on error (including a failed
write of the output). Put -- before values that start with '-'.
)";

constexpr const char* info_help = R"(usage: bloom info FILE

Prints the filter's kind, key type and hasher, bits, hash functions (k), seed, items, fill, current and
target false-positive rate, and size in bytes. Files of keys this tool cannot parse are described from
their header.
)";

constexpr const char* merge_help = R"(usage: bloom merge [--force] OUT IN...

Writes the union of the filters IN... to OUT: it reports every value any of them holds. They must be of the
same kind, key type, size, hash count and seed (made by `bloom create` with the same options); classic
and blocked filters merge, counting and scalable ones do not (the message says why). OUT may be one of the
inputs (it is then locked as `add` locks it); an existing OUT that is not an input needs --force.
)";

constexpr const char* parquet_help = R"(usage: bloom parquet FILE... --column C [VALUE...]
       bloom parquet --list FILE...

Asks the split-block Bloom filters that Parquet writers (Spark, DuckDB, Arrow, parquet-java) store per
column chunk which row groups may hold each VALUE of column C (its path, e.g. name or address.city): one
line per file, row group and value, tab-separated: FILE, row group, value, then `absent` (the row group
cannot hold it: a query skips it), `maybe`, or `maybe (no filter)` (the chunk has no filter). A summary
line follows: how many row-group reads the values' queries need and skip. Values are read as the column's
type reads a SQL literal (integers for INT32 and INT64, numbers for FLOAT and DOUBLE, text for strings);
without VALUE arguments, one value per line from stdin.

  --column C   the column to probe
  --list       per file, its row groups and the columns that carry filters, with their sizes

Exit status: 0 every value may be in some row group, 1 some value is absent from every row group of every
FILE, 2 error.
)";

constexpr const char* guava_import_help =
    R"(usage: bloom guava-import --type long|int|string|chars [--force] IN OUT

Reads IN, a filter Guava's BloomFilter.writeTo wrote, and saves it as the filter file OUT, which `bloom
check` and `bloom info` read and `bloom guava-export` turns back into the same stream. Guava's stream does
not say which Funnel hashed the values, so --type must: long (Funnels.longFunnel), int (integerFunnel),
string (stringFunnel(UTF_8)) or chars (unencodedCharsFunnel). The file keeps Guava's hashing, probes and
bits, so it answers exactly as Guava's mightContain does. An existing OUT needs --force.
)";

constexpr const char* guava_export_help = R"(usage: bloom guava-export [--force] IN OUT

Writes the Guava filter held in the filter file IN (made by `bloom guava-import`, or saved by
bloom::guava::bloom_filter::to_record) to OUT as Guava's BloomFilter.writeTo stream, which
BloomFilter.readFrom reads with the filter's funnel. Filters of this library's own kinds (classic,
blocked, counting, scalable) cannot be exported: their bits were placed by another hash and other probes,
which Guava cannot compute; rebuild the filter in Guava from its values instead. An existing OUT needs
--force.
)";

constexpr const char* build_help =
    R"(usage: bloom build --static [--bits 8|16|32] [--type T] [--seed S] [--force] OUT [VALUE...]

Builds OUT, a static filter (a binary fuse filter) of the values given, or of every line of stdin: for a
set known up front that will not change (a blocklist, a dictionary, yesterday's crawl). It takes about 9
bits per value at a 0.39% rate (--bits 8, the default), 18 at 0.0015% (--bits 16), where a Bloom filter
needs 11.5 and 24. `check` and `info` read it; `add` and `merge` cannot change it (rebuild it instead).
Duplicates are fine. --type as for create (default string). An existing OUT needs --force.
)";

bool is_help(std::string_view argument) { return argument == "--help" || argument == "-h"; }

// ---- numbers ----

std::string grouped(std::uint64_t value) {
    const std::string digits = std::to_string(value);
    std::string text;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && (digits.size() - i) % 3 == 0) {
            text += ',';
        }
        text += digits[i];
    }
    return text;
}

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string hex(std::uint64_t value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "0x%016" PRIx64, value);
    return buffer;
}

std::string percent(double fraction) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4g%%", fraction * 100.0);
    return buffer;
}

std::string bytes_text(std::uint64_t bytes) {
    if (bytes < 1024) {
        return std::to_string(bytes) + " B";
    }
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes) / 1024.0;
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(units)) {
        value /= 1024.0;
        ++unit;
    }
    return fixed(value, 2) + " " + units[unit];
}

std::string number_text(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

/// A count: digits, or a number in scientific notation that is a whole number ("1e6").
std::uint64_t parse_count(const std::string& option, const std::string& text) {
    std::uint64_t exact = 0;
    const char* const last = text.data() + text.size();
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
        const auto [end, error] = std::from_chars(text.data(), last, exact);
        if (error == std::errc::result_out_of_range) {
            throw usage_error(option + " " + text + " is too large: at most 18446744073709551615 (2^64 - 1)");
        }
        if (end == last && exact >= 1) {
            return exact; // exact beyond 2^53
        }
    }
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(text, &used);
    } catch (const std::out_of_range&) {
        throw usage_error(option + " " + text + " is too large: at most 18446744073709551615 (2^64 - 1)");
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == text.size() && value >= 1.8446744073709552e19) {
        throw usage_error(option + " " + text + " is too large: at most 18446744073709551615 (2^64 - 1)");
    }
    if (used != text.size() || !(value >= 1.0) || value != std::floor(value)) {
        throw usage_error(option + " must be a whole number of at least 1, got '" + text + "'");
    }
    return static_cast<std::uint64_t>(value);
}

/// A rate in (0, 1): "0.01" or "1%".
double parse_rate(const std::string& text) {
    std::string digits = text;
    double scale = 1.0;
    if (!digits.empty() && digits.back() == '%') {
        digits.pop_back();
        scale = 0.01;
    }
    char* end = nullptr;
    const double value = std::strtod(digits.c_str(), &end) * scale;
    const bool whole = !digits.empty() && end == digits.c_str() + digits.size() &&
                       digits.find_first_of(" \t\n") == std::string::npos;
    if (!whole || !(value > 0.0 && value < 1.0)) {
        if (whole && value == 0.0 && digits.find_first_of("123456789") != std::string::npos) {
            throw usage_error("--rate " + text + " is too small: below the smallest double (about 4.9e-324)");
        }
        throw usage_error("--rate must be in (0, 1) (e.g. 0.01 or 1%), got '" + text + "'");
    }
    if (value < DBL_MIN) {
        throw usage_error(
            "--rate " + text +
            " is too small: a subnormal number, below 2.2e-308 (no filter can hold the bits it needs)");
    }
    return value;
}

std::uint64_t parse_seed(const std::string& text) {
    try {
        std::size_t used = 0;
        const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
        const std::uint64_t value = std::stoull(hex ? text.substr(2) : text, &used, hex ? 16 : 10);
        if (used == (hex ? text.size() - 2 : text.size()) && text[0] != '-') {
            return value;
        }
    } catch (const std::exception&) {
    }
    throw usage_error("--seed must be a 64-bit unsigned number (decimal or 0x hex), got '" + text + "'");
}

// ---- errors ----

/// Prefixes what goes wrong with a file with its name: "bloom: FILE: problem".
[[noreturn]] void file_error(const std::filesystem::path& path, const std::string& problem) {
    throw usage_error(path.string() + ": " + problem);
}

std::string without_prefix(std::string message, const std::string& prefix) {
    const std::size_t at = message.find(prefix);
    return at == std::string::npos ? message : message.substr(at + prefix.size());
}

/// Which kind a filter type is, for what only some kinds have.
template <class Filter>
struct is_scalable : std::false_type {};
template <class Key, class Hasher, class Allocator>
struct is_scalable<bloom::scalable_bloom_filter<Key, Hasher, Allocator>> : std::true_type {};
template <class Filter>
struct is_counting : std::false_type {};
template <class Key, std::size_t Bits, class Hasher, class Allocator>
struct is_counting<bloom::counting_bloom_filter<Key, Bits, Hasher, Allocator>> : std::true_type {};
template <class Filter>
struct is_blocked : std::false_type {};
template <class Key, class Hasher, class Allocator>
struct is_blocked<bloom::blocked_bloom_filter<Key, Hasher, Allocator>> : std::true_type {};

// ---- key types ----

/// How a value's text becomes a key: the tool reads strings, integers (any width up to 64 bits: they hash
/// alike), float and double, as bloom::hash<T> or bloom::xxh3_hash<T> hashed them.
enum class key_family { string, integer, float32, float64 };

struct key_type {
    key_family family = key_family::string;
    std::string name = "string"; // what --type said (u64, i32, ...), or what the file's hasher implies
    std::int64_t lowest = 0;     // integers: the range --type allows
    std::uint64_t highest = 0;   // (the sign of a value picks i64 or u64 parsing)
    bool xxh3 = false;           // integers, float, double saved with bloom::xxh3_hash (hasher id XXH3)
};

constexpr const char* type_names = "string, u64, i64, u32, i32, u16, i16, u8, i8, f32 (float), f64 (double)";

/// The Guava funnels of bloom::guava, by the hasher id their filter files carry; "" for other ids.
std::string guava_funnel_name(std::uint64_t id) {
    if (id == bloom::guava::bloom_filter<std::int64_t>::format_id) {
        return "long";
    }
    if (id == bloom::guava::bloom_filter<std::int32_t>::format_id) {
        return "int";
    }
    if (id == bloom::guava::bloom_filter<std::string>::format_id) {
        return "string";
    }
    if (id == bloom::guava::bloom_filter<std::u16string>::format_id) {
        return "chars";
    }
    return {};
}

/// Calls fn(std::common_type<bloom::guava::bloom_filter<T>>{}) for the funnel `name` names.
template <class Fn>
int with_guava_funnel(const std::string& name, Fn&& fn) {
    if (name == "long") {
        return fn(std::common_type<bloom::guava::bloom_filter<std::int64_t>>{});
    }
    if (name == "int") {
        return fn(std::common_type<bloom::guava::bloom_filter<std::int32_t>>{});
    }
    if (name == "string") {
        return fn(std::common_type<bloom::guava::bloom_filter<std::string>>{});
    }
    if (name == "chars") {
        return fn(std::common_type<bloom::guava::bloom_filter<std::u16string>>{});
    }
    throw usage_error("--type must be long, int, string or chars (Guava's longFunnel, integerFunnel, "
                      "stringFunnel(UTF_8), unencodedCharsFunnel), got '" +
                      name + "'");
}

key_type integer_type(std::string name, std::int64_t lowest, std::uint64_t highest) {
    key_type type;
    type.family = key_family::integer;
    type.name = std::move(name);
    type.lowest = lowest;
    type.highest = highest;
    return type;
}

key_type parse_type_option(const std::string& text) {
    key_type type;
    if (text == "string" || text == "str") {
        return type;
    }
    if (text == "f32" || text == "float") {
        type.family = key_family::float32;
        type.name = "f32";
        return type;
    }
    if (text == "f64" || text == "double") {
        type.family = key_family::float64;
        type.name = "f64";
        return type;
    }
    for (const unsigned bits : {8U, 16U, 32U, 64U}) {
        const std::uint64_t unsigned_max = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
        const auto signed_max = static_cast<std::int64_t>(unsigned_max >> 1);
        if (text == "u" + std::to_string(bits)) {
            return integer_type(text, 0, unsigned_max);
        }
        if (text == "i" + std::to_string(bits)) {
            return integer_type(text, -signed_max - 1, static_cast<std::uint64_t>(signed_max));
        }
    }
    throw usage_error("--type must be one of " + std::string(type_names) + ", got '" + text + "'");
}

/// What a hasher id says about the keys, for messages and `info`.
std::string describe_hasher(std::uint64_t id) {
    const std::string funnel = guava_funnel_name(id);
    if (!funnel.empty()) {
        static const char* const funnels[][2] = {{"long", "longs (Guava's Funnels.longFunnel)"},
                                                 {"int", "ints (Guava's Funnels.integerFunnel)"},
                                                 {"string", "strings (Guava's Funnels.stringFunnel(UTF_8))"},
                                                 {"chars", "chars (Guava's Funnels.unencodedCharsFunnel)"}};
        for (const auto& entry : funnels) {
            if (funnel == entry[0]) {
                return std::string(entry[1]) + ", hasher id " + hex(id);
            }
        }
    }
    const auto described = [id](auto tag, const char* keys) -> std::string {
        using key = typename decltype(tag)::type;
        if (id == bloom::hash<key>::format_id) {
            return std::string(keys) + " (bloom::hash, hasher id " + hex(id) + ")";
        }
        if (id == bloom::xxh3_hash<key>::format_id) {
            return std::string(keys) + " (bloom::xxh3_hash, hasher id " + hex(id) + ")";
        }
        return {};
    };
    for (std::string text :
         {described(std::common_type<std::string>{}, "strings"),
          described(std::common_type<std::uint64_t>{}, "integers of up to 64 bits"),
          described(std::common_type<float>{}, "float"), described(std::common_type<double>{}, "double")}) {
        if (!text.empty()) {
            return text;
        }
    }
    return "keys of a hasher this tool does not know (hasher id " + hex(id) + ")";
}

/// The key type of a file: its hasher id decides; --type, if given, must agree (and says how integers
/// are range-checked).
key_type key_type_of(const bloom::saved_filter_info& info, const std::optional<key_type>& requested,
                     const std::filesystem::path& path) {
    key_type found;
    const std::uint64_t id = info.hasher_id;
    if (id == bloom::hash<std::string>::format_id) {
        found.family = key_family::string;
    } else if (id == bloom::hash<std::uint64_t>::format_id ||
               id == bloom::xxh3_hash<std::uint64_t>::format_id) {
        found = integer_type("integer", std::numeric_limits<std::int64_t>::min(), ~std::uint64_t{0});
        found.xxh3 = id == bloom::xxh3_hash<std::uint64_t>::format_id;
    } else if (id == bloom::hash<float>::format_id || id == bloom::xxh3_hash<float>::format_id) {
        found.family = key_family::float32;
        found.name = "f32";
        found.xxh3 = id == bloom::xxh3_hash<float>::format_id;
    } else if (id == bloom::hash<double>::format_id || id == bloom::xxh3_hash<double>::format_id) {
        found.family = key_family::float64;
        found.name = "f64";
        found.xxh3 = id == bloom::xxh3_hash<double>::format_id;
    } else if (!guava_funnel_name(id).empty()) {
        file_error(path, "holds a Guava BloomFilter of " + describe_hasher(id) +
                             ": check, info and guava-export read it; add and merge do not");
    } else {
        file_error(path, "holds " + describe_hasher(id) + "; this tool reads filters of " + type_names);
    }
    if (!requested) {
        return found;
    }
    if (requested->family != found.family) {
        file_error(path, "holds " + describe_hasher(id) + ", not --type " + requested->name + " keys");
    }
    key_type type = *requested;
    type.xxh3 = found.xxh3;
    return type;
}

/// Turns a value's text into the filter's key, or says why it cannot.
template <class Key>
class value_reader {
  public:
    value_reader(const key_type& type, const std::filesystem::path& path) : m_type(type), m_path(path) {}

    template <class K = Key, std::enable_if_t<std::is_same_v<K, std::string>, int> = 0>
    const std::string& operator()(const std::string& text) const {
        return text;
    }

    template <class K = Key, std::enable_if_t<std::is_same_v<K, std::uint64_t>, int> = 0>
    std::uint64_t operator()(const std::string& text) const {
        const char* const first = text.data();
        const char* const last = first + text.size();
        if (!text.empty() && text[0] == '-') {
            std::int64_t value = 0;
            const auto [end, error] = std::from_chars(first, last, value);
            if (error == std::errc() && end == last && value >= m_type.lowest) {
                return static_cast<std::uint64_t>(value); // one canonical word per value (bloom::hash)
            }
        } else {
            std::uint64_t value = 0;
            const auto [end, error] = std::from_chars(first, last, value);
            if (error == std::errc() && end == last && value <= m_type.highest) {
                return value;
            }
        }
        const std::string range =
            "an integer from " + std::to_string(m_type.lowest) + " to " + std::to_string(m_type.highest);
        file_error(m_path, "'" + text + "' is not " +
                               (m_type.name == "integer" ? range : "a " + m_type.name + " (" + range + ")"));
    }

    template <class K = Key, std::enable_if_t<std::is_floating_point_v<K>, int> = 0>
    K operator()(const std::string& text) const {
        char* end = nullptr;
        errno = 0;
        const K value = std::is_same_v<K, float> ? static_cast<K>(std::strtof(text.c_str(), &end))
                                                 : static_cast<K>(std::strtod(text.c_str(), &end));
        if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
            file_error(m_path, "'" + text + "' is not a " + m_type.name + " number");
        }
        return value;
    }

  private:
    const key_type& m_type;
    const std::filesystem::path& m_path;
};

// ---- filter files ----

/// Runs `action`, turning the library's file and format errors into one-line messages naming `path`.
template <class Action>
decltype(auto) about_file(const std::filesystem::path& path, const char* doing, Action&& action) {
    try {
        return action();
    } catch (const bloom::format_error& problem) {
        file_error(path, "not a valid filter file: " + without_prefix(problem.what(), ": "));
    } catch (const std::filesystem::filesystem_error& problem) {
        file_error(path, std::string(doing) + problem.code().message());
    }
}

/// A path the tool reads a filter from must be a file or a pipe: a directory or a device never holds one.
void check_readable(const std::filesystem::path& path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) {
        file_error(path, errno == ENOENT ? std::string("no such file") : std::strerror(errno));
    }
    if (S_ISDIR(status.st_mode)) {
        file_error(path, "is a directory, not a filter file");
    }
    if (S_ISCHR(status.st_mode) || S_ISBLK(status.st_mode) || S_ISSOCK(status.st_mode)) {
        file_error(path, std::string("is ") + bloom::detail::file_type_name(status.st_mode) +
                             ", not a filter file");
    }
}

/// A path the tool writes must be (or become, through its links) a regular file: refused before
/// anything is opened for writing.
void check_writable(const std::filesystem::path& path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
        file_error(path, std::string("is ") + bloom::detail::file_type_name(status.st_mode) +
                             ": refusing to replace it with a filter file");
    }
}

/// The whole record of the filter file or pipe at `path`, read into memory (not mapped: a file truncated
/// or rewritten while it is read gives an error, not SIGBUS). Reads no further than the record the
/// header announces, so an endless pipe ends at once.
std::vector<unsigned char> read_filter_bytes(const std::filesystem::path& path) {
    check_readable(path);
    return about_file(path, "cannot read: ", [&] {
        constexpr const char* where = "bloom";
        const int descriptor = bloom::detail::open_for_reading(path, where);
        try {
            std::vector<unsigned char> bytes = bloom::detail::read_descriptor(
                descriptor, path, where, [](const unsigned char* data, std::size_t size) {
                    constexpr std::size_t framing =
                        bloom::detail::record_header_bytes + bloom::detail::record_checksum_bytes;
                    if (size < bloom::detail::record_header_bytes) {
                        return false;
                    }
                    const std::uint64_t payload =
                        bloom::detail::parse_header(data, size, "bloom::inspect", bloom::detail::header_only)
                            .payload_bytes;
                    return size - framing >= payload && size >= framing;
                });
            ::close(descriptor);
            // A pipe may carry more than the record (its last read went past it): the record is the file.
            if (bytes.size() >= bloom::detail::record_header_bytes) {
                const std::uint64_t record =
                    bloom::detail::parse_header(bytes.data(), bytes.size(), "bloom::inspect",
                                                bloom::detail::header_only)
                        .payload_bytes +
                    bloom::detail::record_header_bytes + bloom::detail::record_checksum_bytes;
                if (record < bytes.size() && !std::filesystem::is_regular_file(path)) {
                    bytes.resize(static_cast<std::size_t>(record));
                }
            }
            return bytes;
        } catch (...) {
            ::close(descriptor);
            throw;
        }
    });
}

bloom::saved_filter_info inspect_bytes(const std::filesystem::path& path,
                                       const std::vector<unsigned char>& bytes) {
    if (bytes.empty()) {
        file_error(path, "not a valid filter file: it is empty");
    }
    return about_file(path, "", [&] {
        return bloom::inspect(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
    });
}

template <class Filter>
Filter load_typed(const std::filesystem::path& path, const std::vector<unsigned char>& bytes) {
    return about_file(path, "", [&] {
        return bloom::from_bytes<Filter>(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
    });
}

/// Calls fn(std::common_type<Filter>{}) with the filter type of the record `info` describes, keyed by Key
/// and hashed by Hasher<Key>; returns its result.
template <class Key, template <class> class Hasher, class Fn>
int with_kind(const bloom::saved_filter_info& info, const std::filesystem::path& path, Fn&& fn) {
    using hasher = Hasher<Key>;
    switch (info.kind) {
    case bloom::filter_kind::classic:
        return fn(std::common_type<bloom::bloom_filter<Key, hasher>>{});
    case bloom::filter_kind::blocked:
        return fn(std::common_type<bloom::blocked_bloom_filter<Key, hasher>>{});
    case bloom::filter_kind::counting:
        if (info.counter_bits == 4) {
            return fn(std::common_type<bloom::counting_bloom_filter<Key, 4, hasher>>{});
        }
        if (info.counter_bits == 8) {
            return fn(std::common_type<bloom::counting_bloom_filter<Key, 8, hasher>>{});
        }
        if (info.counter_bits == 16) {
            return fn(std::common_type<bloom::counting_bloom_filter<Key, 16, hasher>>{});
        }
        file_error(path, "holds " + std::to_string(info.counter_bits) +
                             "-bit counters, an unsupported counter width (counting filters have 4-, 8- or "
                             "16-bit counters)");
    case bloom::filter_kind::scalable:
        return fn(std::common_type<bloom::scalable_bloom_filter<Key, hasher>>{});
    case bloom::filter_kind::fuse:
        file_error(path, "holds a static (fuse) filter, which this version of the tool does not read");
    }
    file_error(path, "unknown filter kind");
}

/// Calls fn(std::common_type<Key>{}, xxh3) with the key type `type` names and whether its files were
/// saved with bloom::xxh3_hash (std::true_type) or bloom::hash (std::false_type).
template <class Fn>
int with_key_family(const key_type& type, Fn&& fn) {
    switch (type.family) {
    case key_family::string:
        return fn(std::common_type<std::string>{}, std::false_type{});
    case key_family::integer:
        return type.xxh3 ? fn(std::common_type<std::uint64_t>{}, std::true_type{})
                         : fn(std::common_type<std::uint64_t>{}, std::false_type{});
    case key_family::float32:
        return type.xxh3 ? fn(std::common_type<float>{}, std::true_type{})
                         : fn(std::common_type<float>{}, std::false_type{});
    case key_family::float64:
        return type.xxh3 ? fn(std::common_type<double>{}, std::true_type{})
                         : fn(std::common_type<double>{}, std::false_type{});
    }
    return exit_error;
}

/// with_kind for the key type `type` names.
template <class Fn>
int with_filter_type(const bloom::saved_filter_info& info, const key_type& type,
                     const std::filesystem::path& path, Fn&& fn) {
    return with_key_family(type, [&](auto key_tag, auto xxh3) {
        using key = typename decltype(key_tag)::type;
        if constexpr (decltype(xxh3)::value) {
            return with_kind<key, bloom::xxh3_hash>(info, path, fn);
        } else {
            return with_kind<key, bloom::hash>(info, path, fn);
        }
    });
}

/// Blocks SIGINT, SIGTERM and SIGHUP while it lives: a save in progress finishes (and renames its
/// temporary file into place, or removes it) before the signal's default action ends the program.
class signals_deferred {
  public:
    signals_deferred() {
        sigemptyset(&m_signals);
        sigaddset(&m_signals, SIGINT);
        sigaddset(&m_signals, SIGTERM);
        sigaddset(&m_signals, SIGHUP);
        sigprocmask(SIG_BLOCK, &m_signals, &m_previous);
    }
    signals_deferred(const signals_deferred&) = delete;
    signals_deferred& operator=(const signals_deferred&) = delete;
    ~signals_deferred() { sigprocmask(SIG_SETMASK, &m_previous, nullptr); }

  private:
    sigset_t m_signals{};
    sigset_t m_previous{};
};

/// Saves atomically (through symbolic links; create_new never replaces a file that exists by then).
template <class Filter>
void save_filter(const Filter& filter, const std::filesystem::path& path, bloom::save_mode mode) {
    check_writable(path);
    const signals_deferred deferred;
    try {
        bloom::save_file(filter, path, mode);
    } catch (const std::filesystem::filesystem_error& problem) {
        if (problem.code() == std::errc::file_exists) {
            file_error(path, "already exists (use --force to replace it)");
        }
        file_error(path, std::string("cannot save: ") + problem.code().message());
    }
}

/// Holds the update lock of `path` (docs/FORMAT.md) from before its load until after its save.
class locked_filter_file {
  public:
    explicit locked_filter_file(const std::filesystem::path& path) : m_path(path) {
        check_readable(path);
        check_writable(path);
        about_file(path, "cannot lock: ", [&] {
            m_lock.emplace(path, "bloom");
            return 0;
        });
        m_bytes = about_file(path, "cannot read: ", [&] { return m_lock->read("bloom"); });
        m_info = inspect_bytes(path, m_bytes);
    }

    [[nodiscard]] const std::vector<unsigned char>& bytes() const noexcept { return m_bytes; }
    [[nodiscard]] const bloom::saved_filter_info& info() const noexcept { return m_info; }

    /// A warning when the file has other names: they keep the old filter.
    [[nodiscard]] std::string hard_link_warning() const {
        const std::uint64_t links = m_lock->link_count();
        if (links <= 1) {
            return {};
        }
        return "warning: " + m_path.string() + " had " + std::to_string(links) +
               " hard links; the others still name the filter as it was (saves write a new file)\n";
    }

  private:
    std::filesystem::path m_path;
    std::optional<bloom::detail::file_lock> m_lock;
    std::vector<unsigned char> m_bytes;
    bloom::saved_filter_info m_info;
};

// ---- values: arguments or stdin lines, with a progress line for long inputs on a terminal ----

class progress_line {
  public:
    progress_line() : m_enabled(isatty(STDERR_FILENO) == 1) {
        struct stat status {};
        if (m_enabled && fstat(STDIN_FILENO, &status) == 0 && S_ISREG(status.st_mode)) {
            m_total_bytes = static_cast<std::uint64_t>(status.st_size);
        }
    }
    progress_line(const progress_line&) = delete;
    progress_line& operator=(const progress_line&) = delete;
    ~progress_line() {
        if (m_shown) {
            std::fputs("\r\033[K", stderr);
        }
    }

    void update(std::uint64_t lines, std::uint64_t bytes) {
        if (!m_enabled || (lines & 0xfff) != 0) {
            return;
        }
        const auto now = std::chrono::steady_clock::now();
        if (!m_shown && now - m_start < std::chrono::milliseconds(500)) {
            return; // short inputs finish without a progress line
        }
        if (m_shown && now - m_last < std::chrono::milliseconds(100)) {
            return;
        }
        m_last = now;
        m_shown = true;
        std::string text = "\r\033[K" + grouped(lines) + " lines";
        if (m_total_bytes != 0) {
            const double done =
                std::min(1.0, static_cast<double>(bytes) / static_cast<double>(m_total_bytes));
            const int width = 30;
            const int filled = static_cast<int>(done * width);
            text += " [" + std::string(static_cast<std::size_t>(filled), '#') +
                    std::string(static_cast<std::size_t>(width - filled), ' ') + "] " +
                    fixed(done * 100.0, 1) + "%";
        } else {
            text += ", " + fixed(static_cast<double>(bytes) / (1024.0 * 1024.0), 1) + " MiB read";
        }
        std::fputs(text.c_str(), stderr);
    }

  private:
    bool m_enabled;
    bool m_shown = false;
    std::uint64_t m_total_bytes = 0;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point m_last{};
};

/// Calls `each` with every value: the arguments if there are any, else every line of stdin.
void for_each_value(const std::vector<std::string>& arguments,
                    const std::function<void(const std::string&)>& each) {
    if (!arguments.empty()) {
        for (const std::string& value : arguments) {
            each(value);
        }
        return;
    }
    std::ios::sync_with_stdio(false);
    progress_line progress;
    std::string line;
    std::uint64_t lines = 0;
    std::uint64_t bytes = 0;
    while (std::getline(std::cin, line)) {
        bytes += line.size() + 1;
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        each(line);
        progress.update(++lines, bytes);
    }
    if (std::cin.bad()) {
        throw usage_error("stdin: read error");
    }
}

// ---- commands ----

/// Splits `arguments` into options (handled by `option`, which returns whether it consumed the next
/// argument as its value) and positional arguments; "--" ends the options.
std::vector<std::string>
parse_options(const std::vector<std::string>& arguments,
              const std::function<bool(const std::string&, const std::string*)>& option) {
    std::vector<std::string> positional;
    bool options_done = false;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& argument = arguments[i];
        if (!options_done && argument == "--") {
            options_done = true;
        } else if (!options_done && argument.size() > 1 && argument[0] == '-' &&
                   !(argument[1] >= '0' && argument[1] <= '9')) { // -3 is a value (an integer key)
            const std::string* value = i + 1 < arguments.size() ? &arguments[i + 1] : nullptr;
            if (option(argument, value)) {
                ++i;
            }
        } else {
            positional.push_back(argument);
        }
    }
    return positional;
}

std::string require_value(const std::string& option, const std::string* value) {
    if (value == nullptr) {
        throw usage_error(option + " needs a value");
    }
    return *value;
}

[[noreturn]] void unknown_option(const char* command, const std::string& option) {
    throw usage_error(std::string(command) + ": unknown option " + option + " (see bloom help " + command +
                      ")");
}

/// Creates a new filter of the kind and key type asked for and saves it without replacing anything.
template <class Key>
void create_filter(const std::string& kind, std::uint64_t items, double rate, std::uint64_t seed,
                   const std::filesystem::path& path, bloom::save_mode mode) {
    if (kind == "classic") {
        save_filter(bloom::bloom_filter<Key>(items, rate, seed), path, mode);
    } else {
        save_filter(bloom::blocked_bloom_filter<Key>(items, rate, seed), path, mode);
    }
}

// ---- static (fuse) filters ----

template <class Key, template <class> class Hasher, class Fn>
int with_fuse_width(unsigned bits, const std::filesystem::path& path, Fn&& fn) {
    switch (bits) {
    case 8:
        return fn(std::common_type<bloom::fuse_filter<Key, std::uint8_t, Hasher<Key>>>{});
    case 16:
        return fn(std::common_type<bloom::fuse_filter<Key, std::uint16_t, Hasher<Key>>>{});
    case 32:
        return fn(std::common_type<bloom::fuse_filter<Key, std::uint32_t, Hasher<Key>>>{});
    default:
        file_error(path,
                   "holds " + std::to_string(bits) + "-bit fingerprints; fuse filters have 8, 16 or 32");
    }
}

/// Calls fn(std::common_type<Filter>{}) with the fuse filter type of `bits`-bit fingerprints and the keys
/// `type` names.
template <class Fn>
int with_fuse_type(unsigned bits, const key_type& type, const std::filesystem::path& path, Fn&& fn) {
    return with_key_family(type, [&](auto key_tag, auto xxh3) {
        using key = typename decltype(key_tag)::type;
        if constexpr (decltype(xxh3)::value) {
            return with_fuse_width<key, bloom::xxh3_hash>(bits, path, fn);
        } else {
            return with_fuse_width<key, bloom::hash>(bits, path, fn);
        }
    });
}

int run_build(const std::vector<std::string>& arguments) {
    bool is_static = false;
    unsigned bits = 8;
    std::uint64_t seed = bloom::default_seed;
    key_type type;
    bool force = false;
    const auto positional =
        parse_options(arguments, [&](const std::string& option, const std::string* value) {
            if (option == "--static") {
                is_static = true;
                return false;
            }
            if (option == "--force") {
                force = true;
                return false;
            }
            if (option == "--bits") {
                const std::string text = require_value(option, value);
                if (text != "8" && text != "16" && text != "32") {
                    throw usage_error("--bits must be 8, 16 or 32, got '" + text + "'");
                }
                bits = static_cast<unsigned>(std::stoul(text));
            } else if (option == "--seed") {
                seed = parse_seed(require_value(option, value));
            } else if (option == "--type") {
                type = parse_type_option(require_value(option, value));
            } else {
                unknown_option("build", option);
            }
            return true;
        });
    if (!is_static) {
        throw usage_error(
            "build makes static filters: say --static (see bloom help build); for a filter that "
            "takes values later, use bloom create and bloom add");
    }
    if (positional.empty()) {
        throw usage_error("build needs OUT (see bloom help build)");
    }
    const std::filesystem::path path = positional.front();
    const std::vector<std::string> values(positional.begin() + 1, positional.end());
    check_writable(path);
    if (!force && std::filesystem::exists(std::filesystem::symlink_status(path))) {
        file_error(path, "already exists (use --force to replace it)");
    }
    return with_fuse_type(bits, type, path, [&](auto tag) {
        using filter_type = typename decltype(tag)::type;
        using key = typename filter_type::value_type;
        const value_reader<key> key_of(type, "stdin");
        std::vector<key> keys;
        for_each_value(values, [&](const std::string& value) { keys.push_back(key_of(value)); });
        const filter_type filter(keys, seed);
        save_filter(filter, path, force ? bloom::save_mode::replace : bloom::save_mode::create_new);
        std::fprintf(
            stderr,
            "built %s: static filter of %s distinct values, %u-bit fingerprints, %.2f bits per value, "
            "%s bytes, rate %s\n",
            path.string().c_str(), grouped(filter.item_count()).c_str(), bits, filter.bits_per_item(),
            grouped(filter.memory_bytes()).c_str(), percent(filter_type::false_positive_rate()).c_str());
        return exit_ok;
    });
}

int run_create(const std::vector<std::string>& arguments) {
    std::uint64_t items = 0;
    double rate = 0.0;
    std::string kind = "classic";
    std::uint64_t seed = bloom::default_seed;
    key_type type;
    bool force = false;
    const auto files = parse_options(arguments, [&](const std::string& option, const std::string* value) {
        if (option == "--items") {
            items = parse_count(option, require_value(option, value));
        } else if (option == "--rate") {
            rate = parse_rate(require_value(option, value));
        } else if (option == "--kind") {
            kind = require_value(option, value);
            if (kind != "classic" && kind != "blocked") {
                throw usage_error("--kind must be classic or blocked, got '" + kind + "'");
            }
        } else if (option == "--seed") {
            seed = parse_seed(require_value(option, value));
        } else if (option == "--type") {
            type = parse_type_option(require_value(option, value));
        } else if (option == "--force") {
            force = true;
            return false;
        } else {
            unknown_option("create", option);
        }
        return true;
    });
    if (items == 0 || rate == 0.0) {
        throw usage_error("create needs --items N and --rate P (see bloom help create)");
    }
    if (files.size() != 1) {
        throw usage_error("create needs exactly one FILE (see bloom help create)");
    }
    const std::filesystem::path path = files.front();
    const bloom::save_mode mode = force ? bloom::save_mode::replace : bloom::save_mode::create_new;
    check_writable(path);
    if (!force && std::filesystem::exists(std::filesystem::symlink_status(path))) {
        file_error(path, "already exists (use --force to replace it)");
    }
    try {
        switch (type.family) {
        case key_family::string:
            create_filter<std::string>(kind, items, rate, seed, path, mode);
            break;
        case key_family::integer:
            create_filter<std::uint64_t>(kind, items, rate, seed, path, mode);
            break;
        case key_family::float32:
            create_filter<float>(kind, items, rate, seed, path, mode);
            break;
        case key_family::float64:
            create_filter<double>(kind, items, rate, seed, path, mode);
            break;
        }
    } catch (const std::invalid_argument& problem) {
        throw usage_error("--items " + std::to_string(items) + " is too large at --rate " +
                          number_text(rate) + ": " + without_prefix(problem.what(), ": "));
    } catch (const std::bad_alloc&) {
        throw usage_error("--items " + std::to_string(items) + " at --rate " + number_text(rate) +
                          ": not enough memory for the filter");
    }
    const std::vector<unsigned char> bytes = read_filter_bytes(path);
    const bloom::saved_filter_info info = inspect_bytes(path, bytes);
    std::cerr << "created " << path.string() << ": " << kind << ", " << type.name << " keys, "
              << grouped(info.bit_count) << " bits, k = " << info.hash_count << ", "
              << grouped(info.record_bytes) << " bytes\n";
    return exit_ok;
}

/// Splits "FILE [VALUE...]": `option` handles the options (returning whether it took a value) and throws
/// for one it does not know.
std::vector<std::string>
file_and_values(const char* command, const std::vector<std::string>& arguments,
                const std::function<bool(const std::string&, const std::string*)>& option) {
    auto positional = parse_options(arguments, option);
    if (positional.empty()) {
        throw usage_error(std::string(command) + " needs a FILE (see bloom help " + command + ")");
    }
    return positional;
}

int run_add(const std::vector<std::string>& arguments) {
    std::optional<key_type> requested;
    const auto positional =
        file_and_values("add", arguments, [&](const std::string& option, const std::string* value) {
            if (option != "--type") {
                unknown_option("add", option);
            }
            requested = parse_type_option(require_value(option, value));
            return true;
        });
    const std::filesystem::path path = positional.front();
    const std::vector<std::string> values(positional.begin() + 1, positional.end());
    // Locked from the load to the rename: a concurrent add or merge waits, then adds to this result.
    const locked_filter_file file(path);
    if (file.info().kind == bloom::filter_kind::fuse) {
        file_error(path,
                   "holds a static (fuse) filter, which cannot take new values: rebuild it from the whole "
                   "set with bloom build --static");
    }
    const key_type type = key_type_of(file.info(), requested, path);
    const std::string link_warning = file.hard_link_warning();
    std::uint64_t seen = 0;
    std::uint64_t added = 0;
    std::string past_capacity; // the warning, if this add leaves the filter past its expected items
    with_filter_type(file.info(), type, path, [&](auto tag) {
        using filter_type = typename decltype(tag)::type;
        filter_type filter = load_typed<filter_type>(path, file.bytes());
        const value_reader<typename filter_type::value_type> key_of(type, path);
        for_each_value(values, [&](const std::string& value) {
            ++seen;
            added += filter.insert(key_of(value)) ? 1 : 0;
        });
        if constexpr (!is_scalable<filter_type>::value) { // a scalable filter grows instead
            if (added != 0 && filter.item_count() > filter.expected_items()) {
                past_capacity = "warning: " + path.string() + " now holds " + grouped(filter.item_count()) +
                                " items, past the " + grouped(filter.expected_items()) +
                                " it was sized for: its rate is " +
                                percent(filter.current_false_positive_rate()) + " (target " +
                                percent(filter.target_false_positive_rate()) +
                                "); rebuild it larger with bloom create --items\n";
            }
        }
        save_filter(filter, path, bloom::save_mode::replace);
        return exit_ok;
    });
    std::cerr << "added " << grouped(seen) << " values to " << path.string() << ": " << grouped(added)
              << " new, " << grouped(seen - added) << " probably present already\n"
              << past_capacity << link_warning;
    return exit_ok;
}

/// Writes to stdout, failing at once (status 2, with the reason) when it cannot.
void write_stdout(const std::string& text) {
    if (!text.empty() && std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
        throw usage_error(std::string("stdout: cannot write: ") + std::strerror(errno));
    }
}

// ---- Guava filters ----

/// A value's text as a key of a Guava funnel: a Java long or int, the text's bytes (UTF-8), or its UTF-16
/// code units (the text must be valid UTF-8).
template <class Key>
Key guava_key(const std::string& text, const std::filesystem::path& path) {
    if constexpr (std::is_same_v<Key, std::string>) {
        return text;
    } else if constexpr (std::is_same_v<Key, std::u16string>) {
        std::u16string units;
        for (std::size_t i = 0; i < text.size();) {
            const auto lead = static_cast<unsigned char>(text[i]);
            const std::size_t length = lead < 0x80         ? 1
                                       : (lead >> 5) == 6  ? 2
                                       : (lead >> 4) == 14 ? 3
                                       : (lead >> 3) == 30 ? 4
                                                           : 0;
            std::uint32_t code = length == 1   ? lead
                                 : length == 2 ? (lead & 0x1fU)
                                 : length == 3 ? (lead & 0x0fU)
                                               : (lead & 0x07U);
            bool valid = length != 0 && i + length <= text.size();
            for (std::size_t j = 1; valid && j < length; ++j) {
                const auto next = static_cast<unsigned char>(text[i + j]);
                valid = (next >> 6) == 2;
                code = (code << 6) | (next & 0x3fU);
            }
            const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
            if (!valid || code < smallest[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
                file_error(path, "'" + text + "' is not valid UTF-8 (chars keys are read as UTF-8 text)");
            }
            if (code >= 0x10000) {
                units.push_back(static_cast<char16_t>(0xd800 + ((code - 0x10000) >> 10)));
                units.push_back(static_cast<char16_t>(0xdc00 + ((code - 0x10000) & 0x3ffU)));
            } else {
                units.push_back(static_cast<char16_t>(code));
            }
            i += length;
        }
        return units;
    } else {
        Key value = 0;
        const char* first = text.data();
        const char* last = first + text.size();
        const auto [end, error] = std::from_chars(first, last, value);
        if (text.empty() || end != last || error != std::errc()) {
            file_error(path,
                       "'" + text + "' is not a Java " +
                           (std::is_same_v<Key, std::int64_t> ? std::string("long") : std::string("int")));
        }
        return value;
    }
}

template <class Filter>
Filter load_guava(const std::filesystem::path& path, const std::vector<unsigned char>& bytes) {
    return about_file(path, "", [&] {
        return Filter::from_record(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
    });
}

/// check's output: each value whose answer (`present_of(value)`) differs from `invert`, one per line.
/// Returns true if some value was absent.
template <class PresentOf>
bool print_checked(const std::vector<std::string>& values, bool invert, PresentOf&& present_of) {
    bool any_absent = false;
    std::string out;
    for_each_value(values, [&](const std::string& value) {
        const bool present = present_of(value);
        any_absent |= !present;
        if (present != invert) {
            out += value;
            out += '\n';
            if (out.size() >= (1U << 16)) {
                write_stdout(out);
                out.clear();
            }
        }
    });
    write_stdout(out);
    return any_absent;
}

/// `check` of a file holding a Guava filter.
int check_guava(const std::string& funnel, const std::filesystem::path& path,
                const std::vector<unsigned char>& bytes, const std::vector<std::string>& values,
                bool invert) {
    return with_guava_funnel(funnel, [&](auto tag) {
        using filter_type = typename decltype(tag)::type;
        const filter_type filter = load_guava<filter_type>(path, bytes);
        return print_checked(values, invert,
                             [&](const std::string& value) {
                                 return filter.might_contain(
                                     guava_key<typename filter_type::value_type>(value, path));
                             })
                   ? exit_absent
                   : exit_ok;
    });
}

int run_check(const std::vector<std::string>& arguments) {
    bool invert = false;
    std::optional<key_type> requested;
    const auto positional =
        file_and_values("check", arguments, [&](const std::string& option, const std::string* value) {
            if (option == "--invert" || option == "-v") {
                invert = true;
                return false;
            }
            if (option == "--type") {
                requested = parse_type_option(require_value(option, value));
                return true;
            }
            unknown_option("check", option);
        });
    const std::filesystem::path path = positional.front();
    const std::vector<std::string> values(positional.begin() + 1, positional.end());
    const std::vector<unsigned char> bytes = read_filter_bytes(path);
    const bloom::saved_filter_info info = inspect_bytes(path, bytes);
    const std::string funnel = guava_funnel_name(info.hasher_id);
    if (!funnel.empty()) {
        if (requested) {
            file_error(path, "holds a Guava filter, whose keys are its funnel's (" + funnel +
                                 "): --type does not apply");
        }
        return check_guava(funnel, path, bytes, values, invert);
    }
    const key_type type = key_type_of(info, requested, path);
    const auto check = [&](auto tag) {
        using filter_type = typename decltype(tag)::type;
        const filter_type filter = load_typed<filter_type>(path, bytes);
        const value_reader<typename filter_type::value_type> key_of(type, path);
        return print_checked(values, invert,
                             [&](const std::string& value) { return filter.contains(key_of(value)); })
                   ? exit_absent
                   : exit_ok;
    };
    return info.kind == bloom::filter_kind::fuse ? with_fuse_type(info.counter_bits, type, path, check)
                                                 : with_filter_type(info, type, path, check);
}

// info prints plain numbers (no digit grouping) so that scripts can read them; sizes and rates add a
// human-readable form in parentheses.
std::string rate_text(double rate) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g (%s)", rate, percent(rate).c_str());
    return buffer;
}

void print_line(const char* label, const std::string& value) {
    std::printf("%-16s %s\n", label, value.c_str());
}

// The monitoring rule of the README: a filter whose rate (from its bits) is above twice its target should
// be rebuilt larger or grown.
void print_rate_lines(double current, double target) {
    print_line("current rate:", rate_text(current));
    print_line("target rate:", rate_text(target));
    if (current > 2.0 * target) {
        std::printf("warning: the current rate %s is above twice the target %s: rebuild the filter larger\n",
                    percent(current).c_str(), percent(target).c_str());
    }
}

template <class Filter>
void print_common_info(const Filter& filter) {
    print_line("k:", std::to_string(filter.hash_count()) + " (hash functions)");
    print_line("seed:", hex(filter.seed()));
    print_line("items:", std::to_string(filter.item_count()));
    print_line("expected items:", std::to_string(filter.expected_items()));
    print_line("load factor:", number_text(filter.load_factor()) + " (estimated items / expected items)");
    print_line("fill:", percent(filter.fill_ratio()));
    print_rate_lines(filter.current_false_positive_rate(), filter.target_false_positive_rate());
}

template <class Filter>
void print_filter_info(const Filter& filter) {
    if constexpr (is_scalable<Filter>::value) {
        print_line("kind:", "scalable");
        print_line("stages:", std::to_string(filter.stage_count()));
        print_line("bits:", std::to_string(8 * filter.memory_bytes()) + " (all stages)");
        print_line("seed:", hex(filter.seed()));
        print_line("items:", std::to_string(filter.item_count()));
        print_line("initial capacity:", std::to_string(filter.initial_capacity()));
        print_line("load factor:",
                   number_text(filter.load_factor()) + " (estimated items / the stages' capacity)");
        print_rate_lines(filter.current_false_positive_rate(), filter.target_false_positive_rate());
    } else if constexpr (is_counting<Filter>::value) {
        print_line("kind:", "counting (" + std::to_string(Filter::counter_bits) + "-bit counters)");
        print_line("counters:", std::to_string(filter.counter_count()));
        print_common_info(filter);
    } else {
        print_line("kind:", is_blocked<Filter>::value ? "blocked" : "classic");
        print_line("bits:", std::to_string(filter.bit_count()));
        if constexpr (is_blocked<Filter>::value) {
            print_line("pattern:", filter.probes() == bloom::probe_scheme::one_bit_per_word
                                       ? "one bit per word (the original pattern)"
                                       : "bits anywhere in the block");
        }
        print_common_info(filter);
    }
}

/// What the header alone says: for files whose keys this tool cannot read.
void print_header_info(const bloom::saved_filter_info& info) {
    print_line("kind:", bloom::to_string(info.kind));
    if (info.kind != bloom::filter_kind::scalable) {
        print_line(info.kind == bloom::filter_kind::counting ? "counters:" : "bits:",
                   std::to_string(info.bit_count));
        print_line("k:", std::to_string(info.hash_count) + " (hash functions)");
    }
    if (info.kind == bloom::filter_kind::counting) {
        print_line("counter bits:", std::to_string(info.counter_bits));
    }
    print_line("seed:", hex(info.seed));
    print_line("items:", std::to_string(info.item_count));
    print_line("expected items:", std::to_string(info.expected_items));
    print_line("target rate:", rate_text(info.target_false_positive_rate));
}

int run_info(const std::vector<std::string>& arguments) {
    const auto positional =
        file_and_values("info", arguments, [](const std::string& option, const std::string*) -> bool {
            unknown_option("info", option);
        });
    if (positional.size() != 1) {
        throw usage_error("info takes exactly one FILE (see bloom help info)");
    }
    const std::filesystem::path path = positional.front();
    const std::vector<unsigned char> bytes = read_filter_bytes(path);
    const bloom::saved_filter_info info = inspect_bytes(path, bytes);
    print_line("file:", path.string());
    print_line("keys:", describe_hasher(info.hasher_id));
    const std::string funnel = guava_funnel_name(info.hasher_id);
    if (!funnel.empty()) {
        with_guava_funnel(funnel, [&](auto tag) {
            using filter_type = typename decltype(tag)::type;
            const filter_type filter = load_guava<filter_type>(path, bytes);
            print_line("kind:", std::string("Guava BloomFilter (") +
                                    (filter.hashing_strategy() == bloom::guava::strategy::murmur128_mitz_64
                                         ? "MURMUR128_MITZ_64)"
                                         : "MURMUR128_MITZ_32)"));
            print_line("bits:", std::to_string(filter.bit_size()));
            print_line("k:", std::to_string(filter.hash_count()) + " (hash functions)");
            print_line("expected items:", filter.expected_insertions() == 0
                                              ? std::string("unknown (Guava's stream does not record it)")
                                              : std::to_string(filter.expected_insertions()));
            print_line("items:", std::to_string(filter.approximate_element_count()) +
                                     " (Guava's approximateElementCount, from the bits)");
            print_line("fill:", percent(static_cast<double>(filter.set_bit_count()) /
                                        static_cast<double>(filter.bit_size())));
            print_line("current rate:", rate_text(filter.expected_fpp()) + " (Guava's expectedFpp)");
            if (filter.fpp() > 0.0) {
                print_line("target rate:", rate_text(filter.fpp()));
            }
            return exit_ok;
        });
        print_line("bytes:", std::to_string(info.record_bytes) + " (" + bytes_text(info.record_bytes) + ")");
        return exit_ok;
    }
    std::optional<key_type> type;
    try {
        type = key_type_of(info, std::nullopt, path);
    } catch (const usage_error&) {
        print_header_info(info); // a hasher of another program: describe what the header says
    }
    if (type && info.kind == bloom::filter_kind::fuse) {
        with_fuse_type(info.counter_bits, *type, path, [&](auto tag) {
            using filter_type = typename decltype(tag)::type;
            const filter_type filter = load_typed<filter_type>(path, bytes);
            print_line("kind:", "fuse (static: a binary fuse filter, built once from a known set)");
            print_line("fingerprint:", std::to_string(info.counter_bits) + " bits");
            print_line("slots:", std::to_string(filter.slot_count()) + " (segments of " +
                                     std::to_string(filter.segment_length()) + ")");
            print_line("seed:", hex(filter.seed()));
            print_line("items:", std::to_string(filter.item_count()) + " (distinct)");
            print_line("bits per item:", number_text(filter.bits_per_item()));
            print_line("rate:", rate_text(filter_type::false_positive_rate()) + " (2^-" +
                                    std::to_string(info.counter_bits) + ", at any load)");
            return exit_ok;
        });
        type.reset();
    }
    if (type) {
        with_filter_type(info, *type, path, [&](auto tag) {
            using filter_type = typename decltype(tag)::type;
            print_filter_info(load_typed<filter_type>(path, bytes));
            return exit_ok;
        });
    }
    print_line("bytes:", std::to_string(info.record_bytes) + " (" + bytes_text(info.record_bytes) + ")");
    return exit_ok;
}

/// True if `a` and `b` name the same file (through links and different spellings), or the same new path.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code error;
    if (std::filesystem::equivalent(a, b, error)) {
        return true;
    }
    const auto left = std::filesystem::weakly_canonical(a, error);
    const auto right = std::filesystem::weakly_canonical(b, error);
    return !error && left == right;
}

/// Unites `from` into `into`, or says exactly why these two cannot be united.
template <class Filter>
void unite(Filter& into, const Filter& from, const std::string& into_name,
           const std::filesystem::path& from_path) {
    if constexpr (is_scalable<Filter>::value) {
        (void)into;
        (void)from;
        file_error(from_path,
                   "is a scalable filter: its stages were sized as its items arrived, so two scalable "
                   "filters have no common shape to unite; add the values of one to the other instead");
    } else if constexpr (is_counting<Filter>::value) {
        (void)into;
        (void)from;
        file_error(from_path, "is a counting filter: the library has no union of counting filters (summing "
                              "counters could saturate them, and a later remove would then lose items)");
    } else {
        try {
            into |= from;
        } catch (const std::invalid_argument& problem) {
            file_error(from_path, "cannot be merged with " + into_name + ": " +
                                      without_prefix(problem.what(), "other "));
        }
    }
}

int run_merge(const std::vector<std::string>& arguments) {
    bool force = false;
    const auto files = parse_options(arguments, [&](const std::string& option, const std::string*) {
        if (option != "--force") {
            unknown_option("merge", option);
        }
        force = true;
        return false;
    });
    if (files.size() < 2) {
        throw usage_error("merge needs OUT and at least one IN (see bloom help merge)");
    }
    const std::filesystem::path out = files.front();
    const auto output_input = std::find_if(files.begin() + 1, files.end(),
                                           [&](const std::string& input) { return same_file(out, input); });
    const bool out_is_input = output_input != files.end();
    check_writable(out);
    if (!force && !out_is_input && std::filesystem::exists(std::filesystem::symlink_status(out))) {
        file_error(out, "already exists (use --force to replace it, or name it as an input too)");
    }
    // Merging into an input is a read-modify-write of it: hold its update lock and read it under the lock.
    std::optional<locked_filter_file> locked;
    if (out_is_input) {
        locked.emplace(out);
    }
    const auto bytes_of = [&](const std::string& input) {
        return locked && same_file(out, input) ? locked->bytes() : read_filter_bytes(input);
    };
    const std::vector<unsigned char> first_bytes = bytes_of(files[1]);
    const bloom::saved_filter_info first_info = inspect_bytes(files[1], first_bytes);
    if (first_info.kind == bloom::filter_kind::fuse) {
        file_error(files[1], "holds a static (fuse) filter: static filters cannot be merged (their slots "
                             "solve one key set); build one from the union of the key lists with bloom build "
                             "--static");
    }
    const key_type type = key_type_of(first_info, std::nullopt, files[1]);
    with_filter_type(first_info, type, files[1], [&](auto tag) {
        using filter_type = typename decltype(tag)::type;
        filter_type merged = load_typed<filter_type>(files[1], first_bytes);
        if (files.size() == 2) {
            unite(merged, merged, files[1], files[1]); // refuses the kinds that cannot merge
        }
        for (std::size_t i = 2; i < files.size(); ++i) {
            const std::vector<unsigned char> bytes = bytes_of(files[i]);
            const bloom::saved_filter_info info = inspect_bytes(files[i], bytes);
            if (info.kind != first_info.kind || info.counter_bits != first_info.counter_bits ||
                info.hasher_id != first_info.hasher_id) {
                file_error(files[i], std::string("is another kind of filter (") +
                                         bloom::to_string(info.kind) + ", " +
                                         describe_hasher(info.hasher_id) + ") than " + files[1] + " (" +
                                         bloom::to_string(first_info.kind) + ", " +
                                         describe_hasher(first_info.hasher_id) +
                                         "): only filters of one kind and key type merge");
            }
            unite(merged, load_typed<filter_type>(files[i], bytes), files[1], files[i]);
        }
        save_filter(merged, out,
                    force || out_is_input ? bloom::save_mode::replace : bloom::save_mode::create_new);
        return exit_ok;
    });
    std::cerr << "merged " << files.size() - 1 << " filters into " << out.string() << "\n";
    return exit_ok;
}

// ---- parquet ----

/// Runs `action`, turning the library's errors about a Parquet file into one-line messages naming `path`.
template <class Action>
decltype(auto) about_parquet(const std::filesystem::path& path, Action&& action) {
    try {
        return action();
    } catch (const bloom::format_error& problem) {
        const std::string message = without_prefix(problem.what(), ": ");
        file_error(path, message.rfind("not a Parquet file", 0) == 0
                             ? message
                             : "not a valid Parquet file: " + message);
    } catch (const std::filesystem::filesystem_error& problem) {
        file_error(path, "cannot read: " + problem.code().message());
    } catch (const std::invalid_argument& problem) {
        file_error(path, without_prefix(without_prefix(problem.what(), ": "), "text "));
    }
}

std::string column_list(const bloom::parquet::file& parquet) {
    std::string names;
    if (!parquet.row_groups().empty()) {
        for (const auto& column : parquet.row_groups().front().columns) {
            names += (names.empty() ? "" : ", ") + column.path;
        }
    }
    return names.empty() ? "none" : names;
}

int list_parquet(const std::vector<std::string>& files) {
    for (const std::string& name : files) {
        const std::filesystem::path path = name;
        check_readable(path);
        const bloom::parquet::file parquet =
            about_parquet(path, [&] { return bloom::parquet::file::open(path); });
        const auto& groups = parquet.row_groups();
        std::string out = name + ": " + std::to_string(parquet.num_rows()) + " rows in " +
                          std::to_string(groups.size()) + " row groups, " + std::to_string(parquet.size()) +
                          " bytes\n";
        const std::size_t columns = groups.empty() ? 0 : groups.front().columns.size();
        char line[512];
        std::snprintf(line, sizeof line, "  %-24s %-22s %-14s %s\n", "column", "type", "filters",
                      "filter bytes");
        out += line;
        for (std::size_t column = 0; column < columns; ++column) {
            std::size_t with_filter = 0;
            std::uint64_t bytes = 0;
            for (std::size_t group = 0; group < groups.size(); ++group) {
                if (column < groups[group].columns.size() &&
                    groups[group].columns[column].has_bloom_filter()) {
                    ++with_filter;
                    bytes +=
                        about_parquet(path, [&] { return parquet.bloom_filter_bytes(group, column).size(); });
                }
            }
            const auto& chunk = groups.front().columns[column];
            const std::string filters = std::to_string(with_filter) + " of " + std::to_string(groups.size());
            std::snprintf(line, sizeof line, "  %-24s %-22s %-14s %s\n", chunk.path.c_str(),
                          bloom::parquet::to_string(chunk.type), filters.c_str(),
                          with_filter == 0 ? "-" : std::to_string(bytes).c_str());
            out += line;
        }
        write_stdout(out);
    }
    return exit_ok;
}

int run_parquet(const std::vector<std::string>& arguments) {
    std::vector<std::string> files;
    std::vector<std::string> values;
    std::optional<std::string> column;
    bool list = false;
    bool options_done = false;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& argument = arguments[i];
        if (!options_done && argument == "--") {
            options_done = true;
        } else if (!options_done && argument == "--list") {
            list = true;
        } else if (!options_done && argument == "--column") {
            if (column) {
                throw usage_error("parquet: --column given twice");
            }
            column = require_value(argument, i + 1 < arguments.size() ? &arguments[i + 1] : nullptr);
            ++i;
        } else if (!options_done && argument.size() > 1 && argument[0] == '-' &&
                   !(argument[1] >= '0' && argument[1] <= '9')) {
            unknown_option("parquet", argument);
        } else {
            (column ? values : files).push_back(argument);
        }
    }
    if (list) {
        if (column || files.empty()) {
            throw usage_error("parquet --list takes FILE... and no --column (see bloom help parquet)");
        }
        return list_parquet(files);
    }
    if (!column) {
        throw usage_error("parquet needs --column C (or --list) (see bloom help parquet)");
    }
    if (files.empty()) {
        throw usage_error("parquet needs FILE... before --column (see bloom help parquet)");
    }
    std::vector<bloom::parquet::file> parquets;
    for (const std::string& name : files) {
        const std::filesystem::path path = name;
        check_readable(path);
        parquets.push_back(about_parquet(path, [&] { return bloom::parquet::file::open(path); }));
        if (!parquets.back().column_index(*column)) {
            file_error(path,
                       "has no column '" + *column + "' (its columns: " + column_list(parquets.back()) + ")");
        }
    }
    std::uint64_t reads = 0;
    std::uint64_t skipped = 0;
    std::uint64_t value_count = 0;
    std::uint64_t absent_everywhere = 0;
    std::string out;
    for_each_value(values, [&](const std::string& value) {
        ++value_count;
        bool somewhere = false;
        for (std::size_t f = 0; f < parquets.size(); ++f) {
            const auto answers =
                about_parquet(files[f], [&] { return parquets[f].probe_text(*column, value); });
            for (std::size_t group = 0; group < answers.size(); ++group) {
                const bool absent = answers[group] == bloom::parquet::probe_result::absent;
                ++reads;
                skipped += absent ? 1 : 0;
                somewhere |= !absent;
                out += files[f] + '\t' + std::to_string(group) + '\t' + value + '\t' +
                       (absent                                                  ? "absent"
                        : answers[group] == bloom::parquet::probe_result::maybe ? "maybe"
                                                                                : "maybe (no filter)") +
                       '\n';
            }
        }
        absent_everywhere += somewhere ? 0 : 1;
        if (out.size() >= (1U << 16)) {
            write_stdout(out);
            out.clear();
        }
    });
    char summary[256];
    std::snprintf(summary, sizeof summary,
                  "skipped %" PRIu64 " of %" PRIu64 " row-group reads (%s); %" PRIu64 " of %" PRIu64
                  " values absent from every row group\n",
                  skipped, reads,
                  reads == 0 ? "0%"
                             : percent(static_cast<double>(skipped) / static_cast<double>(reads)).c_str(),
                  absent_everywhere, value_count);
    out += summary;
    write_stdout(out);
    return absent_everywhere == 0 ? exit_ok : exit_absent;
}

// ---- guava-import, guava-export ----

/// The whole of a regular file (a Guava stream is read at once: 6 bytes plus 8 per word).
std::vector<unsigned char> read_whole_file(const std::filesystem::path& path) {
    check_readable(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        file_error(path, std::string("cannot open: ") + std::strerror(errno));
    }
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        file_error(path, "read error");
    }
    return bytes;
}

/// Writes `bytes` to `path` atomically (create_new unless --force).
void write_bytes_atomically(const std::filesystem::path& path, const std::vector<std::byte>& bytes,
                            bool force) {
    check_writable(path);
    const signals_deferred deferred;
    try {
        bloom::detail::write_file_atomically(
            path,
            [&](auto&& sink) { sink(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()); },
            "bloom", force ? bloom::detail::write_mode::replace : bloom::detail::write_mode::create_new);
    } catch (const std::filesystem::filesystem_error& problem) {
        if (problem.code() == std::errc::file_exists) {
            file_error(path, "already exists (use --force to replace it)");
        }
        file_error(path, std::string("cannot save: ") + problem.code().message());
    }
}

int run_guava_import(const std::vector<std::string>& arguments) {
    std::optional<std::string> funnel;
    bool force = false;
    const auto positional =
        parse_options(arguments, [&](const std::string& option, const std::string* value) {
            if (option == "--type") {
                funnel = require_value(option, value);
                return true;
            }
            if (option == "--force") {
                force = true;
                return false;
            }
            unknown_option("guava-import", option);
        });
    if (!funnel) {
        throw usage_error(
            "guava-import needs --type long|int|string|chars: Guava's stream does not say which "
            "Funnel hashed the values (see bloom help guava-import)");
    }
    if (positional.size() != 2) {
        throw usage_error("guava-import takes IN and OUT (see bloom help guava-import)");
    }
    const std::filesystem::path in = positional[0];
    const std::filesystem::path out = positional[1];
    const std::vector<unsigned char> stream = read_whole_file(in);
    return with_guava_funnel(*funnel, [&](auto tag) {
        using filter_type = typename decltype(tag)::type;
        const filter_type filter = [&] {
            try {
                return filter_type::from_bytes(reinterpret_cast<const std::byte*>(stream.data()),
                                               stream.size());
            } catch (const bloom::format_error& problem) {
                file_error(in, "not a Guava BloomFilter stream: " + without_prefix(problem.what(), ": "));
            }
        }();
        write_bytes_atomically(out, filter.to_record(), force);
        std::fprintf(stderr, "bloom: %s: a Guava filter of %s bits, k = %u, about %s items\n",
                     out.string().c_str(), std::to_string(filter.bit_size()).c_str(), filter.hash_count(),
                     std::to_string(filter.approximate_element_count()).c_str());
        return exit_ok;
    });
}

int run_guava_export(const std::vector<std::string>& arguments) {
    bool force = false;
    const auto positional = parse_options(arguments, [&](const std::string& option, const std::string*) {
        if (option == "--force") {
            force = true;
            return false;
        }
        unknown_option("guava-export", option);
    });
    if (positional.size() != 2) {
        throw usage_error("guava-export takes IN and OUT (see bloom help guava-export)");
    }
    const std::filesystem::path in = positional[0];
    const std::filesystem::path out = positional[1];
    const std::vector<unsigned char> bytes = read_filter_bytes(in);
    const bloom::saved_filter_info info = inspect_bytes(in, bytes);
    const std::string funnel = guava_funnel_name(info.hasher_id);
    if (funnel.empty()) {
        file_error(in,
                   std::string("holds a ") + bloom::to_string(info.kind) + " filter of " +
                       describe_hasher(info.hasher_id) +
                       ", which Guava cannot read: Guava places an item's bits by MurmurHash3 over its "
                       "funnel's bytes and its own probes (MURMUR128_MITZ_64), this filter by another hash "
                       "and probes, so no Guava filter answers as it does. Rebuild it in Guava from the "
                       "values; only files made by guava-import (or bloom::guava) export");
    }
    return with_guava_funnel(funnel, [&](auto tag) {
        using filter_type = typename decltype(tag)::type;
        write_bytes_atomically(out, load_guava<filter_type>(in, bytes).to_bytes(), force);
        return exit_ok;
    });
}

struct command_entry {
    const char* name;
    const char* help;
    int (*run)(const std::vector<std::string>&);
};

constexpr command_entry commands[] = {
    {"create", create_help, run_create},
    {"build", build_help, run_build},
    {"add", add_help, run_add},
    {"check", check_help, run_check},
    {"info", info_help, run_info},
    {"merge", merge_help, run_merge},
    {"parquet", parquet_help, run_parquet},
    {"guava-import", guava_import_help, run_guava_import},
    {"guava-export", guava_export_help, run_guava_export},
};

const command_entry* find_command(const std::string& name) {
    for (const command_entry& entry : commands) {
        if (name == entry.name) {
            return &entry;
        }
    }
    return nullptr;
}

int run(const std::vector<std::string>& arguments) {
    if (arguments.empty()) {
        std::fputs(general_help, stderr);
        return exit_error;
    }
    const std::string& command = arguments.front();
    const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    if (is_help(command) || command == "help") {
        if (command == "help" && !rest.empty()) {
            const command_entry* entry = find_command(rest.front());
            if (entry == nullptr) {
                throw usage_error("help: unknown command '" + rest.front() + "' (see bloom --help)");
            }
            write_stdout(entry->help);
            return exit_ok;
        }
        write_stdout(general_help);
        return exit_ok;
    }
    if (command == "--version") {
        write_stdout("bloom " + std::to_string(BLOOM_VERSION_MAJOR) + "." +
                     std::to_string(BLOOM_VERSION_MINOR) + "." + std::to_string(BLOOM_VERSION_PATCH) + "\n");
        return exit_ok;
    }
    const command_entry* entry = find_command(command);
    if (entry == nullptr) {
        throw usage_error("unknown command '" + command + "' (see bloom --help)");
    }
    // --help or -h among the options asks for help; after "--" they are values.
    const auto options_end = std::find(rest.begin(), rest.end(), std::string("--"));
    if (std::any_of(rest.begin(), options_end,
                    [](const std::string& argument) { return is_help(argument); })) {
        write_stdout(entry->help);
        return exit_ok;
    }
    return entry->run(rest);
}

/// Everything printed must reach stdout: a failed write or flush (a full disk, a closed pipe's reader
/// gone, /dev/full) is an error, not a silent truncation.
int finish_stdout(int status) {
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
        std::fprintf(stderr, "bloom: stdout: cannot write: %s\n", std::strerror(errno));
        return exit_error;
    }
    if (std::fclose(stdout) != 0) {
        std::fprintf(stderr, "bloom: stdout: cannot close: %s\n", std::strerror(errno));
        return exit_error;
    }
    return status;
}

} // namespace

int main(int argc, char** argv) {
    int status = exit_error;
    try {
        status = run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const usage_error& problem) {
        std::fprintf(stderr, "bloom: %s\n", problem.what());
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "bloom: out of memory\n");
    } catch (const std::exception& problem) {
        std::fprintf(stderr, "bloom: %s\n", problem.what());
    }
    return finish_stdout(status);
}
