// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_IO_FILE_FORMAT_HPP
#define BLOOM_DETAIL_IO_FILE_FORMAT_HPP

// The saved-filter record of docs/FORMAT.md, shared by the loaders (<bloom/serialization.hpp>) and the
// zero-copy views (<bloom/filter_view.hpp>): a 128-byte little-endian header, the payload, and an XXH3
// checksum over both. Everything here reads and writes bytes, never host words, so a file is the same on
// every platform; parse_header trusts nothing it has not checked against the bytes it was given.

#include "bloom/detail/bit_words.hpp"
#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/xxhash.hpp"
#include "bloom/format_error.hpp"
#include "bloom/sizing.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace bloom::detail {

inline constexpr unsigned char record_magic[8] = {0x89, 'B', 'L', 'O', 'O', 'M', '\r', '\n'};
inline constexpr std::uint16_t record_format_version = 1;
inline constexpr std::size_t record_header_bytes = 128;
inline constexpr std::size_t record_checksum_bytes = 8;
/// Bytes of the header the header checksum covers (everything before it).
inline constexpr std::size_t record_header_checksummed_bytes = 72;
/// The largest hash count a record may hold: more than any optimal filter uses (k = 1075 reaches the
/// smallest positive double), and small enough that a hostile file cannot make each lookup run for long.
inline constexpr unsigned record_max_hash_count = 4096;

/// The filter kinds a record holds (header byte 10).
enum class record_kind : std::uint8_t { classic = 1, blocked = 2, counting = 3, scalable = 4, fuse = 5 };

[[nodiscard]] inline const char* kind_name(record_kind kind) noexcept {
    switch (kind) {
    case record_kind::classic:
        return "classic";
    case record_kind::blocked:
        return "blocked";
    case record_kind::counting:
        return "counting";
    case record_kind::scalable:
        return "scalable";
    case record_kind::fuse:
        return "fuse";
    }
    return "unknown";
}

/// A record's header fields, as docs/FORMAT.md lists them.
struct record_header {
    record_kind kind = record_kind::classic;
    std::uint8_t counter_bits = 0;
    std::uint32_t hash_count = 0;
    std::uint64_t hasher_id = 0;
    std::uint64_t seed = 0;
    std::uint64_t bit_count = 0;
    std::uint64_t expected_items = 0;
    double target_false_positive_rate = 0.0;
    std::uint64_t item_count = 0;
    std::uint64_t payload_bytes = 0;
    /// Byte 80: the probe_scheme of a classic, counting or blocked record (0 for scalable records, and in
    /// every file written before the layout's current scheme).
    std::uint8_t probes = 0;
};

/// A hasher's id in saved files: Hasher::format_id. A hasher without one cannot save or load filters:
/// nothing would stop a file from loading into a filter whose hasher puts items elsewhere.
template <class Hasher, class = void>
struct has_format_id : std::false_type {};
template <class Hasher>
struct has_format_id<Hasher, std::void_t<decltype(Hasher::format_id)>> : std::true_type {};

template <class Hasher>
[[nodiscard]] constexpr std::uint64_t hasher_format_id() noexcept {
    static_assert(
        has_format_id<Hasher>::value,
        "bloom: saving, loading or viewing a filter needs a Hasher with a stable id: declare "
        "`static constexpr std::uint64_t format_id = ...;` in your Hasher (bloom::hash<T> has one)");
    return static_cast<std::uint64_t>(Hasher::format_id);
}

[[nodiscard]] inline std::uint64_t checksum_of(const void* data, std::size_t size) noexcept {
    return static_cast<std::uint64_t>(XXH3_64bits(data, size));
}

/// XXH3 over everything written through it, forwarding the bytes to `Sink` (a callable taking
/// (const unsigned char*, std::size_t)); records nest by wrapping one hashing_sink in another.
template <class Sink>
class hashing_sink {
  public:
    explicit hashing_sink(Sink& sink) noexcept : m_sink(sink) {
        XXH3_INITSTATE(&m_state);
        XXH3_64bits_reset(&m_state);
    }
    void operator()(const unsigned char* data, std::size_t size) {
        XXH3_64bits_update(&m_state, data, size);
        m_sink(data, size);
    }
    [[nodiscard]] std::uint64_t digest() const noexcept {
        return static_cast<std::uint64_t>(XXH3_64bits_digest(&m_state));
    }

  private:
    Sink& m_sink;
    XXH3_state_t m_state;
};

[[nodiscard]] inline std::uint64_t bits_of(double value) noexcept {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

[[nodiscard]] inline double double_of(std::uint64_t bits) noexcept {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

/// The 128 header bytes of `header`, header checksum included.
inline void encode_header(const record_header& header, unsigned char* out) noexcept {
    std::memset(out, 0, record_header_bytes);
    std::memcpy(out, record_magic, sizeof record_magic);
    store_little_endian(out + 8, record_format_version, 2);
    out[10] = static_cast<unsigned char>(header.kind);
    out[11] = header.counter_bits;
    store_little_endian(out + 12, header.hash_count, 4);
    store_little_endian(out + 16, header.hasher_id, 8);
    store_little_endian(out + 24, header.seed, 8);
    store_little_endian(out + 32, header.bit_count, 8);
    store_little_endian(out + 40, header.expected_items, 8);
    store_little_endian(out + 48, bits_of(header.target_false_positive_rate), 8);
    store_little_endian(out + 56, header.item_count, 8);
    store_little_endian(out + 64, header.payload_bytes, 8);
    store_little_endian(out + 72, checksum_of(out, record_header_checksummed_bytes), 8);
    out[80] = header.probes;
}

/// What parse_header checks against the bytes available: the whole record, or only the header (a stream
/// loader reads the rest afterwards).
enum header_extent { whole_record, header_only };

/// Reads and checks the header at `bytes`, of which `size` are available: magic, version, header
/// checksum, reserved bytes, kind, and (for whole_record) that the payload and checksum it promises fit in
/// `size`. Throws bloom::format_error from `where` naming the first problem.
[[nodiscard]] inline record_header parse_header(const unsigned char* bytes, std::size_t size,
                                                const char* where, header_extent extent = whole_record) {
    if (size < record_header_bytes) {
        throw_format_error(where, "truncated: " + std::to_string(size) + " bytes, a header needs " +
                                      std::to_string(record_header_bytes));
    }
    if (std::memcmp(bytes, record_magic, sizeof record_magic) != 0) {
        throw_format_error(where, "not a saved bloom filter (wrong magic bytes)");
    }
    const auto version = load_little_endian(bytes + 8, 2);
    if (version != record_format_version) {
        throw_format_error(where, "unsupported format version " + std::to_string(version) +
                                      " (this library reads version " +
                                      std::to_string(record_format_version) + ")");
    }
#if !defined(FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) // a fuzzer cannot forge XXH3 (docs/FORMAT.md)
    if (load_little_endian(bytes + 72, 8) != checksum_of(bytes, record_header_checksummed_bytes)) {
        throw_format_error(where, "header checksum mismatch: the header is corrupt");
    }
#endif
    for (std::size_t i = 81; i < record_header_bytes; ++i) {
        if (bytes[i] != 0) {
            throw_format_error(where, "reserved header byte " + std::to_string(i) + " is not zero");
        }
    }
    record_header header;
    const unsigned kind = bytes[10];
    if (kind < 1 || kind > 5) {
        throw_format_error(where, "unknown filter kind " + std::to_string(kind));
    }
    header.kind = static_cast<record_kind>(kind);
    header.counter_bits = bytes[11];
    header.hash_count = static_cast<std::uint32_t>(load_little_endian(bytes + 12, 4));
    header.hasher_id = load_little_endian(bytes + 16, 8);
    header.seed = load_little_endian(bytes + 24, 8);
    header.bit_count = load_little_endian(bytes + 32, 8);
    header.expected_items = load_little_endian(bytes + 40, 8);
    header.target_false_positive_rate = double_of(load_little_endian(bytes + 48, 8));
    header.item_count = load_little_endian(bytes + 56, 8);
    header.payload_bytes = load_little_endian(bytes + 64, 8);
    header.probes = bytes[80];
    const std::uint64_t remaining = size - record_header_bytes;
    if (extent == whole_record &&
        (header.payload_bytes > remaining || remaining - header.payload_bytes < record_checksum_bytes)) {
        throw_format_error(where, "truncated: the header promises " + std::to_string(header.payload_bytes) +
                                      " payload bytes and an 8-byte checksum, " + std::to_string(remaining) +
                                      " bytes remain");
    }
    return header;
}

/// The whole record's size (header, payload, checksum); parse_header has checked that it fits.
[[nodiscard]] constexpr std::size_t record_size(const record_header& header) noexcept {
    return record_header_bytes + static_cast<std::size_t>(header.payload_bytes) + record_checksum_bytes;
}

/// Checks the checksum that ends the record at `bytes` against its header and payload.
inline void verify_record_checksum(const unsigned char* bytes, const record_header& header,
                                   const char* where) {
    const std::size_t covered = record_header_bytes + static_cast<std::size_t>(header.payload_bytes);
    if (load_little_endian(bytes + covered, 8) != checksum_of(bytes, covered)) {
        throw_format_error(where, "checksum mismatch: the data is corrupt");
    }
}

/// Checks a record's checksum unless this is a fuzzing build: a fuzzer cannot forge XXH3, and would
/// otherwise never reach the checks behind it (the libFuzzer convention).
inline void check_record_checksum(const unsigned char* bytes, const record_header& header,
                                  const char* where) {
#if !defined(FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)
    verify_record_checksum(bytes, header, where);
#else
    (void)bytes;
    (void)header;
    (void)where;
#endif
}

[[nodiscard]] inline std::string hex(std::uint64_t value) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text = "0x";
    bool leading = true;
    for (int shift = 60; shift >= 0; shift -= 4) {
        const auto digit = static_cast<unsigned>((value >> shift) & 15);
        if (digit != 0 || !leading || shift == 0) {
            text += digits[digit];
            leading = false;
        }
    }
    return text;
}

/// Checks that a record holds the `expected` kind of filter, saved with the hasher of id `hasher_id`.
inline void check_kind_and_hasher(const record_header& header, record_kind expected, std::uint64_t hasher_id,
                                  const char* where) {
    if (header.kind != expected) {
        throw_format_error(where, std::string("holds a ") + kind_name(header.kind) + " filter, not a " +
                                      kind_name(expected) + " one");
    }
    if (header.hasher_id != hasher_id) {
        // The one mismatch users meet without choosing it: an integer file saved before bloom::hash's word
        // path ("XXH3" family, same key family) loaded with today's default ("MUM2").
        constexpr std::uint64_t xxh3_tag = 0x58584833, word_tag = 0x4d554d32;
        const bool earlier_default = header.hasher_id >> 32 == xxh3_tag && hasher_id >> 32 == word_tag &&
                                     (header.hasher_id & 0xffffffffU) == (hasher_id & 0xffffffffU);
        throw_format_error(where,
                           "was saved with hasher id " + hex(header.hasher_id) +
                               ", this filter's hasher has id " + hex(hasher_id) +
                               (earlier_default ? " (the file predates bloom::hash's integer path: load "
                                                  "it into a filter whose hasher is bloom::xxh3_hash<T>)"
                                                : ""));
    }
}

/// parse_header for input that must hold exactly one record: nothing may follow it.
[[nodiscard]] inline record_header parse_single_record(const unsigned char* bytes, std::size_t size,
                                                       const char* where) {
    const record_header header = parse_header(bytes, size, where);
    if (record_size(header) != size) {
        throw_format_error(where, std::to_string(size - record_size(header)) + " bytes follow the filter");
    }
    return header;
}

/// Checks what a bit-array record (classic, blocked, counting) must satisfy to load into a filter of
/// `expected` kind whose hasher has id `hasher_id`: kind, hasher, hash count, sizes consistent with the
/// payload, a sensible target rate. `storage_bits` receives the payload's bit count (counters times their
/// width for a counting filter).
inline void check_bit_array_header(const record_header& header, record_kind expected, std::uint64_t hasher_id,
                                   unsigned counter_bits, const char* where, std::uint64_t& storage_bits) {
    check_kind_and_hasher(header, expected, hasher_id, where);
    if (header.probes > static_cast<unsigned>(probe_scheme::mixed)) {
        throw_format_error(where, "probe scheme " + std::to_string(header.probes) + " is not one a " +
                                      kind_name(expected) + " filter uses");
    }
    if (header.counter_bits != counter_bits) {
        const unsigned width = header.counter_bits;
        const bool supported =
            expected == record_kind::counting ? width == 4 || width == 8 || width == 16 : width == 0;
        throw_format_error(where, supported
                                      ? "holds " + std::to_string(width) + "-bit counters, this filter has " +
                                            std::to_string(counter_bits)
                                      : "counter width " + std::to_string(width) +
                                            " is unsupported (counting filters have 4-, 8- or 16-bit "
                                            "counters; other kinds none)");
    }
    if (header.bit_count == 0) {
        throw_format_error(where, "bit_count is 0");
    }
    if (header.hash_count == 0 || header.hash_count > record_max_hash_count) {
        throw_format_error(where, "hash_count " + std::to_string(header.hash_count) + " is outside [1, " +
                                      std::to_string(record_max_hash_count) + "]");
    }
    const std::uint64_t width = counter_bits == 0 ? 1 : counter_bits;
    if (header.bit_count > std::numeric_limits<std::uint64_t>::max() / width) {
        throw_format_error(where, "bit_count " + std::to_string(header.bit_count) + " overflows");
    }
    storage_bits = header.bit_count * width;
    if (header.payload_bytes != word_count_for(storage_bits) * 8) {
        throw_format_error(where, "payload of " + std::to_string(header.payload_bytes) +
                                      " bytes does not match " + std::to_string(header.bit_count) +
                                      (counter_bits == 0 ? " bits" : " counters"));
    }
    if (!(header.target_false_positive_rate >= 0.0 && header.target_false_positive_rate < 1.0)) {
        throw_format_error(where, "target_false_positive_rate " +
                                      to_display(header.target_false_positive_rate) + " is outside [0, 1)");
    }
}

/// Checks a fuse record (kind 5, docs/FORMAT.md) for a filter of `width`-byte fingerprints whose hasher has
/// id `hasher_id`, payload at `payload` included (its padding must be zero); returns the segment length.
inline std::uint64_t check_fuse_header(const record_header& header, unsigned width, std::uint64_t hasher_id,
                                       const unsigned char* payload, const char* where) {
    check_kind_and_hasher(header, record_kind::fuse, hasher_id, where);
    if (header.counter_bits != 8 * width) {
        throw_format_error(where, "holds " + std::to_string(header.counter_bits) +
                                      "-bit fingerprints, this filter has " + std::to_string(8 * width));
    }
    if (header.hash_count != 3) {
        throw_format_error(where, "hash_count " + std::to_string(header.hash_count) +
                                      " is not 3 (a binary fuse filter reads three slots)");
    }
    if (header.probes < 2 || header.probes > 18) {
        throw_format_error(where,
                           "segment length 2^" + std::to_string(header.probes) + " is outside [2^2, 2^18]");
    }
    const std::uint64_t segment_length = std::uint64_t{1} << header.probes;
    const std::uint64_t slots = header.bit_count;
    if (slots != 0 && (slots % segment_length != 0 || slots / segment_length < 3)) {
        throw_format_error(where, std::to_string(slots) + " slots are not 3 or more segments of " +
                                      std::to_string(segment_length));
    }
    if (slots > std::numeric_limits<std::uint64_t>::max() / 8 ||
        header.payload_bytes != (slots * width + 7) / 8 * 8) {
        throw_format_error(where, "payload of " + std::to_string(header.payload_bytes) +
                                      " bytes does not match " + std::to_string(slots) + " slots");
    }
    if (header.item_count > slots) {
        throw_format_error(where, "item_count " + std::to_string(header.item_count) + " exceeds the " +
                                      std::to_string(slots) + " slots (each key has one of its own)");
    }
    for (std::uint64_t i = slots * width; i < header.payload_bytes; ++i) {
        if (payload[i] != 0) {
            throw_format_error(where, "the padding after the fingerprints is not zero");
        }
    }
    return segment_length;
}

/// Checks that no bit at or past `storage_bits` is set in the last payload word (filters keep them 0, and
/// equality and the fill ratio rely on it).
inline void check_padding_bits(std::uint64_t last_word, std::uint64_t storage_bits, const char* where) {
    const unsigned used = static_cast<unsigned>(storage_bits % 64);
    if (used != 0 && (last_word >> used) != 0) {
        throw_format_error(where, "bits past bit_count are set in the last payload word");
    }
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_IO_FILE_FORMAT_HPP
