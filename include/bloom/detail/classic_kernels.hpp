// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_CLASSIC_KERNELS_HPP
#define BLOOM_DETAIL_CLASSIC_KERNELS_HPP

// The classic layout's batch kernels: the k probe positions of eight items at once, under
// probe_scheme::mixed, in the 64-bit lanes of an AVX-512 register (or two AVX2 ones), and the eight answers
// by gathers.
//
// A classic lookup is bound by arithmetic, not memory, while its filter is near the cache: two 64-bit
// multiplies per probe, fourteen for k = 7, a lookup of a member in a 12 KB filter took as long (7.9 ns) as
// in a 1.2 MB one loses to its cache misses. Eight items per instruction make the positions cheap, and the
// gathers have no branch to mispredict: bulk lookups at 10^6 items took 0.75x their single ones for members
// and 0.5x for a mix (bloom_bench, Zen 5), where one item at a time took 1.0x.
//
// The positions are exactly mixed_probes' (detail/probe.hpp), lane by lane: the same remix, the same
// multiply-shift, written with 32x32-bit multiplies since a 64-bit multiply (vpmullq) needs AVX-512DQ,
// which the run-time choice (kernel_set::avx512) does not check for, and AVX2 has none. Only lookups and
// inserts of whole ranges use them (filter_surface); an answer is the one contains() gives.

#include "bloom/detail/atomic_words.hpp"
#include "bloom/detail/block_kernels.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/probe.hpp"

#include <cstdint>

namespace bloom::detail {

/// Items per batch: one AVX-512 register of 64-bit lanes, two AVX2 ones.
inline constexpr unsigned classic_batch_items = 8;

/// The instruction set of a kernel set's batch kernels, if it has them.
enum class classic_batch_isa { none, avx512, avx2 };
template <kernel_set Kernels>
inline constexpr classic_batch_isa classic_batch_isa_of =
#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512)
    Kernels == kernel_set::chosen ? classic_batch_isa::avx512 : classic_batch_isa::none;
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX512_AT_RUN_TIME) // and AVX2 at run time
    Kernels == kernel_set::avx512 ? classic_batch_isa::avx512
    : Kernels == kernel_set::avx2 ? classic_batch_isa::avx2
                                  : classic_batch_isa::none;
#elif defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
    Kernels == kernel_set::chosen ? classic_batch_isa::avx2 : classic_batch_isa::none;
#else
    classic_batch_isa::none;
#endif
#if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS) || defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
#    define BLOOM_DETAIL_HAS_CLASSIC_BATCH_KERNELS 1
#endif

/// Whether the kernel set `Kernels` has the batch kernels below (AVX-512 or AVX2, at compile or run time).
template <kernel_set Kernels>
inline constexpr bool has_classic_batch_kernels = classic_batch_isa_of<Kernels> != classic_batch_isa::none;

/// Whether it has them over a concurrent filter's std::atomic words too (their gathers are assembly,
/// written for AVX-512 only).
template <kernel_set Kernels>
inline constexpr bool has_shared_classic_batch_kernels =
#if defined(BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS)
    classic_batch_isa_of<Kernels> == classic_batch_isa::avx512;
#else
    false;
#endif

#if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
/// Lane by lane, x * factor mod 2^64, from three 32x32-bit products.
[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL __m512i avx512_multiply_low(__m512i x, __m512i factor) noexcept {
    const __m512i low = _mm512_mul_epu32(x, factor);
    const __m512i cross = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(x, 32), factor),
                                           _mm512_mul_epu32(x, _mm512_srli_epi64(factor, 32)));
    return _mm512_add_epi64(low, _mm512_slli_epi64(cross, 32));
}

/// Lane by lane, reduce_to_range(x, range): the high 64 bits of x * range. A range below 2^32 (filters of
/// up to 512 MiB) needs two 32x32-bit products; a wider one four.
template <bool NarrowRange>
[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL __m512i avx512_reduce_to_range(__m512i x, __m512i range) noexcept {
    const __m512i x_high = _mm512_srli_epi64(x, 32);
    const __m512i carried =
        _mm512_add_epi64(_mm512_mul_epu32(x_high, range), _mm512_srli_epi64(_mm512_mul_epu32(x, range), 32));
    if constexpr (NarrowRange) {
        return _mm512_srli_epi64(carried, 32);
    } else {
        const __m512i range_high = _mm512_srli_epi64(range, 32);
        const __m512i middle = _mm512_add_epi64(_mm512_and_si512(carried, _mm512_set1_epi64(0xffffffff)),
                                                _mm512_mul_epu32(x, range_high));
        return _mm512_add_epi64(
            _mm512_add_epi64(_mm512_mul_epu32(x_high, range_high), _mm512_srli_epi64(carried, 32)),
            _mm512_srli_epi64(middle, 32));
    }
}

/// mixed_probes for eight items: each lane's point, its step, and its next position.
class avx512_mixed_probes {
  public:
    BLOOM_DETAIL_AVX512_KERNEL avx512_mixed_probes(const std::uint64_t* hashes,
                                                   std::uint64_t bit_count) noexcept
        : m_point(_mm512_loadu_si512(hashes)),
          m_step(_mm512_or_si512(
              avx512_multiply_low(m_point, _mm512_set1_epi64(static_cast<long long>(0x9e3779b97f4a7c15ULL))),
              _mm512_set1_epi64(1))),
          m_range(_mm512_set1_epi64(static_cast<long long>(bit_count))) {}

    template <bool NarrowRange>
    [[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL __m512i next() noexcept {
        const __m512i point = m_point;
        const __m512i remixed =
            avx512_multiply_low(_mm512_xor_si512(point, _mm512_srli_epi64(point, 32)),
                                _mm512_set1_epi64(static_cast<long long>(0xd6e8feb86659fd93ULL)));
        m_point = _mm512_add_epi64(point, m_step);
        return avx512_reduce_to_range<NarrowRange>(remixed, m_range);
    }

  private:
    __m512i m_point;
    __m512i m_step;
    __m512i m_range;
};

/// The lanes whose bit `positions` names is set in `words`: one gather of the eight words.
[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL __mmask8 avx512_bits_set(const std::uint64_t* words,
                                                                  __m512i positions) noexcept {
    const __m512i word = _mm512_i64gather_epi64(_mm512_srli_epi64(positions, 6), words, 8);
    // 1 rotated by the position is the bit's mask in its word (the rotate reads the low six bits).
    return _mm512_test_epi64_mask(word, _mm512_rolv_epi64(_mm512_set1_epi64(1), positions));
}

#    if defined(BLOOM_DETAIL_HAS_SHARED_BLOCK_KERNELS)
/// The same over a concurrent filter's std::atomic words, which other threads may be setting bits in. The
/// gather is written as assembly, as the shared block kernels' loads are (detail/block_kernels.hpp): to C++
/// it would be a data race, while the CPU reads each aligned 64-bit element of a gather in one access, so
/// every word is a value it held during the lookup, what a relaxed load gives. The memory clobber keeps
/// it after this thread's own earlier inserts.
[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL __mmask8 avx512_bits_set(const atomic_word* words,
                                                                  __m512i positions) noexcept {
    const __m512i indices = _mm512_srli_epi64(positions, 6);
    __m512i word;
    __mmask8 lanes = 0xff; // the gather clears each lane's bit as it loads it
    // {AT&T|Intel} operand orders: either assembler dialect the user compiles with.
    __asm__("vpgatherqq {(%2,%3,8), %0%{%1%}|%0 %{%1%}, [%2 + 8*%3]}"
            : "=&v"(word), "+Yk"(lanes)
            : "r"(words), "v"(indices)
            : "memory");
    return _mm512_test_epi64_mask(word, _mm512_rolv_epi64(_mm512_set1_epi64(1), positions));
}
#    endif

/// contains() of eight items by their hashes, as a mask (bit j: item j). Every probe of every item is read:
/// with no branch, a mix of members and non-members costs what members do. Stopping once all eight had
/// failed made misses at 10^6 items slower (9.5 ns against 8.7): the branch mispredicts. `Word`:
/// std::uint64_t, or a concurrent filter's atomic_word.
template <bool NarrowRange, class Word>
[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL unsigned
avx512_mixed_contains(const Word* words, std::uint64_t bit_count, unsigned hash_count,
                      const std::uint64_t* hashes) noexcept {
    avx512_mixed_probes probes(hashes, bit_count);
    __mmask8 all_set = 0xff;
    for (unsigned i = 0; i < hash_count; ++i) {
        all_set = static_cast<__mmask8>(all_set & avx512_bits_set(words, probes.next<NarrowRange>()));
    }
    return all_set;
}

/// Stores the k positions of eight items, probe by probe: positions[8 i + j] is item j's probe i.
template <bool NarrowRange>
BLOOM_DETAIL_AVX512_KERNEL void avx512_mixed_positions(std::uint64_t bit_count, unsigned hash_count,
                                                       const std::uint64_t* hashes,
                                                       std::uint64_t* positions) noexcept {
    avx512_mixed_probes probes(hashes, bit_count);
    for (unsigned i = 0; i < hash_count; ++i) {
        _mm512_storeu_si512(positions + classic_batch_items * i, probes.next<NarrowRange>());
    }
}

/// contains() of eight items by their stored positions (avx512_mixed_positions), as a mask.
template <class Word>
[[nodiscard]] BLOOM_DETAIL_AVX512_KERNEL unsigned
avx512_positions_contain(const Word* words, unsigned hash_count, const std::uint64_t* positions) noexcept {
    __mmask8 all_set = 0xff;
    for (unsigned i = 0; i < hash_count; ++i) {
        const __m512i position = _mm512_loadu_si512(positions + classic_batch_items * i);
        all_set = static_cast<__mmask8>(all_set & avx512_bits_set(words, position));
    }
    return all_set;
}
#endif

#if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
// The same kernels in AVX2's four 64-bit lanes, a batch of eight items in two registers. Without mask
// registers, a lane's answer is its word shifted so that the probed bit lands in the sign bit, which
// _mm256_movemask_pd collects.

/// Lane by lane, x * factor mod 2^64, from three 32x32-bit products.
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL __m256i avx2_multiply_low(__m256i x, __m256i factor) noexcept {
    const __m256i low = _mm256_mul_epu32(x, factor);
    const __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(x, 32), factor),
                                           _mm256_mul_epu32(x, _mm256_srli_epi64(factor, 32)));
    return _mm256_add_epi64(low, _mm256_slli_epi64(cross, 32));
}

/// Lane by lane, reduce_to_range(x, range), as avx512_reduce_to_range.
template <bool NarrowRange>
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL __m256i avx2_reduce_to_range(__m256i x, __m256i range) noexcept {
    const __m256i x_high = _mm256_srli_epi64(x, 32);
    const __m256i carried =
        _mm256_add_epi64(_mm256_mul_epu32(x_high, range), _mm256_srli_epi64(_mm256_mul_epu32(x, range), 32));
    if constexpr (NarrowRange) {
        return _mm256_srli_epi64(carried, 32);
    } else {
        const __m256i range_high = _mm256_srli_epi64(range, 32);
        const __m256i middle = _mm256_add_epi64(_mm256_and_si256(carried, _mm256_set1_epi64x(0xffffffff)),
                                                _mm256_mul_epu32(x, range_high));
        return _mm256_add_epi64(
            _mm256_add_epi64(_mm256_mul_epu32(x_high, range_high), _mm256_srli_epi64(carried, 32)),
            _mm256_srli_epi64(middle, 32));
    }
}

/// mixed_probes for four items: each lane's point, its step, and its next position.
class avx2_mixed_probes {
  public:
    BLOOM_DETAIL_AVX2_KERNEL avx2_mixed_probes(const std::uint64_t* hashes, std::uint64_t bit_count) noexcept
        : m_point(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(hashes))),
          m_step(_mm256_or_si256(
              avx2_multiply_low(m_point, _mm256_set1_epi64x(static_cast<long long>(0x9e3779b97f4a7c15ULL))),
              _mm256_set1_epi64x(1))),
          m_range(_mm256_set1_epi64x(static_cast<long long>(bit_count))) {}

    template <bool NarrowRange>
    [[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL __m256i next() noexcept {
        const __m256i point = m_point;
        const __m256i remixed =
            avx2_multiply_low(_mm256_xor_si256(point, _mm256_srli_epi64(point, 32)),
                              _mm256_set1_epi64x(static_cast<long long>(0xd6e8feb86659fd93ULL)));
        m_point = _mm256_add_epi64(point, m_step);
        return avx2_reduce_to_range<NarrowRange>(remixed, m_range);
    }

  private:
    __m256i m_point;
    __m256i m_step;
    __m256i m_range;
};

/// Each lane's word of `words` at `positions` (one gather), shifted so that the probed bit is its sign bit.
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL __m256i avx2_bit_in_sign(const std::uint64_t* words,
                                                                __m256i positions) noexcept {
    const __m256i word =
        _mm256_i64gather_epi64(reinterpret_cast<const long long*>(words), _mm256_srli_epi64(positions, 6), 8);
    // Bit p of the word moves up by 63 - p, which is ~p's low six bits.
    return _mm256_sllv_epi64(word, _mm256_andnot_si256(positions, _mm256_set1_epi64x(63)));
}

/// The answers of eight items as avx512_mixed_contains', from the two halves' sign bits.
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL unsigned avx2_answers(__m256i low_half, __m256i high_half) noexcept {
    return static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(low_half))) |
           static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(high_half))) << 4;
}

/// contains() of eight items by their hashes, as a mask (bit j: item j); every probe read, as
/// avx512_mixed_contains.
template <bool NarrowRange>
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL unsigned
avx2_mixed_contains(const std::uint64_t* words, std::uint64_t bit_count, unsigned hash_count,
                    const std::uint64_t* hashes) noexcept {
    avx2_mixed_probes low_probes(hashes, bit_count);
    avx2_mixed_probes high_probes(hashes + 4, bit_count);
    __m256i low_set = _mm256_set1_epi64x(-1);
    __m256i high_set = low_set;
    for (unsigned i = 0; i < hash_count; ++i) {
        low_set = _mm256_and_si256(low_set, avx2_bit_in_sign(words, low_probes.next<NarrowRange>()));
        high_set = _mm256_and_si256(high_set, avx2_bit_in_sign(words, high_probes.next<NarrowRange>()));
    }
    return avx2_answers(low_set, high_set);
}

/// Stores the k positions of eight items, probe by probe, as avx512_mixed_positions.
template <bool NarrowRange>
BLOOM_DETAIL_AVX2_KERNEL void avx2_mixed_positions(std::uint64_t bit_count, unsigned hash_count,
                                                   const std::uint64_t* hashes,
                                                   std::uint64_t* positions) noexcept {
    avx2_mixed_probes low_probes(hashes, bit_count);
    avx2_mixed_probes high_probes(hashes + 4, bit_count);
    for (unsigned i = 0; i < hash_count; ++i) {
        std::uint64_t* const probe = positions + classic_batch_items * i;
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(probe), low_probes.next<NarrowRange>());
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(probe + 4), high_probes.next<NarrowRange>());
    }
}

/// contains() of eight items by their stored positions, as avx512_positions_contain.
[[nodiscard]] BLOOM_DETAIL_AVX2_KERNEL unsigned
avx2_positions_contain(const std::uint64_t* words, unsigned hash_count,
                       const std::uint64_t* positions) noexcept {
    __m256i low_set = _mm256_set1_epi64x(-1);
    __m256i high_set = low_set;
    for (unsigned i = 0; i < hash_count; ++i) {
        const std::uint64_t* const probe = positions + classic_batch_items * i;
        low_set = _mm256_and_si256(
            low_set, avx2_bit_in_sign(words, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(probe))));
        high_set = _mm256_and_si256(
            high_set,
            avx2_bit_in_sign(words, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(probe + 4))));
    }
    return avx2_answers(low_set, high_set);
}
#endif

#if defined(BLOOM_DETAIL_HAS_CLASSIC_BATCH_KERNELS)
// The batch steps by the kernel set `Kernels` (has_classic_batch_kernels): what the classic layout calls.
// `Word`: std::uint64_t, or a concurrent filter's atomic_word (AVX-512 only).

template <kernel_set Kernels, bool NarrowRange>
BLOOM_FORCE_INLINE void classic_batch_positions(std::uint64_t bit_count, unsigned hash_count,
                                                const std::uint64_t* hashes,
                                                std::uint64_t* positions) noexcept {
    static_assert(has_classic_batch_kernels<Kernels>, "no batch kernels in this kernel set");
    if constexpr (classic_batch_isa_of<Kernels> == classic_batch_isa::avx2) {
#    if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
        avx2_mixed_positions<NarrowRange>(bit_count, hash_count, hashes, positions);
#    endif
    } else {
#    if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
        avx512_mixed_positions<NarrowRange>(bit_count, hash_count, hashes, positions);
#    endif
    }
}

template <kernel_set Kernels, class Word>
[[nodiscard]] BLOOM_FORCE_INLINE unsigned
classic_batch_positions_contain(const Word* words, unsigned hash_count,
                                const std::uint64_t* positions) noexcept {
    if constexpr (classic_batch_isa_of<Kernels> == classic_batch_isa::avx2) {
#    if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
        return avx2_positions_contain(words, hash_count, positions);
#    endif
    } else {
#    if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
        return avx512_positions_contain(words, hash_count, positions);
#    endif
    }
}

template <kernel_set Kernels, bool NarrowRange, class Word>
[[nodiscard]] BLOOM_FORCE_INLINE unsigned classic_batch_contains(const Word* words, std::uint64_t bit_count,
                                                                 unsigned hash_count,
                                                                 const std::uint64_t* hashes) noexcept {
    if constexpr (classic_batch_isa_of<Kernels> == classic_batch_isa::avx2) {
#    if defined(BLOOM_DETAIL_BLOCK_KERNEL_AVX2)
        return avx2_mixed_contains<NarrowRange>(words, bit_count, hash_count, hashes);
#    endif
    } else {
#    if defined(BLOOM_DETAIL_HAS_AVX512_KERNELS)
        return avx512_mixed_contains<NarrowRange>(words, bit_count, hash_count, hashes);
#    endif
    }
}
#endif

} // namespace bloom::detail

#endif // BLOOM_DETAIL_CLASSIC_KERNELS_HPP
