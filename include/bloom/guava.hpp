// SPDX-License-Identifier: MIT
#ifndef BLOOM_GUAVA_HPP
#define BLOOM_GUAVA_HPP

// bloom::guava::bloom_filter<T> — Guava's com.google.common.hash.BloomFilter, bit for bit, and its
// serialized form (BloomFilter.writeTo / readFrom), so filters pass between JVM services and C++.
//
// Guava sizes a filter with optimalNumOfBits and optimalNumOfHashFunctions, hashes an item with
// MurmurHash3_x64_128 (seed 0) over the bytes its Funnel writes, and derives the k probes with the strategy
// MURMUR128_MITZ_64 (or, in filters from before Guava 15, MURMUR128_MITZ_32). T picks the funnel:
//   std::int64_t    Funnels.longFunnel()                  8 bytes, little-endian
//   std::int32_t    Funnels.integerFunnel()               4 bytes, little-endian
//   std::string     Funnels.stringFunnel(UTF_8)           the string's bytes, taken to be UTF-8
//   std::u16string  Funnels.unencodedCharsFunnel()        each UTF-16 code unit, 2 bytes little-endian
// (Java's String.getBytes(UTF_8) turns an unpaired surrogate into '?': hash such a string as Java does by
// giving its UTF-8 with that replacement.)
//
//     #include <bloom/guava.hpp>
//
//     bloom::guava::bloom_filter<std::string> names(100'000, 0.01); // BloomFilter.create(funnel, 100000,
//     0.01) names.put("alice"); std::ofstream out("names.bf", std::ios::binary); names.write_to(out); //
//     Java: BloomFilter.readFrom(in, funnel) std::ifstream in("names.bf", std::ios::binary); auto loaded =
//     bloom::guava::bloom_filter<std::string>::read_from(in); bool maybe = loaded.might_contain("alice"); //
//     true, as Guava's mightContain says
//
// The serialized form (big-endian, Java's DataOutputStream): the strategy's ordinal (1 byte), k (1 byte,
// unsigned), the word count (int32), then each 64-bit word. It records neither the funnel nor the expected
// insertions: the reader must know T, as Guava's readFrom must be given the funnel.

#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/byte_order.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/guava_layout.hpp"
#include "bloom/detail/io/file_format.hpp"
#include "bloom/detail/murmur3.hpp"
#include "bloom/format_error.hpp"
#include "bloom/sizing.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ios>
#include <istream>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace bloom {
namespace detail {

template <class T>
inline constexpr bool guava_funnel_type_v =
    std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::string> ||
    std::is_same_v<T, std::u16string>;

/// "GUAV": the high half of the hasher ids of Guava's funnels in the portable format (docs/FORMAT.md).
inline constexpr std::uint64_t guava_hasher_tag = 0x47554156;
/// A Guava filter's record stores probe scheme 2 + its strategy's ordinal.
inline constexpr unsigned guava_probe_scheme_base = 2;

/// The hasher id of T's funnel: GUAV then 1 long, 2 int, 3 UTF-8 string, 4 unencoded chars.
template <class T>
[[nodiscard]] constexpr std::uint64_t guava_funnel_id() noexcept {
    const std::uint64_t funnel = std::is_same_v<T, std::int64_t>   ? 1
                                 : std::is_same_v<T, std::int32_t> ? 2
                                 : std::is_same_v<T, std::string>  ? 3
                                                                   : 4;
    return guava_hasher_tag << 32 | funnel;
}

/// Java's (long) cast of a double: toward zero, NaN to 0, saturating at the long range.
[[nodiscard]] inline std::int64_t java_double_to_long(double value) noexcept {
    if (std::isnan(value)) {
        return 0;
    }
    if (value >= 9223372036854775807.0) {
        return std::numeric_limits<std::int64_t>::max();
    }
    if (value <= -9223372036854775808.0) {
        return std::numeric_limits<std::int64_t>::min();
    }
    return static_cast<std::int64_t>(value);
}

} // namespace detail

namespace guava {

/// Guava's BloomFilterStrategies; the value is the ordinal writeTo stores.
using strategy = detail::guava_strategy;

/// The filter of Guava's BloomFilter<T> for T = std::int64_t, std::int32_t, std::string (UTF-8) or
/// std::u16string, with Guava's sizing, hashing, probes and serialized form: a filter built with the same
/// expected insertions, rate and puts holds the same bits as Guava's, and either reads the other's writeTo.
template <class T>
class bloom_filter {
    static_assert(
        detail::guava_funnel_type_v<T>,
        "bloom::guava::bloom_filter<T>: T must be std::int64_t (Funnels.longFunnel), std::int32_t "
        "(integerFunnel), std::string (stringFunnel(UTF_8)) or std::u16string (unencodedCharsFunnel)");

    using layout = detail::guava_layout;

  public:
    /// The type of the items.
    using value_type = T;
    /// Guava's default false-positive probability, BloomFilter.create(funnel, expectedInsertions).
    static constexpr double default_fpp = 0.03;
    /// The most probes Guava allows (k is stored in one unsigned byte).
    static constexpr unsigned max_hash_count = 255;
    /// The hasher id this filter's records carry in the portable format: Guava's funnel for T
    /// (docs/FORMAT.md).
    static constexpr std::uint64_t format_id = detail::guava_funnel_id<T>();
    /// The most 64-bit words Guava's bit array holds (a Java int counts them).
    static constexpr std::uint64_t max_word_count = 0x7fffffff;

    /// An empty filter without bits: might_contain answers false, put throws std::logic_error. Assign or read
    /// a filter to use it; a moved-from filter is left so.
    bloom_filter() = default;

    /// BloomFilter.create(funnel, expected_insertions, fpp): optimal_num_of_bits bits rounded up to whole
    /// 64-bit words, optimal_num_of_hash_functions probes, strategy MURMUR128_MITZ_64 (or `strategy`, to
    /// write a filter in the legacy MITZ_32 form). 0 expected insertions count as 1, as in Guava. Throws
    /// std::invalid_argument where Guava throws IllegalArgumentException: fpp outside (0, 1), expected
    /// insertions beyond 2^63 - 1, a size of 0 bits or of more than 2^31 - 1 words, or more than 255 probes.
    explicit bloom_filter(std::uint64_t expected_insertions, double fpp = default_fpp,
                          guava::strategy hashing = strategy::murmur128_mitz_64)
        : m_strategy(checked_strategy(hashing, "bloom::guava::bloom_filter")) {
        constexpr const char* where = "bloom::guava::bloom_filter";
        if (!(fpp > 0.0 && fpp < 1.0)) {
            detail::throw_invalid_argument(where, "fpp",
                                           "must be in (0, 1) as BloomFilter.create requires, got " +
                                               detail::to_display(fpp));
        }
        if (expected_insertions > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            detail::throw_invalid_argument(where, "expected_insertions",
                                           "must be at most 2^63 - 1 (a Java long), got " +
                                               std::to_string(expected_insertions));
        }
        const std::uint64_t items = expected_insertions == 0 ? 1 : expected_insertions;
        const std::uint64_t bits = optimal_num_of_bits(items, fpp);
        if (bits == 0 || (bits - 1) / 64 + 1 > max_word_count) {
            detail::throw_invalid_argument(where, "expected_insertions",
                                           std::to_string(expected_insertions) + " at fpp " +
                                               detail::to_display(fpp) + " needs " + std::to_string(bits) +
                                               " bits; Guava's bit array holds 1 to 2^31 - 1 words of 64");
        }
        const unsigned hashes = optimal_num_of_hash_functions(items, bits);
        if (hashes > max_hash_count) {
            detail::throw_invalid_argument(where, "fpp",
                                           detail::to_display(fpp) + " needs " + std::to_string(hashes) +
                                               " probes; Guava allows at most 255");
        }
        m_hash_count = hashes;
        m_words.assign(static_cast<std::size_t>((bits - 1) / 64 + 1), 0);
        m_expected_insertions = items;
        m_fpp = fpp;
    }

    /// Guava's optimalNumOfBits(n, p): (long) (-n ln p / (ln 2)^2), before rounding up to whole words.
    [[nodiscard]] static std::uint64_t optimal_num_of_bits(std::uint64_t n, double p) noexcept {
        const double log2 = std::log(2.0);
        const double bits = -static_cast<double>(n) * std::log(p) / (log2 * log2);
        const std::int64_t truncated = detail::java_double_to_long(bits);
        return truncated < 0 ? 0 : static_cast<std::uint64_t>(truncated);
    }

    /// Guava's optimalNumOfHashFunctions(n, m): max(1, round(m / n ln 2)).
    [[nodiscard]] static unsigned optimal_num_of_hash_functions(std::uint64_t n, std::uint64_t m) noexcept {
        const double k = static_cast<double>(m) / static_cast<double>(n) * std::log(2.0);
        // Java's Math.round rounds half up; for the positive k here that is std::round (half away from 0).
        const double rounded = std::round(k);
        if (!(rounded >= 1.0)) {
            return 1;
        }
        return rounded >= 4294967295.0 ? 0xffffffffU : static_cast<unsigned>(rounded);
    }

    /// Guava's hash of `value`: MurmurHash3_x64_128, seed 0, over the bytes T's funnel writes.
    [[nodiscard]] static detail::murmur3_128_value hash(const T& value) {
        if constexpr (std::is_same_v<T, std::string>) {
            return detail::murmur3_x64_128(reinterpret_cast<const unsigned char*>(value.data()), value.size(),
                                           0);
        } else if constexpr (std::is_same_v<T, std::u16string>) {
            std::vector<unsigned char> bytes(value.size() * 2);
            for (std::size_t i = 0; i < value.size(); ++i) {
                detail::store_little_endian(bytes.data() + 2 * i, value[i], 2);
            }
            return detail::murmur3_x64_128(bytes.data(), bytes.size(), 0);
        } else {
            unsigned char bytes[sizeof(T)];
            detail::store_little_endian(
                bytes, static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(value)), sizeof(T));
            return detail::murmur3_x64_128(bytes, sizeof bytes, 0);
        }
    }

    /// BloomFilter.put: sets the k bits of `value`. O(k). Returns true if one of them was 0 (the value was
    /// definitely absent). Throws std::logic_error if the filter has no bits.
    bool put(const T& value) {
        if (m_words.empty()) {
            detail::throw_insert_into_empty("bloom::guava::bloom_filter", "put");
        }
        return layout::insert(m_words.data(), bit_size(), m_strategy, m_hash_count, hash(value));
    }

    /// BloomFilter.mightContain: false if `value` is definitely absent, true if it probably is present. O(k).
    [[nodiscard]] bool might_contain(const T& value) const {
        return !m_words.empty() &&
               layout::contains(m_words.data(), bit_size(), m_strategy, m_hash_count, hash(value));
    }

    /// BloomFilter.isCompatible: the same strategy, probe count and size, so put_all can merge them.
    [[nodiscard]] bool is_compatible(const bloom_filter& other) const noexcept {
        return m_strategy == other.m_strategy && m_hash_count == other.m_hash_count &&
               m_words.size() == other.m_words.size() && !m_words.empty();
    }

    /// BloomFilter.putAll: the union, in place. Throws std::invalid_argument if !is_compatible(other).
    void put_all(const bloom_filter& other) {
        if (!is_compatible(other)) {
            detail::throw_invalid_argument(
                "bloom::guava::bloom_filter::put_all", "other",
                "is not compatible: it needs the same strategy, hash count and bit "
                "size (and bits)");
        }
        for (std::size_t i = 0; i < m_words.size(); ++i) {
            m_words[i] |= other.m_words[i];
        }
    }

    /// Bits the probes range over: 64 x word_count() (Guava's bitSize()). 0 when empty.
    [[nodiscard]] std::uint64_t bit_size() const noexcept { return std::uint64_t{m_words.size()} * 64; }
    /// k, Guava's numHashFunctions (0 when empty).
    [[nodiscard]] unsigned hash_count() const noexcept { return m_hash_count; }
    /// The strategy that derives the probes.
    [[nodiscard]] guava::strategy hashing_strategy() const noexcept { return m_strategy; }
    /// The number of 64-bit words.
    [[nodiscard]] std::size_t word_count() const noexcept { return m_words.size(); }
    /// The words, bit i of the filter in bit i % 64 of word i / 64 (host byte order).
    [[nodiscard]] const std::uint64_t* data() const noexcept { return m_words.data(); }
    /// Bytes of the bit array.
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_words.size() * sizeof(std::uint64_t); }
    /// Bits that are set. O(word_count()).
    [[nodiscard]] std::uint64_t set_bit_count() const noexcept {
        return detail::count_set_bits(m_words.data(), m_words.size());
    }

    /// Guava's expectedFpp(): (set bits / bit size)^k, the rate a random non-member sees given the bits.
    /// 0 when empty. O(word_count()).
    [[nodiscard]] double expected_fpp() const noexcept {
        if (m_words.empty()) {
            return 0.0;
        }
        return std::pow(static_cast<double>(set_bit_count()) / static_cast<double>(bit_size()),
                        static_cast<double>(m_hash_count));
    }

    /// Guava's approximateElementCount(): -ln(1 - X/m) m / k for X of m bits set, rounded half up. When
    /// every bit is set (Guava throws there), the largest std::uint64_t. O(word_count()).
    [[nodiscard]] std::uint64_t approximate_element_count() const noexcept {
        if (m_words.empty()) {
            return 0;
        }
        const double size = static_cast<double>(bit_size());
        const double fraction = static_cast<double>(set_bit_count()) / size;
        const double estimate = -std::log1p(-fraction) * size / static_cast<double>(m_hash_count);
        if (!(estimate < 18446744073709549568.0)) {
            return std::numeric_limits<std::uint64_t>::max();
        }
        return static_cast<std::uint64_t>(std::floor(estimate + 0.5));
    }

    /// Bytes of the serialized form: 6 + 8 x word_count().
    [[nodiscard]] std::size_t serialized_size() const noexcept { return header_bytes + 8 * m_words.size(); }

    /// BloomFilter.writeTo: the serialized form, big-endian. Throws std::logic_error for an empty filter
    /// (Guava has none) and std::ios_base::failure if the stream fails.
    void write_to(std::ostream& out) const {
        write_with([&out](const unsigned char* bytes, std::size_t size) {
            out.write(reinterpret_cast<const char*>(bytes), static_cast<std::streamsize>(size));
            if (!out) {
                detail::raise_error(
                    std::ios_base::failure("bloom::guava::bloom_filter::write_to: the stream failed"));
            }
        });
    }

    /// The serialized form as bytes, what write_to writes.
    [[nodiscard]] std::vector<std::byte> to_bytes() const {
        std::vector<std::byte> out;
        out.reserve(serialized_size());
        write_with([&out](const unsigned char* bytes, std::size_t size) {
            const auto* first = reinterpret_cast<const std::byte*>(bytes);
            out.insert(out.end(), first, first + size);
        });
        return out;
    }

    /// BloomFilter.readFrom(in, funnel): one filter from `in`, which is left just past it. Throws
    /// bloom::format_error for a truncated stream, an unknown strategy ordinal, k = 0 or a word count below
    /// 1; memory grows with the words actually read, so a forged count cannot allocate beyond the input.
    [[nodiscard]] static bloom_filter read_from(std::istream& in) {
        constexpr const char* where = "bloom::guava::bloom_filter::read_from";
        unsigned char header[header_bytes];
        in.read(reinterpret_cast<char*>(header), header_bytes);
        if (in.gcount() != static_cast<std::streamsize>(header_bytes)) {
            detail::throw_format_error(where, "the stream ends inside the 6-byte header (strategy ordinal, "
                                              "hash count, word count)");
        }
        bloom_filter filter;
        const std::size_t words = filter.read_header(header, where);
        unsigned char chunk[8 * 1024];
        while (filter.m_words.size() < words) {
            const std::size_t wanted = std::min<std::size_t>(words - filter.m_words.size(), sizeof chunk / 8);
            in.read(reinterpret_cast<char*>(chunk), static_cast<std::streamsize>(wanted * 8));
            if (in.gcount() != static_cast<std::streamsize>(wanted * 8)) {
                detail::throw_format_error(
                    where,
                    "the stream ends after " +
                        std::to_string(filter.m_words.size() * 8 + static_cast<std::size_t>(in.gcount())) +
                        " of the " + std::to_string(words * 8) + " bytes of the " + std::to_string(words) +
                        " words the header announces");
            }
            for (std::size_t i = 0; i < wanted; ++i) {
                filter.m_words.push_back(detail::load_big_endian(chunk + 8 * i, 8));
            }
        }
        return filter;
    }

    /// read_from over exactly `size` bytes (nothing may follow the filter). Throws bloom::format_error as
    /// read_from does, and for trailing bytes.
    [[nodiscard]] static bloom_filter from_bytes(const std::byte* data, std::size_t size) {
        constexpr const char* where = "bloom::guava::bloom_filter::from_bytes";
        const auto* bytes = reinterpret_cast<const unsigned char*>(data);
        if (size < header_bytes) {
            detail::throw_format_error(where, std::to_string(size) +
                                                  " bytes cannot hold the 6-byte header (strategy ordinal, "
                                                  "hash count, word count)");
        }
        bloom_filter filter;
        const std::size_t words = filter.read_header(bytes, where);
        const std::size_t available = size - header_bytes;
        if (available / 8 < words) {
            detail::throw_format_error(where, "the header announces " + std::to_string(words) + " words (" +
                                                  std::to_string(words * 8) + " bytes) but " +
                                                  std::to_string(available) + " bytes follow it");
        }
        if (available != words * 8) {
            detail::throw_format_error(where, std::to_string(available - words * 8) +
                                                  " bytes follow the filter's words");
        }
        filter.m_words.resize(words);
        for (std::size_t i = 0; i < words; ++i) {
            filter.m_words[i] = detail::load_big_endian(bytes + header_bytes + 8 * i, 8);
        }
        return filter;
    }

    /// The filter as one record of the portable format (docs/FORMAT.md), which `bloom info`, `bloom check`
    /// and `bloom guava-export` read: a classic record with this funnel's hasher id, probe scheme 2 + the
    /// strategy's ordinal, seed 0, the words; expected items and rate as constructed (0 for a filter read
    /// from Guava's stream, which records neither). Throws std::logic_error for an empty filter.
    [[nodiscard]] std::vector<std::byte> to_record() const {
        if (m_words.empty()) {
            detail::raise_error(std::logic_error("bloom::guava::bloom_filter::to_record: the filter is empty "
                                                 "(default-constructed or moved from)"));
        }
        detail::record_header header;
        header.kind = detail::record_kind::classic;
        header.hash_count = m_hash_count;
        header.hasher_id = format_id;
        header.bit_count = bit_size();
        header.expected_items = m_expected_insertions;
        header.target_false_positive_rate = m_fpp;
        header.item_count = approximate_element_count();
        header.payload_bytes = 8 * std::uint64_t{m_words.size()};
        header.probes =
            static_cast<std::uint8_t>(detail::guava_probe_scheme_base + static_cast<unsigned>(m_strategy));
        std::vector<std::byte> out(detail::record_size(header));
        auto* bytes = reinterpret_cast<unsigned char*>(out.data());
        detail::encode_header(header, bytes);
        for (std::size_t i = 0; i < m_words.size(); ++i) {
            detail::store_little_endian(bytes + detail::record_header_bytes + 8 * i, m_words[i], 8);
        }
        const std::size_t covered = detail::record_header_bytes + 8 * m_words.size();
        detail::store_little_endian(bytes + covered, detail::checksum_of(bytes, covered), 8);
        return out;
    }

    /// The filter of one to_record() record (exactly `size` bytes). Throws bloom::format_error naming the
    /// problem: not a record, a checksum mismatch, another kind or funnel (hasher id), a probe scheme other
    /// than Guava's, or sizes Guava cannot hold.
    [[nodiscard]] static bloom_filter from_record(const std::byte* data, std::size_t size) {
        constexpr const char* where = "bloom::guava::bloom_filter::from_record";
        const auto* bytes = reinterpret_cast<const unsigned char*>(data);
        const detail::record_header header = detail::parse_single_record(bytes, size, where);
        detail::check_kind_and_hasher(header, detail::record_kind::classic, format_id, where);
        const unsigned probes = header.probes;
        if (probes != detail::guava_probe_scheme_base && probes != detail::guava_probe_scheme_base + 1) {
            detail::throw_format_error(where, "probe scheme " + std::to_string(probes) +
                                                  " is not one of Guava's (2 MURMUR128_MITZ_32, 3 "
                                                  "MURMUR128_MITZ_64)");
        }
        if (header.counter_bits != 0 || header.seed != 0) {
            detail::throw_format_error(where, "a Guava filter has no counters and seed 0");
        }
        if (header.hash_count == 0 || header.hash_count > max_hash_count) {
            detail::throw_format_error(where, "hash_count " + std::to_string(header.hash_count) +
                                                  " is outside Guava's [1, 255]");
        }
        const std::uint64_t words = header.bit_count / 64;
        if (header.bit_count % 64 != 0 || words == 0 || words > max_word_count) {
            detail::throw_format_error(where,
                                       "bit_count " + std::to_string(header.bit_count) +
                                           " is not 64 x 1 to 2^31 - 1 words, as Guava's bit arrays are");
        }
        if (header.payload_bytes != 8 * words) {
            detail::throw_format_error(where, "payload of " + std::to_string(header.payload_bytes) +
                                                  " bytes does not match " +
                                                  std::to_string(header.bit_count) + " bits");
        }
        if (!(header.target_false_positive_rate >= 0.0 && header.target_false_positive_rate < 1.0)) {
            detail::throw_format_error(where, "target_false_positive_rate " +
                                                  detail::to_display(header.target_false_positive_rate) +
                                                  " is outside [0, 1)");
        }
        detail::check_record_checksum(bytes, header, where);
        bloom_filter filter;
        filter.m_strategy = static_cast<guava::strategy>(probes - detail::guava_probe_scheme_base);
        filter.m_hash_count = header.hash_count;
        filter.m_expected_insertions = header.expected_items;
        filter.m_fpp = header.target_false_positive_rate;
        filter.m_words.resize(static_cast<std::size_t>(words));
        for (std::size_t i = 0; i < filter.m_words.size(); ++i) {
            filter.m_words[i] = detail::load_little_endian(bytes + detail::record_header_bytes + 8 * i, 8);
        }
        return filter;
    }

    /// The expected insertions and rate the filter was created for; 0 when read from Guava's stream.
    [[nodiscard]] std::uint64_t expected_insertions() const noexcept { return m_expected_insertions; }
    /// See expected_insertions().
    [[nodiscard]] double fpp() const noexcept { return m_fpp; }

    /// Guava's equals: the same strategy, k and bits.
    friend bool operator==(const bloom_filter& a, const bloom_filter& b) noexcept {
        return a.m_strategy == b.m_strategy && a.m_hash_count == b.m_hash_count && a.m_words == b.m_words;
    }
    /// Not operator==.
    friend bool operator!=(const bloom_filter& a, const bloom_filter& b) noexcept { return !(a == b); }

  private:
    static constexpr std::size_t header_bytes = 6;

    static guava::strategy checked_strategy(guava::strategy hashing, const char* where) {
        if (hashing != strategy::murmur128_mitz_32 && hashing != strategy::murmur128_mitz_64) {
            detail::throw_invalid_argument(where, "strategy",
                                           "must be murmur128_mitz_32 or murmur128_mitz_64, got ordinal " +
                                               std::to_string(static_cast<unsigned>(hashing)));
        }
        return hashing;
    }

    /// Takes the strategy and k of a serialized header and returns its word count, checked.
    std::size_t read_header(const unsigned char* header, const char* where) {
        const unsigned ordinal = header[0];
        if (ordinal > static_cast<unsigned>(strategy::murmur128_mitz_64)) {
            detail::throw_format_error(where, "strategy ordinal " + std::to_string(ordinal) +
                                                  " is not one of Guava's (0 MURMUR128_MITZ_32, 1 "
                                                  "MURMUR128_MITZ_64)");
        }
        const unsigned hashes = header[1];
        if (hashes == 0) {
            detail::throw_format_error(where, "hash count 0: a Guava filter has 1 to 255 probes");
        }
        const auto words =
            static_cast<std::int32_t>(static_cast<std::uint32_t>(detail::load_big_endian(header + 2, 4)));
        if (words <= 0) {
            detail::throw_format_error(where, "word count " + std::to_string(words) +
                                                  " is not positive: a Guava filter has 1 to 2^31 - 1 words");
        }
        m_strategy = static_cast<guava::strategy>(ordinal);
        m_hash_count = hashes;
        return static_cast<std::size_t>(words);
    }

    template <class Sink>
    void write_with(Sink&& sink) const {
        if (m_words.empty()) {
            detail::raise_error(std::logic_error(
                "bloom::guava::bloom_filter: the filter is empty (default-constructed or moved from); Guava "
                "has no serialized form for a filter without bits"));
        }
        unsigned char header[header_bytes];
        header[0] = static_cast<unsigned char>(m_strategy);
        header[1] = static_cast<unsigned char>(m_hash_count);
        detail::store_big_endian(header + 2, m_words.size(), 4);
        sink(header, header_bytes);
        unsigned char chunk[8 * 1024];
        for (std::size_t done = 0; done < m_words.size();) {
            const std::size_t count = std::min<std::size_t>(m_words.size() - done, sizeof chunk / 8);
            for (std::size_t i = 0; i < count; ++i) {
                detail::store_big_endian(chunk + 8 * i, m_words[done + i], 8);
            }
            sink(chunk, count * 8);
            done += count;
        }
    }

    std::vector<std::uint64_t> m_words;
    unsigned m_hash_count = 0;
    guava::strategy m_strategy = strategy::murmur128_mitz_64;
    std::uint64_t m_expected_insertions = 0; // as constructed; Guava's stream records neither
    double m_fpp = 0.0;
};

} // namespace guava
} // namespace bloom

#endif // BLOOM_GUAVA_HPP
