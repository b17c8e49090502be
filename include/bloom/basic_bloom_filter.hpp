// SPDX-License-Identifier: MIT
#ifndef BLOOM_BASIC_BLOOM_FILTER_HPP
#define BLOOM_BASIC_BLOOM_FILTER_HPP

// bloom::basic_bloom_filter<T, Layout, Hasher, Allocator> — the public surface of a bit-array Bloom filter,
// written once for every layout.
//
// A Layout (detail/classic_layout.hpp, detail/blocked_layout.hpp) says where an item's bits are: sizing,
// mark, check, prefetch, the bulk window, the rate from the bits and the file format's record kind. This
// template holds the words and everything users call: insert and contains (single, range, initializer
// list), the observers, clear, |=, &=, |, &, ==, swap. Users name it through its layouts' aliases:
//
//     bloom::bloom_filter<T, Hasher, Allocator>          = basic_bloom_filter<T, detail::classic_layout, ...>
//     bloom::blocked_bloom_filter<T, Hasher, Allocator>  = basic_bloom_filter<T, detail::blocked_layout, ...>

#include "bloom/detail/block_kernels.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/filter_base.hpp"
#include "bloom/detail/filter_surface.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/hash.hpp"
#include "bloom/sizing.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

namespace bloom {

/// A Bloom filter of T whose bits are placed by `Layout`. Hasher: callable std::uint64_t(const K&,
/// std::uint64_t seed), bloom::hash<T> by default. Allocator: allocates the words (rebound to
/// std::uint64_t). Use it through bloom_filter and blocked_bloom_filter.
template <class T, class Layout, class Hasher = hash<T>, class Allocator = typename Layout::default_allocator>
class basic_bloom_filter
    : public detail::filter_base<Hasher, Allocator>,
      public detail::filter_surface<basic_bloom_filter<T, Layout, Hasher, Allocator>, T> {
    using base = detail::filter_base<Hasher, Allocator>;
    using surface = detail::filter_surface<basic_bloom_filter, T>;

  public:
    /// The type of the items.
    using value_type = T;
    /// Where an item's bits are (detail::classic_layout or detail::blocked_layout).
    using layout_type = Layout;

    /// An empty filter: no bits, holds nothing. contains() answers false and every count and rate is 0;
    /// insert() throws std::logic_error, as it could not keep the item. Assign a sized filter to use it.
    /// A moved-from filter is left in this state.
    basic_bloom_filter() : base(Layout::empty_probes) {}

    /// A filter sized for `expected_items` at `false_positive_rate`, by its layout's formula (classic:
    /// optimal_bit_count bits and optimal_hash_count probes, plus the few bits a filter of under 10^4 bits
    /// needs for its exact rate to stay at the target; blocked: optimal_blocked_bit_count bits and
    /// optimal_blocked_hash_count bits per item). Throws std::invalid_argument for zero items, a rate
    /// outside (0, 1), or a size that cannot be held, naming the filter.
    basic_bloom_filter(std::uint64_t expected_items, double false_positive_rate,
                       std::uint64_t seed = default_seed, const Hasher& hash_function = Hasher(),
                       const Allocator& allocator = Allocator())
        : base(Layout::sized(expected_items, false_positive_rate, Layout::filter_name), expected_items,
               false_positive_rate, seed, hash_function, allocator) {}

    /// A filter sized as above holding every value of [first, last).
    template <class InputIt, class = detail::enable_if_input_iterator_t<InputIt>>
    basic_bloom_filter(InputIt first, InputIt last, std::uint64_t expected_items, double false_positive_rate,
                       std::uint64_t seed = default_seed, const Hasher& hash_function = Hasher(),
                       const Allocator& allocator = Allocator())
        : basic_bloom_filter(expected_items, false_positive_rate, seed, hash_function, allocator) {
        insert(first, last);
    }

    /// A filter sized as above holding `values`.
    basic_bloom_filter(std::initializer_list<T> values, std::uint64_t expected_items,
                       double false_positive_rate, std::uint64_t seed = default_seed,
                       const Hasher& hash_function = Hasher(), const Allocator& allocator = Allocator())
        : basic_bloom_filter(values.begin(), values.end(), expected_items, false_positive_rate, seed,
                             hash_function, allocator) {}

    /// A filter of an explicit shape (classic: any bit count and k; blocked: a multiple of 512 bits and
    /// bits_anywhere with k from 1 to 16, or one_bit_per_word with k = 8). Its expected_items() is the load
    /// at which that shape is optimal, round(m ln 2 / k), and its target rate the layout's formula's rate
    /// there. Throws std::invalid_argument otherwise, naming the parameter.
    explicit basic_bloom_filter(filter_geometry geometry, std::uint64_t seed = default_seed,
                                const Hasher& hash_function = Hasher(),
                                const Allocator& allocator = Allocator())
        : base(Layout::checked(geometry, Layout::filter_name), detail::optimal_load(geometry), 0.0, seed,
               hash_function, allocator) {
        this->m_target_false_positive_rate = Layout::shape_rate(this->geometry(), this->m_expected_items);
    }

    /// A copy: the same bits, shape, seed, counts and hasher.
    basic_bloom_filter(const basic_bloom_filter&) = default;
    /// Replaces this filter with a copy of `other`.
    basic_bloom_filter& operator=(const basic_bloom_filter&) = default;
    /// Takes `other`'s bits; `other` is left empty, as a default-constructed filter.
    basic_bloom_filter(basic_bloom_filter&& other) noexcept(std::is_nothrow_move_constructible_v<Hasher>)
        : base(std::move(other)) {
        other.m_probe_scheme = Layout::empty_probes;
    }
    /// Takes `other`'s bits; `other` is left empty, as a default-constructed filter.
    basic_bloom_filter& operator=(basic_bloom_filter&& other) noexcept(base::nothrow_move_assignment) {
        if (this != &other) {
            base::operator=(std::move(other));
            other.m_probe_scheme = Layout::empty_probes;
        }
        return *this;
    }
    ~basic_bloom_filter() = default;

    /// The probability that a random non-member is reported present, given the bits as they are now
    /// (classic: fill_ratio()^k; blocked: the mean over blocks of each block's rate), whatever put the bits
    /// there (overfilling, unions, duplicates). 0 when empty, 1 when full. O(m / 64): one popcount per
    /// word, nothing kept up to date on insert.
    [[nodiscard]] double current_false_positive_rate() const noexcept {
        return this->m_bit_count == 0 ? 0.0
                                      : Layout::rate(this->words(), this->word_count(), this->geometry());
    }

    /// Number of 512-bit blocks (blocked layout only).
    template <class L = Layout, class = std::enable_if_t<L::has_blocks>>
    [[nodiscard]] std::uint64_t block_count() const noexcept {
        return Layout::block_count(this->geometry());
    }

    /// True if `other` has the same bit count, hash count, probe scheme and seed, so the two can be combined.
    [[nodiscard]] bool compatible_with(const basic_bloom_filter& other) const noexcept {
        return this->same_shape(other);
    }

    /// Exchanges the contents (bits, shape, seed, counts, hasher) with `other`. O(1).
    void swap(basic_bloom_filter& other) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        this->swap_state(other);
    }
    /// Exchanges the contents of `left` and `right`. O(1).
    friend void swap(basic_bloom_filter& left,
                     basic_bloom_filter& right) noexcept(std::is_nothrow_swappable_v<Hasher>) {
        left.swap(right);
    }

    /// Union: afterwards the filter reports every item either filter held. `other` may use another
    /// allocator; a filter with another hasher type never combines (a compile-time error): its bits mean
    /// different things. O(m / 64). Throws std::invalid_argument naming what differs unless the shapes and
    /// seeds agree.
    template <class OtherHasher, class OtherAllocator>
    basic_bloom_filter& operator|=(const basic_bloom_filter<T, Layout, OtherHasher, OtherAllocator>& other) {
        static_assert(std::is_same_v<OtherHasher, Hasher>,
                      "bloom::basic_bloom_filter: cannot combine filters whose Hasher types differ");
        this->unite((std::string(Layout::filter_name) + "::operator|=").c_str(), other);
        return *this;
    }

    /// Intersection: afterwards the filter reports (at least) the items both filters held; its rate is no
    /// higher than either's. As |= for allocators, hashers and errors. O(m / 64).
    template <class OtherHasher, class OtherAllocator>
    basic_bloom_filter& operator&=(const basic_bloom_filter<T, Layout, OtherHasher, OtherAllocator>& other) {
        static_assert(std::is_same_v<OtherHasher, Hasher>,
                      "bloom::basic_bloom_filter: cannot combine filters whose Hasher types differ");
        this->intersect((std::string(Layout::filter_name) + "::operator&=").c_str(), other);
        return *this;
    }

    /// Union of two compatible filters. Throws std::invalid_argument otherwise.
    [[nodiscard]] friend basic_bloom_filter operator|(basic_bloom_filter left,
                                                      const basic_bloom_filter& right) {
        left |= right;
        return left;
    }
    /// Intersection of two compatible filters. Throws std::invalid_argument otherwise.
    [[nodiscard]] friend basic_bloom_filter operator&(basic_bloom_filter left,
                                                      const basic_bloom_filter& right) {
        left &= right;
        return left;
    }

    /// Same shape, seed and bits (item counts and sizing targets are not compared).
    [[nodiscard]] friend bool operator==(const basic_bloom_filter& left,
                                         const basic_bloom_filter& right) noexcept {
        return left.equals(right);
    }
    /// !(left == right).
    [[nodiscard]] friend bool operator!=(const basic_bloom_filter& left,
                                         const basic_bloom_filter& right) noexcept {
        return !(left == right);
    }

    // insert and contains, of one key, a range and a list (detail/filter_surface.hpp): an item's bits are
    // set or tested by the layout's kernel; the range forms hash Layout::window items ahead and prefetch.
    using surface::contains;
    using surface::insert;

  private:
    friend struct detail::filter_access;
    friend surface;

    static constexpr std::size_t bulk_window = Layout::window;
    // Whether the steps below take a kernel_set (filter_surface then compiles each operation for one).
    static constexpr bool has_kernel_sets = Layout::has_kernel_sets;

    BLOOM_FORCE_INLINE void require_insertable(const char* call) const {
        this->require_bits(Layout::filter_name, call);
    }

    BLOOM_FORCE_INLINE bool bulk_prefetches() const noexcept { return Layout::prefetches(this->geometry()); }

    // An empty filter prefetches nothing (classic: k = 0 probes) or address 0 (blocked), which a prefetch
    // may name: it never faults.
    template <bool ForWrite>
    BLOOM_FORCE_INLINE void prefetch_hash(std::uint64_t hash) const noexcept {
        Layout::template prefetch<ForWrite>(this->words(), this->geometry(), hash);
    }

    // For the hidden friend operator==, which is this class's friend but not its base's.
    [[nodiscard]] bool equals(const basic_bloom_filter& other) const noexcept {
        return this->same_bits(other);
    }

    // An empty filter has no bits: Layout::lookup probes a static zero word or block instead, so it finds
    // nothing, without an early return (see there).
    // `Kernels` (here and below): the layout's kernel set, where it has them (has_kernel_sets).
    template <detail::kernel_set Kernels = detail::kernel_set::chosen>
    [[nodiscard]] BLOOM_FORCE_INLINE bool contains_hash(std::uint64_t hash) const noexcept {
        if constexpr (Kernels == detail::kernel_set::chosen) {
            return Layout::lookup(this->words(), this->m_bit_count, this->m_hash_count, this->m_probe_scheme,
                                  hash);
        } else {
            return Layout::template lookup<Kernels>(this->words(), this->m_bit_count, this->m_hash_count,
                                                    this->m_probe_scheme, hash);
        }
    }

    // Callers check for an empty filter first (require_bits).
    template <detail::kernel_set Kernels = detail::kernel_set::chosen>
    BLOOM_FORCE_INLINE bool insert_hash(std::uint64_t hash) noexcept {
        bool was_new = false;
        if constexpr (Kernels == detail::kernel_set::chosen) {
            was_new = Layout::insert(this->words(), this->geometry(), hash);
        } else {
            was_new = Layout::template insert<Kernels>(this->words(), this->geometry(), hash);
        }
        this->count_insert(was_new);
        return was_new;
    }

    // The range forms past the cache (filter_surface): an item staged Layout::window items ahead.
    using bulk_slot = typename Layout::bulk_slot;
    template <bool ForWrite>
    BLOOM_FORCE_INLINE void stage_hash(std::uint64_t hash, bulk_slot& slot) const noexcept {
        Layout::template stage<ForWrite>(this->words(), this->geometry(), hash, slot);
    }
    // The range forms by batches of eight items, with the kernel sets that have batch kernels (the classic
    // layout's AVX-512 and AVX2 ones: detail/classic_kernels.hpp), where batches() says so.
    template <detail::kernel_set Kernels>
    static constexpr bool batches_with = Layout::template batches_with<Kernels>;
    template <class L = Layout>
    using batch_slot = typename L::batch_slot;
    template <detail::kernel_set Kernels>
    BLOOM_FORCE_INLINE bool batches() const noexcept {
        return Layout::template batches<Kernels>(this->geometry());
    }
    template <detail::kernel_set Kernels, bool Prefetch, bool ForWrite, class Slot>
    BLOOM_FORCE_INLINE void stage_batch(const std::uint64_t* hashes, std::size_t count,
                                        Slot& slot) const noexcept {
        Layout::template stage_batch<Kernels, Prefetch, ForWrite>(this->words(), this->geometry(), hashes,
                                                                  count, slot);
    }
    template <detail::kernel_set Kernels, class InputIt, class OutputIt, class Hash>
    BLOOM_FORCE_INLINE OutputIt contains_by_batches(InputIt first, InputIt last, Hash&& hash,
                                                    OutputIt out) const {
        return Layout::template contains_by_batches<Kernels>(
            this->words(), this->geometry(), std::move(first), std::move(last), hash, std::move(out));
    }
    template <class Slot>
    BLOOM_FORCE_INLINE bool insert_batch_item(const Slot& slot, std::size_t item) noexcept {
        const bool was_new = Layout::insert(this->words(), this->geometry(), slot, item);
        this->count_insert(was_new);
        return was_new;
    }
    // Only staged past the cache, so never on an empty filter.
    template <detail::kernel_set Kernels = detail::kernel_set::chosen>
    [[nodiscard]] BLOOM_FORCE_INLINE bool contains_slot(const bulk_slot& slot) const noexcept {
        if constexpr (Kernels == detail::kernel_set::chosen) {
            return Layout::contains(this->words(), this->geometry(), slot);
        } else {
            return Layout::template contains<Kernels>(this->words(), this->geometry(), slot);
        }
    }
    template <detail::kernel_set Kernels = detail::kernel_set::chosen>
    BLOOM_FORCE_INLINE bool insert_slot(const bulk_slot& slot) noexcept {
        bool was_new = false;
        if constexpr (Kernels == detail::kernel_set::chosen) {
            was_new = Layout::insert(this->words(), this->geometry(), slot);
        } else {
            was_new = Layout::template insert<Kernels>(this->words(), this->geometry(), slot);
        }
        this->count_insert(was_new);
        return was_new;
    }

    // The distinct bits inserting `hash` would set (classic layout; what a scalable filter's stage asks).
    [[nodiscard]] std::uint64_t unset_probe_count(std::uint64_t hash) const noexcept {
        return Layout::unset_probe_count(this->words(), this->geometry(), hash);
    }
};

} // namespace bloom

#endif // BLOOM_BASIC_BLOOM_FILTER_HPP
