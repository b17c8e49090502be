// SPDX-License-Identifier: MIT
#ifndef BLOOM_CONCURRENT_BLOOM_FILTER_HPP
#define BLOOM_CONCURRENT_BLOOM_FILTER_HPP

// bloom::concurrent_bloom_filter<T> and bloom::concurrent_blocked_bloom_filter<T> — filters that any
// number of threads may insert into and query at the same time.
//
//     bloom::concurrent_blocked_bloom_filter<std::string> seen(10'000'000, 0.01);
//     // in each of many threads:
//     if (seen.insert(url)) {       // exactly one thread gets true for a new url, however many race
//         enqueue(url);
//     }
//
// Each has the same bits as the plain filter of its layout (bloom_filter, blocked_bloom_filter) for the
// same size, seed and items, so converting either way copies words: build in parallel, then freeze into a
// plain filter to save or combine it; or start from a plain filter and keep inserting from threads.
//
// Lookups take no lock: they load words. Inserts take no global lock: they set bits with atomic fetch_or
// (classic) or with atomic stores made under the block's stripe (blocked).
// What fetch_or alone cannot give is an exact "was new" answer: an item's bits span several words, so
// two threads inserting the same new item can each set some of its bits first and both see "new" (the
// bug of Guava's issue #3055). Inserts therefore take one of `stripe_count` spin locks chosen by the
// item's hash (for the blocked layout, by its block, so the block's words can then be written with plain
// stores): inserts of the same item are serialised, inserts of different items almost never wait,
// and lookups never do; an insert whose bits are all set already returns false without the lock. Each
// stripe counts its true answers, so item_count() is exact (until a union, as for the plain filters).

#include "bloom/aligned_allocator.hpp"
#include "bloom/blocked_bloom_filter.hpp"
#include "bloom/bloom_filter.hpp"
#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/bit_words.hpp"
#include "bloom/detail/block_kernels.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/filter_base.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/detail/probe.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

namespace bloom {

namespace detail {

using atomic_word = std::atomic<std::uint64_t>;

/// Words read with relaxed loads, for the kernels and rates written over any word accessor.
struct relaxed_words {
    const atomic_word* words;
    [[nodiscard]] std::uint64_t operator[](std::size_t index) const noexcept {
        return words[index].load(std::memory_order_relaxed);
    }
};

/// Words read with relaxed loads and assigned with relaxed stores, for the kernels that write through a
/// word accessor (`words[i] = value`). Only for words no other thread writes meanwhile (the caller holds
/// their stripe): a load and a store are not one atomic update, but lookups may read them at any time.
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

// Memory order. A filter makes no promise about other memory, only about its own bits, so bit loads,
// stores and fetch_or are relaxed: each word's modification order alone decides what a reader sees. An insert
// that has returned (happens-before a lookup, by whatever synchronisation the caller uses) is seen by it;
// a lookup racing an insert of the same item may see some of its bits and answer "absent", which is
// correct: the insert has not completed. Bits only ever go from 0 to 1 (clear() excepted, which must not
// run concurrently), so no reader can see a bit set and later unset. The stripe locks use
// acquire/release so that the second of two inserts of one item sees every bit the first set.

/// The classic layout: k probes over m bits (bloom_filter's bits, by its probe scheme).
struct classic_layout {
    template <class T, class Hasher, class Allocator>
    using plain_filter = bloom_filter<T, Hasher, Allocator>;
    using default_allocator = std::allocator<std::uint64_t>;
    static constexpr std::size_t window = 16;
    /// An item's bits are in k unrelated words, which other items' inserts (under other stripes) may be
    /// setting at the same moment: every bit is set with fetch_or.
    static constexpr bool writes_under_stripe = false;

    /// Selects the insert stripe: the hash's middle bits (positions come from the high bits), so
    /// stripes and positions are unrelated.
    [[nodiscard]] static std::uint64_t stripe_key(std::uint64_t hash, filter_geometry) noexcept {
        return hash >> 20;
    }

    [[nodiscard]] static filter_geometry sized_for(std::uint64_t expected_items, double false_positive_rate) {
        return optimal_geometry(expected_items, false_positive_rate, "bloom::concurrent_bloom_filter");
    }
    /// The rate a random non-member sees given the bits: fill^k (as bloom_filter's).
    [[nodiscard]] static double rate(const atomic_word* words, std::size_t word_count,
                                     filter_geometry geometry) noexcept {
        return rate_from_fill(count_set_bits(relaxed_words{words}, word_count), geometry.bit_count,
                              geometry.hash_count);
    }
    /// Sets the item's bits; true if one of them was 0. Loads first and fetch_ors only the words whose bit
    /// is missing: re-inserts and shared bits then cost no locked instruction.
    static bool insert(atomic_word* words, filter_geometry geometry, std::uint64_t hash) noexcept {
        return with_probes(geometry.probes, hash, [&](auto probes) {
            std::uint64_t newly_set = 0;
            for (unsigned i = 0; i < geometry.hash_count; ++i) {
                const std::uint64_t position = probes.next(geometry.bit_count);
                atomic_word& word = words[word_of(position)];
                const std::uint64_t mask = mask_of(position);
                if ((word.load(std::memory_order_relaxed) & mask) == 0) {
                    newly_set |= ~word.fetch_or(mask, std::memory_order_relaxed) & mask;
                }
            }
            return newly_set != 0;
        });
    }
    /// bloom_filter's lookup kernel over relaxed loads.
    [[nodiscard]] static bool contains(const atomic_word* words, filter_geometry geometry,
                                       std::uint64_t hash) noexcept {
        return classic_contains(relaxed_words{words}, geometry.bit_count, geometry.hash_count,
                                geometry.probes, hash);
    }
    template <bool ForWrite>
    static void prefetch_item(const atomic_word* words, filter_geometry geometry,
                              std::uint64_t hash) noexcept {
        with_probes(geometry.probes, hash, [&](auto probes) {
            for (unsigned i = 0; i < geometry.hash_count; ++i) {
                prefetch<ForWrite>(words + word_of(probes.next(geometry.bit_count)));
            }
        });
    }
};

/// The blocked layout: an item's bits in one 512-bit block, by the filter's pattern (blocked_bloom_filter's
/// bits, through the same block_offset and the same scalar kernels).
struct blocked_layout {
    template <class T, class Hasher, class Allocator>
    using plain_filter = blocked_bloom_filter<T, Hasher, Allocator>;
    using default_allocator = aligned_allocator<std::uint64_t, 64>;
    static constexpr std::size_t window = 64;
    /// The stripe is chosen by the block, so every writer of a block holds that block's stripe: the bits
    /// are set with a plain load and store of each word, and no locked instruction beyond the lock.
    static constexpr bool writes_under_stripe = true;

    /// Selects the insert stripe: the block number.
    [[nodiscard]] static std::uint64_t stripe_key(std::uint64_t hash, filter_geometry geometry) noexcept {
        return block_offset(hash, geometry.bit_count / block_bits) / block_word_count;
    }

    [[nodiscard]] static filter_geometry sized_for(std::uint64_t expected_items, double false_positive_rate) {
        return optimal_blocked_geometry(expected_items, false_positive_rate,
                                        "bloom::concurrent_blocked_bloom_filter");
    }
    /// The rate a random non-member sees given the bits (as blocked_bloom_filter's).
    [[nodiscard]] static double rate(const atomic_word* words, std::size_t,
                                     filter_geometry geometry) noexcept {
        if (geometry.probes == probe_scheme::bits_anywhere) {
            return block_fill_rate_from_bits<block_word_count>(
                relaxed_words{words}, geometry.bit_count / block_bits, geometry.hash_count);
        }
        return block_rate_from_bits<64, block_word_count>(relaxed_words{words},
                                                          geometry.bit_count / block_bits);
    }
    /// Sets the item's bits; true if one of them was 0. The caller holds the block's stripe, so the scalar
    /// kernel's load and store of each word lose no other writer's bits; storing a word whose bit was set
    /// already rewrites its value, and the line is being written anyway (the caller saw a bit missing).
    static bool insert(atomic_word* words, filter_geometry geometry, std::uint64_t hash) noexcept {
        return scalar_add_item_to_block(
            relaxed_word_refs{words + block_offset(hash, geometry.bit_count / block_bits)}, hash,
            geometry.probes, geometry.hash_count);
    }
    /// blocked_bloom_filter's scalar lookup kernel over relaxed loads (one per word, no branch per word).
    [[nodiscard]] static bool contains(const atomic_word* words, filter_geometry geometry,
                                       std::uint64_t hash) noexcept {
        return scalar_item_in_block(
            relaxed_words{words + block_offset(hash, geometry.bit_count / block_bits)}, hash, geometry.probes,
            geometry.hash_count);
    }
    template <bool ForWrite>
    static void prefetch_item(const atomic_word* words, filter_geometry geometry,
                              std::uint64_t hash) noexcept {
        prefetch<ForWrite>(words + block_offset(hash, geometry.bit_count / block_bits));
    }
};

/// One spin lock per cache line, so two stripes never share a line, with the count of the inserts that
/// returned true under it. Only the lock holder writes `inserted`, so it is bumped with a plain load and
/// store (no locked instruction); readers sum the stripes with relaxed loads.
struct alignas(64) insert_stripe {
    std::atomic<bool> locked{false};
    std::atomic<std::uint64_t> inserted{0};

    void lock() noexcept {
        while (locked.exchange(true, std::memory_order_acquire)) {
            // Wait on a plain load (no cache-line ping-pong) and let the holder run: it holds the lock
            // for k word updates, so this rarely loops.
            while (locked.load(std::memory_order_relaxed)) {
                std::this_thread::yield();
            }
        }
    }
    void unlock() noexcept { locked.store(false, std::memory_order_release); }
};

} // namespace detail

/// A filter of `Layout` (the classic or the blocked layout) that any number of threads may use at once.
/// Use it through its two names, concurrent_bloom_filter and concurrent_blocked_bloom_filter.
/// Thread safety: insert, contains, their range forms, |= and every observer may run concurrently with
/// each other; clear(), assignment and swap may not run concurrently with anything else.
template <class T, class Layout, class Hasher = hash<T>, class Allocator = typename Layout::default_allocator>
class basic_concurrent_bloom_filter {
    using word_allocator =
        typename std::allocator_traits<Allocator>::template rebind_alloc<detail::atomic_word>;
    using word_traits = std::allocator_traits<word_allocator>;

    static_assert(detail::atomic_word::is_always_lock_free,
                  "bloom::basic_concurrent_bloom_filter needs lock-free 64-bit atomics");

  public:
    /// The type of the items.
    using value_type = T;
    /// The hasher type.
    using hasher = Hasher;
    /// The type of counts.
    using size_type = std::uint64_t;
    /// The allocator of the words (rebound to std::atomic<std::uint64_t>).
    using allocator_type = Allocator;
    /// The plain (single-threaded) filter with the same bits.
    using plain_filter_type = typename Layout::template plain_filter<T, Hasher, Allocator>;

    /// Inserts lock one of this many stripes, chosen by the item's hash.
    static constexpr std::size_t stripe_count = 256;

    /// An empty filter: no bits, holds nothing. contains() answers false and every count and rate is 0;
    /// insert() throws std::logic_error, as it could not keep the item. Assign a sized filter to use it
    /// (not concurrently with other operations). A moved-from filter is left in this state.
    basic_concurrent_bloom_filter()
        : m_allocator(), m_geometry(), m_seed(default_seed), m_expected_items(0),
          m_target_false_positive_rate(0.0), m_hasher() {}

    /// A filter sized for `expected_items` at `false_positive_rate`, exactly as the plain filter of its
    /// layout would be. Throws std::invalid_argument as the plain filter's constructor does.
    basic_concurrent_bloom_filter(std::uint64_t expected_items, double false_positive_rate,
                                  std::uint64_t seed = default_seed, const Hasher& hash_function = Hasher(),
                                  const Allocator& allocator = Allocator())
        : m_allocator(allocator), m_geometry(Layout::sized_for(expected_items, false_positive_rate)),
          m_seed(seed), m_expected_items(expected_items), m_target_false_positive_rate(false_positive_rate),
          m_hasher(hash_function), m_stripes(std::make_unique<detail::insert_stripe[]>(stripe_count)) {
        allocate_words(static_cast<std::size_t>(detail::word_count_for(m_geometry.bit_count)), nullptr);
    }

    /// A concurrent copy of `plain`: same shape, seed, bits, item count and sizing targets. O(m / 64).
    explicit basic_concurrent_bloom_filter(const plain_filter_type& plain)
        : m_allocator(plain.get_allocator()), m_geometry(plain.geometry()), m_seed(plain.seed()),
          m_expected_items(plain.expected_items()),
          m_target_false_positive_rate(plain.target_false_positive_rate()), m_hasher(plain.hash_function()),
          m_stripes(std::make_unique<detail::insert_stripe[]>(stripe_count)) {
        allocate_words(plain.word_count(), plain.data());
        m_item_count.store(plain.item_count(), std::memory_order_relaxed);
    }

    /// A copy of `other` (its bits and counts at some moment during the copy if others insert meanwhile).
    basic_concurrent_bloom_filter(const basic_concurrent_bloom_filter& other)
        : basic_concurrent_bloom_filter(other.to_plain()) {}

    /// Takes `other`'s words; `other` is left empty (as default-constructed: no bits, every answer false,
    /// inserts throw), as moved-from plain filters are. Only assignment and destruction may follow on `other`
    /// concurrently with nothing else.
    basic_concurrent_bloom_filter(basic_concurrent_bloom_filter&& other) noexcept(
        std::is_nothrow_copy_constructible_v<Hasher>)
        : m_allocator(other.m_allocator), m_words(std::exchange(other.m_words, nullptr)),
          m_word_count(std::exchange(other.m_word_count, 0)),
          m_geometry(std::exchange(other.m_geometry, filter_geometry{})), m_seed(other.m_seed),
          m_expected_items(other.m_expected_items),
          m_target_false_positive_rate(other.m_target_false_positive_rate),
          m_item_count(other.m_item_count.exchange(0, std::memory_order_relaxed)), m_hasher(other.m_hasher),
          m_stripes(std::move(other.m_stripes)) {}

    /// Copy assignment: not concurrently with other operations on this filter.
    basic_concurrent_bloom_filter& operator=(const basic_concurrent_bloom_filter& other) {
        if (this != &other) {
            basic_concurrent_bloom_filter copy(other);
            swap(copy);
        }
        return *this;
    }
    /// Move assignment: not concurrently with other operations on this filter.
    basic_concurrent_bloom_filter& operator=(basic_concurrent_bloom_filter&& other) noexcept(
        std::is_nothrow_copy_constructible_v<Hasher>&& std::is_nothrow_swappable_v<Hasher>) {
        if (this != &other) {
            basic_concurrent_bloom_filter moved(std::move(other));
            swap(moved);
        }
        return *this;
    }

    /// Frees the words. Not concurrently with any other operation.
    ~basic_concurrent_bloom_filter() { release_words(); }

    /// Sets the item's bits. Returns true if `value` was definitely absent; of several threads inserting
    /// the same new item at once exactly one gets true. Lock-free for lookups; takes the item's stripe lock.
    /// O(k).
    template <class K>
    bool insert(const K& value) {
        static_assert(detail::can_hash_v<Hasher, K>,
                      "bloom::basic_concurrent_bloom_filter::insert: the Hasher cannot hash this key type; "
                      "specialise bloom::hash<T> or pass a Hasher");
        require_bits("bloom::basic_concurrent_bloom_filter::insert");
        return insert_hash(hash_of(value));
    }

    /// Inserts every value of [first, last), hashing ahead and prefetching; as inserting them one by one.
    /// Returns how many were definitely new.
    template <class InputIt>
    std::size_t insert(InputIt first, InputIt last) {
        static_assert(detail::can_hash_range_v<Hasher, InputIt>,
                      "bloom::basic_concurrent_bloom_filter::insert(first, last): the Hasher cannot hash the "
                      "range's values; specialise bloom::hash<T> or pass a Hasher");
        if (first != last) {
            require_bits("bloom::basic_concurrent_bloom_filter::insert(first, last)");
        }
        std::size_t inserted = 0;
        detail::pipelined_for_each<Layout::window>(
            first, last, [this](const auto& value) { return this->hash_of(value); },
            [this](std::uint64_t hash) { Layout::template prefetch_item<true>(m_words, m_geometry, hash); },
            [&](std::uint64_t hash) { inserted += insert_hash(hash) ? 1 : 0; });
        return inserted;
    }

    /// False: `value` is definitely absent (no insert of it had completed when the lookup began). True:
    /// probably present. Takes no lock. O(k).
    template <class K>
    [[nodiscard]] bool contains(const K& value) const {
        static_assert(detail::can_hash_v<Hasher, K>,
                      "bloom::basic_concurrent_bloom_filter::contains: the Hasher cannot hash this key type; "
                      "specialise bloom::hash<T> or pass a Hasher");
        return contains_hash(hash_of(value));
    }

    /// Writes contains(value) for every value of [first, last) to `out`, in order, hashing ahead and
    /// prefetching. Returns the output iterator past the last result.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        static_assert(detail::can_hash_range_v<Hasher, InputIt>,
                      "bloom::basic_concurrent_bloom_filter::contains(first, last, out): the Hasher cannot "
                      "hash the range's values; specialise bloom::hash<T> or pass a Hasher");
        if (m_word_count == 0) { // empty: no bits, nothing held
            for (; first != last; ++first) {
                *out = false;
                ++out;
            }
            return out;
        }
        // Copied once: the compiler reloads members after every atomic load, which cost bulk lookups ~10%.
        const detail::atomic_word* const words = m_words;
        const filter_geometry geometry = m_geometry;
        detail::pipelined_for_each<Layout::window>(
            first, last, [this](const auto& value) { return this->hash_of(value); },
            [words, geometry](std::uint64_t hash) {
                Layout::template prefetch_item<false>(words, geometry, hash);
            },
            [&](std::uint64_t hash) {
                *out = Layout::contains(words, geometry, hash);
                ++out;
            });
        return out;
    }

    /// A plain filter with the same shape, seed, bits, item count and sizing targets: freeze a filter
    /// built by many threads to save, compare or combine it. O(m / 64). Concurrent inserts during the copy
    /// may or may not be in it.
    [[nodiscard]] plain_filter_type to_plain() const {
        if (m_word_count == 0) {
            return plain_filter_type(); // empty, as this one
        }
        plain_filter_type plain(m_geometry, m_seed, m_hasher, Allocator(m_allocator));
        std::uint64_t* const words = detail::filter_access::words(plain);
        for (std::size_t i = 0; i < m_word_count; ++i) {
            words[i] = m_words[i].load(std::memory_order_relaxed);
        }
        detail::filter_access::set_counts(plain, item_count(), m_expected_items,
                                          m_target_false_positive_rate);
        return plain;
    }

    /// Union with a plain filter (e.g. one built by a single thread): afterwards every item of `other` is
    /// reported. Safe concurrently with inserts and lookups. item_count() becomes the estimate from the bits
    /// (estimated_item_count()), as for bloom_filter::operator|=, unless the union added no bit (it keeps
    /// its count) or its bits equal `other`'s (it takes other's). O(m / 64). Throws
    /// std::invalid_argument unless compatible_with(other).
    basic_concurrent_bloom_filter& operator|=(const plain_filter_type& other) {
        detail::require_same_shape("bloom::basic_concurrent_bloom_filter::operator|=", m_geometry, m_seed,
                                   other.geometry(), other.seed());
        const std::uint64_t* const words = other.data();
        bool kept_mine = true, kept_theirs = true;
        const auto merge_word = [&](std::size_t i) {
            const std::uint64_t old = m_words[i].load(std::memory_order_relaxed);
            const std::uint64_t result = old | words[i];
            kept_mine = kept_mine && result == old;
            kept_theirs = kept_theirs && result == words[i];
            if (result != old) {
                if constexpr (Layout::writes_under_stripe) {
                    m_words[i].store(result, std::memory_order_relaxed);
                } else {
                    m_words[i].fetch_or(words[i], std::memory_order_relaxed);
                }
            }
        };
        if constexpr (Layout::writes_under_stripe) {
            // Inserts write a block with plain stores under its stripe: merge each block under it too.
            for (std::size_t first = 0; first < m_word_count; first += detail::block_word_count) {
                detail::insert_stripe& stripe = m_stripes[(first / detail::block_word_count) % stripe_count];
                stripe.lock();
                for (std::size_t i = first; i < first + detail::block_word_count; ++i) {
                    merge_word(i);
                }
                stripe.unlock();
            }
        } else {
            for (std::size_t i = 0; i < m_word_count; ++i) {
                merge_word(i);
            }
        }
        if (!kept_mine) {
            const std::uint64_t count =
                kept_theirs ? other.item_count()
                            : static_cast<std::uint64_t>(std::llround(estimated_item_count()));
            // item_count() adds the stripes' counts to m_item_count: store the difference (modulo 2^64, so
            // inserts counted meanwhile still add on top).
            m_item_count.store(count - stripe_inserts(), std::memory_order_relaxed);
        }
        return *this;
    }
    /// Union with another concurrent filter; as the plain overload. `other` may be inserted into meanwhile.
    basic_concurrent_bloom_filter& operator|=(const basic_concurrent_bloom_filter& other) {
        if (this != &other) {
            *this |= other.to_plain();
        }
        return *this;
    }

    /// True if `other` has the same bit count, hash count and seed, so the two can be combined.
    [[nodiscard]] bool compatible_with(const plain_filter_type& other) const noexcept {
        return m_geometry.bit_count == other.bit_count() && m_geometry.hash_count == other.hash_count() &&
               m_seed == other.seed();
    }
    /// True if `other` has the same bit count, hash count, probe scheme and seed.
    [[nodiscard]] bool compatible_with(const basic_concurrent_bloom_filter& other) const noexcept {
        return m_geometry.bit_count == other.m_geometry.bit_count &&
               m_geometry.hash_count == other.m_geometry.hash_count &&
               m_geometry.probes == other.m_geometry.probes && m_seed == other.m_seed;
    }

    /// m, the number of bits.
    [[nodiscard]] std::uint64_t bit_count() const noexcept { return m_geometry.bit_count; }
    /// k, the number of bits each item sets.
    [[nodiscard]] unsigned hash_count() const noexcept { return m_geometry.hash_count; }
    /// The seed every hash of this filter uses.
    [[nodiscard]] std::uint64_t seed() const noexcept { return m_seed; }
    /// The number of items the filter was sized for.
    [[nodiscard]] std::uint64_t expected_items() const noexcept { return m_expected_items; }
    /// The rate the filter was sized for, reached at expected_items().
    [[nodiscard]] double target_false_positive_rate() const noexcept { return m_target_false_positive_rate; }
    /// How the k positions derive from an item's hash (the plain filter's; see bloom::probe_scheme).
    [[nodiscard]] probe_scheme probes() const noexcept { return m_geometry.probes; }
    /// The shape: bit_count(), hash_count(), probes().
    [[nodiscard]] filter_geometry geometry() const noexcept { return m_geometry; }
    /// Items inserted that were new (insert returned true), exactly once inserts have finished; after |=,
    /// the estimate from the bits, as for the plain filter. O(stripe_count).
    [[nodiscard]] std::uint64_t item_count() const noexcept {
        return m_item_count.load(std::memory_order_relaxed) + stripe_inserts();
    }
    /// Fraction of bits set, in [0, 1], as the words are while it reads them. O(m / 64).
    [[nodiscard]] double fill_ratio() const noexcept {
        return m_geometry.bit_count == 0
                   ? 0.0
                   : static_cast<double>(set_bit_count()) / static_cast<double>(m_geometry.bit_count);
    }
    /// Distinct items estimated from the bits, as the plain filter's estimated_item_count(). O(m / 64).
    [[nodiscard]] double estimated_item_count() const noexcept {
        return detail::items_from_fill(set_bit_count(), m_geometry.bit_count, m_geometry.hash_count);
    }
    /// estimated_item_count() / expected_items(): 1.0 at capacity. 0 for a moved-from filter. O(m / 64).
    [[nodiscard]] double load_factor() const noexcept {
        return m_word_count == 0 || m_expected_items == 0
                   ? 0.0
                   : estimated_item_count() / static_cast<double>(m_expected_items);
    }
    /// The probability that a random non-member is reported present given the bits as they are (read with
    /// relaxed loads while others may insert), as the plain filter's. 0 when empty. O(m / 64).
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        return m_word_count == 0 ? 0.0 : Layout::rate(m_words, m_word_count, m_geometry);
    }
    /// Bytes of the bit array (the stripe locks add stripe_count * 64 bytes).
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_word_count * sizeof(std::uint64_t); }
    /// A copy of the hasher.
    [[nodiscard]] hasher hash_function() const { return m_hasher; }
    /// A copy of the allocator.
    [[nodiscard]] allocator_type get_allocator() const { return allocator_type(m_allocator); }

    /// Removes every item; keeps the shape and seed. Not concurrently with any other operation. O(m / 64).
    void clear() noexcept {
        for (std::size_t i = 0; i < m_word_count; ++i) {
            m_words[i].store(0, std::memory_order_relaxed);
        }
        m_item_count.store(0, std::memory_order_relaxed);
        if (m_stripes != nullptr) {
            for (std::size_t i = 0; i < stripe_count; ++i) {
                m_stripes[i].inserted.store(0, std::memory_order_relaxed);
            }
        }
    }

    /// Exchanges the contents with `other`. Not concurrently with any other operation on either. O(1).
    void swap(basic_concurrent_bloom_filter& other) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        using std::swap;
        swap(m_hasher, other.m_hasher); // first: if it throws, nothing else has changed
        swap(m_allocator, other.m_allocator);
        swap(m_words, other.m_words);
        swap(m_word_count, other.m_word_count);
        swap(m_geometry, other.m_geometry);
        swap(m_seed, other.m_seed);
        swap(m_expected_items, other.m_expected_items);
        swap(m_target_false_positive_rate, other.m_target_false_positive_rate);
        const std::uint64_t count = m_item_count.load(std::memory_order_relaxed);
        m_item_count.store(other.m_item_count.load(std::memory_order_relaxed), std::memory_order_relaxed);
        other.m_item_count.store(count, std::memory_order_relaxed);
        swap(m_stripes, other.m_stripes);
    }
    /// Exchanges the contents of `left` and `right`. O(1).
    friend void swap(basic_concurrent_bloom_filter& left,
                     basic_concurrent_bloom_filter& right) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        left.swap(right);
    }

  private:
    template <class K>
    [[nodiscard]] std::uint64_t hash_of(const K& value) const {
        return detail::seeded_hash(m_hasher, value, m_seed);
    }

    // Throws std::logic_error from `where` if the filter is empty: it has no bits to keep an item in.
    void require_bits(const char* where) const {
        if (m_word_count == 0) {
            detail::throw_insert_into_empty(where);
        }
    }

    // Callers check for an empty filter first (require_bits).
    bool insert_hash(std::uint64_t hash) noexcept {
        // Every bit already set: "not new", and nothing to write, so no lock. Exactness holds: an insert
        // of the same item that got true set a bit, so it finished its writes before this saw all bits
        // set, or it had not started and will find them all set too.
        if (Layout::contains(m_words, m_geometry, hash)) {
            return false;
        }
        detail::insert_stripe& stripe = m_stripes[Layout::stripe_key(hash, m_geometry) % stripe_count];
        stripe.lock();
        const bool was_new = Layout::insert(m_words, m_geometry, hash);
        if (was_new) {
            stripe.inserted.store(stripe.inserted.load(std::memory_order_relaxed) + 1,
                                  std::memory_order_relaxed);
        }
        stripe.unlock();
        return was_new;
    }

    [[nodiscard]] std::uint64_t set_bit_count() const noexcept {
        return detail::count_set_bits(detail::relaxed_words{m_words}, m_word_count);
    }

    /// Inserts that returned true, over all stripes.
    [[nodiscard]] std::uint64_t stripe_inserts() const noexcept {
        std::uint64_t total = 0;
        if (m_stripes != nullptr) {
            for (std::size_t i = 0; i < stripe_count; ++i) {
                total += m_stripes[i].inserted.load(std::memory_order_relaxed);
            }
        }
        return total;
    }

    [[nodiscard]] bool contains_hash(std::uint64_t hash) const noexcept {
        return m_word_count != 0 && Layout::contains(m_words, m_geometry, hash);
    }

    void allocate_words(std::size_t count, const std::uint64_t* source) {
        if (count == 0) { // a copy of an empty filter
            return;
        }
        m_words = word_traits::allocate(m_allocator, count);
        for (std::size_t i = 0; i < count; ++i) {
            word_traits::construct(m_allocator, m_words + i, source == nullptr ? 0 : source[i]);
        }
        m_word_count = count;
    }

    void release_words() noexcept {
        if (m_words != nullptr) {
            for (std::size_t i = 0; i < m_word_count; ++i) {
                word_traits::destroy(m_allocator, m_words + i);
            }
            word_traits::deallocate(m_allocator, m_words, m_word_count);
        }
    }

    word_allocator m_allocator;
    detail::atomic_word* m_words = nullptr;
    std::size_t m_word_count = 0;
    filter_geometry m_geometry;
    std::uint64_t m_seed;
    std::uint64_t m_expected_items;
    double m_target_false_positive_rate;
    std::atomic<std::uint64_t> m_item_count{0};
    Hasher m_hasher;
    std::unique_ptr<detail::insert_stripe[]> m_stripes;
};

/// A classic Bloom filter (bloom_filter's bits) for many threads at once; see basic_concurrent_bloom_filter.
template <class T, class Hasher = hash<T>, class Allocator = std::allocator<std::uint64_t>>
using concurrent_bloom_filter = basic_concurrent_bloom_filter<T, detail::classic_layout, Hasher, Allocator>;

/// A blocked Bloom filter (blocked_bloom_filter's bits) for many threads at once; see
/// basic_concurrent_bloom_filter.
template <class T, class Hasher = hash<T>, class Allocator = aligned_allocator<std::uint64_t, 64>>
using concurrent_blocked_bloom_filter =
    basic_concurrent_bloom_filter<T, detail::blocked_layout, Hasher, Allocator>;

} // namespace bloom

#endif // BLOOM_CONCURRENT_BLOOM_FILTER_HPP
