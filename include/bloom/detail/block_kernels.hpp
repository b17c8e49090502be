// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_BLOCK_KERNELS_HPP
#define BLOOM_DETAIL_BLOCK_KERNELS_HPP

// The blocked filter's inner step: test or set an item's eight bits inside one 512-bit block.
//
// A block is eight 64-bit words; an item sets one bit in each. Its 48-bit `pattern` holds the eight bit
// indexes, six bits each: word i gets bit (pattern >> 6i) & 63. One bit per 64-bit word is the layout
// that needs the fewest bits per item among one-cache-line layouts at 1% (about 10.1; REFERENCES.md),
// and its masks are a per-lane variable shift: one instruction per four (AVX2) or eight (AVX-512) words.
//
// The kernel is chosen at compile time from the target's instruction set (AVX-512F, AVX2, SSE2, NEON).
// A build for plain x86-64 (no -march, as distributions and CMake's default flags make) would get only
// SSE2, whose lack of a per-lane shift made lookups 2.3x slower than AVX2's; there the AVX2 kernel is
// compiled with GCC/Clang's `target("avx2")` attribute and chosen at run time when the CPU (and the OS's
// saved register state) supports it, so ordinary builds get the fast kernel and older CPUs still run.
// BLOOM_DISABLE_SIMD forces the portable scalar one. Every kernel sets exactly the bits of the scalar one
// (a golden test compares them), so filters built on any machine are interchangeable.

#include "bloom/detail/config.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/sizing.hpp"

#include <cstdint>

#if !defined(BLOOM_DISABLE_SIMD)
#    if defined(__AVX512F__)
#        define BLOOM_DETAIL_BLOCK_KERNEL_AVX512 1
#    elif defined(__AVX2__)
#        define BLOOM_DETAIL_BLOCK_KERNEL_AVX2 1
#    elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#        define BLOOM_DETAIL_BLOCK_KERNEL_SSE2 1
#        define BLOOM_DETAIL_BLOCK_KERNEL_AVX2 1
#        define BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME 1
#    elif defined(__SSE2__) || defined(_M_X64)
#        define BLOOM_DETAIL_BLOCK_KERNEL_SSE2 1
#    elif defined(__ARM_NEON) && defined(__aarch64__)
#        define BLOOM_DETAIL_BLOCK_KERNEL_NEON 1
#        include <arm_neon.h>
#    endif
// GCC 12 reports false "may be used uninitialized" warnings inside its own AVX-512 intrinsics (GCC bug
// 105593); silencing them for the intrinsic headers keeps -Werror builds with -march=native working.
#    if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512) || defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
#        if defined(__GNUC__) && !defined(__clang__)
#            pragma GCC diagnostic push
#            pragma GCC diagnostic ignored "-Wuninitialized"
#            pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#        endif
#        include <immintrin.h>
#        if defined(__GNUC__) && !defined(__clang__)
#            pragma GCC diagnostic pop
#        endif
#    endif
#    if defined(BLOOM_DETAIL_BLOCK_KERNEL_SSE2)
#        include <emmintrin.h>
#    endif
#endif

// The AVX2 kernels: inlined where the compiler targets AVX2, separate `target("avx2")` functions where
// they are chosen at run time (a function for another target cannot be inlined into its caller).
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
#    define BLOOM_DETAIL_AVX2_KERNEL __attribute__((target("avx2"))) inline
#else
#    define BLOOM_DETAIL_AVX2_KERNEL BLOOM_FORCE_INLINE
#endif

namespace bloom::detail {

/// The first word of the block an item's hash selects, in a filter of `block_count` blocks: the hash's
/// high bits by multiply-shift. Every filter of the blocked layout (plain, concurrent) calls this.
[[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t block_offset(std::uint64_t hash,
                                                            std::uint64_t block_count) noexcept {
    return reduce_to_range(hash, block_count) * block_word_count;
}

/// A block with every bit set: what a filter without blocks (moved-from) looks items up in.
alignas(64) inline constexpr std::uint64_t full_block[block_word_count] = {~0ULL, ~0ULL, ~0ULL, ~0ULL,
                                                                           ~0ULL, ~0ULL, ~0ULL, ~0ULL};

/// The item's in-block pattern: a remix of the whole hash, so it is independent of the block choice
/// (bits shared between the two measurably raise the rate). Eight 6-bit fields, one per word.
[[nodiscard]] constexpr std::uint64_t block_pattern(std::uint64_t hash) noexcept { return mix64(hash); }

/// The mask of the pattern's bit in word `word` of a block.
[[nodiscard]] constexpr std::uint64_t block_word_mask(std::uint64_t pattern, unsigned word) noexcept {
    return std::uint64_t{1} << ((pattern >> (6 * word)) & 63);
}

/// Portable reference kernel: true if all eight bits of `pattern` are set in `block`. `block[i]` yields word
/// i: a plain pointer, or the concurrent filter's relaxed loads (the SIMD kernels' wide loads would race).
template <class Words>
[[nodiscard]] inline bool scalar_block_contains(const Words& block, std::uint64_t pattern) noexcept {
    // Each word is read once and its bit shifted down into bit 0, with no branch per word: a miss is a coin
    // flip per word that a branch would mispredict. Unrolled by hand because GCC leaves the loop rolled
    // around atomic loads, which costs the concurrent filter a third of an in-cache lookup.
    const std::uint64_t all_set =
        (block[0] >> (pattern & 63)) & (block[1] >> ((pattern >> 6) & 63)) &
        (block[2] >> ((pattern >> 12) & 63)) & (block[3] >> ((pattern >> 18) & 63)) &
        (block[4] >> ((pattern >> 24) & 63)) & (block[5] >> ((pattern >> 30) & 63)) &
        (block[6] >> ((pattern >> 36) & 63)) & (block[7] >> ((pattern >> 42) & 63));
    return (all_set & 1) != 0;
}

/// Portable reference kernel: sets the eight bits; returns true if any was clear before. `block[i]` is word
/// i, read once and assigned once: a plain pointer, or the concurrent filter's relaxed loads and stores.
template <class Words>
inline bool scalar_block_insert(Words&& block, std::uint64_t pattern) noexcept {
    std::uint64_t missing = 0;
    for (unsigned word = 0; word < 8; ++word) {
        const std::uint64_t mask = block_word_mask(pattern, word);
        const std::uint64_t old = block[word];
        missing |= ~old & mask;
        block[word] = old | mask;
    }
    return missing != 0;
}

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512)
[[nodiscard]] BLOOM_FORCE_INLINE __m512i avx512_block_masks(std::uint64_t pattern) noexcept {
    const __m512i shifts = _mm512_setr_epi64(0, 6, 12, 18, 24, 30, 36, 42);
    const __m512i indexes = _mm512_and_si512(
        _mm512_srlv_epi64(_mm512_set1_epi64(static_cast<long long>(pattern)), shifts), _mm512_set1_epi64(63));
    return _mm512_sllv_epi64(_mm512_set1_epi64(1), indexes);
}

[[nodiscard]] BLOOM_FORCE_INLINE bool avx512_block_contains(const std::uint64_t* block,
                                                            std::uint64_t pattern) noexcept {
    const __m512i masks = avx512_block_masks(pattern);
    // A lane's test bit is set where block & mask != 0: all eight set means all bits present.
    return _mm512_test_epi64_mask(_mm512_loadu_si512(block), masks) == 0xff;
}

BLOOM_FORCE_INLINE bool avx512_block_insert(std::uint64_t* block, std::uint64_t pattern) noexcept {
    const __m512i masks = avx512_block_masks(pattern);
    const __m512i words = _mm512_loadu_si512(block);
    const bool was_new = _mm512_test_epi64_mask(words, masks) != 0xff;
    _mm512_storeu_si512(block, _mm512_or_si512(words, masks));
    return was_new;
}
#endif

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
struct avx2_block_masks {
    __m256i low;  // words 0-3
    __m256i high; // words 4-7
};

[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL avx2_block_masks avx2_masks_of(std::uint64_t pattern) noexcept {
    const __m256i broadcast = _mm256_set1_epi64x(static_cast<long long>(pattern));
    const __m256i six_bits = _mm256_set1_epi64x(63);
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i low_indexes =
        _mm256_and_si256(_mm256_srlv_epi64(broadcast, _mm256_setr_epi64x(0, 6, 12, 18)), six_bits);
    const __m256i high_indexes =
        _mm256_and_si256(_mm256_srlv_epi64(broadcast, _mm256_setr_epi64x(24, 30, 36, 42)), six_bits);
    return {_mm256_sllv_epi64(one, low_indexes), _mm256_sllv_epi64(one, high_indexes)};
}

[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL bool avx2_block_contains(const std::uint64_t* block,
                                                                std::uint64_t pattern) noexcept {
    const avx2_block_masks masks = avx2_masks_of(pattern);
    const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block));
    const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 4));
    // testc(a, b) is 1 when (~a & b) == 0: every mask bit is present in the words.
    return (_mm256_testc_si256(low, masks.low) & _mm256_testc_si256(high, masks.high)) != 0;
}

BLOOM_DETAIL_AVX2_KERNEL bool avx2_block_insert(std::uint64_t* block, std::uint64_t pattern) noexcept {
    const avx2_block_masks masks = avx2_masks_of(pattern);
    __m256i* const words = reinterpret_cast<__m256i*>(block);
    const __m256i low = _mm256_loadu_si256(words);
    const __m256i high = _mm256_loadu_si256(words + 1);
    const bool was_new = (_mm256_testc_si256(low, masks.low) & _mm256_testc_si256(high, masks.high)) == 0;
    _mm256_storeu_si256(words, _mm256_or_si256(low, masks.low));
    _mm256_storeu_si256(words + 1, _mm256_or_si256(high, masks.high));
    return was_new;
}
#endif

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_SSE2)
// SSE2 has no per-lane variable shift: the masks are built in scalar registers, the block is tested and
// updated two words per instruction.
[[nodiscard]] BLOOM_FORCE_INLINE __m128i sse2_mask_pair(std::uint64_t pattern, unsigned first_word) noexcept {
    return _mm_set_epi64x(static_cast<long long>(block_word_mask(pattern, first_word + 1)),
                          static_cast<long long>(block_word_mask(pattern, first_word)));
}

[[nodiscard]] BLOOM_FORCE_INLINE bool sse2_block_contains(const std::uint64_t* block,
                                                          std::uint64_t pattern) noexcept {
    const __m128i* const words = reinterpret_cast<const __m128i*>(block);
    __m128i missing = _mm_setzero_si128();
    for (unsigned pair = 0; pair < 4; ++pair) {
        missing = _mm_or_si128(
            missing, _mm_andnot_si128(_mm_loadu_si128(words + pair), sse2_mask_pair(pattern, 2 * pair)));
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi8(missing, _mm_setzero_si128())) == 0xffff;
}

BLOOM_FORCE_INLINE bool sse2_block_insert(std::uint64_t* block, std::uint64_t pattern) noexcept {
    __m128i* const words = reinterpret_cast<__m128i*>(block);
    __m128i missing = _mm_setzero_si128();
    for (unsigned pair = 0; pair < 4; ++pair) {
        const __m128i masks = sse2_mask_pair(pattern, 2 * pair);
        const __m128i current = _mm_loadu_si128(words + pair);
        missing = _mm_or_si128(missing, _mm_andnot_si128(current, masks));
        _mm_storeu_si128(words + pair, _mm_or_si128(current, masks));
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi8(missing, _mm_setzero_si128())) != 0xffff;
}
#endif

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_NEON)
// NEON shifts each lane by its own signed count (negative shifts right).
[[nodiscard]] BLOOM_FORCE_INLINE uint64x2_t neon_mask_pair(uint64x2_t broadcast,
                                                           unsigned first_word) noexcept {
    const std::int64_t counts[2] = {-static_cast<std::int64_t>(6 * first_word),
                                    -static_cast<std::int64_t>(6 * (first_word + 1))};
    const uint64x2_t indexes = vandq_u64(vshlq_u64(broadcast, vld1q_s64(counts)), vdupq_n_u64(63));
    return vshlq_u64(vdupq_n_u64(1), vreinterpretq_s64_u64(indexes));
}

[[nodiscard]] BLOOM_FORCE_INLINE bool neon_block_contains(const std::uint64_t* block,
                                                          std::uint64_t pattern) noexcept {
    const uint64x2_t broadcast = vdupq_n_u64(pattern);
    uint64x2_t missing = vdupq_n_u64(0);
    for (unsigned pair = 0; pair < 4; ++pair) {
        missing =
            vorrq_u64(missing, vbicq_u64(neon_mask_pair(broadcast, 2 * pair), vld1q_u64(block + 2 * pair)));
    }
    return (vgetq_lane_u64(missing, 0) | vgetq_lane_u64(missing, 1)) == 0;
}

BLOOM_FORCE_INLINE bool neon_block_insert(std::uint64_t* block, std::uint64_t pattern) noexcept {
    const uint64x2_t broadcast = vdupq_n_u64(pattern);
    uint64x2_t missing = vdupq_n_u64(0);
    for (unsigned pair = 0; pair < 4; ++pair) {
        const uint64x2_t masks = neon_mask_pair(broadcast, 2 * pair);
        const uint64x2_t current = vld1q_u64(block + 2 * pair);
        missing = vorrq_u64(missing, vbicq_u64(masks, current));
        vst1q_u64(block + 2 * pair, vorrq_u64(current, masks));
    }
    return (vgetq_lane_u64(missing, 0) | vgetq_lane_u64(missing, 1)) != 0;
}
#endif

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
/// True if this CPU runs AVX2 and the OS saves its registers: asked of the compiler runtime's CPU model
/// once; afterwards a load and a predictable branch per call.
[[nodiscard]] inline bool cpu_runs_avx2() noexcept {
    static const bool runs_avx2 = (__builtin_cpu_init(), __builtin_cpu_supports("avx2") != 0);
    return runs_avx2;
}
#endif

/// The kernel block_contains and block_insert use on this machine: "avx512", "avx2", "sse2", "neon" or
/// "scalar".
[[nodiscard]] inline const char* block_kernel_name() noexcept {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512)
    return "avx512";
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    return cpu_runs_avx2() ? "avx2" : "sse2";
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
    return "avx2";
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_SSE2)
    return "sse2";
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_NEON)
    return "neon";
#else
    return "scalar";
#endif
}

/// True if all eight bits of `pattern` are set in the 512-bit `block`, with this machine's kernel.
[[nodiscard]] BLOOM_FORCE_INLINE bool block_contains(const std::uint64_t* block,
                                                     std::uint64_t pattern) noexcept {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512)
    return avx512_block_contains(block, pattern);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    return cpu_runs_avx2() ? avx2_block_contains(block, pattern) : sse2_block_contains(block, pattern);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
    return avx2_block_contains(block, pattern);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_SSE2)
    return sse2_block_contains(block, pattern);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_NEON)
    return neon_block_contains(block, pattern);
#else
    return scalar_block_contains(block, pattern);
#endif
}

/// Sets the eight bits of `pattern` in `block`, with this machine's kernel; true if any was clear before.
BLOOM_FORCE_INLINE bool block_insert(std::uint64_t* block, std::uint64_t pattern) noexcept {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512)
    return avx512_block_insert(block, pattern);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    return cpu_runs_avx2() ? avx2_block_insert(block, pattern) : sse2_block_insert(block, pattern);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
    return avx2_block_insert(block, pattern);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_SSE2)
    return sse2_block_insert(block, pattern);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_NEON)
    return neon_block_insert(block, pattern);
#else
    return scalar_block_insert(block, pattern);
#endif
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_BLOCK_KERNELS_HPP
