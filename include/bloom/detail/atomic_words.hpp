// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_ATOMIC_WORDS_HPP
#define BLOOM_DETAIL_ATOMIC_WORDS_HPP

// Words that many threads read and write: the word accessors through which the layouts' kernels (written
// once, over any accessor) run on a concurrent filter's std::atomic words.
//
// Memory order. A filter makes no promise about other memory, only about its own bits, so bit loads,
// stores and fetch_or are relaxed: each word's modification order alone decides what a reader sees. An
// insert that has returned (happens-before a lookup, by whatever synchronisation the caller uses) is seen
// by it; a lookup racing an insert of the same item may see some of its bits and answer "absent", which is
// correct: the insert has not completed. Bits only ever go from 0 to 1 (clear() excepted, which must not
// run concurrently), so no reader can see a bit set and later unset.

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace bloom::detail {

using atomic_word = std::atomic<std::uint64_t>;

/// Words read with relaxed loads: `words[i]` is word i's value.
struct relaxed_words {
    const atomic_word* words;
    [[nodiscard]] std::uint64_t operator[](std::size_t index) const noexcept {
        return words[index].load(std::memory_order_relaxed);
    }
};

/// Words read with relaxed loads and assigned with relaxed stores (`words[i] = value`). Only for words no
/// other thread writes meanwhile (the caller holds their stripe): a load and a store are not one atomic
/// update, but lookups may read them at any time.
struct relaxed_word_refs {
    atomic_word* words;

    /// One word: converts to its value (a relaxed load), and assignment stores (a relaxed store).
    struct reference {
        atomic_word& word;
        // Implicit, as std::vector<bool>::reference's, so the kernels read a word as they read a plain one.
        operator std::uint64_t() const noexcept { return word.load(std::memory_order_relaxed); }
        const reference& operator=(std::uint64_t value) const noexcept {
            word.store(value, std::memory_order_relaxed);
            return *this;
        }
    };
    [[nodiscard]] reference operator[](std::size_t index) const noexcept { return {words[index]}; }
};

/// Sets the bits of `mask` in word `index`; returns those that were 0 before. A plain word is read and
/// written once.
inline std::uint64_t set_bits(std::uint64_t* words, std::size_t index, std::uint64_t mask) noexcept {
    std::uint64_t& word = words[index];
    const std::uint64_t missing = ~word & mask;
    word |= mask;
    return missing;
}

/// Sets the bits of `mask` in atomic word `index`, racing other writers of the word: loads first and
/// fetch_ors only when a bit is missing, so re-inserts and shared bits cost no locked instruction.
inline std::uint64_t set_bits(atomic_word* words, std::size_t index, std::uint64_t mask) noexcept {
    atomic_word& word = words[index];
    if ((word.load(std::memory_order_relaxed) & mask) == mask) {
        return 0;
    }
    return ~word.fetch_or(mask, std::memory_order_relaxed) & mask;
}

} // namespace bloom::detail

#endif // BLOOM_DETAIL_ATOMIC_WORDS_HPP
