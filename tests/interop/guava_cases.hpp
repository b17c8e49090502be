// SPDX-License-Identifier: MIT
#ifndef BLOOM_TESTS_INTEROP_GUAVA_CASES_HPP
#define BLOOM_TESTS_INTEROP_GUAVA_CASES_HPP

// The interoperability cases of bloom::guava against Guava (tests/interop/guava/GuavaInterop.java
// describes the files): reading them, checking a case against bloom::guava::bloom_filter, and writing ours.
// Shared by the unit test (the committed cases of tests/data/guava) and the interop program that
// scripts/check-guava.sh runs against the real library.

#include <bloom/guava.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace guava_cases {

struct value_answer {
    std::string value; // as encoded in the file
    bool answer = false;
};

struct test_case {
    std::string type;     // long, int, string, chars
    std::string strategy; // mitz64, mitz32
    std::uint64_t expected_insertions = 0;
    double fpp = 0.0;
    std::vector<value_answer> puts;
    std::vector<value_answer> queries;
};

inline std::vector<std::byte> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot open " + path);
    }
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    for (std::size_t i = 0; i < chars.size(); ++i) {
        bytes[i] = static_cast<std::byte>(chars[i]);
    }
    return bytes;
}

inline test_case read_case(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error("cannot open " + path);
    }
    test_case result;
    std::string fpp;
    if (!(in >> result.type >> result.strategy >> result.expected_insertions >> fpp)) {
        throw std::runtime_error(path + ": bad first line");
    }
    result.fpp = std::stod(fpp);
    std::string what;
    value_answer entry;
    int answer = 0;
    while (in >> what >> entry.value >> answer) {
        entry.answer = answer == 1;
        (what == "put" ? result.puts : result.queries).push_back(entry);
    }
    return result;
}

inline int hex_digit(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

template <class T>
T decode(const std::string& text) {
    if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::int32_t>) {
        return static_cast<T>(std::stoll(text));
    } else {
        T value;
        if (text == "-") {
            return value;
        }
        constexpr std::size_t digits = sizeof(typename T::value_type) * 2;
        for (std::size_t i = 0; i + digits <= text.size(); i += digits) {
            unsigned unit = 0;
            for (std::size_t j = 0; j < digits; ++j) {
                unit = unit * 16 + static_cast<unsigned>(hex_digit(text[i + j]));
            }
            value.push_back(static_cast<typename T::value_type>(unit));
        }
        return value;
    }
}

template <class T>
std::string encode(const T& value) {
    if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::int32_t>) {
        return std::to_string(value);
    } else {
        if (value.empty()) {
            return "-";
        }
        std::string text;
        char digits[8];
        for (const auto unit : value) {
            std::snprintf(digits, sizeof digits, sizeof(unit) == 1 ? "%02x" : "%04x",
                          static_cast<unsigned>(static_cast<std::make_unsigned_t<decltype(unit)>>(unit)));
            text += digits;
        }
        return text;
    }
}

inline bloom::guava::strategy strategy_of(const std::string& name) {
    return name == "mitz32" ? bloom::guava::strategy::murmur128_mitz_32
                            : bloom::guava::strategy::murmur128_mitz_64;
}

/// Calls fn(T{}) with the value type a case's type names.
template <class Fn>
auto with_type(const std::string& type, Fn&& fn) {
    if (type == "long") {
        return fn(std::int64_t{});
    }
    if (type == "int") {
        return fn(std::int32_t{});
    }
    if (type == "string") {
        return fn(std::string{});
    }
    if (type == "chars") {
        return fn(std::u16string{});
    }
    throw std::runtime_error("unknown case type " + type);
}

struct outcome {
    std::size_t puts = 0;
    std::size_t queries = 0;
    std::size_t different_answers = 0; // puts and queries whose result differs from the file's
    bool read_equals_rebuilt = false;  // the file, read, equals a filter rebuilt from the case's puts
    bool same_bytes = false;           // and the rebuilt filter writes the file's bytes
    bool stream_equals_bytes = false;  // read_from over a stream reads what from_bytes reads
};

/// Reads the filter `bytes` hold, answers the case's queries, and rebuilds it from the case's arguments
/// and puts.
template <class T>
outcome check(const test_case& test, const std::vector<std::byte>& bytes) {
    using filter = bloom::guava::bloom_filter<T>;
    outcome result;
    const filter read = filter::from_bytes(bytes.data(), bytes.size());
    std::istringstream stream(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    result.stream_equals_bytes = filter::read_from(stream) == read;
    filter rebuilt(test.expected_insertions, test.fpp, strategy_of(test.strategy));
    for (const value_answer& put : test.puts) {
        ++result.puts;
        result.different_answers += rebuilt.put(decode<T>(put.value)) != put.answer ? 1 : 0;
    }
    for (const value_answer& query : test.queries) {
        ++result.queries;
        result.different_answers += read.might_contain(decode<T>(query.value)) != query.answer ? 1 : 0;
    }
    result.read_equals_rebuilt = read == rebuilt;
    result.same_bytes = rebuilt.to_bytes() == bytes;
    return result;
}

/// Writes case `name` (NAME.txt, NAME.bin) into `dir`: a filter built by bloom::guava from the arguments,
/// with `members` put, queried for the members and `others`.
template <class T>
void write_case(const std::string& dir, const std::string& name, const std::string& type,
                const std::string& strategy, std::uint64_t expected_insertions, const std::string& fpp,
                const std::vector<T>& members, const std::vector<T>& others) {
    bloom::guava::bloom_filter<T> filter(expected_insertions, std::stod(fpp), strategy_of(strategy));
    std::ofstream text(dir + "/" + name + ".txt");
    text << type << ' ' << strategy << ' ' << expected_insertions << ' ' << fpp << '\n';
    for (const T& value : members) {
        text << "put " << encode(value) << ' ' << (filter.put(value) ? 1 : 0) << '\n';
    }
    for (const auto* list : {&members, &others}) {
        for (const T& value : *list) {
            text << "query " << encode(value) << ' ' << (filter.might_contain(value) ? 1 : 0) << '\n';
        }
    }
    std::ofstream out(dir + "/" + name + ".bin", std::ios::binary);
    filter.write_to(out);
    if (!text || !out) {
        throw std::runtime_error("cannot write case " + name + " into " + dir);
    }
}

} // namespace guava_cases

#endif // BLOOM_TESTS_INTEROP_GUAVA_CASES_HPP
