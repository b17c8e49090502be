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
#include "bloom/detail/bit_words.hpp"
#include "bloom/detail/block_kernels.hpp"
#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/file_format.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/format_error.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#if __cplusplus >= 202002L && __has_include(<span>)
#    include <span>
#endif

namespace bloom {

/// Whether opening a view verifies the record's checksum (reads every byte once) or skips it.
enum class checksum { verify, skip };

namespace detail {

/// What both views share: the checked header, the payload's address, the hasher, and bulk lookups
/// through the view's own contains (View is the derived view).
template <class View, class Hasher>
class filter_view_base {
  public:
    using hasher = Hasher;

    /// Writes contains(value) for every value of [first, last) to `out`; returns the iterator past the last.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        for (; first != last; ++first, ++out) {
            *out = static_cast<const View&>(*this).contains(*first);
        }
        return out;
    }

    /// m, the number of bits.
    [[nodiscard]] std::uint64_t bit_count() const noexcept { return m_header.bit_count; }
    /// k, the number of bits each item sets.
    [[nodiscard]] unsigned hash_count() const noexcept { return m_header.hash_count; }
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
        return static_cast<double>(set_bit_count()) / static_cast<double>(m_header.bit_count);
    }
    /// Distinct items estimated from the bits, as the saved filter's estimated_item_count(). O(m / 64).
    [[nodiscard]] double estimated_item_count() const noexcept {
        return items_from_fill(set_bit_count(), m_header.bit_count, m_header.hash_count);
    }
    /// estimated_item_count() / expected_items(): 1.0 at capacity. O(m / 64).
    [[nodiscard]] double load_factor() const noexcept {
        return m_header.expected_items == 0
                   ? 0.0
                   : estimated_item_count() / static_cast<double>(m_header.expected_items);
    }
    /// A copy of the hasher.
    [[nodiscard]] hasher hash_function() const { return m_hasher; }

  protected:
    filter_view_base(const std::byte* data, std::size_t size, checksum check, const Hasher& hash_function,
                     record_kind kind, const char* where)
        : m_hasher(hash_function) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(data);
        m_header = parse_single_record(bytes, size, where);
        std::uint64_t storage_bits = 0;
        check_bit_array_header(m_header, kind, hasher_format_id<Hasher>(), 0, where, storage_bits);
        if (check == checksum::verify) {
            check_record_checksum(bytes, m_header, where);
        }
        m_payload = bytes + record_header_bytes;
        check_padding_bits(words()[word_count() - 1], storage_bits, where);
    }

    template <class K>
    [[nodiscard]] std::uint64_t hash_of(const K& value) const {
        static_assert(can_hash_v<Hasher, K>, "bloom: the view's Hasher cannot hash this key type; specialise "
                                             "bloom::hash<T> or pass a Hasher");
        return seeded_hash(m_hasher, value, m_header.seed);
    }

    [[nodiscard]] little_endian_words words() const noexcept { return little_endian_words{m_payload}; }
    [[nodiscard]] std::uint64_t set_bit_count() const noexcept {
        return count_set_bits(words(), word_count());
    }
    [[nodiscard]] std::size_t word_count() const noexcept { return memory_bytes() / 8; }

    record_header m_header;
    const unsigned char* m_payload = nullptr;
    Hasher m_hasher;
};

} // namespace detail

/// A read-only classic filter over a saved record in borrowed memory: the same answers as the saved
/// bloom_filter<T, Hasher>, without loading it.
template <class T, class Hasher = hash<T>>
class bloom_filter_view : public detail::filter_view_base<bloom_filter_view<T, Hasher>, Hasher> {
    using base = detail::filter_view_base<bloom_filter_view<T, Hasher>, Hasher>;

  public:
    using base::contains;
    /// The type of the items.
    using value_type = T;

    /// A view of the record in the `size` bytes at `data`, which must hold exactly one saved
    /// bloom_filter<T, Hasher>. Throws bloom::format_error if they do not (wrong kind or hasher, bad sizes,
    /// checksum mismatch when `check` is checksum::verify). O(size) with the checksum, O(1) without.
    bloom_filter_view(const std::byte* data, std::size_t size, checksum check = checksum::verify,
                      const Hasher& hash_function = Hasher())
        : base(data, size, check, hash_function, detail::record_kind::classic, "bloom::bloom_filter_view") {}

#if defined(__cpp_lib_span)
    /// A view of the record `bytes` holds; see the pointer-and-size constructor.
    explicit bloom_filter_view(std::span<const std::byte> bytes, checksum check = checksum::verify,
                               const Hasher& hash_function = Hasher())
        : bloom_filter_view(bytes.data(), bytes.size(), check, hash_function) {}
#endif

    /// False: `value` is definitely absent. True: probably present. O(k), reading the record in place.
    template <class K>
    [[nodiscard]] bool contains(const K& value) const {
        return detail::classic_contains(this->words(), this->m_header.bit_count, this->m_header.hash_count,
                                        probes(), this->hash_of(value));
    }

    /// The saved filter's probe scheme.
    [[nodiscard]] probe_scheme probes() const noexcept {
        return static_cast<probe_scheme>(this->m_header.probes);
    }

    /// The probability that a random non-member is reported present, from the bits: fill_ratio()^k, as
    /// the saved filter reports it. O(m / 64).
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        return detail::rate_from_fill(this->set_bit_count(), this->m_header.bit_count,
                                      this->m_header.hash_count);
    }
};

/// A read-only blocked filter over a saved record in borrowed memory: the same answers as the saved
/// blocked_bloom_filter<T, Hasher>, without loading it.
template <class T, class Hasher = hash<T>>
class blocked_bloom_filter_view
    : public detail::filter_view_base<blocked_bloom_filter_view<T, Hasher>, Hasher> {
    using base = detail::filter_view_base<blocked_bloom_filter_view<T, Hasher>, Hasher>;

  public:
    using base::contains;
    /// The type of the items.
    using value_type = T;

    /// A view of the record in the `size` bytes at `data`, which must hold exactly one saved
    /// blocked_bloom_filter<T, Hasher>. Throws bloom::format_error if they do not. O(size) with the
    /// checksum, O(1) without.
    blocked_bloom_filter_view(const std::byte* data, std::size_t size, checksum check = checksum::verify,
                              const Hasher& hash_function = Hasher())
        : base(data, size, check, hash_function, detail::record_kind::blocked,
               "bloom::blocked_bloom_filter_view") {
        const bool one_bit_per_word = probes() == probe_scheme::one_bit_per_word;
        if (this->m_header.bit_count % detail::block_bits != 0 ||
            (one_bit_per_word ? this->m_header.hash_count != detail::block_word_count
                              : this->m_header.hash_count == 0 ||
                                    this->m_header.hash_count > detail::max_block_hash_count)) {
            detail::throw_format_error(
                "bloom::blocked_bloom_filter_view",
                std::string("a blocked filter has whole 512-bit blocks and hash_count ") +
                    (one_bit_per_word ? "8 (one bit per word)" : "1 to 16 (bits anywhere)") +
                    ", this one has " + std::to_string(this->m_header.bit_count) + " bits and hash_count " +
                    std::to_string(this->m_header.hash_count));
        }
    }

#if defined(__cpp_lib_span)
    /// A view of the record `bytes` holds; see the pointer-and-size constructor.
    explicit blocked_bloom_filter_view(std::span<const std::byte> bytes, checksum check = checksum::verify,
                                       const Hasher& hash_function = Hasher())
        : blocked_bloom_filter_view(bytes.data(), bytes.size(), check, hash_function) {}
#endif

    /// False: `value` is definitely absent. True: probably present. Reads one 64-byte block in place.
    template <class K>
    [[nodiscard]] bool contains(const K& value) const {
        const std::uint64_t hash = this->hash_of(value);
        const std::uint64_t first_word =
            detail::block_offset(hash, this->m_header.bit_count / detail::block_bits);
        // The record's words may sit at any address and in either byte order: copy the block into an aligned
        // host-order one (two vector loads on x86), then run the filter's own kernel on it.
        alignas(64) std::uint64_t block[detail::block_word_count];
        const detail::little_endian_words words = this->words();
        for (unsigned i = 0; i < detail::block_word_count; ++i) {
            block[i] = words[static_cast<std::size_t>(first_word) + i];
        }
        return detail::item_in_block(block, hash, probes(), this->m_header.hash_count);
    }

    /// The pattern that places an item's bits in its block (see bloom::probe_scheme).
    [[nodiscard]] probe_scheme probes() const noexcept {
        return static_cast<probe_scheme>(this->m_header.probes);
    }

    /// The probability that a random non-member is reported present, from the bits, as the saved filter
    /// reports it (see blocked_bloom_filter::current_false_positive_rate). O(m / 64).
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        if (probes() == probe_scheme::bits_anywhere) {
            return detail::block_fill_rate_from_bits<detail::block_word_count>(
                this->words(), this->m_header.bit_count / detail::block_bits, this->m_header.hash_count);
        }
        return detail::block_rate_from_bits<64, detail::block_word_count>(
            this->words(), this->m_header.bit_count / detail::block_bits);
    }
};

} // namespace bloom

#endif // BLOOM_FILTER_VIEW_HPP
