// SPDX-License-Identifier: MIT
#ifndef BLOOM_BLOOM_HPP
#define BLOOM_BLOOM_HPP

// bloom — header-only Bloom filters for C++17.
//
// A Bloom filter answers "definitely not in the set" or "probably in the set" in about 10 bits per item
// at a 1% false-positive rate, and never gives a false negative. Put one in front of an expensive lookup
// (a database, a disk read, a remote cache) and ask the expensive thing only on "probably".
//
//     #include <bloom/bloom.hpp>
//
//     bloom::bloom_filter<std::string> taken(1'000'000, 0.01);  // sized: 9.6 M bits, 7 probes
//     taken.insert("alice");
//     if (!taken.contains("bob")) {
//         // definitely free: no database query needed
//     }
//
// Headers: <bloom/sizing.hpp> (the math), <bloom/hash.hpp> (seeded hashing), <bloom/bloom_filter.hpp>
// (the classic filter), <bloom/blocked_bloom_filter.hpp> (one cache line per item, SIMD),
// <bloom/counting_bloom_filter.hpp> (counters: remove), <bloom/scalable_bloom_filter.hpp> (grows as items
// arrive), <bloom/concurrent_bloom_filter.hpp> (many threads at once), <bloom/serialization.hpp> (save and
// load, docs/FORMAT.md), <bloom/update_file.hpp> (change a saved filter under a lock),
// <bloom/filter_view.hpp> and <bloom/mapped_file.hpp> (lookups straight from a saved file),
// <bloom/parquet.hpp> (Parquet's split-block filters), <bloom/parquet_file.hpp> (the filters inside a
// Parquet file, per row group and column), <bloom/guava.hpp> (Guava's BloomFilter and its
// writeTo form), <bloom/format_error.hpp>,
// <bloom/aligned_allocator.hpp>. This umbrella includes them all. Needs only <xxhash.h> (xxHash 0.8).

/// \namespace bloom
/// Bloom filters (classic, blocked, counting, scalable, concurrent), their sizing math and seeded hashing.
/// Everything users name lives here; bloom::detail is machinery.

#include "bloom/aligned_allocator.hpp"
#include "bloom/blocked_bloom_filter.hpp"
#include "bloom/bloom_filter.hpp"
#include "bloom/concurrent_bloom_filter.hpp"
#include "bloom/counting_bloom_filter.hpp"
#include "bloom/filter_view.hpp"
#include "bloom/format_error.hpp"
#include "bloom/fuse_filter.hpp"
#include "bloom/guava.hpp"
#include "bloom/hash.hpp"
#include "bloom/mapped_file.hpp"
#include "bloom/parquet.hpp"
#include "bloom/parquet_file.hpp"
#include "bloom/scalable_bloom_filter.hpp"
#include "bloom/serialization.hpp"
#include "bloom/sizing.hpp"
#include "bloom/update_file.hpp"
#include "bloom/version.hpp"

#endif // BLOOM_BLOOM_HPP
