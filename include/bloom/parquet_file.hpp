// SPDX-License-Identifier: MIT
#ifndef BLOOM_PARQUET_FILE_HPP
#define BLOOM_PARQUET_FILE_HPP

// bloom::parquet::file — the Bloom filters inside a Parquet file: its row groups, their column chunks, and
// for each chunk that carries one, its split-block filter (<bloom/parquet.hpp>), so a query can skip the row
// groups whose filter says a value is absent, as Spark, DuckDB and Trino do.
//
// A Parquet file ends with its footer: the Thrift compact-encoded FileMetaData, its length as 4 bytes
// little-endian, and "PAR1". FileMetaData lists the row groups; each column chunk's ColumnMetaData gives the
// column's path, physical type and, from writers that wrote a filter, bloom_filter_offset (field 14) and
// bloom_filter_length (field 15, newer writers). The reader decodes only the footer and the filters asked
// for: a path is read at those offsets, never whole. Everything it reads is untrusted: a malformed,
// truncated or oversized footer or filter throws bloom::format_error naming the problem, and no allocation
// exceeds the input's size.
//
//     #include <bloom/parquet_file.hpp>
//
//     auto users = bloom::parquet::file::open("users.parquet");
//     std::vector<bool> maybe = bloom::parquet::might_contain(users, "name", "alice");
//     for (std::size_t group = 0; group < maybe.size(); ++group) {
//         if (maybe[group]) {
//             // read row group `group`: alice may be there; every other row group is skipped
//         }
//     }
//
// Values hash as the column's physical type requires (Parquet's plain encoding, XXH64 seed 0): strings for
// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY, integers for INT32 and INT64, float and double for FLOAT and DOUBLE.
// A value the column's type cannot hold (300 for an INT32 holding it exactly is fine; 2^40 is not) is
// absent from every row group.

#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/io/thrift_compact.hpp"
#include "bloom/format_error.hpp"
#include "bloom/parquet.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace bloom {
namespace parquet {

/// Parquet's physical types (the Type enum of parquet.thrift), by their numbers there.
enum class physical_type : std::int32_t {
    boolean = 0,
    int32 = 1,
    int64 = 2,
    int96 = 3,
    float32 = 4, ///< FLOAT
    float64 = 5, ///< DOUBLE
    byte_array = 6,
    fixed_len_byte_array = 7,
};

/// Parquet's name of a physical type ("INT64", "BYTE_ARRAY" ...), or "UNKNOWN".
[[nodiscard]] inline const char* to_string(physical_type type) noexcept {
    static constexpr const char* names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                            "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    const auto index = static_cast<std::int32_t>(type);
    return index >= 0 && index < 8 ? names[index] : "UNKNOWN";
}

/// One column chunk of a row group, as its ColumnMetaData describes it.
struct column_chunk {
    /// path_in_schema joined with '.': "name", or "address.city" for a nested column.
    std::string path;
    /// The column's physical type.
    physical_type type = physical_type::byte_array;
    /// Values in the chunk, nulls included.
    std::int64_t num_values = 0;
    /// File offset of the chunk's BloomFilterHeader; -1 without a filter.
    std::int64_t bloom_filter_offset = -1;
    /// Bytes of header and bitset; -1 when the writer did not record it (then the header tells).
    std::int64_t bloom_filter_length = -1;

    /// True if the chunk has a Bloom filter.
    [[nodiscard]] bool has_bloom_filter() const noexcept { return bloom_filter_offset >= 0; }
};

/// One row group: its row count and column chunks, in the file's column order.
struct row_group {
    /// Rows in the row group.
    std::int64_t num_rows = 0;
    /// Its column chunks.
    std::vector<column_chunk> columns;
};

/// What a column chunk's filter says of a value.
enum class probe_result {
    absent,    ///< the filter says the value is definitely not in the row group: skip it
    maybe,     ///< the filter says it may be there
    no_filter, ///< the chunk has no filter: the row group must be read
};

} // namespace parquet

namespace detail {

using parquet::column_chunk;
using parquet::physical_type;
using parquet::row_group;

inline constexpr const char* parquet_file_where = "bloom::parquet::file";

[[noreturn]] inline void parquet_file_error(const std::string& message) {
    throw_format_error(parquet_file_where, message);
}

/// Reads a ColumnMetaData struct into `chunk`.
inline void parquet_read_column_metadata(thrift_compact_reader& reader, column_chunk& chunk) {
    std::int32_t last_id = 0;
    thrift_field field;
    bool has_type = false;
    bool has_path = false;
    while (reader.read_field(last_id, field)) {
        switch (field.id) {
        case 1: {
            reader.require_type(field, thrift_compact_i32, "ColumnMetaData.type");
            const std::int32_t type = reader.read_zigzag(32);
            if (type < 0 || type > 7) {
                reader.fail_malformed("ColumnMetaData.type " + std::to_string(type) +
                                      " is not a physical type");
            }
            chunk.type = static_cast<physical_type>(type);
            has_type = true;
            break;
        }
        case 3: {
            reader.require_type(field, thrift_compact_list, "ColumnMetaData.path_in_schema");
            unsigned element_type = 0;
            const std::uint64_t count = reader.read_list_header(element_type);
            if (element_type != thrift_compact_binary) {
                reader.fail_malformed("ColumnMetaData.path_in_schema is not a list of strings");
            }
            chunk.path.clear();
            for (std::uint64_t i = 0; i < count; ++i) {
                if (i != 0) {
                    chunk.path += '.';
                }
                chunk.path += reader.read_binary();
            }
            has_path = true;
            break;
        }
        case 5:
            reader.require_type(field, thrift_compact_i64, "ColumnMetaData.num_values");
            chunk.num_values = reader.read_zigzag64();
            break;
        case 14:
            reader.require_type(field, thrift_compact_i64, "ColumnMetaData.bloom_filter_offset");
            chunk.bloom_filter_offset = reader.read_zigzag64();
            if (chunk.bloom_filter_offset < 0) {
                reader.fail_malformed("bloom_filter_offset " + std::to_string(chunk.bloom_filter_offset) +
                                      " is negative");
            }
            break;
        case 15:
            reader.require_type(field, thrift_compact_i32, "ColumnMetaData.bloom_filter_length");
            chunk.bloom_filter_length = reader.read_zigzag(32);
            if (chunk.bloom_filter_length <= 0) {
                reader.fail_malformed("bloom_filter_length " + std::to_string(chunk.bloom_filter_length) +
                                      " is not positive");
            }
            break;
        default:
            reader.skip(field.type, 3, false);
            break;
        }
    }
    if (!has_type || !has_path) {
        reader.fail_malformed(std::string("ColumnMetaData lacks its required ") +
                              (has_type ? "path_in_schema (3)" : "type (1)"));
    }
}

/// Reads a ColumnChunk struct; a chunk without meta_data (an encrypted column) keeps an empty path and
/// no filter.
inline column_chunk parquet_read_column_chunk(thrift_compact_reader& reader) {
    column_chunk chunk;
    std::int32_t last_id = 0;
    thrift_field field;
    while (reader.read_field(last_id, field)) {
        if (field.id == 3) {
            reader.require_type(field, thrift_compact_struct, "ColumnChunk.meta_data");
            parquet_read_column_metadata(reader, chunk);
        } else {
            reader.skip(field.type, 2, false);
        }
    }
    return chunk;
}

/// Reads a RowGroup struct.
inline row_group parquet_read_row_group(thrift_compact_reader& reader) {
    row_group group;
    std::int32_t last_id = 0;
    thrift_field field;
    bool has_columns = false;
    while (reader.read_field(last_id, field)) {
        if (field.id == 1) {
            reader.require_type(field, thrift_compact_list, "RowGroup.columns");
            unsigned element_type = 0;
            const std::uint64_t count = reader.read_list_header(element_type);
            if (element_type != thrift_compact_struct) {
                reader.fail_malformed("RowGroup.columns is not a list of ColumnChunk structs");
            }
            group.columns.clear();
            for (std::uint64_t i = 0; i < count; ++i) {
                group.columns.push_back(parquet_read_column_chunk(reader));
            }
            has_columns = true;
        } else if (field.id == 3) {
            reader.require_type(field, thrift_compact_i64, "RowGroup.num_rows");
            group.num_rows = reader.read_zigzag64();
        } else {
            reader.skip(field.type, 2, false);
        }
    }
    if (!has_columns) {
        reader.fail_malformed("RowGroup lacks its required columns (1)");
    }
    return group;
}

/// The row groups of a FileMetaData struct of `size` bytes at `data`, and its num_rows.
inline std::pair<std::vector<row_group>, std::int64_t> parquet_read_file_metadata(const unsigned char* data,
                                                                                  std::size_t size) {
    thrift_compact_reader reader(data, size, parquet_file_where, "footer");
    std::vector<row_group> groups;
    std::int64_t num_rows = 0;
    bool has_row_groups = false;
    std::int32_t last_id = 0;
    thrift_field field;
    while (reader.read_field(last_id, field)) {
        if (field.id == 3) {
            reader.require_type(field, thrift_compact_i64, "FileMetaData.num_rows");
            num_rows = reader.read_zigzag64();
        } else if (field.id == 4) {
            reader.require_type(field, thrift_compact_list, "FileMetaData.row_groups");
            unsigned element_type = 0;
            const std::uint64_t count = reader.read_list_header(element_type);
            if (element_type != thrift_compact_struct) {
                reader.fail_malformed("FileMetaData.row_groups is not a list of RowGroup structs");
            }
            groups.clear();
            for (std::uint64_t i = 0; i < count; ++i) {
                groups.push_back(parquet_read_row_group(reader));
            }
            has_row_groups = true;
        } else {
            reader.skip(field.type, 1, false);
        }
    }
    if (!has_row_groups) {
        reader.fail_malformed("FileMetaData lacks its required row_groups (4)");
    }
    return {std::move(groups), num_rows};
}

/// Parquet's hash of `value` for a column of physical type `type`; no value if the type cannot hold it
/// (it is then absent from the column). Throws std::invalid_argument from `where` if a value of V can
/// never be in such a column (a string for an INT64 column, a number for a BYTE_ARRAY one, any value for
/// BOOLEAN and INT96 columns, whose filters this reader does not hash).
template <class V>
std::optional<std::uint64_t> parquet_column_hash(physical_type type, const V& value, const char* where) {
    using value_type = std::remove_cv_t<std::remove_reference_t<V>>;
    const auto mismatch = [&](const char* what) {
        throw_invalid_argument(where, "value",
                               std::string("is ") + what + ", which a " + to_string(type) +
                                   " column cannot hold");
    };
    if constexpr (std::is_convertible_v<const V&, std::string_view> && !std::is_arithmetic_v<value_type>) {
        if (type != physical_type::byte_array && type != physical_type::fixed_len_byte_array) {
            mismatch("a string");
        }
        return parquet::split_block_filter<std::string_view>::hash(std::string_view(value));
    } else if constexpr (std::is_integral_v<value_type> && !std::is_same_v<value_type, bool>) {
        if (type == physical_type::int32 || type == physical_type::int64) {
            const bool narrow = type == physical_type::int32;
            const std::int64_t lowest =
                narrow ? std::numeric_limits<std::int32_t>::min() : std::numeric_limits<std::int64_t>::min();
            const std::int64_t highest =
                narrow ? std::numeric_limits<std::int32_t>::max() : std::numeric_limits<std::int64_t>::max();
            if constexpr (std::is_signed_v<value_type>) {
                if (static_cast<std::int64_t>(value) < lowest || static_cast<std::int64_t>(value) > highest) {
                    return std::nullopt;
                }
            } else {
                if (static_cast<std::uint64_t>(value) > static_cast<std::uint64_t>(highest)) {
                    return std::nullopt;
                }
            }
            const auto exact = static_cast<std::int64_t>(value);
            return narrow ? parquet::split_block_filter<std::int32_t>::hash(static_cast<std::int32_t>(exact))
                          : parquet::split_block_filter<std::int64_t>::hash(exact);
        }
        if (type == physical_type::float32 || type == physical_type::float64) {
            return parquet_column_hash(type, static_cast<long double>(value), where);
        }
        mismatch("an integer");
    } else if constexpr (std::is_floating_point_v<value_type>) {
        if (type == physical_type::float32) {
            const auto narrowed = static_cast<float>(value);
            if (!std::isnan(value) && static_cast<value_type>(narrowed) != value) {
                return std::nullopt;
            }
            return parquet::split_block_filter<float>::hash(narrowed);
        }
        if (type == physical_type::float64) {
            const auto narrowed = static_cast<double>(value);
            if (!std::isnan(value) && static_cast<value_type>(narrowed) != value) {
                return std::nullopt;
            }
            return parquet::split_block_filter<double>::hash(narrowed);
        }
        if (type == physical_type::int32 || type == physical_type::int64) {
            // A whole number in range is the integer it equals; anything else is in no integer column.
            if (!(std::floor(value) == value) || !(std::fabs(value) < 9223372036854775808.0)) {
                return std::nullopt;
            }
            return parquet_column_hash(type, static_cast<std::int64_t>(value), where);
        }
        mismatch("a floating-point number");
    } else {
        static_assert(std::is_arithmetic_v<value_type> || std::is_convertible_v<const V&, std::string_view>,
                      "bloom::parquet: a value must be a string, an integer or a floating-point number");
        mismatch("a bool");
    }
    return std::nullopt; // not reached: mismatch throws
}

} // namespace detail

namespace parquet {

/// A Parquet file's footer, decoded: its row groups and column chunks, and the Bloom filters of the chunks
/// that have them, read on demand. Opened from a path (only the footer and the filters asked for are read)
/// or from the file's bytes.
class file {
  public:
    /// Reads the footer of the Parquet file at `path`. Throws bloom::format_error if it is not a Parquet
    /// file or its footer is malformed (encrypted footers, magic "PARE", are refused by name), and
    /// std::filesystem::filesystem_error if it cannot be read.
    [[nodiscard]] static file open(const std::filesystem::path& path) {
        file result;
        result.m_path = path;
        std::error_code error;
        const std::uintmax_t size = std::filesystem::file_size(path, error);
        if (error) {
            bloom::detail::throw_file_error("bloom::parquet::file::open", "cannot read", path, error.value());
        }
        result.m_size = static_cast<std::uint64_t>(size);
        result.read_footer();
        return result;
    }

    /// Decodes the footer of a Parquet file held in memory (copied). Throws bloom::format_error as open().
    [[nodiscard]] static file from_bytes(const std::byte* data, std::size_t size) {
        return from_bytes(std::vector<std::byte>(data, data + size));
    }

    /// The same, taking the bytes.
    [[nodiscard]] static file from_bytes(std::vector<std::byte> bytes) {
        file result;
        result.m_bytes = std::move(bytes);
        result.m_in_memory = true;
        result.m_size = result.m_bytes.size();
        result.read_footer();
        return result;
    }

    /// The row groups, in file order.
    [[nodiscard]] const std::vector<row_group>& row_groups() const noexcept { return m_row_groups; }
    /// Rows in the file, as FileMetaData states them.
    [[nodiscard]] std::int64_t num_rows() const noexcept { return m_num_rows; }
    /// Bytes in the file.
    [[nodiscard]] std::uint64_t size() const noexcept { return m_size; }
    /// The path open() read, or an empty path for from_bytes().
    [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }

    /// The index of column `path` (path_in_schema joined with '.') among a row group's column chunks, or
    /// no value if the file has no such column.
    [[nodiscard]] std::optional<std::size_t> column_index(std::string_view path) const {
        if (!m_row_groups.empty()) {
            const auto& columns = m_row_groups.front().columns;
            for (std::size_t i = 0; i < columns.size(); ++i) {
                if (columns[i].path == path) {
                    return i;
                }
            }
        }
        return std::nullopt;
    }

    /// The stored filter of one column chunk: its BloomFilterHeader and bitset, as split_block_filter::read
    /// takes them. Throws std::out_of_range for indexes past the file's, std::invalid_argument if the chunk
    /// has no filter, bloom::format_error if the filter's bytes lie outside the file or its header is
    /// malformed.
    [[nodiscard]] std::vector<std::byte> bloom_filter_bytes(std::size_t group, std::size_t column) const {
        const column_chunk& chunk = chunk_at(group, column, "bloom_filter_bytes");
        if (!chunk.has_bloom_filter()) {
            bloom::detail::throw_invalid_argument("bloom::parquet::file::bloom_filter_bytes", "column",
                                                  "'" + chunk.path + "' has no Bloom filter in row group " +
                                                      std::to_string(group));
        }
        const auto offset = static_cast<std::uint64_t>(chunk.bloom_filter_offset);
        if (offset >= m_size) {
            detail::parquet_file_error("the Bloom filter of column '" + chunk.path + "' in row group " +
                                       std::to_string(group) + " starts at " + std::to_string(offset) +
                                       ", past the file's end (" + std::to_string(m_size) + " bytes)");
        }
        const std::uint64_t available = m_size - offset;
        std::uint64_t length = 0;
        if (chunk.bloom_filter_length > 0) {
            length = static_cast<std::uint64_t>(chunk.bloom_filter_length);
        } else {
            // No length recorded: the header says how much follows it. Writers' headers take 15-20 bytes.
            const std::vector<std::byte> head = read_range(offset, available < 64 ? available : 64);
            length = split_block_filter<std::string>::stored_size(head.data(), head.size());
        }
        if (length > available) {
            detail::parquet_file_error("the Bloom filter of column '" + chunk.path + "' in row group " +
                                       std::to_string(group) + " (" + std::to_string(length) + " bytes at " +
                                       std::to_string(offset) + ") runs past the file's end (" +
                                       std::to_string(m_size) + " bytes)");
        }
        return read_range(offset, length);
    }

    /// The filter of one column chunk, for values of T (the column's physical type: std::int32_t for
    /// INT32, std::int64_t for INT64, float, double, std::string or std::string_view for the byte arrays).
    /// Throws as bloom_filter_bytes, and std::invalid_argument if T is not the column's type.
    template <class T>
    [[nodiscard]] split_block_filter<T> bloom_filter(std::size_t group, std::size_t column) const {
        const column_chunk& chunk = chunk_at(group, column, "bloom_filter");
        if (!holds<T>(chunk.type)) {
            bloom::detail::throw_invalid_argument("bloom::parquet::file::bloom_filter", "T",
                                                  "does not match column '" + chunk.path + "' of type " +
                                                      to_string(chunk.type));
        }
        const std::vector<std::byte> stored = bloom_filter_bytes(group, column);
        return split_block_filter<T>::read(stored.data(), stored.size());
    }

    /// For each row group in order: what column `column`'s filter says of `value` (absent, maybe, or
    /// no_filter), `value` hashed as the column's physical type requires. Reads one filter per row group.
    /// Throws std::invalid_argument if the file has no such column or `value` can never be in it, and
    /// bloom::format_error for a malformed filter.
    template <class V>
    [[nodiscard]] std::vector<probe_result> probe(std::string_view column, const V& value) const {
        constexpr const char* where = "bloom::parquet::file::probe";
        const std::optional<std::size_t> index = column_index(column);
        if (!index) {
            bloom::detail::throw_invalid_argument(
                where, "column", "'" + std::string(column) + "' is not a column of the file");
        }
        std::vector<probe_result> results;
        results.reserve(m_row_groups.size());
        for (std::size_t group = 0; group < m_row_groups.size(); ++group) {
            const column_chunk& chunk = chunk_at(group, *index, "probe");
            if (chunk.path != column) {
                detail::parquet_file_error("row group " + std::to_string(group) + " has column '" +
                                           chunk.path + "' where row group 0 has '" + std::string(column) +
                                           "'");
            }
            const std::optional<std::uint64_t> hashed = detail::parquet_column_hash(chunk.type, value, where);
            if (!chunk.has_bloom_filter()) {
                results.push_back(probe_result::no_filter);
                continue;
            }
            if (!hashed) {
                results.push_back(probe_result::absent);
                continue;
            }
            const std::vector<std::byte> stored = bloom_filter_bytes(group, *index);
            const auto filter = split_block_filter<std::string>::read(stored.data(), stored.size());
            results.push_back(filter.contains_hash(*hashed) ? probe_result::maybe : probe_result::absent);
        }
        return results;
    }

    /// probe() for a value given as text, read as the column's type reads a SQL literal: a decimal integer
    /// for INT32 and INT64 (one outside the type's range is absent), a decimal or hex number for FLOAT
    /// (parsed as float) and DOUBLE, the text's bytes for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY. What the
    /// command-line tool does with its arguments. Throws std::invalid_argument for text that is not such a
    /// value, and as probe().
    [[nodiscard]] std::vector<probe_result> probe_text(std::string_view column, std::string_view text) const {
        constexpr const char* where = "bloom::parquet::file::probe_text";
        const std::optional<std::size_t> index = column_index(column);
        if (!index) {
            return probe(column, text); // throws: no such column
        }
        const physical_type type = m_row_groups.front().columns[*index].type;
        const auto not_a = [&](const char* what) {
            return "'" + std::string(text) + "' is not " + what + " (column '" + std::string(column) +
                   "' is " + to_string(type) + ")";
        };
        switch (type) {
        case physical_type::byte_array:
        case physical_type::fixed_len_byte_array:
            return probe(column, text);
        case physical_type::int32:
        case physical_type::int64: {
            const char* first = text.data();
            const char* last = first + text.size();
            if (!text.empty() && text.front() == '+') {
                ++first;
            }
            if (first != last && *first == '-') {
                std::int64_t value = 0;
                const auto [end, error] = std::from_chars(first, last, value);
                if (end == last && error == std::errc()) {
                    return probe(column, value);
                }
                if (end == last && error == std::errc::result_out_of_range) {
                    return probe(column, std::numeric_limits<double>::infinity());
                }
            } else {
                std::uint64_t value = 0;
                const auto [end, error] = std::from_chars(first, last, value);
                if (end == last && error == std::errc() && first != last) {
                    return probe(column, value);
                }
                if (end == last && error == std::errc::result_out_of_range) {
                    return probe(column, std::numeric_limits<double>::infinity());
                }
            }
            bloom::detail::throw_invalid_argument(where, "text", not_a("an integer"));
        }
        case physical_type::float32:
        case physical_type::float64: {
            const std::string copy(text);
            char* end = nullptr;
            if (type == physical_type::float32) {
                const float value = std::strtof(copy.c_str(), &end);
                if (!copy.empty() && end == copy.c_str() + copy.size()) {
                    return probe(column, value);
                }
            } else {
                const double value = std::strtod(copy.c_str(), &end);
                if (!copy.empty() && end == copy.c_str() + copy.size()) {
                    return probe(column, value);
                }
            }
            bloom::detail::throw_invalid_argument(where, "text", not_a("a number"));
        }
        default:
            break;
        }
        bloom::detail::throw_invalid_argument(where, "column",
                                              "'" + std::string(column) + "' is " + to_string(type) +
                                                  ", a type this reader does not hash");
    }

  private:
    file() = default;

    template <class T>
    static bool holds(physical_type type) noexcept {
        if constexpr (std::is_same_v<T, std::int32_t>) {
            return type == physical_type::int32;
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
            return type == physical_type::int64;
        } else if constexpr (std::is_same_v<T, float>) {
            return type == physical_type::float32;
        } else if constexpr (std::is_same_v<T, double>) {
            return type == physical_type::float64;
        } else {
            return type == physical_type::byte_array || type == physical_type::fixed_len_byte_array;
        }
    }

    const column_chunk& chunk_at(std::size_t group, std::size_t column, const char* call) const {
        if (group >= m_row_groups.size() || column >= m_row_groups[group].columns.size()) {
            bloom::detail::raise_error(std::out_of_range(
                std::string("bloom::parquet::file::") + call + ": row group " + std::to_string(group) +
                ", column " + std::to_string(column) + " is not in the file (" +
                std::to_string(m_row_groups.size()) + " row groups of " +
                std::to_string(m_row_groups.empty() ? 0 : m_row_groups.front().columns.size()) +
                " columns)"));
        }
        return m_row_groups[group].columns[column];
    }

    /// `length` bytes at `offset`; the caller has checked that they lie within the file.
    std::vector<std::byte> read_range(std::uint64_t offset, std::uint64_t length) const {
        if (m_in_memory) {
            const auto first = m_bytes.begin() + static_cast<std::ptrdiff_t>(offset);
            return std::vector<std::byte>(first, first + static_cast<std::ptrdiff_t>(length));
        }
        std::vector<std::byte> out(static_cast<std::size_t>(length));
        std::ifstream in(m_path, std::ios::binary);
        if (!in) {
            bloom::detail::throw_file_error("bloom::parquet::file", "cannot open", m_path, errno);
        }
        in.seekg(static_cast<std::streamoff>(offset));
        in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(length));
        if (in.gcount() != static_cast<std::streamsize>(length)) {
            detail::parquet_file_error("the file ended while reading " + std::to_string(length) +
                                       " bytes at " + std::to_string(offset) +
                                       " (was it changed while open?)");
        }
        return out;
    }

    void read_footer() {
        // "PAR1" at both ends, the footer's length just before the trailing one.
        if (m_size < 12) {
            detail::parquet_file_error("not a Parquet file: " + std::to_string(m_size) +
                                       " bytes cannot hold the two magic numbers and a footer length");
        }
        const std::vector<std::byte> tail = read_range(m_size - 8, 8);
        const std::vector<std::byte> head = read_range(0, 4);
        const auto* tail_bytes = reinterpret_cast<const unsigned char*>(tail.data());
        const std::string_view magic(reinterpret_cast<const char*>(tail_bytes + 4), 4);
        if (magic == "PARE") {
            detail::parquet_file_error("the footer is encrypted (magic PARE): this reader handles plaintext "
                                       "footers only");
        }
        if (magic != "PAR1" || std::string_view(reinterpret_cast<const char*>(head.data()), 4) != "PAR1") {
            detail::parquet_file_error("not a Parquet file: it does not start and end with \"PAR1\"");
        }
        const std::uint64_t footer_length = bloom::detail::load_little_endian(tail_bytes, 4);
        if (footer_length == 0 || footer_length > m_size - 12) {
            detail::parquet_file_error("footer length " + std::to_string(footer_length) +
                                       " does not fit in the " + std::to_string(m_size) + "-byte file");
        }
        const std::vector<std::byte> footer = read_range(m_size - 8 - footer_length, footer_length);
        auto metadata = detail::parquet_read_file_metadata(
            reinterpret_cast<const unsigned char*>(footer.data()), footer.size());
        m_row_groups = std::move(metadata.first);
        m_num_rows = metadata.second;
    }

    std::filesystem::path m_path;
    std::vector<std::byte> m_bytes;
    bool m_in_memory = false;
    std::uint64_t m_size = 0;
    std::vector<row_group> m_row_groups;
    std::int64_t m_num_rows = 0;
};

/// For each row group of `parquet`, in order: false if column `column`'s filter says `value` is definitely
/// absent (skip the row group), true if it may be there or the chunk has no filter. Throws as file::probe.
template <class V>
[[nodiscard]] std::vector<bool> might_contain(const file& parquet, std::string_view column, const V& value) {
    const std::vector<probe_result> results = parquet.probe(column, value);
    std::vector<bool> answers(results.size());
    for (std::size_t i = 0; i < results.size(); ++i) {
        answers[i] = results[i] != probe_result::absent;
    }
    return answers;
}

} // namespace parquet
} // namespace bloom

#endif // BLOOM_PARQUET_FILE_HPP
