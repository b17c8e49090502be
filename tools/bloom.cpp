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
// Values are strings (bloom::hash<std::string>). Every write is atomic (bloom::save_file: a temporary file,
// fsync, rename) and SIGINT/SIGTERM wait until it is done, so a crash or Ctrl-C leaves the old file intact.
// Exit status: 0 success (check: every value present), 1 check found an absent value, 2 any error, with a
// one-line message naming the file and the problem.

#include <algorithm>
#include <bloom/bloom.hpp>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <type_traits>
#include <unistd.h>
#include <variant>
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
  add      add values (arguments, or one per line from stdin)
  check    print the values that are probably present (or, with --invert, the absent ones)
  info     describe a filter file
  merge    write the union of compatible filters

Run `bloom COMMAND --help` for a command's options. Exit status: 0 success, 1 `check` found an absent
value, 2 error.
)";

constexpr const char* create_help =
    R"(usage: bloom create --items N --rate P [--kind classic|blocked] [--seed S] [--force] FILE

Creates an empty filter sized for N values at false-positive rate P and saves it to FILE.
  --items N     values the filter should hold at rate P (e.g. 1000000, 1e6)
  --rate P      target false-positive rate in (0, 1) (e.g. 0.01 or 1%)
  --kind K      classic (smallest, default) or blocked (one cache line per value: faster, ~3% larger)
  --seed S      hash seed (decimal or 0x hex); filters merge only with equal seeds. Default: the
                library's fixed default seed
  --force       replace FILE if it exists (otherwise an existing FILE is an error)
)";

constexpr const char* add_help = R"(usage: bloom add FILE [VALUE...]

Adds each VALUE to the filter in FILE; without VALUEs, adds every line of stdin (streamed, any size; a
trailing CR is removed). Prints how many values were new. The file is replaced atomically at the end.
Put -- before values that start with '-'.
)";

constexpr const char* check_help = R"(usage: bloom check [--invert] FILE [VALUE...]

Prints each VALUE (or each line of stdin) that is probably in the filter; with --invert, the ones that are
definitely not. Exit status 0 if every value is probably present, 1 if some value is absent, 2 on error.
Put -- before values that start with '-'.
)";

constexpr const char* info_help = R"(usage: bloom info FILE

Prints the filter's kind, bits, hash functions (k), seed, items, fill, current and target false-positive
rate, and size in bytes.
)";

constexpr const char* merge_help = R"(usage: bloom merge [--force] OUT IN...

Writes the union of the filters IN... to OUT: it reports every value any of them holds. They must be of the
same kind, size, hash count and seed (made by `bloom create` with the same options). OUT may be one of the
inputs; an existing OUT that is not an input needs --force.
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

/// A count: digits, or a number in scientific notation that is a whole number ("1e6").
std::uint64_t parse_count(const std::string& option, const std::string& text) {
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !(value >= 1.0) || value > 1.8e19 || value != std::floor(value)) {
        throw usage_error(option + " must be a whole number of at least 1, got '" + text + "'");
    }
    if (text.find_first_not_of("0123456789") == std::string::npos) {
        return std::stoull(text); // exact beyond 2^53
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
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(digits, &used) * scale;
    } catch (const std::exception&) {
        used = 0;
    }
    if (digits.empty() || used != digits.size() || !(value > 0.0 && value < 1.0)) {
        throw usage_error("--rate must be in (0, 1) (e.g. 0.01 or 1%), got '" + text + "'");
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

// ---- filter files ----

using classic_filter = bloom::bloom_filter<std::string>;
using blocked_filter = bloom::blocked_bloom_filter<std::string>;
using counting4_filter = bloom::counting_bloom_filter<std::string, bloom::hash<std::string>, 4>;
using counting8_filter = bloom::counting_bloom_filter<std::string, bloom::hash<std::string>, 8>;
using counting16_filter = bloom::counting_bloom_filter<std::string, bloom::hash<std::string>, 16>;
using scalable_filter = bloom::scalable_bloom_filter<std::string>;
using any_filter = std::variant<classic_filter, blocked_filter, counting4_filter, counting8_filter,
                                counting16_filter, scalable_filter>;

/// Prefixes what goes wrong with a file with its name: "bloom: FILE: problem".
[[noreturn]] void file_error(const std::filesystem::path& path, const std::string& problem) {
    throw usage_error(path.string() + ": " + problem);
}

std::string without_prefix(std::string message, const std::string& prefix) {
    const std::size_t at = message.find(prefix);
    return at == std::string::npos ? message : message.substr(at + prefix.size());
}

/// Loads the filter of strings saved in `path`, whatever its kind.
any_filter load_any(const std::filesystem::path& path) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (!std::filesystem::exists(status)) {
        file_error(path, "no such file");
    }
    if (std::filesystem::is_directory(status)) {
        file_error(path, "is a directory, not a filter file");
    }
    try {
        const bloom::mapped_file file(path);
        const bloom::saved_filter_info info = bloom::inspect(file.data(), file.size());
        if (info.hasher_id != bloom::hash<std::string>::format_id) {
            file_error(path, "holds a filter of another key type or hasher (hasher id " +
                                 hex(info.hasher_id) + "); this tool reads filters of strings");
        }
        const auto as = [&](auto tag) -> any_filter {
            using filter = typename decltype(tag)::type;
            return bloom::from_bytes<filter>(file.data(), file.size());
        };
        switch (info.kind) {
        case bloom::filter_kind::classic:
            return as(std::common_type<classic_filter>{});
        case bloom::filter_kind::blocked:
            return as(std::common_type<blocked_filter>{});
        case bloom::filter_kind::counting:
            if (info.counter_bits == 4) {
                return as(std::common_type<counting4_filter>{});
            }
            if (info.counter_bits == 8) {
                return as(std::common_type<counting8_filter>{});
            }
            return as(std::common_type<counting16_filter>{});
        case bloom::filter_kind::scalable:
            return as(std::common_type<scalable_filter>{});
        }
        file_error(path, "unknown filter kind");
    } catch (const bloom::format_error& problem) {
        file_error(path, "not a valid filter file: " + without_prefix(problem.what(), ": "));
    } catch (const std::filesystem::filesystem_error& problem) {
        file_error(path, problem.code().message());
    }
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

void save_any(const any_filter& filter, const std::filesystem::path& path) {
    const signals_deferred deferred;
    try {
        std::visit([&](const auto& typed) { bloom::save_file(typed, path); }, filter);
    } catch (const std::filesystem::filesystem_error& problem) {
        file_error(path, std::string("cannot save: ") + problem.code().message());
    }
}

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

/// Splits `arguments` into options (handled by `option`, which returns how many values it consumed) and
/// positional arguments; "--" ends the options.
std::vector<std::string>
parse_options(const std::vector<std::string>& arguments,
              const std::function<bool(const std::string&, const std::string*)>& option) {
    std::vector<std::string> positional;
    bool options_done = false;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& argument = arguments[i];
        if (!options_done && argument == "--") {
            options_done = true;
        } else if (!options_done && argument.size() > 1 && argument[0] == '-') {
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

int run_create(const std::vector<std::string>& arguments) {
    std::uint64_t items = 0;
    double rate = 0.0;
    std::string kind = "classic";
    std::uint64_t seed = bloom::default_seed;
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
        } else if (option == "--force") {
            force = true;
            return false;
        } else {
            throw usage_error("create: unknown option " + option + " (see bloom create --help)");
        }
        return true;
    });
    if (items == 0 || rate == 0.0) {
        throw usage_error("create needs --items N and --rate P (see bloom create --help)");
    }
    if (files.size() != 1) {
        throw usage_error("create needs exactly one FILE (see bloom create --help)");
    }
    const std::filesystem::path path = files.front();
    if (!force && std::filesystem::exists(path)) {
        file_error(path, "already exists (use --force to replace it)");
    }
    try {
        if (kind == "classic") {
            save_any(classic_filter(items, rate, seed), path);
        } else {
            save_any(blocked_filter(items, rate, seed), path);
        }
    } catch (const std::invalid_argument& problem) {
        throw usage_error(without_prefix(problem.what(), ": "));
    }
    const bloom::saved_filter_info info = [&] {
        const bloom::mapped_file file(path);
        return bloom::inspect(file.data(), file.size());
    }();
    std::cerr << "created " << path.string() << ": " << kind << ", " << grouped(info.bit_count)
              << " bits, k = " << info.hash_count << ", " << grouped(info.record_bytes) << " bytes\n";
    return exit_ok;
}

/// Splits "FILE [VALUE...]" and forbids options other than those `option` accepts.
std::vector<std::string> file_and_values(const char* command, const std::vector<std::string>& arguments,
                                         const std::function<bool(const std::string&)>& option) {
    auto positional = parse_options(arguments, [&](const std::string& name, const std::string*) {
        if (!option(name)) {
            throw usage_error(std::string(command) + ": unknown option " + name + " (see bloom " + command +
                              " --help)");
        }
        return false;
    });
    if (positional.empty()) {
        throw usage_error(std::string(command) + " needs a FILE (see bloom " + command + " --help)");
    }
    return positional;
}

int run_add(const std::vector<std::string>& arguments) {
    auto positional = file_and_values("add", arguments, [](const std::string&) { return false; });
    const std::filesystem::path path = positional.front();
    const std::vector<std::string> values(positional.begin() + 1, positional.end());
    any_filter filter = load_any(path);
    std::uint64_t seen = 0;
    std::uint64_t added = 0;
    std::string past_capacity; // the warning, if this add leaves the filter past its expected items
    std::visit(
        [&](auto& typed) {
            for_each_value(values, [&](const std::string& value) {
                ++seen;
                added += typed.insert(value) ? 1 : 0;
            });
            using filter_type = std::decay_t<decltype(typed)>;
            if constexpr (!std::is_same_v<filter_type, scalable_filter>) { // a scalable filter grows instead
                if (added != 0 && typed.item_count() > typed.expected_items()) {
                    past_capacity = "warning: " + path.string() + " now holds " +
                                    grouped(typed.item_count()) + " items, past the " +
                                    grouped(typed.expected_items()) + " it was sized for: its rate is " +
                                    percent(typed.current_false_positive_rate()) + " (target " +
                                    percent(typed.target_false_positive_rate()) +
                                    "); rebuild it larger with bloom create --items\n";
                }
            }
        },
        filter);
    save_any(filter, path);
    std::cerr << "added " << grouped(seen) << " values to " << path.string() << ": " << grouped(added)
              << " new, " << grouped(seen - added) << " probably present already\n"
              << past_capacity;
    return exit_ok;
}

int run_check(const std::vector<std::string>& arguments) {
    bool invert = false;
    auto positional = file_and_values("check", arguments, [&](const std::string& option) {
        if (option == "--invert" || option == "-v") {
            invert = true;
            return true;
        }
        return false;
    });
    const std::filesystem::path path = positional.front();
    const std::vector<std::string> values(positional.begin() + 1, positional.end());
    const any_filter filter = load_any(path);
    bool any_absent = false;
    std::string out;
    std::visit(
        [&](const auto& typed) {
            for_each_value(values, [&](const std::string& value) {
                const bool present = typed.contains(value);
                any_absent |= !present;
                if (present != invert) {
                    out += value;
                    out += '\n';
                    if (out.size() >= (1u << 16)) {
                        std::fwrite(out.data(), 1, out.size(), stdout);
                        out.clear();
                    }
                }
            });
        },
        filter);
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (std::fflush(stdout) != 0) {
        throw usage_error("stdout: write error");
    }
    return any_absent ? exit_absent : exit_ok;
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

std::string number_text(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
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

int run_info(const std::vector<std::string>& arguments) {
    auto positional = file_and_values("info", arguments, [](const std::string&) { return false; });
    if (positional.size() != 1) {
        throw usage_error("info takes exactly one FILE (see bloom info --help)");
    }
    const std::filesystem::path path = positional.front();
    const any_filter filter = load_any(path);
    const std::uint64_t file_bytes = std::filesystem::file_size(path);
    print_line("file:", path.string());
    std::visit(
        [&](const auto& typed) {
            using filter_type = std::decay_t<decltype(typed)>;
            if constexpr (std::is_same_v<filter_type, scalable_filter>) {
                print_line("kind:", "scalable");
                print_line("stages:", std::to_string(typed.stage_count()));
                print_line("bits:", std::to_string(8 * typed.memory_bytes()) + " (all stages)");
                print_line("seed:", hex(typed.seed()));
                print_line("items:", std::to_string(typed.item_count()));
                print_line("initial capacity:", std::to_string(typed.initial_capacity()));
                print_line("load factor:",
                           number_text(typed.load_factor()) + " (estimated items / the stages' capacity)");
                print_rate_lines(typed.current_false_positive_rate(), typed.target_false_positive_rate());
            } else if constexpr (std::is_same_v<filter_type, classic_filter> ||
                                 std::is_same_v<filter_type, blocked_filter>) {
                print_line("kind:", std::is_same_v<filter_type, classic_filter> ? "classic" : "blocked");
                print_line("bits:", std::to_string(typed.bit_count()));
                if constexpr (std::is_same_v<filter_type, blocked_filter>) {
                    print_line("pattern:", typed.probes() == bloom::probe_scheme::one_bit_per_word
                                               ? "one bit per word (the original pattern)"
                                               : "bits anywhere in the block");
                }
                print_common_info(typed);
            } else {
                print_line("kind:",
                           "counting (" + std::to_string(filter_type::counter_bits) + "-bit counters)");
                print_line("counters:", std::to_string(typed.counter_count()));
                print_common_info(typed);
            }
        },
        filter);
    print_line("bytes:", std::to_string(file_bytes) + " (" + bytes_text(file_bytes) + ")");
    return exit_ok;
}

int run_merge(const std::vector<std::string>& arguments) {
    bool force = false;
    const auto files = parse_options(arguments, [&](const std::string& option, const std::string*) {
        if (option != "--force") {
            throw usage_error("merge: unknown option " + option + " (see bloom merge --help)");
        }
        force = true;
        return false;
    });
    if (files.size() < 2) {
        throw usage_error("merge needs OUT and at least one IN (see bloom merge --help)");
    }
    const std::filesystem::path out = files.front();
    const bool out_is_input = std::find(files.begin() + 1, files.end(), files.front()) != files.end();
    if (!force && !out_is_input && std::filesystem::exists(out)) {
        file_error(out, "already exists (use --force to replace it, or name it as an input too)");
    }
    any_filter merged = load_any(files[1]);
    for (std::size_t i = 2; i < files.size(); ++i) {
        const any_filter next = load_any(files[i]);
        std::visit(
            [&](auto& into, const auto& from) {
                using into_type = std::decay_t<decltype(into)>;
                using from_type = std::decay_t<decltype(from)>;
                if constexpr (!std::is_same_v<into_type, from_type>) {
                    file_error(files[i], "is another kind of filter than " + files[1]);
                } else if constexpr (std::is_same_v<into_type, classic_filter> ||
                                     std::is_same_v<into_type, blocked_filter>) {
                    try {
                        into |= from;
                    } catch (const std::invalid_argument& problem) {
                        file_error(files[i], "cannot be merged with " + files[1] + ": " +
                                                 without_prefix(problem.what(), "other "));
                    }
                } else {
                    file_error(files[i], "merge supports classic and blocked filters");
                }
            },
            merged, next);
    }
    if (files.size() == 2 && !std::holds_alternative<classic_filter>(merged) &&
        !std::holds_alternative<blocked_filter>(merged)) {
        file_error(files[1], "merge supports classic and blocked filters");
    }
    save_any(merged, out);
    std::cerr << "merged " << files.size() - 1 << " filters into " << out.string() << "\n";
    return exit_ok;
}

int run(const std::vector<std::string>& arguments) {
    if (arguments.empty()) {
        std::fputs(general_help, stderr);
        return exit_error;
    }
    const std::string& command = arguments.front();
    const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    if (is_help(command) || command == "help") {
        std::fputs(general_help, stdout);
        return exit_ok;
    }
    if (command == "--version") {
        std::printf("bloom %d.%d.%d\n", BLOOM_VERSION_MAJOR, BLOOM_VERSION_MINOR, BLOOM_VERSION_PATCH);
        return exit_ok;
    }
    struct command_entry {
        const char* name;
        const char* help;
        int (*run)(const std::vector<std::string>&);
    };
    static const command_entry commands[] = {
        {"create", create_help, run_create}, {"add", add_help, run_add},
        {"check", check_help, run_check},    {"info", info_help, run_info},
        {"merge", merge_help, run_merge},
    };
    for (const command_entry& entry : commands) {
        if (command == entry.name) {
            if (std::any_of(rest.begin(), rest.end(),
                            [](const std::string& argument) { return is_help(argument); })) {
                std::fputs(entry.help, stdout);
                return exit_ok;
            }
            return entry.run(rest);
        }
    }
    throw usage_error("unknown command '" + command + "' (see bloom --help)");
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const usage_error& problem) {
        std::fprintf(stderr, "bloom: %s\n", problem.what());
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "bloom: out of memory\n");
    } catch (const std::exception& problem) {
        std::fprintf(stderr, "bloom: %s\n", problem.what());
    }
    return exit_error;
}
