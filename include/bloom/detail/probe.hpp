// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_PROBE_HPP
#define BLOOM_DETAIL_PROBE_HPP

// How a filter turns one 64-bit hash into its k bit positions, under either of the two probe schemes a
// filter (and a saved file, header byte 80) may use; see bloom::probe_scheme in <bloom/sizing.hpp>.
//
// probe_scheme::mixed (every new filter): x_i = h + i*s over the 64-bit ring, with the step
// s = h * 0x9e3779b97f4a7c15 (odd), and position i = multiply-shift of a one-round remix of x_i,
// (x_i ^ x_i >> 32) * c. Kirsch & Mitzenmacher 2006 ("Less hashing, same performance") show that
// g_i = h1 + i*h2 keeps the asymptotic rate of k independent hashes, but only asymptotically: positions
// that are a linear function of i depend on two numbers per item, so on a small filter two items' whole
// probe sets coincide with probability about 1/(k m^2) (REFERENCES.md: a floor no k pushes below, 7.7e-5
// for one item at a 1e-5 target). The remix makes each position depend on all 64 bits of x_i, so probe
// sets coincide only when the 64-bit hashes do, and the k probes behave as independent uniform
// positions for every m from 1 to 2^64 - 1: the filter's rate is fill^k, and at capacity the formula's.
//
// probe_scheme::enhanced_double_hashing (files written before the mixed scheme, which must keep
// answering as they were saved): g_i = h + i*s + c*(i^3 - i)/6 with s the hash rotated by 32 bits
// (Dillinger & Manolios 2004), each g_i mapped by multiply-shift. Its step shares bits with its start,
// which past 2^33 bits leaves the fill 0.5% below the ideal and the rate 6% above the formula.

#include "bloom/detail/config.hpp"

#include <cstddef>
#include <cstdint>

#if defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64)
#    include <intrin.h>
#endif

namespace bloom {

/// How a filter derives its k bit positions from an item's hash. A filter's scheme is part of its shape:
/// saved with it (file byte 80), compared by compatible_with(). Each layout has an original scheme (0),
/// which only filters loaded from old files use, and a current one (1), the default:
/// - the classic layout (bloom_filter, counting_bloom_filter, their concurrent and view forms):
///   enhanced_double_hashing (0) and mixed (1);
/// - the blocked layout (blocked_bloom_filter and its concurrent and view forms): one_bit_per_word (0) and
///   bits_anywhere (1), the same values under names that say what they place.
enum class probe_scheme : std::uint8_t {
    /// Enhanced double hashing, as filters saved before the mixed scheme use it (file byte 80 = 0). Loads of
    /// those files keep it, so they answer as they did; new filters never use it.
    enhanced_double_hashing = 0,
    /// Double hashing over an independent step with each point remixed (file byte 80 = 1): the k positions
    /// behave as independent uniform probes at every size. The default.
    mixed = 1,
    /// The blocked layout's original pattern (file byte 80 = 0): one bit in each of the block's eight 64-bit
    /// words, so k is always 8. Loads of files saved before bits_anywhere keep it; new filters never use it.
    one_bit_per_word = 0,
    /// The blocked layout's pattern since (file byte 80 = 1): k bits, 1 to 16, anywhere in the 512-bit
    /// block, k chosen from the bits per item. At 1% it needs about 9.9 bits per item where
    /// one_bit_per_word needs 10.1 (docs/FORMAT.md). The default.
    bits_anywhere = 1,
};

} // namespace bloom

namespace bloom::detail {

/// The blocked layout: 512-bit blocks (one cache line) of eight 64-bit words. An item sets its bits in one
/// block: one bit in every word (probe_scheme::one_bit_per_word, k = 8), or k bits anywhere in the block
/// (probe_scheme::bits_anywhere, k from 1 to max_block_hash_count).
inline constexpr std::uint64_t block_bits = 512;
inline constexpr unsigned block_word_count = 8;
/// The most bits an item sets under bits_anywhere: one 512-bit register of 32-bit lanes tests them all.
/// Past 16 the optimal k only helps beyond about 36 bits per item, where a classic filter is the better tool.
inline constexpr unsigned max_block_hash_count = 16;

/// Maps `value` onto [0, range) as floor(value * range / 2^64) (Lemire 2019), using its high bits.
[[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t reduce_to_range(std::uint64_t value,
                                                               std::uint64_t range) noexcept {
#if defined(__SIZEOF_INT128__)
    // __extension__ keeps -Wpedantic quiet about the non-standard 128-bit type.
    __extension__ using wide = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<wide>(value) * range) >> 64);
#elif defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64)
    return __umulh(value, range);
#else
    const std::uint64_t a_low = value & 0xffffffffU, a_high = value >> 32;
    const std::uint64_t b_low = range & 0xffffffffU, b_high = range >> 32;
    const std::uint64_t low_low = a_low * b_low;
    const std::uint64_t high_low = a_high * b_low;
    const std::uint64_t low_high = a_low * b_high;
    const std::uint64_t middle = (low_low >> 32) + (high_low & 0xffffffffU) + low_high;
    return a_high * b_high + (high_low >> 32) + (middle >> 32);
#endif
}

/// The 128-bit product of `value` and `factor`, its two halves XORed: one multiply instruction on 64-bit
/// targets, and each output bit depends on most input bits (the high half carries what the low half
/// loses). The round of bloom::hash's integer path.
[[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t fold_multiply(std::uint64_t value,
                                                             std::uint64_t factor) noexcept {
#if defined(__SIZEOF_INT128__)
    __extension__ using wide = unsigned __int128;
    const wide product = static_cast<wide>(value) * factor;
    return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
#else
    return (value * factor) ^ reduce_to_range(value, factor);
#endif
}

/// A 64-bit finaliser (the multiply-xorshift shape of MurmurHash3's fmix64): every input bit affects
/// every output bit. Repairs hashers that do not avalanche.
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t value) noexcept {
    value ^= value >> 33;
    value *= 0xff51afd7ed558ccdULL;
    value ^= value >> 33;
    value *= 0xc4ceb9fe1a85ec53ULL;
    value ^= value >> 33;
    return value;
}

/// The k probe positions of one item under probe_scheme::enhanced_double_hashing, one at a time.
class enhanced_double_hashing_probes {
  public:
    /// `hash` must be well mixed (every bit uniform). The step is the hash rotated by half its width.
    explicit constexpr enhanced_double_hashing_probes(std::uint64_t hash) noexcept
        : m_position(hash), m_step(((hash << 32) | (hash >> 32)) | 1) {}

    /// The next position in [0, bit_count).
    [[nodiscard]] std::uint64_t next(std::uint64_t bit_count) noexcept {
        return reduce_to_range(next_point(), bit_count);
    }
    /// The next point: the next position before it is scaled to the bit count (reduce_to_range), the same
    /// for every bit count.
    [[nodiscard]] std::uint64_t next_point() noexcept {
        const std::uint64_t point = m_position;
        m_position += m_step;
        m_step += ++m_index * cubic_scale;
        return point;
    }
    /// Moves past the next `count` positions.
    void skip(unsigned count) noexcept {
        for (unsigned i = 0; i < count; ++i) {
            (void)next_point();
        }
    }

  private:
    static constexpr std::uint64_t cubic_scale = 0x9e3779b97f4a7c15ULL; // 2^64 / golden ratio, odd

    std::uint64_t m_position;
    std::uint64_t m_step;
    std::uint64_t m_index = 0;
};

/// The k probe positions of one item under probe_scheme::mixed, one at a time.
class mixed_probes {
  public:
    /// `hash` must be well mixed. The step is the hash times an odd constant, itself odd so that the k
    /// points x_i are distinct. Each point is remixed before it is used, so the step needs only to differ
    /// from item to item: a full mix64 there cost 20% of a lookup in the cache. (The hash rotated by 32
    /// bits does not do: x_1 = h + rotl(h, 32) has equal halves, which the fold below cancels, and past 2^33
    /// bits that cost 0.2% of the fill.)
    explicit constexpr mixed_probes(std::uint64_t hash) noexcept
        : m_point(hash), m_step((hash * 0x9e3779b97f4a7c15ULL) | 1) {}

    /// The next position in [0, bit_count).
    [[nodiscard]] std::uint64_t next(std::uint64_t bit_count) noexcept {
        return reduce_to_range(next_point(), bit_count);
    }
    /// The next point, remixed: the next position before it is scaled to the bit count (reduce_to_range),
    /// the same for every bit count.
    [[nodiscard]] std::uint64_t next_point() noexcept {
        // One xorshift-multiply round: the multiply carries every bit of the point into the high bits that
        // multiply-shift reads, and the xorshift first folds the high half into the low one, so points that
        // differ anywhere (not only in their high bits) land on unrelated positions.
        std::uint64_t point = m_point;
        point ^= point >> 32;
        point *= 0xd6e8feb86659fd93ULL;
        m_point += m_step;
        return point;
    }
    /// Moves past the next `count` positions.
    void skip(unsigned count) noexcept { m_point += count * m_step; }

  private:
    std::uint64_t m_point;
    std::uint64_t m_step;
};

/// Calls `body(probes)` with the probe sequence of `hash` under `scheme`: the one place that picks the
/// sequence type, so every classic-layout kernel (insert, lookup, prefetch, count) is written once, as a
/// generic lambda, and the scheme costs one predictable branch per item rather than one per probe.
/// Left to the compiler's inlining on purpose: GCC keeps it out of line for lookups in a translation unit
/// with several call sites, yet forcing it inline made classic bulk lookups 10-38% slower at 10^6 items
/// (bloom_bench, GCC 12, -O3 -march=native) while single lookups moved by under 4%.
template <class Body>
decltype(auto) with_probes(probe_scheme scheme, std::uint64_t hash, Body&& body) {
    if (scheme == probe_scheme::enhanced_double_hashing) {
        return body(enhanced_double_hashing_probes(hash));
    }
    return body(mixed_probes(hash));
}

/// The probes classic_contains tests together, between branches.
inline constexpr unsigned classic_probe_group = 4;

/// The classic layout's lookup: true if the k bits `hash` selects among `bit_count` bits are all set.
/// `words[i]` yields word i: a plain pointer for a filter's own words, little_endian_words for a view.
/// Probes are tested in groups of four without branching, then one branch per group. A branch per probe
/// mispredicts half the time on a miss (the first bit is 0 with probability ~1/2) and stalls the loads
/// behind it; a group keeps four loads in flight, and on a miss the first group fails with probability
/// ~15/16, so its branch predicts well. Measured: misses ~2x faster near the cache.
/// `PastFirstGroup`: the first group is not tested, for a caller that has tested it (a scalable filter's
/// range forms: classic_layout::first_group_set).
template <bool PastFirstGroup = false, class Words>
[[nodiscard]] bool classic_contains(const Words& words, std::uint64_t bit_count, unsigned hash_count,
                                    probe_scheme scheme, std::uint64_t hash) noexcept {
    return with_probes(scheme, hash, [&](auto probes) {
        unsigned remaining = hash_count;
        if constexpr (PastFirstGroup) {
            const unsigned tested = remaining < classic_probe_group ? remaining : classic_probe_group;
            probes.skip(tested);
            remaining -= tested;
        }
        while (remaining != 0) {
            const unsigned group = remaining < classic_probe_group ? remaining : classic_probe_group;
            std::uint64_t all_set = 1;
            for (unsigned i = 0; i < group; ++i) {
                const std::uint64_t position = probes.next(bit_count);
                all_set &= words[static_cast<std::size_t>(position >> 6)] >> (position & 63);
            }
            if ((all_set & 1) == 0) {
                return false;
            }
            remaining -= group;
        }
        return true;
    });
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_PROBE_HPP
