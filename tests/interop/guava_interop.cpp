// SPDX-License-Identifier: MIT
// bloom's side of the interoperability test against Guava (scripts/check-guava.sh):
//   bloom_guava_interop check DIR   checks every guava_*.{bin,txt} case Guava wrote: our reader answers every
//                                   query as Guava did, and a filter we build from the same arguments and
//                                   puts returns Guava's put results and writes Guava's bytes
//   bloom_guava_interop write DIR   writes the ours_*.{bin,txt} cases, for GuavaInterop check
// Exit status: 0 all agree, 1 a difference, 2 an error.
#include "guava_cases.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

int check(const std::string& dir) {
    std::vector<std::filesystem::path> cases;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("guava_", 0) == 0 && entry.path().extension() == ".txt") {
            cases.push_back(entry.path());
        }
    }
    std::sort(cases.begin(), cases.end());
    if (cases.empty()) {
        std::cerr << "check: no guava_*.txt cases in " << dir << '\n';
        return 1;
    }
    int failures = 0;
    for (const auto& text : cases) {
        auto binary = text;
        binary.replace_extension(".bin");
        const guava_cases::test_case test = guava_cases::read_case(text.string());
        const auto result = guava_cases::with_type(test.type, [&](auto tag) {
            return guava_cases::check<decltype(tag)>(test, guava_cases::read_bytes(binary.string()));
        });
        const bool ok = result.different_answers == 0 && result.read_equals_rebuilt && result.same_bytes &&
                        result.stream_equals_bytes;
        std::cout << (ok ? "ok   " : "FAIL ") << text.stem().string() << ": " << result.puts << " puts, "
                  << result.queries << " queries, " << result.different_answers
                  << " different answers, our rebuild "
                  << (result.same_bytes ? "writes the same bytes" : "writes DIFFERENT bytes") << '\n';
        failures += ok ? 0 : 1;
    }
    return failures == 0 ? 0 : 1;
}

std::u16string random_chars(std::mt19937_64& random, bool lone_surrogates) {
    std::u16string text(random() % 20, u'a');
    for (auto& unit : text) {
        const auto pick = random() % 4;
        unit = static_cast<char16_t>(pick == 0   ? u'a' + random() % 26
                                     : pick == 1 ? 0x4e00 + random() % 0x5000
                                     : pick == 2 ? 0xe0 + random() % 0x20
                                                 : (lone_surrogates ? 0xd800 + random() % 0x800 : u'0'));
    }
    return text;
}

std::string utf8_of(const std::u16string& text) {
    // BMP characters without surrogates only (random_chars(..., false)): 1 to 3 bytes each.
    std::string out;
    for (const char16_t unit : text) {
        const auto code = static_cast<unsigned>(unit);
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xc0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3f));
        } else {
            out += static_cast<char>(0xe0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (code & 0x3f));
        }
    }
    return out;
}

/// `count` distinct values from `make`, and `others` more that are not among them.
template <class T, class Make>
std::pair<std::vector<T>, std::vector<T>> values(std::size_t count, std::size_t others, Make make) {
    std::vector<T> members;
    std::vector<T> rest;
    std::vector<T> seen;
    while (members.size() < count) {
        members.push_back(make());
    }
    seen = members;
    std::sort(seen.begin(), seen.end());
    while (rest.size() < others) {
        T value = make();
        if (!std::binary_search(seen.begin(), seen.end(), value)) {
            rest.push_back(value);
        }
    }
    return {members, rest};
}

int write(const std::string& dir) {
    std::mt19937_64 random(20261206);
    const auto longs = values<std::int64_t>(5000, 20000, [&] { return static_cast<std::int64_t>(random()); });
    guava_cases::write_case(dir, "ours_long", "long", "mitz64", 5000, "0.01", longs.first, longs.second);
    guava_cases::write_case(dir, "ours_long_overfilled", "long", "mitz64", 400, "0.02", longs.first,
                            longs.second);
    guava_cases::write_case(dir, "ours_long_mitz32", "long", "mitz32", 3000, "0.01", longs.first,
                            longs.second);
    const auto ints = values<std::int32_t>(3000, 20000, [&] { return static_cast<std::int32_t>(random()); });
    guava_cases::write_case(dir, "ours_int", "int", "mitz64", 3000, "0.03", ints.first, ints.second);
    const auto names =
        values<std::string>(4000, 20000, [&] { return "name-" + std::to_string(random() % 1000000007); });
    guava_cases::write_case(dir, "ours_string_ascii", "string", "mitz64", 4000, "0.001", names.first,
                            names.second);
    const auto unicode =
        values<std::string>(2000, 10000, [&] { return utf8_of(random_chars(random, false)); });
    guava_cases::write_case(dir, "ours_string_unicode", "string", "mitz64", 2000, "0.01", unicode.first,
                            unicode.second);
    guava_cases::write_case(dir, "ours_string_mitz32", "string", "mitz32", 1500, "0.05", unicode.first,
                            unicode.second);
    const auto chars = values<std::u16string>(2000, 10000, [&] { return random_chars(random, true); });
    guava_cases::write_case(dir, "ours_chars", "chars", "mitz64", 2000, "0.02", chars.first, chars.second);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    if (arguments.size() != 2 || (arguments[0] != "check" && arguments[0] != "write")) {
        std::cerr << "usage: bloom_guava_interop check|write DIR\n";
        return 2;
    }
    try {
        return arguments[0] == "check" ? check(arguments[1]) : write(arguments[1]);
    } catch (const std::exception& problem) {
        std::cerr << "bloom_guava_interop: " << problem.what() << '\n';
        return 2;
    }
}
