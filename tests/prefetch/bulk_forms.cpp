// SPDX-License-Identifier: MIT
// One function per bulk operation of every structure, for scripts/check-prefetch.py: each one, with the
// functions it calls, must contain a prefetch instruction. GCC deletes a call that only prefetches (it
// writes no memory), and the bulk operations of several filters lost every prefetch that way without a
// test noticing, as prefetches change speed, never answers. Each function is extern "C" so the script finds
// it by name.
#include <bloom/bloom.hpp>
#include <cstddef>
#include <cstdint>
#include <string>

#define BLOOM_PREFETCH_FORMS(name, type, key)                                                                \
    extern "C" std::size_t bulk_insert_##name(type& filter, const key* keys, std::size_t count) {            \
        return filter.insert(keys, keys + count);                                                            \
    }                                                                                                        \
    extern "C" bool* bulk_contains_##name(const type& filter, const key* keys, std::size_t count,            \
                                          bool* out) {                                                       \
        return filter.contains(keys, keys + count, out);                                                     \
    }

BLOOM_PREFETCH_FORMS(classic, bloom::bloom_filter<std::uint64_t>, std::uint64_t)
BLOOM_PREFETCH_FORMS(blocked, bloom::blocked_bloom_filter<std::uint64_t>, std::uint64_t)
BLOOM_PREFETCH_FORMS(counting, bloom::counting_bloom_filter<std::uint64_t>, std::uint64_t)
BLOOM_PREFETCH_FORMS(scalable, bloom::scalable_bloom_filter<std::uint64_t>, std::uint64_t)
BLOOM_PREFETCH_FORMS(concurrent_classic, bloom::concurrent_bloom_filter<std::uint64_t>, std::uint64_t)
BLOOM_PREFETCH_FORMS(concurrent_blocked, bloom::concurrent_blocked_bloom_filter<std::uint64_t>, std::uint64_t)
BLOOM_PREFETCH_FORMS(parquet, bloom::parquet::split_block_filter<std::int64_t>, std::int64_t)

extern "C" bool* bulk_contains_fuse8(const bloom::fuse_filter<std::uint64_t>& filter,
                                     const std::uint64_t* keys, std::size_t count, bool* out) {
    return filter.contains(keys, keys + count, out);
}

extern "C" std::size_t bulk_insert_blocked_string(bloom::blocked_bloom_filter<std::string>& filter,
                                                  const std::string* keys, std::size_t count) {
    return filter.insert(keys, keys + count);
}
