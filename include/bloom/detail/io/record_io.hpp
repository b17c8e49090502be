// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_IO_RECORD_IO_HPP
#define BLOOM_DETAIL_IO_RECORD_IO_HPP

// Writing every filter kind as a record of docs/FORMAT.md and reading it back. The words of a filter
// travel through write_words and read_words, which take the byte order of the words in memory as a
// parameter: the host's order in real use, the other one in the test that simulates a big-endian host on
// a little-endian one through this same code.

#include "bloom/detail/bit_words.hpp"
#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/filter_base.hpp"
#include "bloom/detail/filter_declarations.hpp"
#include "bloom/detail/io/file_format.hpp"
#include "bloom/sizing.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace bloom::detail {

/// The byte order of 64-bit words in memory.
enum class word_order { little, big };
inline constexpr word_order host_word_order = host_is_little_endian ? word_order::little : word_order::big;

/// The value of a word whose memory holds its bytes in `order`.
[[nodiscard]] inline std::uint64_t word_value(std::uint64_t memory_word, word_order order) noexcept {
    unsigned char bytes[8];
    std::memcpy(bytes, &memory_word, sizeof bytes);
    if (order == word_order::little) {
        return load_little_endian(bytes, 8);
    }
    std::uint64_t value = 0;
    for (unsigned char byte : bytes) {
        value = (value << 8) | byte;
    }
    return value;
}

/// The memory form, in `order`, of a word of value `value`.
[[nodiscard]] inline std::uint64_t memory_word(std::uint64_t value, word_order order) noexcept {
    unsigned char bytes[8];
    for (unsigned i = 0; i < 8; ++i) {
        const unsigned shift = order == word_order::little ? 8 * i : 8 * (7 - i);
        bytes[i] = static_cast<unsigned char>(value >> shift);
    }
    std::uint64_t word;
    std::memcpy(&word, bytes, sizeof word);
    return word;
}

/// Writes `count` words, held in memory in `order`, as little-endian bytes.
template <class Sink>
void write_words(Sink& sink, const std::uint64_t* words, std::size_t count, word_order order) {
    if (order == word_order::little && host_is_little_endian) {
        sink(reinterpret_cast<const unsigned char*>(words), count * sizeof(std::uint64_t));
        return;
    }
    unsigned char buffer[8 * 512];
    for (std::size_t done = 0; done < count;) {
        const std::size_t chunk = count - done < 512 ? count - done : 512;
        for (std::size_t i = 0; i < chunk; ++i) {
            store_little_endian(buffer + 8 * i, word_value(words[done + i], order), 8);
        }
        sink(buffer, chunk * 8);
        done += chunk;
    }
}

/// Reads `count` little-endian words at `bytes` into `words`, to be held in memory in `order`.
inline void read_words(const unsigned char* bytes, std::uint64_t* words, std::size_t count,
                       word_order order) {
    if (count == 0) {
        return;
    }
    if (order == word_order::little && host_is_little_endian) {
        std::memcpy(words, bytes, count * sizeof(std::uint64_t));
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        words[i] = memory_word(load_little_endian(bytes + 8 * i, 8), order);
    }
}

// record_traits<Filter> (declared in detail/filter_declarations.hpp): what the format needs of each filter
// type, its kind and how to write and read it. A type without a specialisation cannot be saved.

/// Whether Filter can be saved and loaded.
template <class Filter, class = void>
struct is_recordable : std::false_type {};
template <class Filter>
struct is_recordable<Filter, std::void_t<decltype(record_traits<Filter>::kind)>> : std::true_type {};

/// Throws std::invalid_argument from `where` if `filter` is moved-from. Its record would hold no bits (no
/// stage), which every loader refuses: saving it would replace a good file with one that never loads.
template <class Filter>
void check_savable(const Filter& filter, const char* where) {
    static_assert(is_recordable<Filter>::value,
                  "bloom: this type cannot be saved or loaded; the filter kinds of <bloom/bloom.hpp> can");
    if (record_traits<Filter>::is_moved_from(filter)) {
        throw_invalid_argument(where, "filter",
                               "is moved-from (empty): it holds no bits, and no loader accepts the record it "
                               "would write");
    }
}

/// Writes a bit-array filter (classic, blocked, counting) as one record.
template <class Filter, class Sink>
void write_bit_array_record(Sink& sink, const Filter& filter, record_kind kind, unsigned counter_bits,
                            word_order order) {
    using hasher_type = typename Filter::hasher;
    if (filter.hash_count() > record_max_hash_count) {
        throw_invalid_argument("bloom::save", "filter",
                               "has hash_count " + std::to_string(filter.hash_count()) +
                                   ", above the format's limit of " + std::to_string(record_max_hash_count));
    }
    record_header header;
    header.kind = kind;
    header.counter_bits = static_cast<std::uint8_t>(counter_bits);
    header.hash_count = filter.hash_count();
    header.hasher_id = hasher_format_id<hasher_type>();
    header.seed = filter.seed();
    header.bit_count = filter.bit_count();
    header.expected_items = filter.expected_items();
    header.target_false_positive_rate = filter.target_false_positive_rate();
    header.item_count = filter.item_count();
    header.payload_bytes = std::uint64_t{filter.word_count()} * 8;
    header.probes = static_cast<std::uint8_t>(filter.probes());
    unsigned char head[record_header_bytes];
    encode_header(header, head);
    hashing_sink<Sink> hashing(sink);
    hashing(head, sizeof head);
    write_words(hashing, filter.data(), filter.word_count(), order);
    unsigned char checksum[record_checksum_bytes];
    store_little_endian(checksum, hashing.digest(), 8);
    sink(checksum, sizeof checksum);
}

/// Reads the bit-array record at `bytes` (header already parsed and its checksum checked) into a Filter.
template <class Filter>
[[nodiscard]] Filter
read_bit_array_record(const unsigned char* bytes, const record_header& header, record_kind kind,
                      unsigned counter_bits, const typename Filter::hasher& hash_function,
                      const typename Filter::allocator_type& allocator, word_order order, const char* where) {
    using hasher_type = typename Filter::hasher;
    std::uint64_t storage_bits = 0;
    check_bit_array_header(header, kind, hasher_format_id<hasher_type>(), counter_bits, where, storage_bits);
    // The payload is in the input (parse_header checked), so the filter allocates no more than it.
    Filter filter = invalid_argument_as_format_error(where, "the saved shape is invalid: ", [&] {
        return Filter(filter_geometry{header.bit_count, static_cast<unsigned>(header.hash_count),
                                      static_cast<probe_scheme>(header.probes)},
                      header.seed, hash_function, allocator);
    });
    std::uint64_t* const words = filter_access::words(filter);
    const std::size_t word_count = filter.word_count();
    read_words(bytes + record_header_bytes, words, word_count, order);
    check_padding_bits(word_value(words[word_count - 1], order), storage_bits, where);
    filter_access::set_counts(filter, header.item_count, header.expected_items,
                              header.target_false_positive_rate);
    return filter;
}

/// Parses and checks the record that starts at `bytes` (`size` bytes available), checksum included.
[[nodiscard]] inline record_header open_record(const unsigned char* bytes, std::size_t size,
                                               const char* where) {
    const record_header header = parse_header(bytes, size, where);
    check_record_checksum(bytes, header, where);
    return header;
}

/// The record traits of a filter stored as one array of words: classic, blocked, counting.
template <class Filter, record_kind Kind, unsigned CounterBits = 0>
struct bit_array_record_traits {
    static constexpr record_kind kind = Kind;

    static bool is_moved_from(const Filter& filter) noexcept { return filter.bit_count() == 0; }
    static std::uint64_t size(const Filter& filter) noexcept {
        return record_header_bytes + std::uint64_t{filter.word_count()} * 8 + record_checksum_bytes;
    }
    template <class Sink>
    static void write(Sink& sink, const Filter& filter, word_order order) {
        write_bit_array_record(sink, filter, Kind, CounterBits, order);
    }
    static Filter read(const unsigned char* bytes, const record_header& header,
                       const typename Filter::hasher& hash_function,
                       const typename Filter::allocator_type& allocator, word_order order,
                       const char* where) {
        return read_bit_array_record<Filter>(bytes, header, Kind, CounterBits, hash_function, allocator,
                                             order, where);
    }
};

template <class T, class Layout, class Hasher, class Allocator>
struct record_traits<basic_bloom_filter<T, Layout, Hasher, Allocator>>
    : bit_array_record_traits<basic_bloom_filter<T, Layout, Hasher, Allocator>,
                              static_cast<record_kind>(Layout::format_kind)> {};

template <class T, std::size_t CounterBits, class Hasher, class Allocator>
struct record_traits<counting_bloom_filter<T, CounterBits, Hasher, Allocator>>
    : bit_array_record_traits<counting_bloom_filter<T, CounterBits, Hasher, Allocator>, record_kind::counting,
                              static_cast<unsigned>(CounterBits)> {};

/// A scalable filter's payload: growth factor and tightening ratio (binary64), the stage count, then each
/// stage as a complete classic record.
inline constexpr std::size_t scalable_parameter_bytes = 24;

/// Checks that stage `index` of a scalable record, whose header is `stage`, is the stage `filter` (the
/// record's parameters, checked) would have made: n0 s^i items rounded, rate p (1 - r) r^i, and the shape a
/// classic filter of those gets. What a loaded filter allocates as it grows follows from the parameters, so
/// stages that agree with them tie that to the bytes of the file. The tolerances admit files written on
/// another platform, whose std::pow and std::log may differ from this one's in the last bits: one part in
/// 10^12 on the capacity (besides its rounding to an integer) and on the rate; one bit either side of the
/// bit counts that sizing gives (from optimal_bit_count, which files written before small filters got extra
/// bits hold, to optimal_geometry); and k either integer next to (m / n) ln 2.
template <class Filter>
void check_scalable_stage(const Filter& filter, const record_header& stage, std::uint64_t index,
                          const char* where) {
    constexpr double tolerance = 1e-12;
    const std::string name = "stage " + std::to_string(index);
    const scalable_stage_target target =
        scalable_stage(filter.initial_capacity(), filter.target_false_positive_rate(), filter.growth_factor(),
                       filter.tightening_ratio(), static_cast<std::size_t>(index));
    const auto capacity = static_cast<double>(stage.expected_items);
    constexpr double two_to_64 = 18446744073709551616.0;
    if (!(target.capacity < two_to_64 &&
          std::fabs(capacity - target.capacity) <= 0.5 + tolerance * target.capacity)) {
        throw_format_error(where,
                           name + " holds " + std::to_string(stage.expected_items) + " items, not the " +
                               to_display(target.capacity) +
                               " that expected_items n0 = " + std::to_string(filter.initial_capacity()) +
                               " and growth_factor s = " + to_display(filter.growth_factor()) +
                               " give (n0 s^" + std::to_string(index) + ")");
    }
    const double rate = stage.target_false_positive_rate;
    if (!(std::fabs(rate - target.rate) <= tolerance * target.rate)) {
        throw_format_error(where, name + " has false-positive rate " + to_display(rate) + ", not the " +
                                      to_display(target.rate) + " that the target rate p = " +
                                      to_display(filter.target_false_positive_rate()) +
                                      " and tightening_ratio r = " + to_display(filter.tightening_ratio()) +
                                      " give (p (1 - r) r^" + std::to_string(index) + ")");
    }
    std::uint64_t fewest = 0, most = 0;
    const std::string cannot_size = name + " cannot be sized: ";
    invalid_argument_as_format_error(where, cannot_size.c_str(), [&] {
        // The textbook size first: it is cheap, and a stage below it is refused before the exact sizing runs.
        fewest = optimal_bit_count(stage.expected_items, rate);
        if (stage.bit_count + 1 >= fewest) {
            most = optimal_geometry(stage.expected_items, rate, where).bit_count;
        }
    });
    if (!(stage.bit_count + 1 >= fewest && stage.bit_count <= most + 1)) {
        throw_format_error(where, name + " has bit_count " + std::to_string(stage.bit_count) + "; " +
                                      std::to_string(stage.expected_items) + " items at rate " +
                                      to_display(rate) + " take " + std::to_string(fewest) +
                                      (most > fewest ? " to " + std::to_string(most) : std::string()) +
                                      " bits");
    }
    const double ideal =
        static_cast<double>(stage.bit_count) / static_cast<double>(stage.expected_items) * ln2;
    const double below = std::fmax(std::floor(ideal), 1.0);
    const double above = std::fmax(std::ceil(ideal), 1.0);
    const auto hash_count = static_cast<double>(stage.hash_count);
    if (hash_count != below && hash_count != above) {
        throw_format_error(where, name + " has hash_count " + std::to_string(stage.hash_count) + "; " +
                                      std::to_string(stage.bit_count) + " bits for " +
                                      std::to_string(stage.expected_items) + " items take " +
                                      to_display(below) + (above != below ? " or " + to_display(above) : "") +
                                      " ((m / n) ln 2 = " + to_display(ideal) + ")");
    }
}

template <class T, class Hasher, class Allocator>
struct record_traits<scalable_bloom_filter<T, Hasher, Allocator>> {
    using filter_type = scalable_bloom_filter<T, Hasher, Allocator>;
    using stage_traits = record_traits<typename filter_type::stage_type>;
    static constexpr record_kind kind = record_kind::scalable;

    static bool is_moved_from(const filter_type& filter) noexcept { return filter.stage_count() == 0; }
    static std::uint64_t size(const filter_type& filter) noexcept {
        std::uint64_t total = record_header_bytes + scalable_parameter_bytes + record_checksum_bytes;
        for (std::size_t i = 0; i < filter.stage_count(); ++i) {
            total += stage_traits::size(filter.stage(i));
        }
        return total;
    }

    template <class Sink>
    static void write(Sink& sink, const filter_type& filter, word_order order) {
        record_header header;
        header.kind = kind;
        header.hasher_id = hasher_format_id<Hasher>();
        header.seed = filter.seed();
        header.expected_items = filter.initial_capacity();
        header.target_false_positive_rate = filter.target_false_positive_rate();
        header.item_count = filter.item_count();
        header.payload_bytes = size(filter) - record_header_bytes - record_checksum_bytes;
        unsigned char head[record_header_bytes];
        encode_header(header, head);
        hashing_sink<Sink> hashing(sink);
        hashing(head, sizeof head);
        unsigned char parameters[scalable_parameter_bytes];
        store_little_endian(parameters, bits_of(filter.growth_factor()), 8);
        store_little_endian(parameters + 8, bits_of(filter.tightening_ratio()), 8);
        store_little_endian(parameters + 16, filter.stage_count(), 8);
        hashing(parameters, sizeof parameters);
        for (std::size_t i = 0; i < filter.stage_count(); ++i) {
            stage_traits::write(hashing, filter.stage(i), order);
        }
        unsigned char checksum[record_checksum_bytes];
        store_little_endian(checksum, hashing.digest(), 8);
        sink(checksum, sizeof checksum);
    }

    static filter_type read(const unsigned char* bytes, const record_header& header,
                            const Hasher& hash_function, const Allocator& allocator, word_order order,
                            const char* where) {
        check_kind_and_hasher(header, kind, hasher_format_id<Hasher>(), where);
        if (header.counter_bits != 0 || header.hash_count != 0 || header.bit_count != 0 ||
            header.probes != 0) {
            throw_format_error(
                where, "a scalable record has counter_bits, hash_count, bit_count and probe scheme 0");
        }
        if (header.payload_bytes < scalable_parameter_bytes) {
            throw_format_error(where, "payload of " + std::to_string(header.payload_bytes) +
                                          " bytes is too short for the scalable parameters");
        }
        const unsigned char* cursor = bytes + record_header_bytes;
        const double growth_factor = double_of(load_little_endian(cursor, 8));
        const double tightening_ratio = double_of(load_little_endian(cursor + 8, 8));
        const std::uint64_t stage_count = load_little_endian(cursor + 16, 8);
        cursor += scalable_parameter_bytes;
        std::size_t remaining = static_cast<std::size_t>(header.payload_bytes) - scalable_parameter_bytes;
        // A record without stages (earlier versions saved moved-from filters so) holds no items, and nothing
        // in it backs the first stage's capacity that its first insert would allocate.
        if (stage_count == 0) {
            throw_format_error(where, "stage count 0: a scalable record holds at least one stage");
        }
        // Each stage takes at least a header, one word and a checksum: a count the payload cannot hold is
        // refused before anything is reserved.
        if (stage_count > remaining / (record_header_bytes + 8 + record_checksum_bytes)) {
            throw_format_error(where, "stage count " + std::to_string(stage_count) + " does not fit in " +
                                          std::to_string(remaining) + " payload bytes");
        }
        filter_type filter =
            invalid_argument_as_format_error(where, "the saved parameters are invalid: ", [&] {
                return filter_type(typename filter_type::without_stages_tag{}, header.expected_items,
                                   header.target_false_positive_rate, growth_factor, tightening_ratio,
                                   header.seed, hash_function, allocator);
            });
        auto& stages = filter.m_stages;
        stages.reserve(static_cast<std::size_t>(stage_count));
        std::uint64_t item_total = 0;
        for (std::uint64_t i = 0; i < stage_count; ++i) {
            const record_header stage_header = open_record(cursor, remaining, where);
            if (stage_header.seed != header.seed) {
                throw_format_error(where, "stage " + std::to_string(i) + " has another seed than the filter");
            }
            stages.push_back(
                stage_traits::read(cursor, stage_header, hash_function, allocator, order, where));
            check_scalable_stage(filter, stage_header, i, where);
            item_total += stage_header.item_count;
            const std::size_t used = record_size(stage_header);
            cursor += used;
            remaining -= used;
        }
        if (remaining != 0) {
            throw_format_error(where, std::to_string(remaining) + " payload bytes follow the last stage");
        }
        if (item_total != header.item_count) {
            throw_format_error(where, "item_count " + std::to_string(header.item_count) +
                                          " is not the sum of the stages' counts");
        }
        return filter;
    }
};

/// A concurrent filter is saved as the plain filter of its layout (a snapshot: inserts racing the save
/// may or may not be in it) and loads from one.
template <class T, class Layout, class Hasher, class Allocator>
struct record_traits<basic_concurrent_bloom_filter<T, Layout, Hasher, Allocator>> {
    using filter_type = basic_concurrent_bloom_filter<T, Layout, Hasher, Allocator>;
    using plain_traits = record_traits<typename filter_type::plain_filter_type>;
    static constexpr record_kind kind = plain_traits::kind;

    static bool is_moved_from(const filter_type& filter) noexcept { return filter.bit_count() == 0; }
    template <class Sink>
    static void write(Sink& sink, const filter_type& filter, word_order order) {
        plain_traits::write(sink, filter.to_plain(), order);
    }
    static filter_type read(const unsigned char* bytes, const record_header& header,
                            const Hasher& hash_function, const Allocator& allocator, word_order order,
                            const char* where) {
        return filter_type(plain_traits::read(bytes, header, hash_function, allocator, order, where));
    }
};

/// Reads the one record that `bytes` holds, all `size` bytes of it, into a Filter.
/// A fuse filter's record (docs/FORMAT.md, kind 5): counter_bits holds the fingerprint width, hash_count
/// 3, bit_count the slot count, probe byte log2(segment_length); the payload is the fingerprints,
/// little-endian, zero-padded to whole 64-bit words.
template <class T, class Fingerprint, class Hasher>
struct record_traits<fuse_filter<T, Fingerprint, Hasher>> {
    using filter_type = fuse_filter<T, Fingerprint, Hasher>;
    static constexpr record_kind kind = record_kind::fuse;
    static constexpr unsigned width = sizeof(Fingerprint);

    /// An empty fuse filter is a valid one (it contains nothing): every filter can be saved.
    static bool is_moved_from(const filter_type&) noexcept { return false; }
    static std::uint64_t payload_bytes(std::uint64_t slots) noexcept { return (slots * width + 7) / 8 * 8; }
    static std::uint64_t size(const filter_type& filter) noexcept {
        return record_header_bytes + payload_bytes(filter.slot_count()) + record_checksum_bytes;
    }

    template <class Sink>
    static void write(Sink& sink, const filter_type& filter, word_order) {
        record_header header;
        header.kind = kind;
        header.counter_bits = static_cast<std::uint8_t>(8 * width);
        header.hash_count = 3;
        header.hasher_id = hasher_format_id<Hasher>();
        header.seed = filter.seed();
        header.bit_count = filter.slot_count();
        header.expected_items = filter.item_count();
        header.target_false_positive_rate = filter_type::false_positive_rate();
        header.item_count = filter.item_count();
        header.payload_bytes = payload_bytes(filter.slot_count());
        unsigned exponent = 0;
        while ((std::uint64_t{1} << exponent) < filter.segment_length()) {
            ++exponent;
        }
        header.probes = static_cast<std::uint8_t>(exponent);
        unsigned char head[record_header_bytes];
        encode_header(header, head);
        hashing_sink<Sink> hashing(sink);
        hashing(head, sizeof head);
        unsigned char buffer[8 * 512];
        std::size_t used = 0;
        for (const Fingerprint value : filter.m_fingerprints) {
            store_little_endian(buffer + used, value, width);
            used += width;
            if (used == sizeof buffer) {
                hashing(buffer, used);
                used = 0;
            }
        }
        const std::size_t padding =
            static_cast<std::size_t>(header.payload_bytes - filter.slot_count() * width);
        std::memset(buffer + used, 0, padding);
        hashing(buffer, used + padding);
        unsigned char checksum[record_checksum_bytes];
        store_little_endian(checksum, hashing.digest(), 8);
        sink(checksum, sizeof checksum);
    }

    static filter_type read(const unsigned char* bytes, const record_header& header,
                            const Hasher& hash_function, const std::allocator<Fingerprint>&, word_order,
                            const char* where) {
        const unsigned char* payload = bytes + record_header_bytes;
        const std::uint64_t segment_length =
            check_fuse_header(header, width, hasher_format_id<Hasher>(), payload, where);
        const std::uint64_t slots = header.bit_count;
        filter_type filter;
        filter.m_hasher = hash_function;
        filter.m_seed = header.seed;
        filter.m_item_count = header.item_count;
        filter.m_segment_length = segment_length;
        filter.m_segment_count_length = slots == 0 ? 0 : slots - 2 * segment_length;
        filter.m_fingerprints.resize(static_cast<std::size_t>(slots));
        for (std::size_t i = 0; i < filter.m_fingerprints.size(); ++i) {
            filter.m_fingerprints[i] =
                static_cast<Fingerprint>(load_little_endian(payload + width * i, width));
        }
        return filter;
    }
};

template <class Filter>
[[nodiscard]] Filter
read_record(const unsigned char* bytes, std::size_t size, const typename Filter::hasher& hash_function,
            const typename Filter::allocator_type& allocator, word_order order, const char* where) {
    static_assert(is_recordable<Filter>::value,
                  "bloom: this type cannot be saved or loaded; the filter kinds of <bloom/bloom.hpp> can");
    const record_header header = parse_single_record(bytes, size, where);
    check_record_checksum(bytes, header, where);
    return record_traits<Filter>::read(bytes, header, hash_function, allocator, order, where);
}

/// Writes `filter` as one record to `sink`.
template <class Filter, class Sink>
void write_record(Sink& sink, const Filter& filter, word_order order) {
    static_assert(is_recordable<Filter>::value,
                  "bloom: this type cannot be saved or loaded; the filter kinds of <bloom/bloom.hpp> can");
    record_traits<Filter>::write(sink, filter, order);
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_IO_RECORD_IO_HPP
