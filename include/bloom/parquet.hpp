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

#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/io/thrift_compact.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/detail/split_block_layout.hpp"
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

/// XXH64 with seed 0 over `size` bytes: Parquet's hash of a plain-encoded value.
[[nodiscard]] inline std::uint64_t parquet_xxh64(const void* data, std::size_t size) noexcept {
    // An empty string_view may have a null data(); xxHash accepts it for size 0, but a real address keeps
    // sanitizers and older xxHash versions quiet.
    static constexpr unsigned char empty[1] = {0};
    return static_cast<std::uint64_t>(XXH64(size == 0 ? empty : data, size, 0));
}

/// Reads a union field of the BloomFilterHeader whose only supported member is field 1, an empty struct
/// (its contents, should a newer writer add any, are skipped). `field_name` is the header's field,
/// `union_name` the union type and `member_name` the supported member, for the error messages.
inline void parquet_read_union(thrift_compact_reader& reader, const char* field_name, const char* union_name,
                               const char* member_name) {
    std::int32_t last_id = 0;
    thrift_field field;
    bool found = false;
    while (reader.read_field(last_id, field)) {
        if (field.id != 1) {
            bloom::detail::throw_format_error(parquet_read_where,
                                              std::string("unsupported ") + field_name + ": " + union_name +
                                                  " field " + std::to_string(field.id) + " (only " +
                                                  member_name + ", field 1, is supported)");
        }
        if (field.type != thrift_compact_struct) {
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
inline std::size_t parquet_read_header(thrift_compact_reader& reader) {
    // Fields may come in any order and unknown ones are skipped, as Thrift's generated readers do; a
    // repeated field's last value wins, as there.
    std::int32_t last_id = 0;
    thrift_field field;
    bool has_num_bytes = false;
    bool has_algorithm = false;
    bool has_hash = false;
    bool has_compression = false;
    std::int32_t num_bytes = 0;
    static constexpr const char* names[5] = {"", "numBytes", "algorithm", "hash", "compression"};
    while (reader.read_field(last_id, field)) {
        if (field.id >= 1 && field.id <= 4) {
            const unsigned expected = field.id == 1 ? thrift_compact_i32 : thrift_compact_struct;
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
    if (size % split_block_layout::block_bytes != 0) {
        bloom::detail::throw_format_error(parquet_read_where,
                                          "numBytes " + std::to_string(size) + " is not a multiple of 32");
    }
    if (size > split_block_layout::max_bytes) {
        bloom::detail::throw_format_error(parquet_read_where,
                                          "numBytes " + std::to_string(size) +
                                              " exceeds Parquet's maximum of 134217728 (128 MiB)");
    }
    return size;
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

    using layout = detail::split_block_layout;

  public:
    /// The type of the values: the column's physical type.
    using value_type = T;
    /// The type of counts.
    using size_type = std::uint64_t;
    /// Bits each value sets: one in each of its block's eight words.
    static constexpr unsigned bits_per_value = static_cast<unsigned>(layout::block_words);

    /// Bytes of one block: eight 32-bit words.
    static constexpr std::size_t bytes_per_block = layout::block_bytes;
    /// The smallest bitset Parquet writers produce: one block.
    static constexpr std::size_t min_num_bytes = layout::min_bytes;
    /// The largest bitset Parquet writers produce and readers accept: 128 MiB.
    static constexpr std::size_t max_num_bytes = layout::max_bytes;

    /// An empty filter without a bitset: contains() answers false and every count and rate is 0; insert()
    /// throws std::logic_error, as it could not keep the value. Assign or read a filter to use it. A
    /// moved-from filter is left in this state.
    split_block_filter() = default;

    /// An empty filter of `num_bytes` bytes of bitset: a positive multiple of 32 of at most 128 MiB
    /// (writers use powers of two, see optimal_num_bytes; readers accept any whole number of blocks).
    /// Throws std::invalid_argument naming num_bytes otherwise.
    explicit split_block_filter(std::size_t num_bytes)
        : m_words(layout::checked_word_count(num_bytes, layout::filter_name), 0) {}

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
        return layout::sized(expected_items, false_positive_rate,
                             "bloom::parquet::split_block_filter::optimal_num_bytes");
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

    /// Inserts every value of [first, last), hashing a window ahead and prefetching: the same result as
    /// inserting them one by one. Returns how many were definitely new.
    template <class InputIt>
    std::size_t insert(InputIt first, InputIt last) {
        if (first != last) {
            require_bitset("bloom::parquet::split_block_filter::insert(first, last)");
        }
        std::size_t inserted = 0;
        detail::pipelined_for_each<layout::window>(
            m_words.size() * 4 >= detail::prefetch_from_bytes, first, last,
            [](const auto& value) { return hash(value); },
            [this](std::uint64_t hashed) { layout::prefetch<true>(m_words.data(), block_count(), hashed); },
            [&](std::uint64_t hashed) {
                inserted += layout::insert(m_words.data(), block_count(), hashed) ? 1 : 0;
            });
        return inserted;
    }

    /// Inserts every value of `values`. Returns how many were definitely new.
    std::size_t insert(std::initializer_list<T> values) { return insert(values.begin(), values.end()); }

    /// False: `value` is definitely absent. True: it is probably present. O(1).
    [[nodiscard]] bool contains(const T& value) const noexcept { return contains_hash(hash(value)); }

    /// Writes contains(value) for every value of [first, last) to `out`, in order: the answers of one call
    /// per value, hashing a window ahead and prefetching, so many cache misses are in flight at once.
    /// Returns the output iterator past the last result.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        if (m_words.empty()) {
            for (; first != last; ++first, ++out) {
                *out = false;
            }
            return out;
        }
        detail::pipelined_for_each<layout::window>(
            m_words.size() * 4 >= detail::prefetch_from_bytes, first, last,
            [](const auto& value) { return hash(value); },
            [this](std::uint64_t hashed) { layout::prefetch<false>(m_words.data(), block_count(), hashed); },
            [&](std::uint64_t hashed) {
                *out = layout::contains(m_words.data(), block_count(), hashed);
                ++out;
            });
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
        require_bitset("bloom::parquet::split_block_filter::insert");
        return layout::insert(m_words.data(), block_count(), hash);
    }

    /// False: no value with this hash was inserted. True: one probably was. O(1).
    [[nodiscard]] bool contains_hash(std::uint64_t hash) const noexcept {
        // An empty filter (default-constructed or moved from) holds nothing.
        return !m_words.empty() && layout::contains(m_words.data(), block_count(), hash);
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
    [[nodiscard]] std::size_t block_count() const noexcept { return m_words.size() / layout::block_words; }

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
        return layout::rate(m_words.data(), block_count());
    }

    /// Distinct values estimated from the bits, -(m/8) ln(1 - X/m) for X of m bits set (each value sets
    /// eight). Finite when full. O(num_bytes()).
    [[nodiscard]] double estimated_item_count() const noexcept {
        return layout::estimated_items(m_words.data(), m_words.size());
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
        return estimated_item_count() / layout::capacity(bit_count(), false_positive_rate);
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
        detail::thrift_write_varint(out, static_cast<std::uint64_t>(num_bytes()) << 1);
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
        detail::thrift_compact_reader reader(reinterpret_cast<const unsigned char*>(data), size,
                                             detail::parquet_read_where, "header");
        const std::size_t bytes = detail::parquet_read_header(reader);
        if (bytes > reader.remaining()) {
            bloom::detail::throw_format_error(
                detail::parquet_read_where, "bitset truncated: header promises " + std::to_string(bytes) +
                                                " bytes, " + std::to_string(reader.remaining()) + " remain");
        }
        split_block_filter filter(bytes);
        const std::byte* bits = data + reader.position();
        const detail::little_endian_words32 stored{reinterpret_cast<const unsigned char*>(bits)};
        for (std::size_t i = 0; i < filter.m_words.size(); ++i) {
            filter.m_words[i] = stored[i];
        }
        return filter;
    }

    /// The size of header plus bitset of the filter whose header starts at `data`, from the header alone
    /// (`size` need only cover the header): how many bytes to read from the file before read(). Throws
    /// bloom::format_error as read() does if the header is malformed or truncated.
    [[nodiscard]] static std::size_t stored_size(const std::byte* data, std::size_t size) {
        detail::thrift_compact_reader reader(reinterpret_cast<const unsigned char*>(data), size,
                                             detail::parquet_read_where, "header");
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
    void require_bitset(const char* call) const {
        if (m_words.empty()) {
            bloom::detail::throw_insert_into_empty(call);
        }
    }

    [[nodiscard]] static std::uint64_t hash_string(std::string_view bytes) noexcept {
        return detail::parquet_xxh64(bytes.data(), bytes.size());
    }

    void store_words(std::byte* out) const noexcept {
        for (std::size_t i = 0; i < m_words.size(); ++i) {
            const std::uint32_t word = detail::to_little_endian(m_words[i]);
            std::memcpy(out + 4 * i, &word, sizeof word);
        }
    }

    std::vector<std::uint32_t> m_words;
};

} // namespace parquet
} // namespace bloom

#endif // BLOOM_PARQUET_HPP
