// SPDX-License-Identifier: MIT
#ifndef BLOOM_PARQUET_HPP
#define BLOOM_PARQUET_HPP

// bloom::parquet::split_block_filter<T> — Apache Parquet's split-block Bloom filter (SBBF), bit for bit.
//
// Parquet stores one filter per column chunk: z blocks of 256 bits (eight little-endian 32-bit words). A
// value hashes with XXH64 (seed 0) over its plain encoding; the hash's high half picks the block and its
// low half, multiplied by eight fixed salts, picks one bit in each word. On disk the bitset follows a
// Thrift compact-protocol BloomFilterHeader (numBytes, algorithm BLOCK, hash XXHASH, compression
// UNCOMPRESSED); write() produces both and read() parses both, so filters pass to and from any Parquet
// implementation. T is the column's physical type: std::int32_t (INT32, and DATE, TIME_MILLIS ...),
// std::int64_t (INT64, TIMESTAMP ...), float, double, or std::string / std::string_view (BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY: the raw bytes).
//
//     #include <bloom/parquet.hpp>
//
//     using filter = bloom::parquet::split_block_filter<std::string>;
//     filter names(filter::optimal_num_bytes(100'000, 0.01)); // 131072 bytes, sized as Parquet writers do
//     names.insert("alice");
//     std::vector<std::byte> stored = names.write();          // BloomFilterHeader + bitset
//     filter loaded = filter::read(stored.data(), stored.size());
//     bool maybe = loaded.contains("alice");                  // true; "bob" is false with 99% certainty
//
// Reading a filter out of a Parquet file: a column chunk's ColumnMetaData gives bloom_filter_offset (field
// 14), the file offset of the BloomFilterHeader, and, from newer writers, bloom_filter_length (field 15),
// the size of header and bitset together. Read that many bytes there and pass them to read(). Without a
// length, read a few dozen bytes (writers emit a 16-byte header), ask stored_size() for the total and read
// the rest. Writing one: put write()'s bytes in the file (writers place them after the row groups' column
// chunks, before the footer) and record their offset and length in the chunk's ColumnMetaData.

#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/detail/xxhash.hpp"
#include "bloom/format_error.hpp"
#include "bloom/sizing.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace bloom {
namespace detail {

// Parquet format, BloomFilter.md: the eight odd salts of the split-block filter, one per word of a block.
inline constexpr std::uint32_t parquet_salts[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                                   0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

inline constexpr std::size_t parquet_block_bytes = 32;
inline constexpr std::size_t parquet_block_words = 8;
// Parquet writers (parquet-java, Arrow) size filters within [32 B, 128 MiB]; readers refuse larger ones.
inline constexpr std::size_t parquet_min_bytes = 32;
inline constexpr std::size_t parquet_max_bytes = std::size_t{128} * 1024 * 1024;
// Thrift's own default recursion limit for skipping nested values.
inline constexpr unsigned parquet_thrift_max_depth = 64;

template <class T>
inline constexpr bool parquet_is_string_v =
    std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>;

template <class T>
inline constexpr bool parquet_is_physical_v =
    parquet_is_string_v<T> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

/// True if a filter of T takes a K through its string overloads: any other string type for a string T.
template <class T, class K>
inline constexpr bool parquet_accepts_string_v =
    parquet_is_string_v<T> && !std::is_same_v<std::remove_cv_t<std::remove_reference_t<K>>, T> &&
    std::is_convertible_v<const K&, std::string_view>;

/// Where the reader's bloom::format_error messages come from.
inline constexpr const char* parquet_read_where = "bloom::parquet::split_block_filter::read";

/// Reverses the byte order of a 32-bit value.
[[nodiscard]] constexpr std::uint32_t parquet_byte_swap32(std::uint32_t value) noexcept {
    return ((value & 0x000000ffU) << 24) | ((value & 0x0000ff00U) << 8) | ((value >> 8) & 0x0000ff00U) |
           (value >> 24);
}

/// XXH64 with seed 0 over `size` bytes: Parquet's hash of a plain-encoded value.
[[nodiscard]] inline std::uint64_t parquet_xxh64(const void* data, std::size_t size) noexcept {
    // An empty string_view may have a null data(); xxHash accepts it for size 0, but a real address keeps
    // sanitizers and older xxHash versions quiet.
    static constexpr unsigned char empty[1] = {0};
    return static_cast<std::uint64_t>(XXH64(size == 0 ? empty : data, size, 0));
}

// ---- Thrift compact protocol (Thrift's doc/specs/thrift-compact-protocol.md) ----

// Type ids of the compact protocol, as they appear in field headers and collection headers.
inline constexpr unsigned parquet_compact_stop = 0;
inline constexpr unsigned parquet_compact_true = 1;
inline constexpr unsigned parquet_compact_false = 2;
inline constexpr unsigned parquet_compact_byte = 3;
inline constexpr unsigned parquet_compact_i16 = 4;
inline constexpr unsigned parquet_compact_i32 = 5;
inline constexpr unsigned parquet_compact_i64 = 6;
inline constexpr unsigned parquet_compact_double = 7;
inline constexpr unsigned parquet_compact_binary = 8;
inline constexpr unsigned parquet_compact_list = 9;
inline constexpr unsigned parquet_compact_set = 10;
inline constexpr unsigned parquet_compact_map = 11;
inline constexpr unsigned parquet_compact_struct = 12;
inline constexpr unsigned parquet_compact_uuid = 13;

/// One field header of a compact-protocol struct.
struct parquet_thrift_field {
    unsigned type = parquet_compact_stop;
    std::int32_t id = 0;
};

/// A bounds-checked reader of Thrift compact-protocol values. Every read checks the remaining input and
/// throws bloom::format_error instead of reading past it; skipping is depth-limited.
class parquet_thrift_reader {
  public:
    parquet_thrift_reader(const unsigned char* data, std::size_t size) noexcept
        : m_data(data), m_size(size) {}

    [[nodiscard]] std::size_t position() const noexcept { return m_position; }
    [[nodiscard]] std::size_t remaining() const noexcept { return m_size - m_position; }

    std::uint8_t read_byte() {
        if (m_position == m_size) {
            bloom::detail::throw_format_error(parquet_read_where, "truncated header");
        }
        return m_data[m_position++];
    }

    void skip_bytes(std::uint64_t count) {
        if (count > remaining()) {
            bloom::detail::throw_format_error(parquet_read_where, "truncated header");
        }
        m_position += static_cast<std::size_t>(count);
    }

    /// An unsigned LEB128 varint of at most 10 bytes that fits in 64 bits.
    std::uint64_t read_varint() {
        std::uint64_t value = 0;
        for (unsigned i = 0; i < 10; ++i) {
            const std::uint8_t byte = read_byte();
            if (i == 9) {
                if ((byte & 0x80U) != 0) {
                    bloom::detail::throw_format_error(parquet_read_where,
                                                      "malformed header: varint longer than 10 bytes");
                }
                if (byte > 1) {
                    bloom::detail::throw_format_error(parquet_read_where,
                                                      "malformed header: varint overflows 64 bits");
                }
            }
            value |= static_cast<std::uint64_t>(byte & 0x7fU) << (7 * i);
            if ((byte & 0x80U) == 0) {
                return value;
            }
        }
        bloom::detail::throw_format_error(parquet_read_where,
                                          "malformed header: varint longer than 10 bytes"); // not reached
    }

    /// A zigzag varint that must fit in `bits` bits (16 or 32), sign-extended.
    std::int32_t read_zigzag(unsigned bits) {
        const std::uint64_t raw = read_varint();
        if (raw >> bits != 0) {
            bloom::detail::throw_format_error(parquet_read_where,
                                              "malformed header: i" + std::to_string(bits) + " varint " +
                                                  std::to_string(raw) + " is out of range");
        }
        const auto magnitude = static_cast<std::int64_t>(raw >> 1);
        return static_cast<std::int32_t>((raw & 1U) != 0 ? -magnitude - 1 : magnitude);
    }

    /// Reads a field header into `field`; false at the struct's stop byte. `last_id` is the previous
    /// field's id (0 at the start of a struct): short-form headers carry the difference to it.
    bool read_field(std::int32_t& last_id, parquet_thrift_field& field) {
        const std::uint8_t byte = read_byte();
        field.type = byte & 0x0fU;
        if (field.type == parquet_compact_stop) {
            return false;
        }
        if (field.type > parquet_compact_uuid) {
            bloom::detail::throw_format_error(parquet_read_where, "malformed header: unknown compact type " +
                                                                      std::to_string(field.type));
        }
        const unsigned delta = byte >> 4;
        // Short form: the id is the previous one plus delta (1..15); long form: a zigzag i16 follows.
        field.id = delta != 0 ? last_id + static_cast<std::int32_t>(delta) : read_zigzag(16);
        if (field.id > std::numeric_limits<std::int16_t>::max()) {
            bloom::detail::throw_format_error(parquet_read_where, "malformed header: field id " +
                                                                      std::to_string(field.id) +
                                                                      " is out of range");
        }
        last_id = field.id;
        return true;
    }

    /// Skips one value of compact type `type`. `in_collection`: a bool there is one byte, not part of the
    /// field header. `depth`: the nesting of the value, at most parquet_thrift_max_depth.
    void skip(unsigned type, unsigned depth, bool in_collection) {
        switch (type) {
        case parquet_compact_true:
        case parquet_compact_false:
            if (in_collection) {
                skip_bytes(1);
            }
            return;
        case parquet_compact_byte:
            skip_bytes(1);
            return;
        case parquet_compact_i16:
        case parquet_compact_i32:
        case parquet_compact_i64:
            static_cast<void>(read_varint());
            return;
        case parquet_compact_double:
            skip_bytes(8);
            return;
        case parquet_compact_binary:
            skip_bytes(read_varint());
            return;
        case parquet_compact_uuid:
            skip_bytes(16);
            return;
        case parquet_compact_list:
        case parquet_compact_set:
            skip_list(depth);
            return;
        case parquet_compact_map:
            skip_map(depth);
            return;
        case parquet_compact_struct:
            skip_struct(depth);
            return;
        default:
            bloom::detail::throw_format_error(parquet_read_where, "malformed header: unknown compact type " +
                                                                      std::to_string(type));
        }
    }

    /// Skips the fields of a struct up to and including its stop byte.
    void skip_struct(unsigned depth) {
        check_depth(depth);
        std::int32_t last_id = 0;
        parquet_thrift_field field;
        while (read_field(last_id, field)) {
            skip(field.type, depth + 1, false);
        }
    }

  private:
    static void check_depth(unsigned depth) {
        if (depth > parquet_thrift_max_depth) {
            bloom::detail::throw_format_error(parquet_read_where,
                                              "malformed header: values nest deeper than " +
                                                  std::to_string(parquet_thrift_max_depth) + " levels");
        }
    }

    static void check_element_type(unsigned type) {
        if (type == parquet_compact_stop || type > parquet_compact_uuid) {
            bloom::detail::throw_format_error(
                parquet_read_where, "malformed header: unknown compact element type " + std::to_string(type));
        }
    }

    void skip_list(unsigned depth) {
        check_depth(depth);
        const std::uint8_t header = read_byte();
        const unsigned element_type = header & 0x0fU;
        std::uint64_t count = header >> 4;
        if (count == 15) {
            count = read_varint();
        }
        check_element_type(element_type);
        // Every element takes at least one byte: a count beyond the input is truncated, and the loop below
        // is bounded by the input's size.
        if (count > remaining()) {
            bloom::detail::throw_format_error(parquet_read_where, "truncated header");
        }
        for (std::uint64_t i = 0; i < count; ++i) {
            skip(element_type, depth + 1, true);
        }
    }

    void skip_map(unsigned depth) {
        check_depth(depth);
        const std::uint64_t count = read_varint();
        if (count == 0) {
            return;
        }
        const std::uint8_t types = read_byte();
        const unsigned key_type = types >> 4;
        const unsigned value_type = types & 0x0fU;
        check_element_type(key_type);
        check_element_type(value_type);
        if (count > remaining() / 2) {
            bloom::detail::throw_format_error(parquet_read_where, "truncated header");
        }
        for (std::uint64_t i = 0; i < count; ++i) {
            skip(key_type, depth + 1, true);
            skip(value_type, depth + 1, true);
        }
    }

    const unsigned char* m_data;
    std::size_t m_size;
    std::size_t m_position = 0;
};

/// Reads a union field of the BloomFilterHeader whose only supported member is field 1, an empty struct
/// (its contents, should a newer writer add any, are skipped). `field_name` is the header's field,
/// `union_name` the union type and `member_name` the supported member, for the error messages.
inline void parquet_read_union(parquet_thrift_reader& reader, const char* field_name, const char* union_name,
                               const char* member_name) {
    std::int32_t last_id = 0;
    parquet_thrift_field field;
    bool found = false;
    while (reader.read_field(last_id, field)) {
        if (field.id != 1) {
            bloom::detail::throw_format_error(parquet_read_where,
                                              std::string("unsupported ") + field_name + ": " + union_name +
                                                  " field " + std::to_string(field.id) + " (only " +
                                                  member_name + ", field 1, is supported)");
        }
        if (field.type != parquet_compact_struct) {
            bloom::detail::throw_format_error(parquet_read_where,
                                              std::string("malformed header: ") + field_name + " " +
                                                  member_name + " has compact type " +
                                                  std::to_string(field.type) + ", expected struct (12)");
        }
        reader.skip_struct(2);
        found = true;
    }
    if (!found) {
        bloom::detail::throw_format_error(parquet_read_where,
                                          std::string("unsupported ") + field_name + ": the " + union_name +
                                              " union is empty (only " + member_name + " is supported)");
    }
}

/// Parses a BloomFilterHeader and returns its numBytes, checked to be a positive multiple of 32 of at most
/// 128 MiB (not against the input: the caller does that). Leaves `reader` just past the header.
inline std::size_t parquet_read_header(parquet_thrift_reader& reader) {
    // Fields may come in any order and unknown ones are skipped, as Thrift's generated readers do; a
    // repeated field's last value wins, as there.
    std::int32_t last_id = 0;
    parquet_thrift_field field;
    bool has_num_bytes = false;
    bool has_algorithm = false;
    bool has_hash = false;
    bool has_compression = false;
    std::int32_t num_bytes = 0;
    static constexpr const char* names[5] = {"", "numBytes", "algorithm", "hash", "compression"};
    while (reader.read_field(last_id, field)) {
        if (field.id >= 1 && field.id <= 4) {
            const unsigned expected = field.id == 1 ? parquet_compact_i32 : parquet_compact_struct;
            if (field.type != expected) {
                bloom::detail::throw_format_error(
                    parquet_read_where,
                    "malformed header: field " + std::to_string(field.id) + " (" +
                        names[static_cast<std::size_t>(field.id)] + ") has compact type " +
                        std::to_string(field.type) + ", expected " +
                        (field.id == 1 ? std::string("i32 (5)") : std::string("struct (12)")));
            }
        }
        switch (field.id) {
        case 1:
            num_bytes = reader.read_zigzag(32);
            has_num_bytes = true;
            break;
        case 2:
            parquet_read_union(reader, "algorithm", "BloomFilterAlgorithm", "BLOCK");
            has_algorithm = true;
            break;
        case 3:
            parquet_read_union(reader, "hash", "BloomFilterHash", "XXHASH");
            has_hash = true;
            break;
        case 4:
            parquet_read_union(reader, "compression", "BloomFilterCompression", "UNCOMPRESSED");
            has_compression = true;
            break;
        default:
            reader.skip(field.type, 1, false);
            break;
        }
    }
    const bool has[5] = {true, has_num_bytes, has_algorithm, has_hash, has_compression};
    for (std::size_t id = 1; id <= 4; ++id) {
        if (!has[id]) {
            bloom::detail::throw_format_error(parquet_read_where, "malformed header: required field " +
                                                                      std::string(names[id]) + " (" +
                                                                      std::to_string(id) + ") is missing");
        }
    }
    if (num_bytes <= 0) {
        bloom::detail::throw_format_error(parquet_read_where,
                                          "numBytes " + std::to_string(num_bytes) + " is not positive");
    }
    const auto size = static_cast<std::size_t>(num_bytes);
    if (size % parquet_block_bytes != 0) {
        bloom::detail::throw_format_error(parquet_read_where,
                                          "numBytes " + std::to_string(size) + " is not a multiple of 32");
    }
    if (size > parquet_max_bytes) {
        bloom::detail::throw_format_error(parquet_read_where,
                                          "numBytes " + std::to_string(size) +
                                              " exceeds Parquet's maximum of 134217728 (128 MiB)");
    }
    return size;
}

inline void parquet_write_varint(std::vector<std::byte>& out, std::uint64_t value) {
    while (value >= 0x80) {
        out.push_back(static_cast<std::byte>((value & 0x7fU) | 0x80U));
        value >>= 7;
    }
    out.push_back(static_cast<std::byte>(value));
}

} // namespace detail

/// Apache Parquet's formats, read and written bit for bit.
namespace parquet {

/// Parquet's split-block Bloom filter of a column of physical type T: std::int32_t, std::int64_t, float,
/// double, std::string or std::string_view. Blocks of 256 bits, eight bits per value, XXH64 over the
/// value's plain encoding. The bitset is byte-identical to what parquet-java and Arrow write.
template <class T>
class split_block_filter {
    static_assert(detail::parquet_is_physical_v<T>,
                  "bloom::parquet::split_block_filter<T>: T must be a Parquet physical type: std::int32_t, "
                  "std::int64_t, float, double, std::string or std::string_view");
    static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
                  "bloom::parquet::split_block_filter needs IEEE 754 float and double");

  public:
    /// The type of the values: the column's physical type.
    using value_type = T;
    /// The type of counts.
    using size_type = std::uint64_t;
    /// Bits each value sets: one in each of its block's eight words.
    static constexpr unsigned bits_per_value = static_cast<unsigned>(detail::parquet_block_words);

    /// Bytes of one block: eight 32-bit words.
    static constexpr std::size_t bytes_per_block = detail::parquet_block_bytes;
    /// The smallest bitset Parquet writers produce: one block.
    static constexpr std::size_t min_num_bytes = detail::parquet_min_bytes;
    /// The largest bitset Parquet writers produce and readers accept: 128 MiB.
    static constexpr std::size_t max_num_bytes = detail::parquet_max_bytes;

    /// An empty filter without a bitset: contains() answers false and every count and rate is 0; insert()
    /// throws std::logic_error, as it could not keep the value. Assign or read a filter to use it. A
    /// moved-from filter is left in this state.
    split_block_filter() = default;

    /// An empty filter of `num_bytes` bytes of bitset: a positive multiple of 32 of at most 128 MiB
    /// (writers use powers of two, see optimal_num_bytes; readers accept any whole number of blocks).
    /// Throws std::invalid_argument naming num_bytes otherwise.
    explicit split_block_filter(std::size_t num_bytes) : m_words(checked_word_count(num_bytes), 0) {}

    /// A filter of `num_bytes` bytes of bitset (as above) holding every value of [first, last).
    template <class InputIt, class = bloom::detail::enable_if_input_iterator_t<InputIt>>
    split_block_filter(InputIt first, InputIt last, std::size_t num_bytes) : split_block_filter(num_bytes) {
        insert(first, last);
    }

    /// A filter of `num_bytes` bytes of bitset (as above) holding `values`.
    split_block_filter(std::initializer_list<T> values, std::size_t num_bytes)
        : split_block_filter(values.begin(), values.end(), num_bytes) {}

    /// The bitset size Parquet writers choose for `expected_items` distinct values at
    /// `false_positive_rate`: bits = -8 n / ln(1 - p^(1/8)), then the next power of two of bits / 8 bytes,
    /// clamped to [32 B, 128 MiB]. Throws std::invalid_argument for zero items or a rate outside (0, 1).
    /// The formula treats blocks as evenly loaded: at a size that fits it exactly the real rate is higher
    /// (about 1.5 p at p = 1%, 2 p at 0.1%); the rounding up to a power of two absorbs part of that.
    [[nodiscard]] static std::size_t optimal_num_bytes(std::uint64_t expected_items,
                                                       double false_positive_rate) {
        constexpr const char* where = "bloom::parquet::split_block_filter::optimal_num_bytes";
        detail::check_items(where, expected_items);
        detail::check_rate(where, false_positive_rate);
        // Parquet format, BloomFilter.md; parquet-java and Arrow compute the same with ln(1 - x).
        const double log_word_miss = std::log(1.0 - std::pow(false_positive_rate, 1.0 / 8.0));
        // A rate so small that 1 - p^(1/8) rounds to 1 makes ln 0 and the size infinite: the largest, as
        // the writers' clamps give. A rate so close to 1 that p^(1/8) rounds to 1 makes ln -inf: 0 bits.
        if (!(log_word_miss < 0.0)) {
            return max_num_bytes;
        }
        const double bytes = -static_cast<double>(expected_items) / log_word_miss; // bits / 8
        if (!(bytes < static_cast<double>(max_num_bytes))) {
            return max_num_bytes;
        }
        std::size_t size = min_num_bytes;
        while (static_cast<double>(size) < bytes) {
            size *= 2;
        }
        return size;
    }

    /// Parquet's hash of `value`: XXH64 with seed 0 over its plain encoding (little-endian two's complement
    /// for INT32 and INT64, the IEEE bits little-endian for FLOAT and DOUBLE, the raw bytes for strings).
    [[nodiscard]] static std::uint64_t hash(const T& value) noexcept {
        if constexpr (detail::parquet_is_string_v<T>) {
            return hash_string(value);
        } else {
            // Parquet writers hash the raw bits, so -0.0 and 0.0 hash differently there: unlike bloom::hash,
            // nothing is folded here (nor are NaN payloads).
            unsigned char bytes[sizeof(T)];
            if constexpr (std::is_integral_v<T>) {
                detail::store_little_endian(
                    bytes, static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(value)),
                    sizeof(T));
            } else {
                using bits_type = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
                bits_type bits;
                std::memcpy(&bits, &value, sizeof bits);
                detail::store_little_endian(bytes, static_cast<std::uint64_t>(bits), sizeof(T));
            }
            return detail::parquet_xxh64(bytes, sizeof bytes);
        }
    }

    /// For a string T: Parquet's hash of any other string type (const char*, std::string_view ...),
    /// without building a T.
    template <class K, std::enable_if_t<detail::parquet_accepts_string_v<T, K>, int> = 0>
    [[nodiscard]] static std::uint64_t hash(const K& value) noexcept {
        return hash_string(std::string_view(value));
    }

    /// Sets the value's eight bits, one in each word of its block. O(1). Returns true if `value` was
    /// definitely absent before (one of its bits was 0). Throws std::logic_error if the filter has no bitset
    /// (default-constructed or moved from).
    bool insert(const T& value) { return insert_hash(hash(value)); }

    /// For a string T: inserts any other string type without building a T. O(1).
    template <class K, std::enable_if_t<detail::parquet_accepts_string_v<T, K>, int> = 0>
    bool insert(const K& value) {
        return insert_hash(hash(value));
    }

    /// Inserts every value of [first, last) in order. Returns how many were definitely new.
    template <class InputIt>
    std::size_t insert(InputIt first, InputIt last) {
        std::size_t inserted = 0;
        for (; first != last; ++first) {
            inserted += insert(*first) ? 1 : 0;
        }
        return inserted;
    }

    /// Inserts every value of `values`. Returns how many were definitely new.
    std::size_t insert(std::initializer_list<T> values) { return insert(values.begin(), values.end()); }

    /// False: `value` is definitely absent. True: it is probably present. O(1).
    [[nodiscard]] bool contains(const T& value) const noexcept { return contains_hash(hash(value)); }

    /// Writes contains(value) for every value of [first, last) to `out`, in order. Returns the output
    /// iterator past the last result.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        for (; first != last; ++first, ++out) {
            *out = contains(*first);
        }
        return out;
    }

    /// For a string T: looks up any other string type without building a T. O(1).
    template <class K, std::enable_if_t<detail::parquet_accepts_string_v<T, K>, int> = 0>
    [[nodiscard]] bool contains(const K& value) const noexcept {
        return contains_hash(hash(value));
    }

    /// Sets the bits of a 64-bit hash the caller computed (Parquet's hash is XXH64, seed 0, over the plain
    /// encoding): block ((hash >> 32) * blocks) >> 32, in word i bit (low32(hash) * salt[i]) >> 27. O(1).
    /// Returns true if one of the bits was 0. Throws std::logic_error if the filter has no bitset.
    bool insert_hash(std::uint64_t hash) {
        if (m_words.empty()) {
            bloom::detail::throw_insert_into_empty("bloom::parquet::split_block_filter::insert");
        }
        std::uint32_t* block = m_words.data() + block_index(hash) * detail::parquet_block_words;
        const auto low = static_cast<std::uint32_t>(hash);
        std::uint32_t missing = 0;
        for (std::size_t i = 0; i < detail::parquet_block_words; ++i) {
            missing |= ~block[i] & bit_of(low, i);
            block[i] |= bit_of(low, i);
        }
        return missing != 0;
    }

    /// False: no value with this hash was inserted. True: one probably was. O(1).
    [[nodiscard]] bool contains_hash(std::uint64_t hash) const noexcept {
        // An empty filter (default-constructed or moved from) holds nothing.
        if (m_words.empty()) {
            return false;
        }
        const std::uint32_t* block = m_words.data() + block_index(hash) * detail::parquet_block_words;
        const auto low = static_cast<std::uint32_t>(hash);
        for (std::size_t i = 0; i < detail::parquet_block_words; ++i) {
            if ((block[i] & bit_of(low, i)) == 0) {
                return false;
            }
        }
        return true;
    }

    /// Size of the bitset in bytes (the header's numBytes).
    [[nodiscard]] std::size_t num_bytes() const noexcept { return m_words.size() * sizeof(std::uint32_t); }
    /// Bytes of the bitset, as every kind names it: num_bytes().
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return num_bytes(); }
    /// m, the number of bits: 8 num_bytes().
    [[nodiscard]] std::uint64_t bit_count() const noexcept { return std::uint64_t{m_words.size()} * 32; }
    /// k, the bits each value sets: 8 (0 for an empty filter).
    [[nodiscard]] unsigned hash_count() const noexcept { return m_words.empty() ? 0U : bits_per_value; }

    /// Number of 256-bit blocks: num_bytes() / 32.
    [[nodiscard]] std::size_t block_count() const noexcept {
        return m_words.size() / detail::parquet_block_words;
    }

    /// Number of 32-bit words: num_bytes() / 4.
    [[nodiscard]] std::size_t word_count() const noexcept { return m_words.size(); }

    /// Fraction of the bitset's bits set, in [0, 1]. O(num_bytes()).
    [[nodiscard]] double fill_ratio() const noexcept {
        return m_words.empty() ? 0.0
                               : static_cast<double>(detail::count_set_bits(m_words.data(), m_words.size())) /
                                     static_cast<double>(m_words.size() * 32);
    }

    /// The probability that a random non-member is reported present, given the bits as they are now: the
    /// mean over blocks of the product of the eight words' fill fractions (a value needs its one bit in each
    /// word of its block). 0 when empty or moved-from. O(num_bytes()).
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        return detail::block_rate_from_bits<32, detail::parquet_block_words>(m_words.data(), block_count());
    }

    /// Distinct values estimated from the bits, -(m/8) ln(1 - X/m) for X of m bits set (each value sets
    /// eight). Finite when full. O(num_bytes()).
    [[nodiscard]] double estimated_item_count() const noexcept {
        return detail::items_from_fill(detail::count_set_bits(m_words.data(), m_words.size()),
                                       std::uint64_t{m_words.size()} * 32, detail::parquet_block_words);
    }

    /// estimated_item_count() over the values this bitset holds at `false_positive_rate` by the writers'
    /// sizing formula, n = -(bits / 8) ln(1 - p^(1/8)): a Parquet file records neither the n nor the p its
    /// writer sized for, so the rate is given (1%, parquet-java's default, unless told). 1.0 = at capacity.
    /// Throws std::invalid_argument for a rate outside (0, 1). O(num_bytes()).
    [[nodiscard]] double load_factor(double false_positive_rate = 0.01) const {
        detail::check_rate("bloom::parquet::split_block_filter::load_factor", false_positive_rate);
        if (m_words.empty()) {
            return 0.0;
        }
        const double bits = static_cast<double>(m_words.size()) * 32.0;
        const double capacity = -bits / 8.0 * std::log1p(-std::pow(false_positive_rate, 1.0 / 8.0));
        return estimated_item_count() / capacity;
    }

    /// The bitset as 32-bit words in host byte order (word i of block b at index 8 b + i).
    [[nodiscard]] const std::uint32_t* data() const noexcept { return m_words.data(); }
    /// data(), by its earlier name.
    [[nodiscard]] const std::uint32_t* words() const noexcept { return data(); }

    /// The bitset as stored in a Parquet file: num_bytes() bytes, each word little-endian, on every host.
    [[nodiscard]] std::vector<std::byte> bitset() const {
        std::vector<std::byte> out(num_bytes());
        store_words(out.data());
        return out;
    }

    /// Header plus bitset, as a Parquet file holds them at the column chunk's bloom_filter_offset: the Thrift
    /// compact BloomFilterHeader {numBytes, algorithm BLOCK, hash XXHASH, compression UNCOMPRESSED}.
    [[nodiscard]] std::vector<std::byte> write() const {
        std::vector<std::byte> out;
        out.reserve(16 + num_bytes());
        // Field 1, i32 (short form: delta 1, type 5), zigzag varint; numBytes <= 2^27 is positive.
        out.push_back(std::byte{0x15});
        detail::parquet_write_varint(out, static_cast<std::uint64_t>(num_bytes()) << 1);
        // Fields 2, 3, 4: a union (struct, delta 1: 0x1c) holding its field 1, an empty struct (0x1c, its
        // stop 0x00), then the union's stop (0x00).
        static constexpr std::byte empty_union_member[4] = {std::byte{0x1c}, std::byte{0x1c}, std::byte{0x00},
                                                            std::byte{0x00}};
        for (int field = 2; field <= 4; ++field) {
            out.insert(out.end(), std::begin(empty_union_member), std::end(empty_union_member));
        }
        out.push_back(std::byte{0x00}); // the header's stop
        const std::size_t header_size = out.size();
        out.resize(header_size + num_bytes());
        store_words(out.data() + header_size);
        return out;
    }

    /// Parses a filter written by write() or any Parquet writer: header, then numBytes of bitset; bytes after
    /// it are ignored. Throws bloom::format_error naming the problem if the header is malformed, truncated
    /// or describes another algorithm, hash or compression, or the bitset is short. Allocates only after
    /// checking that the input holds the whole bitset.
    [[nodiscard]] static split_block_filter read(const std::byte* data, std::size_t size) {
        detail::parquet_thrift_reader reader(reinterpret_cast<const unsigned char*>(data), size);
        const std::size_t bytes = detail::parquet_read_header(reader);
        if (bytes > reader.remaining()) {
            bloom::detail::throw_format_error(
                detail::parquet_read_where, "bitset truncated: header promises " + std::to_string(bytes) +
                                                " bytes, " + std::to_string(reader.remaining()) + " remain");
        }
        split_block_filter filter(bytes);
        const std::byte* bits = data + reader.position();
        for (std::size_t i = 0; i < filter.m_words.size(); ++i) {
            std::uint32_t word;
            std::memcpy(&word, bits + 4 * i, sizeof word);
            filter.m_words[i] = little_endian(word);
        }
        return filter;
    }

    /// The size of header plus bitset of the filter whose header starts at `data`, from the header alone
    /// (`size` need only cover the header): how many bytes to read from the file before read(). Throws
    /// bloom::format_error as read() does if the header is malformed or truncated.
    [[nodiscard]] static std::size_t stored_size(const std::byte* data, std::size_t size) {
        detail::parquet_thrift_reader reader(reinterpret_cast<const unsigned char*>(data), size);
        const std::size_t bytes = detail::parquet_read_header(reader);
        return reader.position() + bytes;
    }

    /// Same bitset (and so the same size).
    [[nodiscard]] friend bool operator==(const split_block_filter& left,
                                         const split_block_filter& right) noexcept {
        return left.m_words == right.m_words;
    }
    /// !(left == right).
    [[nodiscard]] friend bool operator!=(const split_block_filter& left,
                                         const split_block_filter& right) noexcept {
        return !(left == right);
    }

  private:
    static std::size_t checked_word_count(std::size_t num_bytes) {
        if (num_bytes == 0 || num_bytes % bytes_per_block != 0 || num_bytes > max_num_bytes) {
            detail::throw_invalid_argument(
                "bloom::parquet::split_block_filter", "num_bytes",
                "must be a positive multiple of 32 of at most 134217728 (128 MiB), "
                "got " +
                    std::to_string(num_bytes));
        }
        return num_bytes / sizeof(std::uint32_t);
    }

    [[nodiscard]] static std::uint64_t hash_string(std::string_view bytes) noexcept {
        return detail::parquet_xxh64(bytes.data(), bytes.size());
    }

    // Parquet format, BloomFilter.md: the high half of the hash times the block count, shifted down, maps it
    // onto [0, blocks) without a division (Lemire 2019); blocks <= 2^22, so the product fits in 64 bits.
    [[nodiscard]] std::size_t block_index(std::uint64_t hash) const noexcept {
        return static_cast<std::size_t>(((hash >> 32) * static_cast<std::uint64_t>(block_count())) >> 32);
    }

    // Word i gets the bit the top five bits of low32(hash) * salt[i] (mod 2^32) name.
    [[nodiscard]] static std::uint32_t bit_of(std::uint32_t low, std::size_t i) noexcept {
        const auto product = static_cast<std::uint32_t>(low * detail::parquet_salts[i]);
        return std::uint32_t{1} << (product >> 27);
    }

    // Converts a word between host and little-endian order (in either direction: the swap is its own
    // inverse).
    [[nodiscard]] static std::uint32_t little_endian(std::uint32_t word) noexcept {
        if constexpr (detail::host_is_little_endian) {
            return word;
        } else {
            return detail::parquet_byte_swap32(word);
        }
    }

    void store_words(std::byte* out) const noexcept {
        for (std::size_t i = 0; i < m_words.size(); ++i) {
            const std::uint32_t word = little_endian(m_words[i]);
            std::memcpy(out + 4 * i, &word, sizeof word);
        }
    }

    std::vector<std::uint32_t> m_words;
};

} // namespace parquet
} // namespace bloom

#endif // BLOOM_PARQUET_HPP
