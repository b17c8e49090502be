// SPDX-License-Identifier: MIT
#ifndef BLOOM_FUSE_FILTER_HPP
#define BLOOM_FUSE_FILTER_HPP

// bloom::fuse_filter<T, Fingerprint, Hasher> — a static filter for a set known up front: a binary fuse
// filter (Graf & Lemire, "Binary Fuse Filters: Fast and Smaller Than Xor Filters", 2022), built once from a
// range and immutable afterwards. It stores one Fingerprint per slot, about 1.125 slots per key for 10^6
// keys and more: 9.0 bits per key at a 2^-8 (0.39%) rate with 8-bit fingerprints, where a Bloom filter
// needs 11.5 bits for that rate. A lookup reads three slots in a small window and compares the XOR of
// their fingerprints with the key's.
//
//     #include <bloom/fuse_filter.hpp>
//
//     std::vector<std::string> blocked = load_blocklist();
//     bloom::fuse_filter<std::string> filter(blocked.begin(), blocked.end());
//     filter.contains("evil.example");        // true for every listed value, 1/256 for others
//
// Construction (Botelho, Pagh & Ziviani 2007; the paper's "peeling"): each key's three slots form a
// hyperedge of a 3-uniform hypergraph; repeatedly remove a key that is alone in one of its slots, then
// assign the fingerprints in reverse order, each key's lone slot taking its fingerprint XOR the other two.
// The three slots lie in three consecutive segments of segment_length slots (the "binary fuse"): that
// spatial coupling lets peeling succeed at 1.125 slots per key where independent slots need 1.23.

#include "bloom/detail/config.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/filter_declarations.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/hash.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace bloom {

/// Thrown when a fuse filter cannot be built after every retry (which distinct keys make vanishingly
/// unlikely: each try fails with probability well under 1%).
class fuse_construction_error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

namespace detail {

/// The shape of a 3-wise binary fuse filter of `keys` keys (Graf & Lemire 2022, section 5): segments of
/// a power-of-two length, segment_count + 2 of them in the array.
struct fuse_shape {
    static constexpr unsigned arity = 3;
    /// The largest segment: beyond it, lookups would leave the small window the design is for.
    static constexpr std::uint64_t max_segment_length = std::uint64_t{1} << 18;

    std::uint64_t segment_length = 0;
    std::uint64_t segment_count = 0;
    std::uint64_t array_length = 0;

    [[nodiscard]] static fuse_shape of(std::uint64_t keys) noexcept {
        fuse_shape shape;
        const double n = static_cast<double>(keys);
        // The paper's fit: segment_length = 2^floor(log_3.33(n) + 2.25), capped; the slots per key fall from
        // 0.875 + 0.25 log(10^6) / log(n) toward 1.125.
        const unsigned exponent =
            keys == 0 ? 2U : static_cast<unsigned>(std::floor(std::log(n) / std::log(3.33) + 2.25));
        shape.segment_length = exponent >= 18 ? max_segment_length : std::uint64_t{1} << exponent;
        const double size_factor =
            keys <= 1 ? 0.0 : std::max(1.125, 0.875 + 0.25 * std::log(1e6) / std::log(n));
        const auto capacity =
            keys <= 1 ? std::uint64_t{0} : static_cast<std::uint64_t>(std::llround(n * size_factor));
        const std::uint64_t segments = (capacity + shape.segment_length - 1) / shape.segment_length;
        shape.segment_count = segments > arity - 1 ? segments - (arity - 1) : 1;
        shape.array_length = (shape.segment_count + arity - 1) * shape.segment_length;
        return shape;
    }
};

/// The three slots of a mixed hash in a filter of `shape` (segment_count_length = segment_count times
/// segment_length): one in each of three consecutive segments.
struct fuse_slots {
    std::uint64_t slot[3];
};

[[nodiscard]] BLOOM_FORCE_INLINE fuse_slots fuse_slots_of(std::uint64_t hash, std::uint64_t segment_length,
                                                          std::uint64_t segment_count_length) noexcept {
    const std::uint64_t mask = segment_length - 1;
    const std::uint64_t first = reduce_to_range(hash, segment_count_length);
    return {{first, (first + segment_length) ^ ((hash >> 18) & mask),
             (first + 2 * segment_length) ^ (hash & mask)}};
}

/// A key's fingerprint: the hash folded, then truncated to the fingerprint's width.
template <class Fingerprint>
[[nodiscard]] BLOOM_FORCE_INLINE Fingerprint fuse_fingerprint(std::uint64_t hash) noexcept {
    return static_cast<Fingerprint>(hash ^ (hash >> 32));
}

/// A key's mixed hash: the hasher's, remixed (a hasher need only be uniform, and the slots read the high and
/// low bits separately).
template <class Hasher, class K>
[[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t fuse_key_hash(const Hasher& hasher, const K& value,
                                                             std::uint64_t seed) noexcept {
    return mix64(hasher(value, seed));
}

/// True if the fingerprints of the three slots of `hashed` XOR to its fingerprint: the lookup of a filter
/// (a plain array) and of a view (little-endian bytes in place). `fingerprint_at(slot)` reads one slot.
template <class Fingerprint, class FingerprintAt>
[[nodiscard]] BLOOM_FORCE_INLINE bool
fuse_contains(const FingerprintAt& fingerprint_at, std::uint64_t segment_length,
              std::uint64_t segment_count_length, std::uint64_t hashed) noexcept {
    const auto slots = fuse_slots_of(hashed, segment_length, segment_count_length);
    const auto found = static_cast<Fingerprint>(
        fingerprint_at(slots.slot[0]) ^ fingerprint_at(slots.slot[1]) ^ fingerprint_at(slots.slot[2]));
    return found == fuse_fingerprint<Fingerprint>(hashed);
}

} // namespace detail

/// A binary fuse filter of the keys of a range: immutable, no false negatives, a false-positive rate of
/// 2^-bits of Fingerprint (std::uint8_t: 0.39%, std::uint16_t: 0.0015%, std::uint32_t: 2.3e-10), about
/// 1.125 Fingerprints per key for 10^6 keys and more.
template <class T, class Fingerprint = std::uint8_t, class Hasher = hash<T>>
class fuse_filter {
    static_assert(std::is_same_v<Fingerprint, std::uint8_t> || std::is_same_v<Fingerprint, std::uint16_t> ||
                      std::is_same_v<Fingerprint, std::uint32_t>,
                  "bloom::fuse_filter: Fingerprint must be std::uint8_t, std::uint16_t or std::uint32_t");

  public:
    /// The type of the keys.
    using value_type = T;
    /// The type of one slot's fingerprint.
    using fingerprint_type = Fingerprint;
    /// The hasher type.
    using hasher = Hasher;
    /// The allocator of the fingerprints (the file format's loaders name it).
    using allocator_type = std::allocator<Fingerprint>;
    /// Constructions tried (each with a seed derived from the last) before fuse_construction_error.
    static constexpr unsigned max_attempts = 100;

    /// An empty filter: contains nothing.
    fuse_filter() = default;

    /// The filter of the keys of [first, last), duplicates allowed. Deterministic for a seed and a key set.
    /// Throws fuse_construction_error if every attempt fails, std::bad_alloc.
    template <class InputIt, class = detail::enable_if_input_iterator_t<InputIt>>
    fuse_filter(InputIt first, InputIt last, std::uint64_t seed = default_seed, const Hasher& hash = Hasher())
        : m_hasher(hash) {
        std::vector<T> keys(first, last);
        build(keys, seed);
    }

    /// The filter of `keys` (any sized range: std::vector, std::set ...).
    template <class Range, class = decltype(std::begin(std::declval<const Range&>()))>
    explicit fuse_filter(const Range& keys, std::uint64_t seed = default_seed, const Hasher& hash = Hasher())
        : m_hasher(hash) {
        build(keys, seed);
    }

    /// False: `value` is definitely not a key. True: it is one, or a false positive (rate 2^-bits). O(1).
    /// K: T, or any type the Hasher hashes as it hashes the equal T (a std::string_view for std::string).
    template <class K = T>
    [[nodiscard]] bool contains(const K& value) const noexcept {
        static_assert(detail::can_hash_v<Hasher, K>,
                      "bloom::fuse_filter: the Hasher cannot hash this key type");
        return contains_hash(key_hash(value));
    }

    /// Writes contains(value) for every value of [first, last) to `out`, in order, hashing a window ahead
    /// and prefetching the three slots. Returns the output iterator past the last result.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        detail::pipelined_for_each<16>(
            first, last, [this](const auto& value) { return this->key_hash(value); },
            [this](std::uint64_t hashed) {
                if (!m_fingerprints.empty()) {
                    const auto slots =
                        detail::fuse_slots_of(hashed, m_segment_length, m_segment_count_length);
                    for (const std::uint64_t slot : slots.slot) {
                        detail::prefetch(m_fingerprints.data() + slot);
                    }
                }
            },
            [&](std::uint64_t hashed) {
                *out = contains_hash(hashed);
                ++out;
            });
        return out;
    }

    /// Distinct keys the filter holds (keys whose 64-bit hashes collide fully count once).
    [[nodiscard]] std::uint64_t item_count() const noexcept { return m_item_count; }
    /// Bytes of the fingerprint array.
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_fingerprints.size() * sizeof(Fingerprint);
    }
    /// Bits per distinct key: 8 memory_bytes() / item_count() (0 when empty).
    [[nodiscard]] double bits_per_item() const noexcept {
        return m_item_count == 0
                   ? 0.0
                   : 8.0 * static_cast<double>(memory_bytes()) / static_cast<double>(m_item_count);
    }
    /// The rate a non-member sees: 2^-bits of Fingerprint.
    [[nodiscard]] static constexpr double false_positive_rate() noexcept {
        return 1.0 / static_cast<double>(std::uint64_t{1} << (8 * sizeof(Fingerprint)));
    }
    /// The seed the keys were hashed with: the constructor's, or one derived from it when construction
    /// had to retry.
    [[nodiscard]] std::uint64_t seed() const noexcept { return m_seed; }
    /// Slots per segment (a power of two up to 2^18).
    [[nodiscard]] std::uint64_t segment_length() const noexcept { return m_segment_length; }
    /// The number of slots (fingerprints).
    [[nodiscard]] std::uint64_t slot_count() const noexcept { return m_fingerprints.size(); }

    /// The same keys' filter: same seed, shape and fingerprints.
    friend bool operator==(const fuse_filter& a, const fuse_filter& b) noexcept {
        return a.m_seed == b.m_seed && a.m_item_count == b.m_item_count &&
               a.m_segment_length == b.m_segment_length && a.m_fingerprints == b.m_fingerprints;
    }
    /// Not operator==.
    friend bool operator!=(const fuse_filter& a, const fuse_filter& b) noexcept { return !(a == b); }

  private:
    template <class>
    friend struct detail::record_traits;

    template <class K>
    [[nodiscard]] std::uint64_t key_hash(const K& value) const noexcept {
        return detail::fuse_key_hash(m_hasher, value, m_seed);
    }

    [[nodiscard]] bool contains_hash(std::uint64_t hashed) const noexcept {
        const Fingerprint* data = m_fingerprints.data();
        return !m_fingerprints.empty() &&
               detail::fuse_contains<Fingerprint>([data](std::uint64_t slot) { return data[slot]; },
                                                  m_segment_length, m_segment_count_length, hashed);
    }

    template <class Range>
    void build(const Range& keys, std::uint64_t seed) {
        std::vector<std::uint64_t> hashes;
        for (unsigned attempt = 0; attempt < max_attempts; ++attempt) {
            // Retries hash under seeds derived from the first, so one key set and seed always give one
            // filter.
            m_seed = attempt == 0 ? seed : detail::mix64(seed + attempt * 0x9e3779b97f4a7c15ULL);
            hashes.clear();
            for (const auto& key : keys) {
                hashes.push_back(key_hash(key));
            }
            // Equal keys hash alike and would never peel: keep each hash once. Different keys whose 64-bit
            // hashes collide fully share slots and fingerprint, so both are found.
            sort_hashes(hashes);
            hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
            const detail::fuse_shape shape = detail::fuse_shape::of(hashes.size());
            m_segment_length = shape.segment_length;
            m_segment_count_length = shape.segment_count * shape.segment_length;
            m_item_count = hashes.size();
            if (hashes.empty()) {
                m_fingerprints.clear();
                return;
            }
            const bool built = shape.array_length <= 0xffffffffULL && hashes.size() <= 0xffffffffULL
                                   ? peel_and_assign<std::uint32_t>(hashes, shape)
                                   : peel_and_assign<std::uint64_t>(hashes, shape);
            if (built) {
                return;
            }
        }
        detail::raise_error(fuse_construction_error(
            "bloom::fuse_filter: construction failed under " + std::to_string(max_attempts) +
            " seeds (the peeling of the key hypergraph never completed)"));
    }

    /// Sorts `hashes` ascending: a counting pass on the top 16 bits into buckets, then each bucket (a few
    /// hundred hashes, in the cache) sorted alone. 3x faster than std::sort at 10^7 hashes. Sorted hashes
    /// also order the keys by their first slot, so construction walks the slots in order.
    static void sort_hashes(std::vector<std::uint64_t>& hashes) {
        if (hashes.size() < (std::size_t{1} << 16)) {
            std::sort(hashes.begin(), hashes.end());
            return;
        }
        std::vector<std::size_t> starts((std::size_t{1} << 16) + 1, 0);
        for (const std::uint64_t hash : hashes) {
            ++starts[static_cast<std::size_t>(hash >> 48) + 1];
        }
        for (std::size_t i = 1; i < starts.size(); ++i) {
            starts[i] += starts[i - 1];
        }
        std::vector<std::uint64_t> sorted(hashes.size());
        std::vector<std::size_t> next(starts.begin(), starts.end() - 1);
        for (const std::uint64_t hash : hashes) {
            sorted[next[static_cast<std::size_t>(hash >> 48)]++] = hash;
        }
        for (std::size_t bucket = 0; bucket + 1 < starts.size(); ++bucket) {
            std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(starts[bucket]),
                      sorted.begin() + static_cast<std::ptrdiff_t>(starts[bucket + 1]));
        }
        hashes.swap(sorted);
    }

    /// One construction attempt over distinct hashes; false if the peeling stalls (retry with a new seed).
    /// Temporary memory: per slot, a count byte (the fingerprint array itself) and two Index words.
    template <class Index>
    bool peel_and_assign(const std::vector<std::uint64_t>& hashes, const detail::fuse_shape& shape) {
        const auto slots_total = static_cast<std::size_t>(shape.array_length);
        // Per slot: how many keys use it (count << 2) XOR which of its key's three slots it is (2 bits), and
        // the XOR of those keys' indexes: where one key remains, the two name it and its position.
        std::vector<std::uint8_t> counts(slots_total, 0);
        std::vector<Index> key_xor(slots_total, 0);
        for (std::size_t key = 0; key < hashes.size(); ++key) {
            const auto slots = detail::fuse_slots_of(hashes[key], m_segment_length, m_segment_count_length);
            for (unsigned which = 0; which < 3; ++which) {
                const auto slot = static_cast<std::size_t>(slots.slot[which]);
                if (counts[slot] >= 0xfc) {
                    return false; // over 62 keys in one slot: a pathological seed
                }
                counts[slot] = static_cast<std::uint8_t>((counts[slot] + 4) ^ which);
                key_xor[slot] ^= static_cast<Index>(key);
            }
        }
        // Peel: a queue of slots with one key; popped slots with one key left are recorded in peel order in
        // the same array (each slot enters at most once: counts only fall).
        std::vector<Index> order(slots_total);
        std::size_t queued = 0;
        for (std::size_t slot = 0; slot < slots_total; ++slot) {
            if ((counts[slot] >> 2) == 1) {
                order[queued++] = static_cast<Index>(slot);
            }
        }
        std::size_t peeled = 0;
        for (std::size_t next = 0; next < queued; ++next) {
            const auto slot = static_cast<std::size_t>(order[next]);
            if ((counts[slot] >> 2) != 1) {
                continue; // its key was peeled through another slot
            }
            const auto key = static_cast<std::size_t>(key_xor[slot]);
            const unsigned position = counts[slot] & 3U;
            const auto slots = detail::fuse_slots_of(hashes[key], m_segment_length, m_segment_count_length);
            for (unsigned which = 0; which < 3; ++which) {
                if (which == position) {
                    continue;
                }
                const auto other = static_cast<std::size_t>(slots.slot[which]);
                counts[other] = static_cast<std::uint8_t>((counts[other] - 4) ^ which);
                key_xor[other] ^= static_cast<Index>(key);
                if ((counts[other] >> 2) == 1) {
                    order[queued++] = static_cast<Index>(other);
                }
            }
            order[peeled++] = static_cast<Index>(slot);
        }
        if (peeled != hashes.size()) {
            return false;
        }
        // Assign in reverse peel order: a key's lone slot takes its fingerprint XOR its other two slots,
        // whose values are final by then (keys peeled later were assigned first; unused slots stay 0).
        m_fingerprints.assign(slots_total, 0);
        for (std::size_t i = peeled; i-- > 0;) {
            const auto slot = static_cast<std::size_t>(order[i]);
            const auto key = static_cast<std::size_t>(key_xor[slot]);
            const unsigned position = counts[slot] & 3U;
            const auto slots = detail::fuse_slots_of(hashes[key], m_segment_length, m_segment_count_length);
            Fingerprint value = detail::fuse_fingerprint<Fingerprint>(hashes[key]);
            for (unsigned which = 0; which < 3; ++which) {
                if (which != position) {
                    value = static_cast<Fingerprint>(
                        value ^ m_fingerprints[static_cast<std::size_t>(slots.slot[which])]);
                }
            }
            m_fingerprints[slot] = value;
        }
        return true;
    }

    std::vector<Fingerprint> m_fingerprints;
    std::uint64_t m_segment_length = 4;
    std::uint64_t m_segment_count_length = 0;
    std::uint64_t m_item_count = 0;
    std::uint64_t m_seed = default_seed;
    Hasher m_hasher{};
};

} // namespace bloom

#endif // BLOOM_FUSE_FILTER_HPP
