// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_IO_THRIFT_COMPACT_HPP
#define BLOOM_DETAIL_IO_THRIFT_COMPACT_HPP

// Reading Apache Thrift's compact protocol (Thrift's doc/specs/thrift-compact-protocol.md), the encoding of
// Parquet's BloomFilterHeader and file footer, from untrusted bytes: every read checks the remaining input
// and throws bloom::format_error instead of reading past it, a count is checked against the bytes left
// before any loop runs on it, and skipping nested values stops at Thrift's own depth limit.

#include "bloom/detail/errors.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace bloom::detail {

// Thrift's own default recursion limit for skipping nested values.
inline constexpr unsigned thrift_max_depth = 64;

// Type ids of the compact protocol, as they appear in field headers and collection headers.
inline constexpr unsigned thrift_compact_stop = 0;
inline constexpr unsigned thrift_compact_true = 1;
inline constexpr unsigned thrift_compact_false = 2;
inline constexpr unsigned thrift_compact_byte = 3;
inline constexpr unsigned thrift_compact_i16 = 4;
inline constexpr unsigned thrift_compact_i32 = 5;
inline constexpr unsigned thrift_compact_i64 = 6;
inline constexpr unsigned thrift_compact_double = 7;
inline constexpr unsigned thrift_compact_binary = 8;
inline constexpr unsigned thrift_compact_list = 9;
inline constexpr unsigned thrift_compact_set = 10;
inline constexpr unsigned thrift_compact_map = 11;
inline constexpr unsigned thrift_compact_struct = 12;
inline constexpr unsigned thrift_compact_uuid = 13;

/// One field header of a compact-protocol struct.
struct thrift_field {
    unsigned type = thrift_compact_stop;
    std::int32_t id = 0;
};

/// A bounds-checked reader of Thrift compact-protocol values. Every read checks the remaining input and
/// throws bloom::format_error instead of reading past it; skipping is depth-limited.
class thrift_compact_reader {
  public:
    /// Reads the `size` bytes at `data`. Errors come from `where` and call the input `subject` ("header",
    /// "footer"): "truncated footer", "malformed footer: ...". Both strings must outlive the reader.
    thrift_compact_reader(const unsigned char* data, std::size_t size, const char* where,
                          const char* subject) noexcept
        : m_data(data), m_size(size), m_where(where), m_subject(subject) {}

    [[nodiscard]] std::size_t position() const noexcept { return m_position; }
    [[nodiscard]] std::size_t remaining() const noexcept { return m_size - m_position; }

    std::uint8_t read_byte() {
        if (m_position == m_size) {
            fail("truncated " + std::string(m_subject));
        }
        return m_data[m_position++];
    }

    void skip_bytes(std::uint64_t count) {
        if (count > remaining()) {
            fail("truncated " + std::string(m_subject));
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
                    fail(malformed() + "varint longer than 10 bytes");
                }
                if (byte > 1) {
                    fail(malformed() + "varint overflows 64 bits");
                }
            }
            value |= static_cast<std::uint64_t>(byte & 0x7fU) << (7 * i);
            if ((byte & 0x80U) == 0) {
                return value;
            }
        }
        fail(malformed() + "varint longer than 10 bytes"); // not reached
    }

    /// A zigzag varint that must fit in `bits` bits (16 or 32), sign-extended.
    std::int32_t read_zigzag(unsigned bits) {
        const std::uint64_t raw = read_varint();
        if (raw >> bits != 0) {
            fail(malformed() + "i" + std::to_string(bits) + " varint " + std::to_string(raw) +
                 " is out of range");
        }
        const auto magnitude = static_cast<std::int64_t>(raw >> 1);
        return static_cast<std::int32_t>((raw & 1U) != 0 ? -magnitude - 1 : magnitude);
    }

    /// A zigzag varint of 64 bits (an i64 field).
    std::int64_t read_zigzag64() {
        const std::uint64_t raw = read_varint();
        return static_cast<std::int64_t>(raw >> 1) ^ -static_cast<std::int64_t>(raw & 1U);
    }

    /// A binary or string value: a varint length, then that many bytes (at most what is left).
    std::string read_binary() {
        const std::uint64_t length = read_varint();
        if (length > remaining()) {
            fail("truncated " + std::string(m_subject));
        }
        std::string value(reinterpret_cast<const char*>(m_data + m_position),
                          static_cast<std::size_t>(length));
        m_position += static_cast<std::size_t>(length);
        return value;
    }

    /// A list or set header: returns the element count and sets `element_type`. The count is at most the
    /// bytes left (every element takes one at least), so a loop over it is bounded by the input.
    std::uint64_t read_list_header(unsigned& element_type) {
        const std::uint8_t header = read_byte();
        element_type = header & 0x0fU;
        std::uint64_t count = header >> 4;
        if (count == 15) {
            count = read_varint();
        }
        check_element_type(element_type);
        if (count > remaining()) {
            fail("truncated " + std::string(m_subject));
        }
        return count;
    }

    /// Fails unless a field (`name`, for the message) has compact type `type`.
    void require_type(const thrift_field& field, unsigned type, const char* name) const {
        if (field.type != type) {
            fail(malformed() + name + " (field " + std::to_string(field.id) + ") has compact type " +
                 std::to_string(field.type) + ", not " + std::to_string(type));
        }
    }

    /// Fails with "malformed <subject>: `message`".
    [[noreturn]] void fail_malformed(const std::string& message) const { fail(malformed() + message); }

    /// Reads a field header into `field`; false at the struct's stop byte. `last_id` is the previous
    /// field's id (0 at the start of a struct): short-form headers carry the difference to it.
    bool read_field(std::int32_t& last_id, thrift_field& field) {
        const std::uint8_t byte = read_byte();
        field.type = byte & 0x0fU;
        if (field.type == thrift_compact_stop) {
            return false;
        }
        if (field.type > thrift_compact_uuid) {
            fail(malformed() + "unknown compact type " + std::to_string(field.type));
        }
        const unsigned delta = byte >> 4;
        // Short form: the id is the previous one plus delta (1..15); long form: a zigzag i16 follows.
        field.id = delta != 0 ? last_id + static_cast<std::int32_t>(delta) : read_zigzag(16);
        if (field.id > std::numeric_limits<std::int16_t>::max()) {
            fail(malformed() + "field id " + std::to_string(field.id) + " is out of range");
        }
        last_id = field.id;
        return true;
    }

    /// Skips one value of compact type `type`. `in_collection`: a bool there is one byte, not part of the
    /// field header. `depth`: the nesting of the value, at most thrift_max_depth.
    void skip(unsigned type, unsigned depth, bool in_collection) {
        switch (type) {
        case thrift_compact_true:
        case thrift_compact_false:
            if (in_collection) {
                skip_bytes(1);
            }
            return;
        case thrift_compact_byte:
            skip_bytes(1);
            return;
        case thrift_compact_i16:
        case thrift_compact_i32:
        case thrift_compact_i64:
            static_cast<void>(read_varint());
            return;
        case thrift_compact_double:
            skip_bytes(8);
            return;
        case thrift_compact_binary:
            skip_bytes(read_varint());
            return;
        case thrift_compact_uuid:
            skip_bytes(16);
            return;
        case thrift_compact_list:
        case thrift_compact_set:
            skip_list(depth);
            return;
        case thrift_compact_map:
            skip_map(depth);
            return;
        case thrift_compact_struct:
            skip_struct(depth);
            return;
        default:
            fail(malformed() + "unknown compact type " + std::to_string(type));
        }
    }

    /// Fails if `depth` nested values exceed Thrift's limit.
    void check_depth(unsigned depth) const {
        if (depth > thrift_max_depth) {
            fail(malformed() + "values nest deeper than " + std::to_string(thrift_max_depth) + " levels");
        }
    }

    /// Skips the fields of a struct up to and including its stop byte.
    void skip_struct(unsigned depth) {
        check_depth(depth);
        std::int32_t last_id = 0;
        thrift_field field;
        while (read_field(last_id, field)) {
            skip(field.type, depth + 1, false);
        }
    }

  private:
    [[noreturn]] void fail(const std::string& message) const { throw_format_error(m_where, message); }
    [[nodiscard]] std::string malformed() const { return "malformed " + std::string(m_subject) + ": "; }

    void check_element_type(unsigned type) const {
        if (type == thrift_compact_stop || type > thrift_compact_uuid) {
            fail(malformed() + "unknown compact element type " + std::to_string(type));
        }
    }

    void skip_list(unsigned depth) {
        check_depth(depth);
        unsigned element_type = 0;
        const std::uint64_t count = read_list_header(element_type);
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
            fail("truncated " + std::string(m_subject));
        }
        for (std::uint64_t i = 0; i < count; ++i) {
            skip(key_type, depth + 1, true);
            skip(value_type, depth + 1, true);
        }
    }

    const unsigned char* m_data;
    std::size_t m_size;
    std::size_t m_position = 0;
    const char* m_where;
    const char* m_subject;
};

/// Appends `value` as an unsigned LEB128 varint, the compact protocol's integer encoding.
inline void thrift_write_varint(std::vector<std::byte>& out, std::uint64_t value) {
    while (value >= 0x80) {
        out.push_back(static_cast<std::byte>((value & 0x7fU) | 0x80U));
        value >>= 7;
    }
    out.push_back(static_cast<std::byte>(value));
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_IO_THRIFT_COMPACT_HPP
