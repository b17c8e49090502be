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

#include "bloom/basic_bloom_filter.hpp"
#include "bloom/blocked_bloom_filter.hpp"
#include "bloom/bloom_filter.hpp"
#include "bloom/detail/atomic_words.hpp"
#include "bloom/detail/bit_rates.hpp"
#include "bloom/detail/block_kernels.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/filter_base.hpp"
#include "bloom/detail/filter_surface.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

namespace bloom {

namespace detail {

// The stripe locks use acquire/release so that the second of two inserts of one item sees every bit the
// first set; the words themselves are read and written relaxed (detail/atomic_words.hpp says why).

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
class basic_concurrent_bloom_filter
    : public detail::filter_surface<basic_concurrent_bloom_filter<T, Layout, Hasher, Allocator>, T> {
    using surface = detail::filter_surface<basic_concurrent_bloom_filter, T>;
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
    using plain_filter_type = basic_bloom_filter<T, Layout, Hasher, Allocator>;

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
        : m_allocator(allocator),
          m_geometry(Layout::sized(expected_items, false_positive_rate, Layout::concurrent_name)),
          m_seed(seed), m_expected_items(expected_items), m_target_false_positive_rate(false_positive_rate),
          m_hasher(hash_function), m_stripes(std::make_unique<detail::insert_stripe[]>(stripe_count)) {
        allocate_words(static_cast<std::size_t>(detail::word_count_for(m_geometry.bit_count)), nullptr);
    }

    /// A filter sized as above holding every value of [first, last).
    template <class InputIt, class = detail::enable_if_input_iterator_t<InputIt>>
    basic_concurrent_bloom_filter(InputIt first, InputIt last, std::uint64_t expected_items,
                                  double false_positive_rate, std::uint64_t seed = default_seed,
                                  const Hasher& hash_function = Hasher(),
                                  const Allocator& allocator = Allocator())
        : basic_concurrent_bloom_filter(expected_items, false_positive_rate, seed, hash_function, allocator) {
        insert(first, last);
    }

    /// A filter sized as above holding `values`.
    basic_concurrent_bloom_filter(std::initializer_list<T> values, std::uint64_t expected_items,
                                  double false_positive_rate, std::uint64_t seed = default_seed,
                                  const Hasher& hash_function = Hasher(),
                                  const Allocator& allocator = Allocator())
        : basic_concurrent_bloom_filter(values.begin(), values.end(), expected_items, false_positive_rate,
                                        seed, hash_function, allocator) {}

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

    // insert and contains, of one key, a range and a list (detail/filter_surface.hpp). insert sets the
    // item's bits and returns true if it was definitely absent; of several threads inserting the same new
    // item at once exactly one gets true. It takes the item's stripe lock unless every bit is set already.
    // contains takes no lock: false means no insert of the item had completed when the lookup began. O(k).
    using surface::contains;
    using surface::insert;

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
        if constexpr (Layout::template shared_batches_with<detail::kernel_set::avx512> ||
                      Layout::template shared_batches_with<detail::kernel_set::chosen>) {
            // The classic layout's batches of eight (detail/classic_kernels.hpp), as the plain filter's range
            // forms: compiled as a whole for the kernel set the CPU runs.
            return detail::with_block_kernels([&](auto kernels) {
                return contains_range<decltype(kernels)::value>(std::move(first), std::move(last),
                                                                std::move(out));
            });
        } else {
            return contains_range<detail::kernel_set::chosen>(std::move(first), std::move(last),
                                                              std::move(out));
        }
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
        detail::require_same_shape((std::string(Layout::concurrent_name) + "::operator|=").c_str(),
                                   m_geometry, m_seed, other.geometry(), other.seed());
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

    /// True if `other` has the same bit count, hash count, probe scheme and seed, so the two can be combined.
    [[nodiscard]] bool compatible_with(const plain_filter_type& other) const noexcept {
        return m_geometry.bit_count == other.bit_count() && m_geometry.hash_count == other.hash_count() &&
               m_geometry.probes == other.probes() && m_seed == other.seed();
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
        return m_word_count == 0 ? 0.0
                                 : Layout::rate(detail::relaxed_words{m_words}, m_word_count, m_geometry);
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
        auto theirs = other.plain_state();
        plain_state().swap(theirs);
        const std::uint64_t count = m_item_count.load(std::memory_order_relaxed);
        m_item_count.store(other.m_item_count.load(std::memory_order_relaxed), std::memory_order_relaxed);
        other.m_item_count.store(count, std::memory_order_relaxed);
    }
    /// Exchanges the contents of `left` and `right`. O(1).
    friend void swap(basic_concurrent_bloom_filter& left,
                     basic_concurrent_bloom_filter& right) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        left.swap(right);
    }

  private:
    // Every member but the hasher and the atomic count, as references: swapping the tuples swaps them.
    [[nodiscard]] auto plain_state() noexcept {
        return std::tie(m_allocator, m_words, m_word_count, m_geometry, m_seed, m_expected_items,
                        m_target_false_positive_rate, m_stripes);
    }

    friend surface;

    static constexpr std::size_t bulk_window = Layout::window;

    // contains(first, last, out) of a filter with bits, by the kernel set `Kernels`.
    template <detail::kernel_set Kernels, class InputIt, class OutputIt>
    BLOOM_FORCE_INLINE OutputIt contains_range(InputIt first, InputIt last, OutputIt out) const {
        // Copied once: the compiler reloads members after every atomic load, which cost bulk lookups ~10%.
        const detail::atomic_word* const words = m_words;
        const filter_geometry geometry = m_geometry;
        const auto hash = [this](const auto& value) BLOOM_INLINE_LAMBDA { return this->hash_of(value); };
        if constexpr (Layout::template shared_batches_with<Kernels>) {
            if (Layout::template batches<Kernels>(geometry)) {
                return Layout::template contains_by_batches<Kernels>(words, geometry, std::move(first),
                                                                     std::move(last), hash, std::move(out));
            }
        }
        detail::pipelined_for_each<Layout::window>(
            Layout::prefetches(geometry), first, last, hash,
            [words, geometry](std::uint64_t item_hash)
                BLOOM_INLINE_LAMBDA { Layout::template prefetch<false>(words, geometry, item_hash); },
            [&](std::uint64_t item_hash) BLOOM_INLINE_LAMBDA {
                *out = Layout::contains(words, geometry, item_hash);
                ++out;
            });
        return out;
    }

    bool bulk_prefetches() const noexcept { return Layout::prefetches(m_geometry); }
    template <bool ForWrite>
    void prefetch_hash(std::uint64_t hash) const noexcept {
        Layout::template prefetch<ForWrite>(m_words, m_geometry, hash);
    }
    template <class K>
    [[nodiscard]] std::uint64_t hash_of(const K& value) const {
        return detail::seeded_hash(m_hasher, value, m_seed);
    }

    // Throws std::logic_error from `where` if the filter is empty: it has no bits to keep an item in.
    void require_insertable(const char* call) const {
        if (m_word_count == 0) {
            detail::throw_insert_into_empty(Layout::concurrent_name, call);
        }
    }

    // Callers check for an empty filter first (require_insertable).
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
