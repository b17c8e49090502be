// SPDX-License-Identifier: MIT
#ifndef BLOOM_BLOOM_FILTER_HPP
#define BLOOM_BLOOM_FILTER_HPP

// bloom::bloom_filter<T> — the classic Bloom filter: m bits, k probes per item.
//
// It answers "definitely not in the set" or "probably in the set", never a false negative, in about
// 10 bits per item at a 1% false-positive rate. Give it the number of items you expect and the rate you
// accept; it sizes itself (m = ceil(-n ln p / (ln 2)^2), k = round((m/n) ln 2), plus a few bits for
// filters of under 10^4 bits, whose exact rate the formula underestimates).
//
//     #include <bloom/bloom_filter.hpp>
//
//     bloom::bloom_filter<std::string> seen(1'000'000, 0.01);   // 9.6 M bits (1.2 MB), k = 7
//     if (seen.insert(url)) {                                    // true: definitely new
//         enqueue(url);
//     }
//     seen.contains("https://example.com/");                     // no std::string is built
//
// Each item is hashed once (by bloom::hash, see <bloom/hash.hpp>); its k positions follow by
// double hashing with each point remixed, mapped onto the bit array by multiply-shift (see
// detail/probe.hpp): they behave as k independent probes at every size, so the rate is fill^k, and 64-bit
// positions keep it past 2^32 bits. The filter cannot delete and its rate grows past its expected items:
// watch current_false_positive_rate() (computed from the bits) or load_factor(). The range forms of
// insert and contains hash ahead and prefetch, which pays once the filter outgrows the cache.
//
// It is bloom::basic_bloom_filter (the public surface, <bloom/basic_bloom_filter.hpp>) over the classic
// layout (where the bits are, detail/classic_layout.hpp).

#include "bloom/basic_bloom_filter.hpp"
#include "bloom/detail/classic_layout.hpp"
#include "bloom/hash.hpp"

#include <cstdint>
#include <memory>

namespace bloom {

/// A classic Bloom filter of T: a packed array of 64-bit words and k probes per item.
/// Hasher: callable std::uint64_t(const K&, std::uint64_t seed), bloom::hash<T> by default.
/// Allocator: allocates the words (rebound to std::uint64_t).
template <class T, class Hasher = hash<T>, class Allocator = std::allocator<std::uint64_t>>
using bloom_filter = basic_bloom_filter<T, detail::classic_layout, Hasher, Allocator>;

} // namespace bloom

#endif // BLOOM_BLOOM_FILTER_HPP
