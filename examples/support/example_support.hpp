// SPDX-License-Identifier: MIT
//
// example_support.hpp: the small helpers every example program shares, so that each example's source is
// about its Bloom filter and not about printing numbers or reading argv. Not part of the library; an example
// includes it as "support/example_support.hpp". Header-only, in namespace example_support:
//
// - formatting: grouped ("1,234,567"), mebibytes ("1.14 MiB"), percent;
// - deterministic random numbers: splitmix64 (Steele, Lea & Flood 2014), its finalizer and its hash;
// - the command line: option_parser, which reads counts, numbers, rates, shares, paths, choices and flags
//   and reports a bad argument with the same words in every example;
// - timing: stopwatch.

#ifndef BLOOM_EXAMPLES_SUPPORT_EXAMPLE_SUPPORT_HPP
#define BLOOM_EXAMPLES_SUPPORT_EXAMPLE_SUPPORT_HPP

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>

namespace example_support {

// ---- Formatting -------------------------------------------------------------------------------------------

/// `value` in decimal with a comma between groups of three digits: 1234567 -> "1,234,567".
inline std::string grouped(std::uint64_t value) {
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

/// `bytes` in MiB with `decimals` digits after the point: mebibytes(1198136) -> "1.14 MiB".
inline std::string mebibytes(std::uint64_t bytes, int decimals = 2) {
    char text[48];
    std::snprintf(text, sizeof text, "%.*f MiB", decimals, static_cast<double>(bytes) / (1024.0 * 1024.0));
    return text;
}

/// `part` as a percentage of `whole`; 0 when `whole` is 0.
inline double percent(std::uint64_t part, std::uint64_t whole) {
    return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// ---- Deterministic random numbers -------------------------------------------------------------------------

/// The splitmix64 finalizer (Steele, Lea & Flood 2014): a bijection that scrambles all 64 bits, so distinct
/// inputs give distinct outputs.
inline std::uint64_t splitmix64_finalize(std::uint64_t x) noexcept {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// A well-mixed 64-bit hash of `x`, also a bijection: the number splitmix64 returns next from state `x`.
inline std::uint64_t splitmix64_hash(std::uint64_t x) noexcept {
    return splitmix64_finalize(x + 0x9e3779b97f4a7c15ULL);
}

/// splitmix64: a small, fast random stream; the same seed gives the same numbers on every platform.
class splitmix64 {
  public:
    /// The step the state advances by: 2^64 divided by the golden ratio, rounded to odd.
    static constexpr std::uint64_t increment = 0x9e3779b97f4a7c15ULL;

    /// A stream whose state starts at `seed`.
    explicit splitmix64(std::uint64_t seed) noexcept : m_state(seed) {}

    /// The next 64 random bits.
    std::uint64_t next() noexcept {
        m_state += increment;
        return splitmix64_finalize(m_state);
    }
    /// A number in [0, bound), `bound` > 0; the modulo bias is below bound / 2^64, negligible for the bounds
    /// the examples use.
    std::uint64_t below(std::uint64_t bound) noexcept { return next() % bound; }
    /// A number in [0, 1), from the top 53 bits of next().
    double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  private:
    std::uint64_t m_state;
};

// ---- The command line -------------------------------------------------------------------------------------

/// Parses the whole of `text` as a decimal integer that fits 64 bits (digits only: no sign, no spaces).
/// Returns false, leaving `value` alone, if it is not one.
inline bool parse_count(const char* text, std::uint64_t& value) {
    if (text == nullptr || *text < '0' || *text > '9') {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    const unsigned long long parsed = std::strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0') {
        return false;
    }
    value = parsed;
    return true;
}

/// Parses the whole of `text` as a finite floating-point number. Returns false, leaving `value` alone, if
/// it is not one (or is out of range).
inline bool parse_number(const char* text, double& value) {
    if (text == nullptr) {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    const double parsed = std::strtod(text, &end);
    if (end == text || errno != 0 || *end != '\0' || !std::isfinite(parsed)) {
        return false;
    }
    value = parsed;
    return true;
}

/// Reads argv one option at a time, and reports every problem the same way: "PROGRAM: unknown option
/// '--x'", "PROGRAM: --x needs a value" or "PROGRAM: invalid value 'v' for --x" on stderr, followed by the
/// usage text, and exit status 2; "--help" prints the usage text on stdout, exit status 0. The loop:
///
///     example_support::option_parser args("name", argc, argv, print_usage);
///     while (args.next()) {
///         if (!(args.count("--items", opts.items, 1) || args.flag("--keep", opts.keep))) {
///             args.unknown();
///         }
///     }
///     return args.status(); // -1: run; otherwise the exit status
///
/// Each reader (count, rate, ...) returns true if the current option is its `name`, whether or not its value
/// was valid; an invalid one stops the loop.
class option_parser {
  public:
    /// Parses argv[1] to argv[argc - 1] for the program `program`, whose usage text `print_usage` writes.
    option_parser(const char* program, int argc, char** argv, void (*print_usage)(std::FILE*)) noexcept
        : m_program(program), m_argc(argc), m_argv(argv), m_print_usage(print_usage) {}

    /// Moves to the next option. False when there is none left, after "--help" and after an error.
    bool next() {
        if (m_status >= 0 || m_index + 1 >= m_argc) {
            return false;
        }
        m_name = m_argv[++m_index];
        if (std::strcmp(m_name, "--help") == 0) {
            m_print_usage(stdout);
            m_status = EXIT_SUCCESS;
            return false;
        }
        return true;
    }

    /// If the option is `name` (which takes no value), sets `value` to true.
    bool flag(const char* name, bool& value) {
        if (!is(name)) {
            return false;
        }
        value = true;
        return true;
    }

    /// If the option is `name`, reads its value as an integer in [minimum, maximum] into `value`.
    bool count(const char* name, std::uint64_t& value, std::uint64_t minimum = 0,
               std::uint64_t maximum = std::numeric_limits<std::uint64_t>::max()) {
        return read(name, value, parse_count,
                    [&](std::uint64_t parsed) { return parsed >= minimum && parsed <= maximum; });
    }

    /// If the option is `name`, reads its value as a finite number of at least `minimum` into `value`.
    bool number(const char* name, double& value, double minimum = -std::numeric_limits<double>::max()) {
        return read(name, value, parse_number, [&](double parsed) { return parsed >= minimum; });
    }

    /// If the option is `name`, reads its value as a probability strictly between 0 and 1 into `value`.
    bool rate(const char* name, double& value) {
        return read(name, value, parse_number, [](double parsed) { return parsed > 0.0 && parsed < 1.0; });
    }

    /// If the option is `name`, reads its value as a share from 0 to 1, both included, into `value`.
    bool share(const char* name, double& value) {
        return read(name, value, parse_number, [](double parsed) { return parsed >= 0.0 && parsed <= 1.0; });
    }

    /// If the option is `name`, reads its value, a file or directory name (not empty), into `value`.
    bool path(const char* name, std::string& value) {
        return read(name, value, copy_text, [](const std::string& parsed) { return !parsed.empty(); });
    }

    /// If the option is `name`, reads its value, which must be one of `allowed`, into `value`.
    bool choice(const char* name, std::string& value, std::initializer_list<const char*> allowed) {
        return read(name, value, copy_text, [&](const std::string& parsed) {
            return std::find(allowed.begin(), allowed.end(), parsed) != allowed.end();
        });
    }

    /// Reports the current option as unknown: call it when no reader took the option.
    void unknown() {
        std::fprintf(stderr, "%s: unknown option '%s'\n", m_program, m_name);
        stop();
    }

    /// Reports a problem with the options taken together ("PROGRAM: `message`", then the usage text) and
    /// returns the exit status for it, 2.
    int fail(const std::string& message) {
        std::fprintf(stderr, "%s: %s\n", m_program, message.c_str());
        stop();
        return m_status;
    }

    /// -1 if the program should run; otherwise its exit status: 0 after "--help", 2 after an error.
    int status() const noexcept { return m_status; }

  private:
    /// If the option is `name`, parses its value with `parse` (false if it cannot) and stores it in `value`
    /// if `valid` accepts it; otherwise reports it. Returns whether the option was `name`.
    template <class T, class Parse, class Valid>
    bool read(const char* name, T& value, Parse parse, Valid valid) {
        if (!is(name)) {
            return false;
        }
        const char* const argument = take_value();
        T parsed{};
        if (argument != nullptr && accept(argument, parse(argument, parsed) && valid(parsed))) {
            value = parsed;
        }
        return true;
    }

    /// The "parser" of a text value: copies it.
    static bool copy_text(const char* argument, std::string& value) {
        value = argument;
        return true;
    }

    /// Whether the current option is `name`.
    bool is(const char* name) const noexcept { return std::strcmp(m_name, name) == 0; }

    /// The current option's value, the next argument; nullptr, after reporting it, if there is none.
    const char* take_value() {
        if (m_index + 1 >= m_argc) {
            std::fprintf(stderr, "%s: %s needs a value\n", m_program, m_name);
            stop();
            return nullptr;
        }
        return m_argv[++m_index];
    }

    /// Returns `valid`; if it is false, first reports `argument` as an invalid value for the current option.
    bool accept(const char* argument, bool valid) {
        if (!valid) {
            std::fprintf(stderr, "%s: invalid value '%s' for %s\n", m_program, argument, m_name);
            stop();
        }
        return valid;
    }

    /// Prints the usage text on stderr and ends the loop with exit status 2.
    void stop() {
        m_print_usage(stderr);
        m_status = 2;
    }

    const char* m_program;
    int m_argc;
    char** m_argv;
    void (*m_print_usage)(std::FILE*);
    int m_index = 0;
    const char* m_name = "";
    int m_status = -1;
};

// ---- Timing -----------------------------------------------------------------------------------------------

/// Measures wall-clock time on the steady clock from its construction or its last restart().
class stopwatch {
  public:
    stopwatch() noexcept : m_start(std::chrono::steady_clock::now()) {}

    /// Seconds since the construction or the last restart().
    double seconds() const noexcept {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }
    /// Starts measuring again from now.
    void restart() noexcept { m_start = std::chrono::steady_clock::now(); }

  private:
    std::chrono::steady_clock::time_point m_start;
};

} // namespace example_support

#endif // BLOOM_EXAMPLES_SUPPORT_EXAMPLE_SUPPORT_HPP
