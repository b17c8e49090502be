// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_BLOCK_KERNELS_HPP
#define BLOOM_DETAIL_BLOCK_KERNELS_HPP

// The blocked filter's inner step: test or set an item's bits inside one 512-bit block, by one of two
// patterns (bloom::probe_scheme):
//
// - bits_anywhere, every new filter: k distinct bits (1 to 16, k chosen from the bits per item) anywhere
//   in the block, probe i at a per-item bijection of the numbers mod 512 applied to i (anywhere_bit). The
//   sixteen probes are computed at once (in 32-bit lanes with AVX-512, 16-bit ones elsewhere), and a
//   permute fetches each probe's 32-bit word.
//   Choosing k from the bits per item, as RocksDB's cache-local filter does, and keeping an item's bits
//   distinct is what lets it reach 1% at about 9.9 bits per item where the fixed eight bits need 10.1.
// - one_bit_per_word, files saved before: one bit in each of the block's eight 64-bit words, k = 8. Its
//   48-bit `pattern` holds the eight bit indexes, six bits each: word i gets bit (pattern >> 6i) & 63, a
//   per-lane variable shift (one instruction per four (AVX2) or eight (AVX-512) words).
//
// Bit b of a block is bit b % 64 of its 64-bit word b / 64, which on a little-endian machine is bit b % 32
// of 32-bit word b / 32: the SIMD kernels read the block as sixteen 32-bit words.
//
// The kernel is chosen at compile time from the target's instruction set (AVX-512F, AVX2, SSE2, NEON).
// A build for plain x86-64 (no -march, as distributions and CMake's default flags make) would get only
// SSE2, whose lack of a per-lane shift made lookups 2.3x slower than AVX2's; there the AVX2 and AVX-512
// kernels are compiled with GCC/Clang's `target` attribute and the widest one the CPU (and the OS's saved
// register state) supports is chosen at run time, so ordinary builds get the fast kernel and older CPUs
// still run. A blocked filter's operations, single and bulk, are compiled as a whole for each kernel set
// and choose once per call (kernel_set, with_block_kernels), as a kernel called per item left bulk
// operations at -O2 1.45-2x slower than with -march=native.
// BLOOM_DISABLE_SIMD forces the portable scalar one. Every kernel sets exactly the bits of the scalar one
// (a golden test compares them), so filters built on any machine are interchangeable.

#include "bloom/detail/atomic_words.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/probe.hpp"

#include <cstdint>
#include <type_traits>

#if !defined(BLOOM_DISABLE_SIMD)
#    if defined(__AVX512F__)
#        define BLOOM_DETAIL_BLOCK_KERNEL_AVX512 1
#    elif defined(__AVX2__)
#        define BLOOM_DETAIL_BLOCK_KERNEL_AVX2 1
#    elif defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#        define BLOOM_DETAIL_BLOCK_KERNEL_SSE2 1
#        define BLOOM_DETAIL_BLOCK_KERNEL_AVX2 1
#        define BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME 1
#        define BLOOM_DETAIL_BLOCK_KERNEL_AVX512_AT_RUN_TIME 1
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
// Likewise the AVX-512 kernels: a build for plain x86-64 compiles them with `target("avx512f")` and runs
// them on CPUs that have AVX-512 (its AVX2 inserts took 1.5x as long as -march=native's AVX-512 ones).
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512_AT_RUN_TIME)
#    define BLOOM_DETAIL_AVX512_KERNEL __attribute__((target("avx512f"))) inline
#else
#    define BLOOM_DETAIL_AVX512_KERNEL BLOOM_FORCE_INLINE
#endif
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512) || defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512_AT_RUN_TIME)
#    define BLOOM_DETAIL_HAS_AVX512_KERNELS 1
#endif

namespace bloom::detail {

/// The first word of the block an item's hash selects, in a filter of `block_count` blocks: the hash's
/// high bits by multiply-shift. Every filter of the blocked layout (plain, concurrent) calls this.
[[nodiscard]] BLOOM_FORCE_INLINE std::uint64_t block_offset(std::uint64_t hash,
                                                            std::uint64_t block_count) noexcept {
    return reduce_to_range(hash, block_count) * block_word_count;
}

/// A block with no bit set: what an empty filter (no blocks) looks items up in, by the one_bit_per_word
/// pattern, which finds nothing there whatever k is.
alignas(64) inline constexpr std::uint64_t empty_block[block_word_count] = {};

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

#if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL __m512i avx512_block_masks(std::uint64_t pattern) noexcept {
    const __m512i shifts = _mm512_setr_epi64(0, 6, 12, 18, 24, 30, 36, 42);
    const __m512i indexes = _mm512_and_si512(
        _mm512_srlv_epi64(_mm512_set1_epi64(static_cast<long long>(pattern)), shifts), _mm512_set1_epi64(63));
    return _mm512_sllv_epi64(_mm512_set1_epi64(1), indexes);
}

[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL bool avx512_block_contains(const std::uint64_t* block,
                                                                    std::uint64_t pattern) noexcept {
    const __m512i masks = avx512_block_masks(pattern);
    // A lane's test bit is set where block & mask != 0: all eight set means all bits present.
    return _mm512_test_epi64_mask(_mm512_loadu_si512(block), masks) == 0xff;
}

BLOOM_DETAIL_AVX512_KERNEL bool avx512_block_insert(std::uint64_t* block, std::uint64_t pattern) noexcept {
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

// ---- bits_anywhere ----

/// Makes the compiler assume `object` changed in memory, so it reloads it from there: the insert kernels
/// then broadcast each probe's bit with a load instead of shuffling it out of the register it was computed
/// in.
template <class T>
BLOOM_FORCE_INLINE void keep_in_memory(T& object) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+m"(object));
#else
    (void)object;
#endif
}

/// Where the AVX-512 bits_anywhere insert kernel broadcasts each probe's bit from, to build the block's
/// masks (the other kernels have one way each; every way sets the same bits):
/// - from_memory: the probes' bits are stored to the stack and each is broadcast with a load, which leaves
///   the shuffle port alone: the faster one where each insert's block is at hand (single inserts, and
///   bulk inserts into a filter in the cache).
/// - from_registers: each is permuted out of the register it was computed in. Bulk inserts past the cache
///   keep dozens of block stores waiting for their lines, and the 64-byte store of the probes' bits per
///   item queues behind them: at 10^7 items (12 MB) from_memory took 12.5-13.1 ns per bulk insert and
///   from_registers 7.4-8.2 (Zen 5), while single inserts measured the other way round.
enum class bit_broadcast { from_memory, from_registers };

/// The per-item constants of the bits_anywhere pattern, from the item's 32-bit probe seed: two odd
/// multipliers' worth of randomness mod 512 (a, c) and two offsets (b, d).
struct anywhere_probe {
    std::uint32_t a;
    std::uint32_t b;
    std::uint32_t c;
    std::uint32_t d;
};

/// The probe seed s is the hash's low 32 bits: block_offset takes the block from the high bits
/// (multiply-shift), so the block and the bits in it are independent. a = 2 (s mod 2^8) + 1,
/// b = (s >> 8) mod 2^9, d = (s >> 17) mod 2^9, and c = 2 (t >> 24) + 1 with t = s * 0x9e3779b9 mod 2^32.
[[nodiscard]] BLOOM_FORCE_INLINE constexpr anywhere_probe anywhere_probe_of(std::uint64_t hash) noexcept {
    const auto seed = static_cast<std::uint32_t>(hash);
    const std::uint32_t mixed = seed * 0x9e3779b9U;
    return {((seed & 0xffU) << 1) | 1U, (seed >> 8) & 511U, ((mixed >> 24) << 1) | 1U, (seed >> 17) & 511U};
}

/// The block bit, 0 to 511, of probe `i`: x = (a i + b) mod 512, x = x xor d, x = x xor (x >> 4), bit =
/// c x mod 512. Each step is a bijection of the numbers mod 512, so an item's k bits are k distinct bits.
/// Distinct bits measure the rate of random k-subsets of the block (the rate formula's model, 0.0822% at
/// 16 bits per item); k independent probes, which may repeat a bit, measure 0.0844%; without the xorshift
/// the subsets are visibly structured (0.0865%). One multiply per probe, and all arithmetic is mod 2^16
/// before the final mask, so SIMD computes sixteen probes in 16-bit lanes.
[[nodiscard]] BLOOM_FORCE_INLINE constexpr unsigned anywhere_bit(const anywhere_probe& probe,
                                                                 unsigned i) noexcept {
    std::uint32_t x = ((probe.a * i + probe.b) & 511U) ^ probe.d;
    x ^= x >> 4;
    return (x * probe.c) & 511U;
}

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512) || defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
/// All sixteen probes' bits at once, in 16-bit lanes (anywhere_bit, lane i = probe i).
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL __m256i avx2_anywhere_bits(std::uint64_t hash) noexcept {
    const anywhere_probe probe = anywhere_probe_of(hash);
    const __m256i nine_bits = _mm256_set1_epi16(511);
    const __m256i probes = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m256i x = _mm256_and_si256(
        _mm256_add_epi16(_mm256_mullo_epi16(probes, _mm256_set1_epi16(static_cast<short>(probe.a))),
                         _mm256_set1_epi16(static_cast<short>(probe.b))),
        nine_bits);
    x = _mm256_xor_si256(x, _mm256_set1_epi16(static_cast<short>(probe.d)));
    x = _mm256_xor_si256(x, _mm256_srli_epi16(x, 4));
    return _mm256_and_si256(_mm256_mullo_epi16(x, _mm256_set1_epi16(static_cast<short>(probe.c))), nine_bits);
}
#endif

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_SSE2)
// Eight probes' bits from `first`, in 16-bit lanes (SSE2: every x86-64 CPU).
[[nodiscard]] BLOOM_FORCE_INLINE __m128i sse2_anywhere_bits(const anywhere_probe& probe,
                                                            short first) noexcept {
    const __m128i nine_bits = _mm_set1_epi16(511);
    const __m128i probes = _mm_add_epi16(_mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7), _mm_set1_epi16(first));
    __m128i x =
        _mm_and_si128(_mm_add_epi16(_mm_mullo_epi16(probes, _mm_set1_epi16(static_cast<short>(probe.a))),
                                    _mm_set1_epi16(static_cast<short>(probe.b))),
                      nine_bits);
    x = _mm_xor_si128(x, _mm_set1_epi16(static_cast<short>(probe.d)));
    x = _mm_xor_si128(x, _mm_srli_epi16(x, 4));
    return _mm_and_si128(_mm_mullo_epi16(x, _mm_set1_epi16(static_cast<short>(probe.c))), nine_bits);
}
#endif

/// The block bits of the item's first `hash_count` probes (anywhere_bit), into `bits`: eight or sixteen at
/// once in 16-bit SIMD lanes where the target has them (every x86-64 and ARMv8 CPU). Computing them one by
/// one, interleaved with the updates, made inserts five times slower than the one_bit_per_word kernel.
BLOOM_FORCE_INLINE void anywhere_bits(std::uint64_t hash, unsigned hash_count,
                                      std::uint16_t (&bits)[max_block_hash_count]) noexcept {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512) ||                                                             \
    (defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2) && !defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME))
    (void)hash_count;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bits), avx2_anywhere_bits(hash));
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_SSE2)
    const anywhere_probe probe = anywhere_probe_of(hash);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(bits), sse2_anywhere_bits(probe, 0));
    if (hash_count > 8) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(bits + 8), sse2_anywhere_bits(probe, 8));
    }
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_NEON)
    const anywhere_probe probe = anywhere_probe_of(hash);
    const uint16x8_t nine_bits = vdupq_n_u16(511);
    const std::uint16_t lanes[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (unsigned first = 0; first < hash_count; first += 8) {
        const uint16x8_t probes = vaddq_u16(vld1q_u16(lanes), vdupq_n_u16(static_cast<std::uint16_t>(first)));
        uint16x8_t x = vandq_u16(vmlaq_u16(vdupq_n_u16(static_cast<std::uint16_t>(probe.b)), probes,
                                           vdupq_n_u16(static_cast<std::uint16_t>(probe.a))),
                                 nine_bits);
        x = veorq_u16(x, vdupq_n_u16(static_cast<std::uint16_t>(probe.d)));
        x = veorq_u16(x, vshrq_n_u16(x, 4));
        vst1q_u16(bits + first,
                  vandq_u16(vmulq_u16(x, vdupq_n_u16(static_cast<std::uint16_t>(probe.c))), nine_bits));
    }
#else
    const anywhere_probe probe = anywhere_probe_of(hash);
    for (unsigned i = 0; i < hash_count; ++i) {
        bits[i] = static_cast<std::uint16_t>(anywhere_bit(probe, i));
    }
#endif
}

/// Portable reference kernel: true if all `hash_count` bits of the item with `hash` are set in `block`
/// (`block[i]` yields 64-bit word i: a plain pointer or relaxed atomic loads). No branch per probe.
template <class Words>
[[nodiscard]] inline bool scalar_anywhere_contains(const Words& block, std::uint64_t hash,
                                                   unsigned hash_count) noexcept {
    std::uint16_t bits[max_block_hash_count];
    anywhere_bits(hash, hash_count, bits);
    std::uint64_t missing = 0;
    for (unsigned i = 0; i < hash_count; ++i) {
        missing |= ~(static_cast<std::uint64_t>(block[bits[i] / 64U]) >> (bits[i] % 64U));
    }
    return (missing & 1) == 0;
}

/// Portable kernel, and the one every machine inserts with: sets the item's bits; true if any was clear
/// before. `block[i]` is word i (a plain pointer, or the concurrent filter's relaxed loads and stores under
/// its stripe lock). One read-modify-write per probe: gathering the bits into eight word masks first made
/// GCC reload the masks with vector loads that cannot forward from the scalar stores (3x slower inserts).
template <class Words>
inline bool scalar_anywhere_insert(Words&& block, std::uint64_t hash, unsigned hash_count) noexcept {
    std::uint16_t bits[max_block_hash_count];
    anywhere_bits(hash, hash_count, bits);
    std::uint64_t missing = 0;
    for (unsigned i = 0; i < hash_count; ++i) {
        const unsigned bit = bits[i];
        const std::uint64_t mask = std::uint64_t{1} << (bit % 64);
        const std::uint64_t old = block[bit / 64];
        missing |= ~old & mask;
        block[bit / 64] = old | mask;
    }
    return missing != 0;
}

#if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
/// All sixteen probes' bits at once in 32-bit lanes (anywhere_bit, lane i = probe i), from one broadcast of
/// the probe seed: a, b, c and d are derived in the lanes, with no scalar arithmetic and no transfer from
/// a general register but the one. Computing them as scalars, broadcasting each into 16-bit lanes and
/// widening the result took 42 instructions from the hash to a lookup's answer instead of 32, and was
/// 1.2-1.3x slower (single and bulk, 10^6 u64 keys, Zen 5). Only bits 0 to 8 of each lane are the bit: the
/// permute and the rotate of the lookup read no higher ones, so the final mod 512 is left to callers that
/// need it.
[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL __m512i avx512_anywhere_bits(std::uint64_t hash) noexcept {
    const __m512i seed = _mm512_set1_epi32(static_cast<int>(hash));
    const __m512i probes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i nine_bits = _mm512_set1_epi32(511);
    // a i + b with a = 2s + 1 and b = s >> 8 (their high bits vanish in the mask below).
    const __m512i a = _mm512_or_si512(_mm512_add_epi32(seed, seed), _mm512_set1_epi32(1));
    const __m512i line = _mm512_add_epi32(_mm512_mullo_epi32(probes, a), _mm512_srli_epi32(seed, 8));
    // ((a i + b) mod 512) xor d = ((a i + b) xor (s >> 17)) mod 512: one ternary logic instruction.
    __m512i x = _mm512_ternarylogic_epi32(line, _mm512_srli_epi32(seed, 17), nine_bits, 0x28);
    x = _mm512_xor_si512(x, _mm512_srli_epi32(x, 4));
    // c = 2 (t >> 24) + 1 = (t >> 23) | 1 with t = s * 0x9e3779b9 mod 2^32.
    const __m512i c = _mm512_or_si512(
        _mm512_srli_epi32(_mm512_mullo_epi32(seed, _mm512_set1_epi32(static_cast<int>(0x9e3779b9U))), 23),
        _mm512_set1_epi32(1));
    return _mm512_mullo_epi32(x, c);
}

[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL bool
avx512_anywhere_contains(const std::uint64_t* block, std::uint64_t hash, unsigned hash_count) noexcept {
    const __m512i bits = avx512_anywhere_bits(hash);
    // Lane i gets the 32-bit word probe i falls in (the permute reads the low four bits of each index).
    const __m512i words = _mm512_permutexvar_epi32(_mm512_srli_epi32(bits, 5), _mm512_loadu_si512(block));
    // 1 rotated by the bit's low five bits is its mask in the word: no masking of the count, and the test
    // sets a probe's mask bit where its bit is clear (two instructions fewer than shift, and-not, test); the
    // answer is whether no probe's is, one mask test (kortest) rather than a move and a compare.
    const __m512i masks = _mm512_rolv_epi32(_mm512_set1_epi32(1), bits);
    const auto probes = static_cast<__mmask16>((1U << hash_count) - 1);
    return _mm512_mask_testn_epi32_mask(probes, words, masks) == 0;
}

#endif

#if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
// Sets the item's bits with one read-modify-write of the block. The masks are built in registers: for each
// probe, every 32-bit word w gets 1 << (bit - 32 w), which a variable shift makes 0 wherever bit - 32 w is
// outside [0, 32) (negative counts wrap to huge ones). Setting the k bits one word at a time was 4x slower
// than the one_bit_per_word kernel: k loads and stores of one line in flight together. Each probe's bit
// is broadcast from the stored array (a load) rather than permuted out of a register (a shuffle, the
// scarcest port): inserts at 10^6 items went from 10.2 to 8.3 ns.
template <bit_broadcast Broadcast = bit_broadcast::from_memory>
BLOOM_DETAIL_AVX512_KERNEL bool avx512_anywhere_insert(std::uint64_t* block, std::uint64_t hash,
                                                       unsigned hash_count) noexcept {
    const __m512i bit_lanes = _mm512_and_si512(avx512_anywhere_bits(hash), _mm512_set1_epi32(511));
    // Aligned: a 64-byte store across two lines forwards to the loads below slowly or not at all (GCC
    // placed it at rsp - 72 once this kernel was inlined into a whole bulk loop: 1.5x slower inserts).
    alignas(64) std::uint32_t bits[max_block_hash_count];
    if constexpr (Broadcast == bit_broadcast::from_memory) {
        _mm512_store_si512(bits, bit_lanes);
        keep_in_memory(bits);
    }
    const __m512i minus_word_starts = _mm512_setr_epi32(0, -32, -64, -96, -128, -160, -192, -224, -256, -288,
                                                        -320, -352, -384, -416, -448, -480);
    const __m512i one = _mm512_set1_epi32(1);
    __m512i masks = _mm512_setzero_si512();
    BLOOM_DETAIL_UNROLL(16)
    for (unsigned i = 0; i < hash_count; ++i) {
        __m512i bit;
        if constexpr (Broadcast == bit_broadcast::from_memory) {
            bit = _mm512_set1_epi32(static_cast<int>(bits[i]));
        } else {
            bit = _mm512_permutexvar_epi32(_mm512_set1_epi32(static_cast<int>(i)), bit_lanes);
        }
        masks = _mm512_or_si512(masks, _mm512_sllv_epi32(one, _mm512_add_epi32(minus_word_starts, bit)));
    }
    const __m512i old = _mm512_loadu_si512(block);
    const __m512i updated = _mm512_or_si512(old, masks);
    _mm512_storeu_si512(block, updated);
    return _mm512_cmpneq_epi32_mask(updated, old) != 0;
}
#endif

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
/// Eight probes' bits, probes `first` to `first + 7`, in 32-bit lanes, derived in the lanes from one
/// broadcast of the probe seed as avx512_anywhere_bits does: only bits 0 to 8 of each lane are the bit.
/// Lookups with avx2_anywhere_bits' 16-bit lanes (a, b, c and d derived as scalars and broadcast, the
/// result widened) took 1.12-1.28x as long (10^6 items, single and bulk, u64 and strings,
/// -march=x86-64-v3, Zen 5).
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL __m256i avx2_anywhere_lane_bits(std::uint64_t hash,
                                                                       int first) noexcept {
    const __m256i seed = _mm256_set1_epi32(static_cast<int>(hash));
    const __m256i probes =
        _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(first));
    const __m256i a = _mm256_or_si256(_mm256_add_epi32(seed, seed), _mm256_set1_epi32(1));
    const __m256i line = _mm256_add_epi32(_mm256_mullo_epi32(probes, a), _mm256_srli_epi32(seed, 8));
    __m256i x = _mm256_and_si256(_mm256_xor_si256(line, _mm256_srli_epi32(seed, 17)), _mm256_set1_epi32(511));
    x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 4));
    const __m256i c = _mm256_or_si256(
        _mm256_srli_epi32(_mm256_mullo_epi32(seed, _mm256_set1_epi32(static_cast<int>(0x9e3779b9U))), 23),
        _mm256_set1_epi32(1));
    return _mm256_mullo_epi32(x, c);
}

// Eight probes' bits (32-bit lanes), probes `first` to `first + 7`: the lanes of their bits that are clear
// in the block (zero where set or where the probe is past k).
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL __m256i avx2_anywhere_missing(__m256i low, __m256i high, __m256i bits,
                                                                     unsigned first,
                                                                     unsigned hash_count) noexcept {
    const __m256i indexes = _mm256_srli_epi32(bits, 5);
    // Each half of the block answers for the low three index bits; bit 3, moved to the sign, picks the half
    // (blendv_ps selects whole 32-bit lanes by their sign bit; blendv_epi8 would select bytes).
    const __m256i words =
        _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(low, indexes)),
                                             _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(high, indexes)),
                                             _mm256_castsi256_ps(_mm256_slli_epi32(indexes, 28))));
    const __m256i masks =
        _mm256_sllv_epi32(_mm256_set1_epi32(1), _mm256_and_si256(bits, _mm256_set1_epi32(31)));
    const __m256i used = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(hash_count - first)),
                                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm256_and_si256(_mm256_andnot_si256(words, masks), used);
}

[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL bool
avx2_anywhere_contains(const std::uint64_t* block, std::uint64_t hash, unsigned hash_count) noexcept {
    const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block));
    const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 4));
    __m256i missing = avx2_anywhere_missing(low, high, avx2_anywhere_lane_bits(hash, 0), 0, hash_count);
    if (hash_count > 8) { // the same way for every item of a filter: predicted
        missing = _mm256_or_si256(
            missing, avx2_anywhere_missing(low, high, avx2_anywhere_lane_bits(hash, 8), 8, hash_count));
    }
    return _mm256_testz_si256(missing, missing) != 0;
}

// As avx512_anywhere_insert, in two halves of eight 32-bit words. The bits are always broadcast from
// memory: its two 32-byte stores did not slow bulk inserts past the cache, where permutes did (9.3 against
// 8.1 ns at 10^7 items, -march=haswell on the machine of bit_broadcast's figures). They come from the
// 16-bit lanes: storing avx2_anywhere_lane_bits' instead measured the same within 4% (10^6 items, u64 and
// strings, -march=x86-64-v3, Zen 5).
BLOOM_DETAIL_AVX2_KERNEL bool avx2_anywhere_insert(std::uint64_t* block, std::uint64_t hash,
                                                   unsigned hash_count) noexcept {
    const __m256i bits16 = avx2_anywhere_bits(hash);
    std::uint32_t bits[max_block_hash_count];
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bits),
                        _mm256_cvtepu16_epi32(_mm256_castsi256_si128(bits16)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bits + 8),
                        _mm256_cvtepu16_epi32(_mm256_extracti128_si256(bits16, 1)));
    keep_in_memory(bits);
    const __m256i low_starts = _mm256_setr_epi32(0, 32, 64, 96, 128, 160, 192, 224);
    const __m256i high_starts = _mm256_setr_epi32(256, 288, 320, 352, 384, 416, 448, 480);
    const __m256i one = _mm256_set1_epi32(1);
    __m256i low = _mm256_setzero_si256();
    __m256i high = _mm256_setzero_si256();
    for (unsigned i = 0; i < hash_count; ++i) {
        const __m256i bit = _mm256_set1_epi32(static_cast<int>(bits[i]));
        low = _mm256_or_si256(low, _mm256_sllv_epi32(one, _mm256_sub_epi32(bit, low_starts)));
        high = _mm256_or_si256(high, _mm256_sllv_epi32(one, _mm256_sub_epi32(bit, high_starts)));
    }
    __m256i* const words = reinterpret_cast<__m256i*>(block);
    const __m256i old_low = _mm256_loadu_si256(words);
    const __m256i old_high = _mm256_loadu_si256(words + 1);
    const bool was_new = (_mm256_testc_si256(old_low, low) & _mm256_testc_si256(old_high, high)) == 0;
    _mm256_storeu_si256(words, _mm256_or_si256(old_low, low));
    _mm256_storeu_si256(words + 1, _mm256_or_si256(old_high, high));
    return was_new;
}
#endif

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
/// The widest kernel this CPU runs (and whose registers the OS saves), in a build for plain x86-64.
/// __builtin_cpu_supports reads the CPU model the compiler runtime fills in from a constructor that runs
/// before ordinary ones (were it read earlier, its zeros would pick SSE2, which sets the same bits): a load
/// and a test per call. A function-local static (a guard check) and a switch cost 1.2 ns of an 8 ns lookup.
enum class run_time_kernel { sse2, avx2, avx512 };

[[nodiscard]] BLOOM_FORCE_INLINE run_time_kernel cpu_block_kernel() noexcept {
    return __builtin_cpu_supports("avx512f") != 0 ? run_time_kernel::avx512
           : __builtin_cpu_supports("avx2") != 0  ? run_time_kernel::avx2
                                                  : run_time_kernel::sse2;
}

/// True if this CPU runs AVX2 (every CPU with AVX-512 does).
[[nodiscard]] inline bool cpu_runs_avx2() noexcept { return cpu_block_kernel() != run_time_kernel::sse2; }

/// True if this CPU runs AVX-512F.
[[nodiscard]] inline bool cpu_runs_avx512() noexcept { return cpu_block_kernel() == run_time_kernel::avx512; }
#endif

/// The kernel block_contains and block_insert use on this machine: "avx512", "avx2", "sse2", "neon" or
/// "scalar".
[[nodiscard]] inline const char* block_kernel_name() noexcept {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512)
    return "avx512";
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    switch (cpu_block_kernel()) {
    case run_time_kernel::avx512:
        return "avx512";
    case run_time_kernel::avx2:
        return "avx2";
    default:
        return "sse2";
    }
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
    switch (cpu_block_kernel()) {
    case run_time_kernel::avx512:
        return avx512_block_contains(block, pattern);
    case run_time_kernel::avx2:
        return avx2_block_contains(block, pattern);
    default:
        return sse2_block_contains(block, pattern);
    }
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
    switch (cpu_block_kernel()) {
    case run_time_kernel::avx512:
        return avx512_block_insert(block, pattern);
    case run_time_kernel::avx2:
        return avx2_block_insert(block, pattern);
    default:
        return sse2_block_insert(block, pattern);
    }
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

/// True if all `hash_count` bits of the item with `hash` are set in the 512-bit `block`, with this
/// machine's kernel (AVX-512 or AVX2; the scalar kernel elsewhere, which SSE2 and NEON would not beat).
[[nodiscard]] BLOOM_FORCE_INLINE bool anywhere_block_contains(const std::uint64_t* block, std::uint64_t hash,
                                                              unsigned hash_count) noexcept {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512)
    return avx512_anywhere_contains(block, hash, hash_count);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    switch (cpu_block_kernel()) {
    case run_time_kernel::avx512:
        return avx512_anywhere_contains(block, hash, hash_count);
    case run_time_kernel::avx2:
        return avx2_anywhere_contains(block, hash, hash_count);
    default:
        return scalar_anywhere_contains(block, hash, hash_count);
    }
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
    return avx2_anywhere_contains(block, hash, hash_count);
#else
    return scalar_anywhere_contains(block, hash, hash_count);
#endif
}

/// Sets the item's `hash_count` bits in `block`, with this machine's kernel; true if any was clear before.
template <bit_broadcast Broadcast = bit_broadcast::from_memory>
BLOOM_FORCE_INLINE bool anywhere_block_insert(std::uint64_t* block, std::uint64_t hash,
                                              unsigned hash_count) noexcept {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512)
    return avx512_anywhere_insert<Broadcast>(block, hash, hash_count);
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    switch (cpu_block_kernel()) {
    case run_time_kernel::avx512:
        return avx512_anywhere_insert<Broadcast>(block, hash, hash_count);
    case run_time_kernel::avx2:
        return avx2_anywhere_insert(block, hash, hash_count);
    default:
        return scalar_anywhere_insert(block, hash, hash_count);
    }
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
    return avx2_anywhere_insert(block, hash, hash_count);
#else
    return scalar_anywhere_insert(block, hash, hash_count);
#endif
}

/// Which kernels a blocked filter's step runs:
/// - chosen: this build's, inlined where the compiler targets AVX2 or AVX-512, and in a build for plain
///   x86-64 chosen per call among the `target` functions (a call per item: they cannot be inlined into
///   plain x86-64 code).
/// - avx512, avx2: those kernels, named directly, for code compiled as a whole for that instruction set
///   (with_block_kernels), into which they are inlined. Only a build for plain x86-64 uses them.
enum class kernel_set { chosen, avx512, avx2 };

/// A kernel_set as a type, for generic lambdas (C++17 has no template parameter lists on them).
template <kernel_set Kernels>
using kernel_set_tag = std::integral_constant<kernel_set, Kernels>;

/// True if every bit the item with `hash` sets in `block` under the blocked pattern `probes` (k =
/// `hash_count`) is set, with the kernels `Kernels`. The branch on the pattern goes the same way for
/// every item of a filter.
template <kernel_set Kernels = kernel_set::chosen>
[[nodiscard]] BLOOM_FORCE_INLINE bool item_in_block(const std::uint64_t* block, std::uint64_t hash,
                                                    probe_scheme probes, unsigned hash_count) noexcept {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    if constexpr (Kernels == kernel_set::avx512) {
        return probes == probe_scheme::bits_anywhere ? avx512_anywhere_contains(block, hash, hash_count)
                                                     : avx512_block_contains(block, block_pattern(hash));
    } else if constexpr (Kernels == kernel_set::avx2) {
        return probes == probe_scheme::bits_anywhere ? avx2_anywhere_contains(block, hash, hash_count)
                                                     : avx2_block_contains(block, block_pattern(hash));
    } else
#endif
    {
        return probes == probe_scheme::bits_anywhere ? anywhere_block_contains(block, hash, hash_count)
                                                     : block_contains(block, block_pattern(hash));
    }
}

/// Sets the item's bits in `block` (see item_in_block); true if any was clear before. `Broadcast` picks how
/// the AVX-512 bits_anywhere kernel builds its masks (bit_broadcast); every choice sets the same bits.
template <bit_broadcast Broadcast = bit_broadcast::from_memory, kernel_set Kernels = kernel_set::chosen>
BLOOM_FORCE_INLINE bool add_item_to_block(std::uint64_t* block, std::uint64_t hash, probe_scheme probes,
                                          unsigned hash_count) noexcept {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    if constexpr (Kernels == kernel_set::avx512) {
        return probes == probe_scheme::bits_anywhere
                   ? avx512_anywhere_insert<Broadcast>(block, hash, hash_count)
                   : avx512_block_insert(block, block_pattern(hash));
    } else if constexpr (Kernels == kernel_set::avx2) {
        return probes == probe_scheme::bits_anywhere ? avx2_anywhere_insert(block, hash, hash_count)
                                                     : avx2_block_insert(block, block_pattern(hash));
    } else
#endif
    {
        return probes == probe_scheme::bits_anywhere
                   ? anywhere_block_insert<Broadcast>(block, hash, hash_count)
                   : block_insert(block, block_pattern(hash));
    }
}

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
// `body(kernels, args...)` with the AVX-512 (AVX2) kernels, compiled for that instruction set as a whole:
// `flatten` inlines everything `body` calls, the loop and the kernels (and the hashing of a range), into
// this one `target` function. Both are taken by value, so a body that captures only the filter and an
// item's hash arrive in registers.
template <class Body, class... Args>
__attribute__((target("avx512f"), flatten)) decltype(auto) run_with_avx512_kernels(Body body, Args... args) {
    return body(kernel_set_tag<kernel_set::avx512>{}, args...);
}
template <class Body, class... Args>
__attribute__((target("avx2"), flatten)) decltype(auto) run_with_avx2_kernels(Body body, Args... args) {
    return body(kernel_set_tag<kernel_set::avx2>{}, args...);
}
#endif

/// Calls `body(kernel_set_tag<K>{}, args...)` with the kernel set a whole operation of blocked steps (one
/// item, or a range's loop) should run. In a build for plain x86-64 that is the widest set this CPU runs, and
/// `body` is compiled for it as a whole: one dispatch per call instead of one per item (bulk operations at
/// -O2 took 1.45-2.0x those of -march=native with a kernel call per item). Elsewhere it is `chosen`, inlined
/// anyway.
template <class Body, class... Args>
BLOOM_FORCE_INLINE decltype(auto) with_block_kernels(Body body, Args... args) {
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    switch (cpu_block_kernel()) {
    case run_time_kernel::avx512:
        return run_with_avx512_kernels(body, args...);
    case run_time_kernel::avx2:
        return run_with_avx2_kernels(body, args...);
    default:
        break;
    }
#endif
    return body(kernel_set_tag<kernel_set::chosen>{}, args...);
}

// ---- concurrent filters: the SIMD kernels on shared words ----
//
// A concurrent filter's block may be gaining bits from other threads while it is looked up. The SIMD
// kernels read it with the vector loads they would make on a plain block, written as assembly: to C++ a
// vector load of std::atomic words is a data race, but the CPU reads each aligned 64-bit word of it in one
// access (x86's guarantee for aligned quadwords), so every word is a value it held during the lookup,
// exactly what eight relaxed loads give. The scalar kernel over relaxed loads made concurrent lookups 2.2x
// as slow as plain ones; copying eight relaxed loads into an array for the SIMD kernel was slower still
// (eight narrow stores cannot forward to one wide load). The copy below is the loaded register stored to
// the stack, which the compiler folds into the kernel's own load.
#if defined(__GNUC__) || defined(__clang__)
#    if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS) || defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
#        define BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS 1
#    endif
#endif

#if defined(BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS)
static_assert(sizeof(atomic_word) == sizeof(std::uint64_t) && atomic_word::is_always_lock_free,
              "the shared block kernels read std::atomic words as plain ones");

/// The `Words` 64-bit words at `words`, as the memory operand of a load written in assembly.
template <unsigned Words>
[[nodiscard]] BLOOM_FORCE_INLINE const
std::uint64_t (&shared_memory(const atomic_word* words) noexcept)[Words] {
    return *reinterpret_cast<const std::uint64_t(*)[Words]>(words);
}
#endif

#if defined(BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS) && defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL bool avx512_shared_item_in_block(const atomic_word* block,
                                                                          std::uint64_t hash,
                                                                          probe_scheme probes,
                                                                          unsigned hash_count) noexcept {
    __m512i words;
    // {AT&T|Intel} operand orders: either assembler dialect the user compiles with.
    __asm__("vmovdqu64 {%1, %0|%0, %1}" : "=v"(words) : "m"(shared_memory<8>(block)));
    alignas(64) std::uint64_t copy[block_word_count];
    _mm512_store_si512(copy, words);
    return probes == probe_scheme::bits_anywhere ? avx512_anywhere_contains(copy, hash, hash_count)
                                                 : avx512_block_contains(copy, block_pattern(hash));
}
#endif

#if defined(BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS) && defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL bool avx2_shared_item_in_block(const atomic_word* block,
                                                                      std::uint64_t hash, probe_scheme probes,
                                                                      unsigned hash_count) noexcept {
    __m256i low;
    __m256i high;
    __asm__("vmovdqu {%1, %0|%0, %1}" : "=x"(low) : "m"(shared_memory<4>(block)));
    __asm__("vmovdqu {%1, %0|%0, %1}" : "=x"(high) : "m"(shared_memory<4>(block + 4)));
    alignas(64) std::uint64_t copy[block_word_count];
    _mm256_store_si256(reinterpret_cast<__m256i*>(copy), low);
    _mm256_store_si256(reinterpret_cast<__m256i*>(copy + 4), high);
    return probes == probe_scheme::bits_anywhere ? avx2_anywhere_contains(copy, hash, hash_count)
                                                 : avx2_block_contains(copy, block_pattern(hash));
}
#endif

/// item_in_block by the portable kernels, over a word accessor (the concurrent filter's relaxed loads).
template <class Words>
[[nodiscard]] bool scalar_item_in_block(const Words& block, std::uint64_t hash, probe_scheme probes,
                                        unsigned hash_count) noexcept {
    return probes == probe_scheme::bits_anywhere ? scalar_anywhere_contains(block, hash, hash_count)
                                                 : scalar_block_contains(block, block_pattern(hash));
}

/// item_in_block on a concurrent filter's block (std::atomic words other threads may be setting bits in):
/// the SIMD kernel this machine has, over the block as its vector loads read it, or the portable one over
/// relaxed loads.
[[nodiscard]] BLOOM_FORCE_INLINE bool shared_item_in_block(const atomic_word* block, std::uint64_t hash,
                                                           probe_scheme probes,
                                                           unsigned hash_count) noexcept {
#if defined(BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS) && defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512)
    return avx512_shared_item_in_block(block, hash, probes, hash_count);
#elif defined(BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS) && defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2_AT_RUN_TIME)
    switch (cpu_block_kernel()) {
    case run_time_kernel::avx512:
        return avx512_shared_item_in_block(block, hash, probes, hash_count);
    case run_time_kernel::avx2:
        return avx2_shared_item_in_block(block, hash, probes, hash_count);
    default:
        return scalar_item_in_block(relaxed_words{block}, hash, probes, hash_count);
    }
#elif defined(BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS)
    return avx2_shared_item_in_block(block, hash, probes, hash_count);
#else
    return scalar_item_in_block(relaxed_words{block}, hash, probes, hash_count);
#endif
}

/// add_item_to_block by the portable kernels, over a word accessor that reads and assigns each word once.
template <class Words>
bool scalar_add_item_to_block(Words&& block, std::uint64_t hash, probe_scheme probes,
                              unsigned hash_count) noexcept {
    return probes == probe_scheme::bits_anywhere
               ? scalar_anywhere_insert(static_cast<Words&&>(block), hash, hash_count)
               : scalar_block_insert(static_cast<Words&&>(block), block_pattern(hash));
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_BLOCK_KERNELS_HPP
