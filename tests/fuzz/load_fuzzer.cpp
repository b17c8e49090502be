// SPDX-License-Identifier: MIT
// libFuzzer target: every loader and view of the library on arbitrary bytes. Each must either succeed or
// throw bloom::format_error; anything else (a crash, a sanitizer report, another exception, a timeout or
// an allocation beyond the input's size) is a finding. Built and run by scripts/fuzz.sh with
// FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION defined, which turns off the checksums so that mutated inputs
// reach the checks behind them. Seed corpus: the golden records under tests/data/.
#include <bloom/bloom.hpp>
#include <bloom/guava.hpp>
#include <bloom/parquet.hpp>
#include <bloom/parquet_file.hpp>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

template <class Filter>
struct is_scalable : std::false_type {};
template <class T, class Hasher, class Allocator>
struct is_scalable<bloom::scalable_bloom_filter<T, Hasher, Allocator>> : std::true_type {};

/// Exercises a filter that loaded: lookups, an insert, its statistics, and a save that loads back equal.
template <class Filter, class Key>
void exercise(Filter filter, const Key& probe) {
    (void)filter.contains(probe);
    (void)filter.current_false_positive_rate();
    // A scalable filter's insert may add a stage as large as its saved parameters ask for: legitimate,
    // and not bounded by the input, so the fuzzer only looks it up.
    if constexpr (!is_scalable<Filter>::value) {
        filter.insert(probe);
        if (!filter.contains(probe)) {
            __builtin_trap(); // a false negative
        }
    }
    const std::vector<std::byte> saved = bloom::to_bytes(filter);
    const Filter again = bloom::from_bytes<Filter>(saved.data(), saved.size());
    if (bloom::to_bytes(again) != saved) {
        __builtin_trap(); // a record that does not survive its own round trip
    }
}

template <class Filter, class Key>
void try_load(const std::byte* data, std::size_t size, const Key& probe) {
    try {
        exercise(bloom::from_bytes<Filter>(data, size), probe);
    } catch (const bloom::format_error&) {
    }
}

template <class View, class Key>
void try_view(const std::byte* data, std::size_t size, const Key& probe) {
    try {
        const View view(data, size, bloom::checksum::skip);
        (void)view.contains(probe);
        (void)view.fill_ratio();
        (void)view.current_false_positive_rate();
    } catch (const bloom::format_error&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* input, std::size_t size) {
    // An exact-size copy: AddressSanitizer then reports any read past the input.
    const std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(input),
                                       reinterpret_cast<const std::byte*>(input) + size);
    const std::byte* data = bytes.data();
    const std::string text_key = "fuzz";
    const std::uint64_t number_key = 12345;

    try_load<bloom::bloom_filter<std::string>>(data, size, text_key);
    try_load<bloom::blocked_bloom_filter<std::uint64_t>>(data, size, number_key);
    try_load<bloom::counting_bloom_filter<std::string, 8>>(data, size, text_key);
    try_load<bloom::counting_bloom_filter<std::string, 4>>(data, size, text_key);
    try_load<bloom::scalable_bloom_filter<std::uint64_t>>(data, size, number_key);
    try_load<bloom::concurrent_bloom_filter<std::string>>(data, size, text_key);
    try_view<bloom::bloom_filter_view<std::string>>(data, size, text_key);
    try_view<bloom::blocked_bloom_filter_view<std::uint64_t>>(data, size, number_key);

    try {
        std::istringstream stream(std::string(reinterpret_cast<const char*>(input), size));
        exercise(bloom::load<bloom::scalable_bloom_filter<std::uint64_t>>(stream), number_key);
    } catch (const bloom::format_error&) {
    }

    try {
        auto parquet = bloom::parquet::split_block_filter<std::string>::read(data, size);
        (void)parquet.contains(text_key);
        parquet.insert(text_key);
        if (!parquet.contains(text_key)) {
            __builtin_trap();
        }
        const std::vector<std::byte> written = parquet.write();
        (void)bloom::parquet::split_block_filter<std::string>::read(written.data(), written.size());
    } catch (const bloom::format_error&) {
    }

    // A fuse filter's record (kind 5), loaded and viewed in place.
    try {
        using fuse = bloom::fuse_filter<std::uint64_t>;
        const auto loaded = bloom::from_bytes<fuse>(data, size);
        (void)loaded.contains(number_key);
        const std::vector<std::byte> saved = bloom::to_bytes(loaded);
        if (bloom::to_bytes(bloom::from_bytes<fuse>(saved.data(), saved.size())) != saved) {
            __builtin_trap();
        }
    } catch (const bloom::format_error&) {
    }
    try {
        const bloom::fuse_filter_view<std::uint64_t, std::uint16_t> view(data, size, bloom::checksum::skip);
        (void)view.contains(number_key);
    } catch (const bloom::format_error&) {
    }

    // A Parquet file: its footer, every column chunk's filter, and a probe of every column.
    try {
        const auto file = bloom::parquet::file::from_bytes(data, size);
        for (std::size_t group = 0; group < file.row_groups().size(); ++group) {
            const auto& columns = file.row_groups()[group].columns;
            for (std::size_t column = 0; column < columns.size(); ++column) {
                try {
                    if (columns[column].has_bloom_filter()) {
                        const auto stored = file.bloom_filter_bytes(group, column);
                        (void)bloom::parquet::split_block_filter<std::string>::read(stored.data(),
                                                                                    stored.size());
                    }
                    (void)file.probe_text(columns[column].path, text_key);
                } catch (const bloom::format_error&) {
                } catch (const std::invalid_argument&) {
                }
            }
        }
    } catch (const bloom::format_error&) {
    }

    // Guava's writeTo form, through both readers: the same filter or the same error.
    try {
        using guava_filter = bloom::guava::bloom_filter<std::string>;
        auto guava = guava_filter::from_bytes(data, size);
        std::istringstream stream(std::string(reinterpret_cast<const char*>(input), size));
        if (!(guava_filter::read_from(stream) == guava)) {
            __builtin_trap();
        }
        guava.put(text_key);
        if (!guava.might_contain(text_key)) {
            __builtin_trap();
        }
        const std::vector<std::byte> written = guava.to_bytes();
        if (!(guava_filter::from_bytes(written.data(), written.size()) == guava)) {
            __builtin_trap();
        }
    } catch (const bloom::format_error&) {
    }
    // A Guava filter stored as a record of the portable format.
    try {
        const auto stored = bloom::guava::bloom_filter<std::int64_t>::from_record(data, size);
        (void)stored.might_contain(static_cast<std::int64_t>(number_key));
        const std::vector<std::byte> record = stored.to_record();
        if (!(bloom::guava::bloom_filter<std::int64_t>::from_record(record.data(), record.size()) ==
              stored)) {
            __builtin_trap();
        }
    } catch (const bloom::format_error&) {
    }
    return 0;
}
