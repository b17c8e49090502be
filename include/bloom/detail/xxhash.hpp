// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_XXHASH_HPP
#define BLOOM_DETAIL_XXHASH_HPP

// The one place <xxhash.h> (the libxxhash-dev package, xxHash 0.8) is included, the way every header needs
// it: inline (XXH_INLINE_ALL, so nothing is linked and the hash functions inline into the filters), and with
// GCC's false warnings inside its intrinsics silenced. The default hasher (XXH3), the file checksums (XXH3)
// and Parquet's hash (XXH64) all come through here.

#ifndef XXH_INLINE_ALL
#    define XXH_INLINE_ALL
#endif
// GCC 12 reports false "may be used uninitialized" warnings inside its own AVX-512 intrinsics when they
// are inlined into XXH3's long-input path (GCC bug 105593), which breaks -Werror builds with -march=native.
#if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wuninitialized"
#    pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <xxhash.h>
#if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic pop
#endif

#endif // BLOOM_DETAIL_XXHASH_HPP
