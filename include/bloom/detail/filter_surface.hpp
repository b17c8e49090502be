// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_FILTER_SURFACE_HPP
#define BLOOM_DETAIL_FILTER_SURFACE_HPP

// The item-level surface every filter kind shares, written once: insert and contains of one key, of a range
// (hashing a window ahead and prefetching, the same answers as one call per key), of an initializer list.
// A kind derives from filter_surface<Kind, T> (CRTP), befriends it, and provides the steps:
//
//     std::uint64_t hash_of(const K&) const;           the hash its probes derive from
//     bool insert_hash(std::uint64_t);                 sets the item's bits; true if one was 0
//     bool contains_hash(std::uint64_t) const;         false if the item is definitely absent
//     void require_insertable(const char* call) const; throws std::logic_error if it cannot hold an item
//
// and, for the range forms' pipeline (unless it goes by windows, below):
//
//     template <bool ForWrite> void prefetch_hash(std::uint64_t) const;   the lines the next step reads
//     bool bulk_prefetches() const;                    whether the range forms hash ahead and prefetch
//     static constexpr std::size_t bulk_window;        items hashed ahead in the range forms
//
// and may stage the items of those range forms in slots of its own type instead of hashes:
//
//     using bulk_slot = ...;                           what an item's step needs, filled ahead
//     template <bool ForWrite> void stage_hash(std::uint64_t, bulk_slot&) const;   fills it, prefetches
//     bool insert_slot(const bulk_slot&);  bool contains_slot(const bulk_slot&) const;
//
// and may run its range forms by batches of eight items where a kernel set has batch kernels (the classic
// filter with AVX-512 or AVX2: detail/classic_kernels.hpp), saying so with `batches_with<kernel_set>`:
//
//     template <kernel_set K> bool batches() const;    whether this filter's range forms go by batches
//     template <kernel_set> OutputIt contains_by_batches(first, last, hash, out) const;   the lookups' loop
//     template <kernel_set, bool Prefetch, bool ForWrite> void stage_batch(hashes, count, batch_slot<>&)
//     const; bool insert_batch_item(const batch_slot<>&, std::size_t item);   an insert's step
//
// and may run its range forms a window of hashes at a time instead (the scalable filter: stage by stage,
// each asked about the items no newer stage holds), saying so with its hash_window:
//
//     static constexpr std::size_t hash_window;        items hashed and handed over together
//     OutputIt contains_window(const std::uint64_t* hashes, std::size_t count, OutputIt out) const;
//     std::size_t insert_window(const std::uint64_t* hashes, std::size_t count);   how many were new
//
// and may take a kernel_set (detail/block_kernels.hpp) in insert_hash, contains_hash, insert_slot and
// contains_slot, as `template <kernel_set K = kernel_set::chosen>`, saying so with `static constexpr bool
// has_kernel_sets`: its operations, single and range forms, are then compiled as a whole for the widest
// kernel set the CPU runs (with_block_kernels).

#include "bloom/detail/block_kernels.hpp"
#include "bloom/detail/classic_kernels.hpp"
#include "bloom/detail/config.hpp"
#include "bloom/detail/pipeline.hpp"
#include "bloom/hash.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>

namespace bloom::detail {

template <class Derived, class T>
class filter_surface {
  public:
    /// Adds `value`. Returns true if it was definitely absent before (one of its bits was 0), false if it
    /// was probably present: one call serves "check, then add". Throws std::logic_error if the filter is
    /// empty (default-constructed or moved from).
    template <class K>
    BLOOM_FORCE_INLINE bool insert(const K& value) {
        static_assert(
            can_hash_v<typename Derived::hasher, K>,
            "bloom: insert: the filter's Hasher cannot hash this key type; specialise bloom::hash<T> "
            "or pass a Hasher");
        derived().require_insertable("insert");
        if constexpr (has_kernel_sets<Derived>(0)) {
            // Hashed before the kernel set's function, which gets the hash as an argument: hashed inside
            // it, XXH3's whole code came along, and with it register saves and a realigned stack frame on
            // every string operation (-O2 single lookups of 16-byte strings 8.3-8.9 ns, now 6.0-6.9).
            return with_block_kernels(
                [this](auto kernels, std::uint64_t hash)
                    BLOOM_INLINE_LAMBDA { return insert_hash_of<decltype(kernels)::value>(derived(), hash); },
                derived().hash_of(value));
        } else {
            return derived().insert_hash(derived().hash_of(value));
        }
    }

    /// Inserts every value of [first, last), hashing a window ahead and prefetching: the same result as
    /// inserting them one by one. Returns how many were definitely new.
    template <class InputIt>
    std::size_t insert(InputIt first, InputIt last) {
        static_assert(can_hash_range_v<typename Derived::hasher, InputIt>,
                      "bloom: insert(first, last): the filter's Hasher cannot hash the range's values; "
                      "specialise bloom::hash<T> or pass a Hasher");
        if (first != last) {
            derived().require_insertable("insert(first, last)");
        }
        if constexpr (goes_by_windows<Derived>(0)) {
            std::size_t inserted = 0;
            for_each_window(std::move(first), std::move(last),
                            [&](const std::uint64_t* hashes, std::size_t count) {
                                inserted += derived().insert_window(hashes, count);
                            });
            return inserted;
        } else if constexpr (has_range_kernels<Derived>()) {
            return with_block_kernels([&](auto kernels) {
                return insert_range<decltype(kernels)::value>(std::move(first), std::move(last));
            });
        } else {
            return insert_range<kernel_set::chosen>(std::move(first), std::move(last));
        }
    }

    /// Inserts every value of `values`, as insert(values.begin(), values.end()).
    std::size_t insert(std::initializer_list<T> values) { return insert(values.begin(), values.end()); }

    /// False: `value` is definitely absent. True: it is probably present (a false positive at about
    /// current_false_positive_rate()). Never a false negative.
    template <class K>
    [[nodiscard]] BLOOM_FORCE_INLINE bool contains(const K& value) const {
        static_assert(can_hash_v<typename Derived::hasher, K>,
                      "bloom: contains: the filter's Hasher cannot hash this key type; specialise "
                      "bloom::hash<T> or pass a Hasher");
        if constexpr (has_kernel_sets<Derived>(0)) {
            // Hashed first, as in insert().
            return with_block_kernels(
                [this](auto kernels, std::uint64_t hash) BLOOM_INLINE_LAMBDA {
                    return contains_hash_of<decltype(kernels)::value>(derived(), hash);
                },
                derived().hash_of(value));
        } else {
            return derived().contains_hash(derived().hash_of(value));
        }
    }

    /// Writes contains(value) for every value of [first, last) to `out`, in order: the answers of one call
    /// per value, by the same kernel, hashing a window ahead and prefetching, so many cache misses are in
    /// flight at once. Returns the output iterator past the last result.
    template <class InputIt, class OutputIt>
    OutputIt contains(InputIt first, InputIt last, OutputIt out) const {
        static_assert(
            can_hash_range_v<typename Derived::hasher, InputIt>,
            "bloom: contains(first, last, out): the filter's Hasher cannot hash the range's values; "
            "specialise bloom::hash<T> or pass a Hasher");
        if constexpr (goes_by_windows<Derived>(0)) {
            for_each_window(std::move(first), std::move(last),
                            [&](const std::uint64_t* hashes, std::size_t count) {
                                out = derived().contains_window(hashes, count, std::move(out));
                            });
            return out;
        } else if constexpr (has_range_kernels<Derived>()) {
            return with_block_kernels([&](auto kernels) {
                return contains_range<decltype(kernels)::value>(std::move(first), std::move(last),
                                                                std::move(out));
            });
        } else {
            return contains_range<kernel_set::chosen>(std::move(first), std::move(last), std::move(out));
        }
    }

  private:
    // The range forms of a kind that goes by windows (goes_by_windows): body(hashes, count) for each
    // hash_window items in order (fewer in the last), hashed.
    template <class InputIt, class Body>
    void for_each_window(InputIt first, InputIt last, Body&& body) const {
        const Derived& self = derived();
        std::uint64_t hashes[Derived::hash_window];
        std::size_t count = 0;
        for (; first != last; ++first) {
            hashes[count] = self.hash_of(*first);
            if (++count == Derived::hash_window) {
                body(static_cast<const std::uint64_t*>(hashes), count);
                count = 0;
            }
        }
        if (count != 0) {
            body(static_cast<const std::uint64_t*>(hashes), count);
        }
    }

    // The range forms' loops, with the kind's steps run by the kernel set `Kernels` (kinds whose steps take
    // one, has_kernel_sets, are compiled for a whole set in builds that choose it at run time).
    template <kernel_set Kernels, class InputIt>
    BLOOM_FORCE_INLINE std::size_t insert_range(InputIt first, InputIt last) {
        Derived& self = derived();
        std::size_t inserted = 0;
        if constexpr (batches_with<Derived, Kernels>(0)) {
            if (self.template batches<Kernels>()) {
                const auto insert_batch = [&](const auto& slot) BLOOM_INLINE_LAMBDA {
                    for (std::size_t item = 0; item < slot.count; ++item) {
                        inserted += self.insert_batch_item(slot, item) ? 1 : 0;
                    }
                };
                using slot_type = typename Derived::template batch_slot<>;
                if (self.bulk_prefetches()) {
                    staged_batches<batch_items, Derived::bulk_window / batch_items, slot_type>(
                        first, last, hash_with(self),
                        [&self](const std::uint64_t* hashes, std::size_t count, slot_type& slot)
                            BLOOM_INLINE_LAMBDA {
                                self.template stage_batch<Kernels, true, true>(hashes, count, slot);
                            },
                        insert_batch);
                } else {
                    for_each_batch<batch_items>(
                        first, last, hash_with(self),
                        [&](const std::uint64_t* hashes, std::size_t count) BLOOM_INLINE_LAMBDA {
                            slot_type slot;
                            self.template stage_batch<Kernels, false, true>(hashes, count, slot);
                            insert_batch(slot);
                        });
                }
                return inserted;
            }
        }
        if constexpr (has_bulk_slot<Derived>(0)) {
            if (self.bulk_prefetches()) {
                staged_for_each<Derived::bulk_window, typename Derived::bulk_slot>(
                    first, last,
                    [&self](const auto& value, auto& slot)
                        BLOOM_INLINE_LAMBDA { self.template stage_hash<true>(self.hash_of(value), slot); },
                    [&](const auto& slot)
                        BLOOM_INLINE_LAMBDA { inserted += insert_slot_of<Kernels>(self, slot) ? 1 : 0; });
                return inserted;
            }
        }
        pipelined_for_each<Derived::bulk_window>(
            self.bulk_prefetches(), first, last,
            [&self](const auto& value) BLOOM_INLINE_LAMBDA { return self.hash_of(value); },
            [&self](std::uint64_t hash) BLOOM_INLINE_LAMBDA { self.template prefetch_hash<true>(hash); },
            [&](std::uint64_t hash)
                BLOOM_INLINE_LAMBDA { inserted += insert_hash_of<Kernels>(self, hash) ? 1 : 0; });
        return inserted;
    }

    template <kernel_set Kernels, class InputIt, class OutputIt>
    BLOOM_FORCE_INLINE OutputIt contains_range(InputIt first, InputIt last, OutputIt out) const {
        const Derived& self = derived();
        if constexpr (batches_with<Derived, Kernels>(0)) {
            if (self.template batches<Kernels>()) {
                return self.template contains_by_batches<Kernels>(std::move(first), std::move(last),
                                                                  hash_with(self), std::move(out));
            }
        }
        if constexpr (has_bulk_slot<Derived>(0)) {
            if (self.bulk_prefetches()) {
                staged_for_each<Derived::bulk_window, typename Derived::bulk_slot>(
                    first, last,
                    [&self](const auto& value, auto& slot)
                        BLOOM_INLINE_LAMBDA { self.template stage_hash<false>(self.hash_of(value), slot); },
                    [&](const auto& slot) BLOOM_INLINE_LAMBDA {
                        *out = contains_slot_of<Kernels>(self, slot);
                        ++out;
                    });
                return out;
            }
        }
        pipelined_for_each<Derived::bulk_window>(
            self.bulk_prefetches(), first, last,
            [&self](const auto& value) BLOOM_INLINE_LAMBDA { return self.hash_of(value); },
            [&self](std::uint64_t hash) BLOOM_INLINE_LAMBDA { self.template prefetch_hash<false>(hash); },
            [&](std::uint64_t hash) BLOOM_INLINE_LAMBDA {
                *out = contains_hash_of<Kernels>(self, hash);
                ++out;
            });
        return out;
    }

    // A step by `Kernels`: the kind's plain step for kernel_set::chosen (every kind has it), its
    // kernel_set template otherwise (only kinds with has_kernel_sets are given another set).
    template <kernel_set Kernels>
    BLOOM_FORCE_INLINE static bool insert_hash_of(Derived& self, std::uint64_t hash) {
        if constexpr (Kernels == kernel_set::chosen || !has_kernel_sets<Derived>(0)) {
            return self.insert_hash(hash);
        } else {
            return self.template insert_hash<Kernels>(hash);
        }
    }
    template <kernel_set Kernels>
    BLOOM_FORCE_INLINE static bool contains_hash_of(const Derived& self, std::uint64_t hash) {
        if constexpr (Kernels == kernel_set::chosen || !has_kernel_sets<Derived>(0)) {
            return self.contains_hash(hash);
        } else {
            return self.template contains_hash<Kernels>(hash);
        }
    }
    template <kernel_set Kernels, class Slot>
    BLOOM_FORCE_INLINE static bool insert_slot_of(Derived& self, const Slot& slot) {
        if constexpr (Kernels == kernel_set::chosen || !has_kernel_sets<Derived>(0)) {
            return self.insert_slot(slot);
        } else {
            return self.template insert_slot<Kernels>(slot);
        }
    }
    template <kernel_set Kernels, class Slot>
    BLOOM_FORCE_INLINE static bool contains_slot_of(const Derived& self, const Slot& slot) {
        if constexpr (Kernels == kernel_set::chosen || !has_kernel_sets<Derived>(0)) {
            return self.contains_slot(slot);
        } else {
            return self.template contains_slot<Kernels>(slot);
        }
    }

    // Whether Derived's steps take a kernel_set (its static has_kernel_sets: the blocked filter's).
    template <class D>
    static constexpr auto has_kernel_sets(int) -> decltype(bool{D::has_kernel_sets}) {
        return D::has_kernel_sets;
    }
    template <class D>
    static constexpr bool has_kernel_sets(...) {
        return false;
    }

    // Whether Derived stages its bulk items in slots of its own (bulk_slot, stage_hash, contains_slot,
    // insert_slot: the classic filter keeps the probe positions it prefetched) rather than as hashes.
    // Detected here, in a member, as the kind's steps are private to all but its surface.
    template <class D>
    static constexpr auto has_bulk_slot(int) -> decltype(sizeof(typename D::bulk_slot), true) {
        return true;
    }
    template <class D>
    static constexpr bool has_bulk_slot(...) {
        return false;
    }

    // Whether Derived runs its range forms a window of hashes at a time (its hash_window, contains_window
    // and insert_window: the scalable filter, stage by stage).
    template <class D>
    static constexpr auto goes_by_windows(int) -> decltype(D::hash_window, true) {
        return true;
    }
    template <class D>
    static constexpr bool goes_by_windows(...) {
        return false;
    }

    // Whether Derived's range forms go by batches with `Kernels` (its batches_with<Kernels>: the classic
    // filter's with AVX-512 or AVX2), through the steps batch_slot, batches, contains_by_batches, stage_batch
    // and insert_batch_item.
    template <class D, kernel_set Kernels>
    static constexpr auto batches_with(int) -> decltype(bool{D::template batches_with<Kernels>}) {
        return D::template batches_with<Kernels>;
    }
    template <class D, kernel_set Kernels>
    static constexpr bool batches_with(...) {
        return false;
    }
    static constexpr std::size_t batch_items = classic_batch_items;
    // Whether the range forms are compiled as a whole for the kernel set the CPU runs (with_block_kernels):
    // where Derived's steps take one, or its batches come with one.
    template <class D>
    static constexpr bool has_range_kernels() {
        return has_kernel_sets<D>(0) || batches_with<D, kernel_set::avx512>(0) ||
               batches_with<D, kernel_set::chosen>(0);
    }
    // The hash of a range's item, for the batch loops.
    template <class Self>
    static auto hash_with(const Self& self) {
        return [&self](const auto& value) BLOOM_INLINE_LAMBDA { return self.hash_of(value); };
    }

    BLOOM_FORCE_INLINE Derived& derived() noexcept { return static_cast<Derived&>(*this); }
    BLOOM_FORCE_INLINE const Derived& derived() const noexcept { return static_cast<const Derived&>(*this); }
};

} // namespace bloom::detail

#endif // BLOOM_DETAIL_FILTER_SURFACE_HPP
