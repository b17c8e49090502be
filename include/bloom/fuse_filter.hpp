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
// spatial coupling lets peeling succeed at 1.125 slots per key where independent slots need 1.23. Here
// the key hashes are grouped by segment in place, so a slot's keys lie within three segments' worth and a
// 24-bit number names one: 3 bytes per slot of temporary memory beyond the hashes (4 with fingerprints wider
// than a byte, whose array cannot hold the count bytes).

#include "bloom/detail/byte_order.hpp"
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
#include <cstring>
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

    /// log2(segment_length).
    [[nodiscard]] unsigned segment_shift() const noexcept {
        unsigned shift = 0;
        while ((std::uint64_t{1} << shift) < segment_length) {
            ++shift;
        }
        return shift;
    }

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
            memory_bytes() >= prefetch_from_bytes, first, last,
            [this](const auto& value) { return this->key_hash(value); },
            [this](std::uint64_t hashed) { this->prefetch_hash(hashed); },
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

    /// The bulk lookups hash ahead and prefetch the three slots in filters of prefetch_from_bytes and more.
    /// Below, the filter lives in the first caches, where a prefetch is only the slots computed twice
    /// (bulk lookups at 10^4 keys: 6.4 ns with prefetches, 4.7 without, 3.9 single); from about 10^6 keys
    /// (1.1 MB) they pay (bulk at 10^6: 6.2 ns with, 7.2 without): a lower threshold than the Bloom
    /// filters' (detail/pipeline.hpp), as an item reads three lines.
    static constexpr std::size_t prefetch_from_bytes = std::size_t{1} << 18;

    /// Forced inline: GCC deletes out-of-line calls of a function that only prefetches (it writes nothing),
    /// and the bulk lookups lost their prefetches that way.
    BLOOM_FORCE_INLINE void prefetch_hash(std::uint64_t hashed) const noexcept {
        const auto slots = detail::fuse_slots_of(hashed, m_segment_length, m_segment_count_length);
        for (const std::uint64_t slot : slots.slot) {
            detail::prefetch(m_fingerprints.data() + slot);
        }
    }

    /// Branch-free: with `a && b`, GCC branched on the answer, and a 50/50 mix of members and non-members
    /// took 13 ns per lookup against 5 for either alone. An empty filter (default, built from nothing, loaded
    /// or moved from) reads the 12 zero slots of segment length 4 and no segments, and answers false.
    [[nodiscard]] bool contains_hash(std::uint64_t hashed) const noexcept {
        static constexpr Fingerprint no_slots[12] = {};
        const bool empty = m_fingerprints.empty();
        const Fingerprint* data = empty ? no_slots : m_fingerprints.data();
        const bool found = detail::fuse_contains<Fingerprint>(
            [data](std::uint64_t slot) { return data[slot]; }, empty ? 4 : m_segment_length,
            empty ? 0 : m_segment_count_length, hashed);
        return found & !empty;
    }

    template <class Range>
    void build(const Range& keys, std::uint64_t seed) {
        std::vector<std::uint64_t> hashes;
        using key_iterator = decltype(std::begin(keys));
        if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                        typename std::iterator_traits<key_iterator>::iterator_category>) {
            hashes.reserve(static_cast<std::size_t>(std::distance(std::begin(keys), std::end(keys))));
        }
        // Equal keys hash alike and never peel (their slots never hold one key), so a set with duplicates
        // fails its first attempt; only then are the hashes sorted and made unique, and every later attempt
        // does the same. Different keys whose 64-bit hashes collide fully become one key, and both are found.
        enum class duplicates { unknown, none, present } seen = duplicates::unknown;
        for (unsigned attempt = 0; attempt < max_attempts; ++attempt) {
            // Retries hash under seeds derived from the first, so one key set and seed always give one
            // filter (the order and the multiplicity of the keys change nothing).
            m_seed = attempt == 0 ? seed : detail::mix64(seed + attempt * 0x9e3779b97f4a7c15ULL);
            hashes.clear();
            for (const auto& key : keys) {
                hashes.push_back(key_hash(key));
            }
            if (seen == duplicates::present) {
                remove_duplicates(hashes);
            }
            for (;;) {
                if (try_build(hashes)) {
                    return;
                }
                if (seen != duplicates::unknown) {
                    break; // distinct hashes, an unlucky seed: try the next
                }
                const std::size_t before = hashes.size();
                remove_duplicates(hashes);
                seen = hashes.size() == before ? duplicates::none : duplicates::present;
                if (seen == duplicates::none) {
                    break;
                }
            }
        }
        detail::raise_error(fuse_construction_error(
            "bloom::fuse_filter: construction failed under " + std::to_string(max_attempts) +
            " seeds (the peeling of the key hypergraph never completed)"));
    }

    /// The segment of the first of a hash's three slots (the later two lie in the next two segments).
    [[nodiscard]] static std::size_t segment_of(std::uint64_t hash,
                                                const detail::fuse_shape& shape) noexcept {
        return static_cast<std::size_t>(
            detail::reduce_to_range(hash, shape.segment_count * shape.segment_length) >>
            shape.segment_shift());
    }

    /// Reorders `hashes` in place by the segment of their first slot (an American flag sort: one pass, a
    /// write position per segment, no second array) and returns where each segment's hashes start
    /// (segment_count + 1 entries). Keys so ordered touch the slots in order, a few segments at a time.
    [[nodiscard]] static std::vector<std::size_t> group_by_segment(std::vector<std::uint64_t>& hashes,
                                                                   const detail::fuse_shape& shape) {
        const auto segments = static_cast<std::size_t>(shape.segment_count);
        std::vector<std::size_t> first(segments + 1, 0);
        for (const std::uint64_t hash : hashes) {
            ++first[segment_of(hash, shape) + 1];
        }
        for (std::size_t segment = 1; segment <= segments; ++segment) {
            first[segment] += first[segment - 1];
        }
        std::vector<std::size_t> next(first.begin(), first.end() - 1);
        for (std::size_t segment = 0; segment < segments; ++segment) {
            while (next[segment] < first[segment + 1]) {
                std::uint64_t hash = hashes[next[segment]];
                // Carry the hash to its segment, taking the one there, until one belongs here.
                for (std::size_t home = segment_of(hash, shape); home != segment;
                     home = segment_of(hash, shape)) {
                    std::swap(hash, hashes[next[home]++]);
                }
                hashes[next[segment]++] = hash;
            }
        }
        return first;
    }

    /// Sorts the hashes (grouped by segment, then each segment alone, in the cache) and keeps each once.
    static void remove_duplicates(std::vector<std::uint64_t>& hashes) {
        const auto first = group_by_segment(hashes, detail::fuse_shape::of(hashes.size()));
        for (std::size_t segment = 0; segment + 1 < first.size(); ++segment) {
            std::sort(hashes.begin() + static_cast<std::ptrdiff_t>(first[segment]),
                      hashes.begin() + static_cast<std::ptrdiff_t>(first[segment + 1]));
        }
        hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
    }

    /// Key numbers in a slot's window (the keys whose first slot lies in the slot's segment or the two before
    /// it) fit 24 bits; this value, never a key's, marks an assigned slot.
    static constexpr std::uint32_t assigned_slot = 0xffffff;
    /// A slot's count byte once its key is peeled there: the count field at 63 (counts stop at 62), and the
    /// key's position (0, 1 or 2) in the low two bits.
    static constexpr unsigned owned_count = 63;

    // 24-bit little-endian fields through 32-bit loads and stores (the XOR leaves the fourth byte alone; the
    // array has a byte to spare at its end).
    [[nodiscard]] static std::uint32_t load24(const std::uint8_t* bytes) noexcept {
        std::uint32_t word;
        std::memcpy(&word, bytes, sizeof word);
        return detail::to_little_endian(word) & assigned_slot;
    }
    static void xor24(std::uint8_t* bytes, std::uint32_t value) noexcept {
        std::uint32_t word;
        std::memcpy(&word, bytes, sizeof word);
        word ^= detail::to_little_endian(value);
        std::memcpy(bytes, &word, sizeof word);
    }

    /// One construction attempt over `hashes` under m_seed; false if the peeling stalls (duplicates, or an
    /// unlucky seed: retry). Reorders `hashes`.
    ///
    /// Temporary memory beyond the hashes is 3 bytes per slot with 8-bit fingerprints (3 times the filter)
    /// and 4 with 16-bit ones (2 times): per slot, a count byte (in the fingerprint array itself when it is
    /// one byte wide) and the XOR of its keys' numbers counted from the start of the slot's window, 24 bits.
    /// Keys are grouped by segment, so a slot's keys lie in a window of three segments' keys, and where one
    /// key is left the XOR names it. No peel order is stored: the assignment walks the dependencies instead.
    bool try_build(std::vector<std::uint64_t>& hashes) {
        const detail::fuse_shape shape = detail::fuse_shape::of(hashes.size());
        m_segment_length = shape.segment_length;
        m_segment_count_length = shape.segment_count * shape.segment_length;
        m_item_count = hashes.size();
        if (hashes.empty()) {
            m_fingerprints.clear();
            return true;
        }
        const std::vector<std::size_t> first = group_by_segment(hashes, shape);
        const auto segments = static_cast<std::size_t>(shape.segment_count);
        const unsigned segment_shift = shape.segment_shift();
        const auto slot_total = static_cast<std::size_t>(shape.array_length);
        // The first key of the window of slots in `segment`: keys whose first slot is 2 segments before.
        const auto window_start = [&first](std::size_t segment) {
            return first[segment < 2 ? 0 : segment - 2];
        };
        for (std::size_t segment = 0; segment < segments + 2; ++segment) {
            if (first[std::min(segment + 1, segments)] - window_start(segment) >= assigned_slot) {
                return false; // a window beyond 24 bits of keys (far beyond the 2^18-slot segments' ~700,000)
            }
        }
        m_fingerprints.assign(slot_total, 0);
        std::vector<std::uint8_t> separate_counts(sizeof(Fingerprint) == 1 ? 0 : slot_total, 0);
        std::uint8_t* const counts = counts_in(separate_counts);
        std::vector<std::uint8_t> key_xor(3 * slot_total + 1, 0);
        const auto key_in = [&](std::size_t slot) {
            return window_start(slot >> segment_shift) + load24(&key_xor[3 * slot]);
        };
        const auto toggle = [&](std::size_t slot, std::size_t key) {
            xor24(&key_xor[3 * slot], static_cast<std::uint32_t>(key - window_start(slot >> segment_shift)));
        };

        // Count: per slot, (keys using it << 2) XOR the positions (0, 1, 2) of the slot in those keys.
        for (std::size_t key = 0; key < hashes.size(); ++key) {
            const auto slots = detail::fuse_slots_of(hashes[key], m_segment_length, m_segment_count_length);
            for (unsigned which = 0; which < 3; ++which) {
                const auto slot = static_cast<std::size_t>(slots.slot[which]);
                if ((counts[slot] >> 2) >= owned_count - 1) {
                    return false; // 62 keys in one slot: duplicates, or a pathological seed
                }
                counts[slot] = static_cast<std::uint8_t>((counts[slot] + 4) ^ which);
                toggle(slot, key);
            }
        }

        // Peel: scan the slots in order; a slot with one key gives it up (the slot is then the key's), which
        // may leave one key in the key's other slots: those behind the scan wait on a stack, those ahead
        // are met by the scan.
        std::vector<std::size_t> behind;
        std::size_t peeled = 0;
        const auto peel = [&](std::size_t slot, std::size_t scan) {
            const unsigned position = counts[slot] & 3U;
            const std::size_t key = key_in(slot);
            const auto slots = detail::fuse_slots_of(hashes[key], m_segment_length, m_segment_count_length);
            for (unsigned which = 0; which < 3; ++which) {
                if (which == position) {
                    continue;
                }
                const auto other = static_cast<std::size_t>(slots.slot[which]);
                counts[other] = static_cast<std::uint8_t>((counts[other] - 4) ^ which);
                toggle(other, key);
                if ((counts[other] >> 2) == 1 && other < scan) {
                    behind.push_back(other);
                }
            }
            counts[slot] = static_cast<std::uint8_t>(owned_count << 2 | position);
            ++peeled;
        };
        // The scan's next lone slots are known ahead: fetch their keys' hashes early (a slot may lose its key
        // before the scan arrives; the prefetch is then wasted, never wrong).
        constexpr std::size_t lookahead = 32;
        for (std::size_t scan = 0; scan < slot_total; ++scan) {
            if (scan + lookahead < slot_total && (counts[scan + lookahead] >> 2) == 1) {
                detail::prefetch(&hashes[key_in(scan + lookahead)]);
            }
            if ((counts[scan] >> 2) != 1) {
                continue;
            }
            peel(scan, scan);
            while (!behind.empty()) {
                const std::size_t slot = behind.back();
                behind.pop_back();
                if ((counts[slot] >> 2) == 1) {
                    peel(slot, scan);
                }
            }
        }
        if (peeled != hashes.size()) {
            return false;
        }

        // Assign: a key's own slot takes its fingerprint XOR its other two slots, once those are final, that
        // is once the keys owning them (peeled after it) are assigned; slots no key owns stay 0. Walking the
        // slots downward meets most of those keys first (the scan peeled rightward); the rest wait on a
        // stack.
        const auto waiting = [&](std::size_t slot) {
            return (counts[slot] >> 2) == owned_count && load24(&key_xor[3 * slot]) != assigned_slot;
        };
        // A slot waiting for its key's other slots, with its key's hash (read once, reused when its turn
        // comes back).
        struct waiting_slot {
            std::size_t slot;
            std::uint64_t hashed;
            unsigned position;
        };
        const auto waiting_entry = [&](std::size_t slot) {
            return waiting_slot{slot, hashes[key_in(slot)], counts[slot] & 3U};
        };
        std::vector<waiting_slot> pending;
        for (std::size_t start = slot_total; start-- > 0;) {
            if (start >= lookahead && waiting(start - lookahead)) {
                detail::prefetch(&hashes[key_in(start - lookahead)]);
            }
            if (!waiting(start)) {
                continue;
            }
            pending.push_back(waiting_entry(start));
            while (!pending.empty()) {
                const waiting_slot top = pending.back();
                if (!waiting(top.slot)) {
                    pending.pop_back(); // reached twice, assigned the first time
                    continue;
                }
                const auto slots =
                    detail::fuse_slots_of(top.hashed, m_segment_length, m_segment_count_length);
                bool ready = true;
                Fingerprint value = detail::fuse_fingerprint<Fingerprint>(top.hashed);
                for (unsigned which = 0; which < 3; ++which) {
                    const auto other = static_cast<std::size_t>(slots.slot[which]);
                    if (which == top.position) {
                        continue;
                    }
                    if (waiting(other)) {
                        pending.push_back(waiting_entry(other));
                        ready = false;
                    }
                    value = static_cast<Fingerprint>(value ^ m_fingerprints[other]);
                }
                if (!ready) {
                    continue;
                }
                xor24(&key_xor[3 * top.slot], load24(&key_xor[3 * top.slot]) ^ assigned_slot);
                m_fingerprints[top.slot] = value; // with 8-bit fingerprints, over the slot's count byte
                pending.pop_back();
            }
        }
        return true;
    }

    /// The count bytes: the fingerprint array itself when a fingerprint is one byte, else `separate`.
    std::uint8_t* counts_in(std::vector<std::uint8_t>& separate) noexcept {
        if constexpr (sizeof(Fingerprint) == 1) {
            (void)separate;
            return m_fingerprints.data();
        } else {
            return separate.data();
        }
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
