// SPDX-License-Identifier: MIT
#ifndef BLOOM_FILTER_VIEW_HPP
#define BLOOM_FILTER_VIEW_HPP

// bloom::bloom_filter_view and bloom::blocked_bloom_filter_view — read-only filters that answer contains()
// straight from a saved record (docs/FORMAT.md) in memory someone else owns: a buffer, or a file mapped
// with bloom::mapped_file. Nothing is copied: opening a view checks the header, the sizes and (unless
// asked not to) the checksum, then every lookup reads the record's words in place.
//
//     bloom::save_file(filter, "users.bloom");                       // once, anywhere
//
//     bloom::mapped_file file("users.bloom");                        // in every process that reads it
//     bloom::bloom_filter_view<std::string> users(file.data(), file.size());
//     if (!users.contains("alice")) { /* definitely not a user */ }
//
// A view answers exactly as the filter it was saved from. It works on any host byte order and any
// alignment (words are read as little-endian bytes). The memory must outlive the view and not change while
// it is in use. Opening checks the checksum by reading the whole record once; bloom::checksum::skip opens
// in O(1) for callers who trust the bytes (the header is still checked, and lookups never read outside
// the record whatever its words hold).
//
// Over a bloom::mapped_file, "not change" is a promise about other processes too: a file replaced by a
// rename (bloom::save_file, bloom::update_file, the bloom tool) leaves the view answering from the old
// file; a file truncated in place makes the view's next lookup past the new end raise SIGBUS, and one
// rewritten in place changes its answers unchecked (see <bloom/mapped_file.hpp>).

#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/blocked_layout.hpp"
#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/classic_layout.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/io/file_format.hpp"
#include "bloom/format_error.hpp"
#include "bloom/fuse_filter.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#if __cplusplus >= 202002L && __has_include(<span>)
#    include <span>
#endif

namespace bloom {

/// Whether opening a view verifies the record's checksum (reads every byte once) or skips it.
enum class checksum { verify, skip };

/// A read-only filter of `Layout` over a saved record in borrowed memory: the same answers as the saved
/// basic_bloom_filter<T, Layout, Hasher>, without loading it, by the layout's own kernels over the record's
/// little-endian words. Use it through bloom_filter_view and blocked_bloom_filter_view.
template <class T, class Layout, class Hasher = hash<T>>
class basic_bloom_filter_view {
  public:
    /// The type of the items.
    using value_type = T;
    /// The hasher type.
    using hasher = Hasher;
    /// The type of counts.
    using size_type = std::uint64_t;

    /// An empty view, of no record: contains() answers false and every count and rate is 0. Assign a view
    /// of a record to use it.
    basic_bloom_filter_view() = default;

    /// A view of the record in the `size` bytes at `data`, which must hold exactly one saved filter of this
    /// layout and Hasher. Throws bloom::format_error if they do not (wrong kind or hasher, bad sizes or
    /// shape, checksum mismatch when `check` is checksum::verify). O(size) with the checksum, O(1) without.
    basic_bloom_filter_view(const std::byte* data, std::size_t size, checksum check = checksum::verify,
                            const Hasher& hash_function = Hasher())
        : m_hasher(hash_function) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(data);
        m_header = detail::parse_single_record(bytes, size, Layout::view_name);
        std::uint64_t storage_bits = 0;
        detail::check_bit_array_header(m_header, static_cast<detail::record_kind>(Layout::format_kind),
                                       detail::hasher_format_id<Hasher>(), 0, Layout::view_name,
                                       storage_bits);
        detail::invalid_argument_as_format_error(Layout::view_name, "the saved shape is invalid: ", [&] {
            return Layout::checked(geometry(), Layout::view_name);
        });
        if (check == checksum::verify) {
            detail::check_record_checksum(bytes, m_header, Layout::view_name);
        }
        m_payload = bytes + detail::record_header_bytes;
        detail::check_padding_bits(words()[word_count() - 1], storage_bits, Layout::view_name);
    }

#if defined(__cpp_lib_span)
    /// A view of the record `bytes` holds; see the pointer-and-size constructor.
    explicit basic_bloom_filter_view(std::span<const std::byte> bytes, checksum check = checksum::verify,
                                     const Hasher& hash_function = Hasher())
        : basic_bloom_filter_view(bytes.data(), bytes.size(), check, hash_function) {}
#endif

    /// False: `value` is definitely absent. True: probably present. Reads the record in place (blocked:
    /// one 64-byte block, copied into an aligned one for the SIMD kernel).
    template <class K>
    [[nodiscard]] bool contains(const K& value) const {
        static_assert(detail::can_hash_v<Hasher, K>, "bloom: the view's Hasher cannot hash this key type; "
                                                     "specialise bloom::hash<T> or pass a Hasher");
        if (m_payload == nullptr) {
            return false;
        }
        return Layout::contains(words(), geometry(), detail::seeded_hash(m_hasher, value, m_header.seed));
    }

    /// Writes contains(value) for every value of [first, last) to `out`; returns the iterator past the last.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        for (; first != last; ++first, ++out) {
            *out = contains(*first);
        }
        return out;
    }

    /// m, the number of bits.
    [[nodiscard]] std::uint64_t bit_count() const noexcept { return m_header.bit_count; }
    /// k, the number of bits each item sets.
    [[nodiscard]] unsigned hash_count() const noexcept { return static_cast<unsigned>(m_header.hash_count); }
    /// The saved filter's probe scheme (blocked: the pattern that places an item's bits in its block).
    [[nodiscard]] probe_scheme probes() const noexcept { return static_cast<probe_scheme>(m_header.probes); }
    /// The shape: bit_count(), hash_count(), probes().
    [[nodiscard]] filter_geometry geometry() const noexcept { return {bit_count(), hash_count(), probes()}; }
    /// The seed the filter hashes with.
    [[nodiscard]] std::uint64_t seed() const noexcept { return m_header.seed; }
    /// The number of items the filter was sized for.
    [[nodiscard]] std::uint64_t expected_items() const noexcept { return m_header.expected_items; }
    /// The rate the filter was sized for.
    [[nodiscard]] double target_false_positive_rate() const noexcept {
        return m_header.target_false_positive_rate;
    }
    /// The saved filter's item_count(): items inserted that were new (after a union, the estimate).
    [[nodiscard]] std::uint64_t item_count() const noexcept { return m_header.item_count; }
    /// Bytes of the bit array (the record's payload).
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return static_cast<std::size_t>(m_header.payload_bytes);
    }
    /// Fraction of bits set, in [0, 1]. Reads every word: O(m / 64).
    [[nodiscard]] double fill_ratio() const noexcept {
        return m_payload == nullptr ? 0.0
                                    : static_cast<double>(set_bit_count()) / static_cast<double>(bit_count());
    }
    /// Distinct items estimated from the bits, as the saved filter's estimated_item_count(). O(m / 64).
    [[nodiscard]] double estimated_item_count() const noexcept {
        return m_payload == nullptr ? 0.0
                                    : detail::items_from_fill(set_bit_count(), bit_count(), hash_count());
    }
    /// estimated_item_count() / expected_items(): 1.0 at capacity. O(m / 64).
    [[nodiscard]] double load_factor() const noexcept {
        return m_header.expected_items == 0
                   ? 0.0
                   : estimated_item_count() / static_cast<double>(m_header.expected_items);
    }
    /// The probability that a random non-member is reported present, from the bits, as the saved filter
    /// reports it (classic: fill_ratio()^k; blocked: the mean of its blocks' rates). O(m / 64).
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        return m_payload == nullptr ? 0.0 : Layout::rate(words(), word_count(), geometry());
    }
    /// A copy of the hasher.
    [[nodiscard]] hasher hash_function() const { return m_hasher; }

  private:
    [[nodiscard]] detail::little_endian_words words() const noexcept {
        return detail::little_endian_words{m_payload};
    }
    [[nodiscard]] std::uint64_t set_bit_count() const noexcept {
        return detail::count_set_bits(words(), word_count());
    }
    [[nodiscard]] std::size_t word_count() const noexcept { return memory_bytes() / 8; }

    detail::record_header m_header{};
    const unsigned char* m_payload = nullptr;
    Hasher m_hasher{};
};

/// A read-only classic filter over a saved record in borrowed memory: the same answers as the saved
/// bloom_filter<T, Hasher>, without loading it.
template <class T, class Hasher = hash<T>>
using bloom_filter_view = basic_bloom_filter_view<T, detail::classic_layout, Hasher>;

/// A read-only blocked filter over a saved record in borrowed memory: the same answers as the saved
/// blocked_bloom_filter<T, Hasher>, without loading it.
template <class T, class Hasher = hash<T>>
using blocked_bloom_filter_view = basic_bloom_filter_view<T, detail::blocked_layout, Hasher>;

/// A read-only binary fuse filter over a saved record (kind 5) in borrowed memory: the same answers as the
/// saved fuse_filter<T, Fingerprint, Hasher>, reading its fingerprints in place (little-endian, any
/// alignment), as a client that maps a shipped filter file does.
template <class T, class Fingerprint = std::uint8_t, class Hasher = hash<T>>
class fuse_filter_view {
    static constexpr const char* view_name = "bloom::fuse_filter_view";

  public:
    /// The type of the items.
    using value_type = T;
    /// The hasher type.
    using hasher = Hasher;

    /// An empty view: contains() answers false.
    fuse_filter_view() = default;

    /// A view of the fuse record in the `size` bytes at `data` (exactly one record of this fingerprint width
    /// and Hasher). Throws bloom::format_error otherwise. O(size) with the checksum, O(1) without.
    fuse_filter_view(const std::byte* data, std::size_t size, checksum check = checksum::verify,
                     const Hasher& hash_function = Hasher())
        : m_hasher(hash_function) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(data);
        m_header = detail::parse_single_record(bytes, size, view_name);
        m_segment_length =
            detail::check_fuse_header(m_header, sizeof(Fingerprint), detail::hasher_format_id<Hasher>(),
                                      bytes + detail::record_header_bytes, view_name);
        if (check == checksum::verify) {
            detail::check_record_checksum(bytes, m_header, view_name);
        }
        m_payload = bytes + detail::record_header_bytes;
    }

    /// False: `value` is definitely not a key. True: it is one, or a false positive. O(1).
    [[nodiscard]] bool contains(const T& value) const noexcept {
        if (m_payload == nullptr || m_header.bit_count == 0) {
            return false;
        }
        const unsigned char* payload = m_payload;
        return detail::fuse_contains<Fingerprint>(
            [payload](std::uint64_t slot) {
                return static_cast<Fingerprint>(
                    detail::load_little_endian(payload + sizeof(Fingerprint) * slot, sizeof(Fingerprint)));
            },
            m_segment_length, m_header.bit_count - 2 * m_segment_length,
            detail::fuse_key_hash(m_hasher, value, m_header.seed));
    }

    /// Writes contains(value) for every value of [first, last) to `out`; returns the iterator past the last.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        for (; first != last; ++first, ++out) {
            *out = contains(*first);
        }
        return out;
    }

    /// Distinct keys of the saved filter.
    [[nodiscard]] std::uint64_t item_count() const noexcept { return m_header.item_count; }
    /// The seed the keys were hashed with.
    [[nodiscard]] std::uint64_t seed() const noexcept { return m_header.seed; }
    /// Slots, and bytes of fingerprints (the record's payload).
    [[nodiscard]] std::uint64_t slot_count() const noexcept { return m_header.bit_count; }
    /// Bytes of the payload.
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return static_cast<std::size_t>(m_header.payload_bytes);
    }
    /// 2^-bits of Fingerprint.
    [[nodiscard]] static constexpr double false_positive_rate() noexcept {
        return fuse_filter<T, Fingerprint, Hasher>::false_positive_rate();
    }

  private:
    detail::record_header m_header{};
    const unsigned char* m_payload = nullptr;
    std::uint64_t m_segment_length = 4;
    Hasher m_hasher{};
};

} // namespace bloom

#endif // BLOOM_FILTER_VIEW_HPP
