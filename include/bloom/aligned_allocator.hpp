// SPDX-License-Identifier: MIT
#ifndef BLOOM_ALIGNED_ALLOCATOR_HPP
#define BLOOM_ALIGNED_ALLOCATOR_HPP

// bloom::aligned_allocator<T, Alignment>: a stateless allocator whose storage starts on an `Alignment`
// boundary (C++17 aligned operator new). The blocked filter uses it by default so each 512-bit block is
// exactly one 64-byte cache line; any other allocator works too, only slower when blocks straddle lines.

#include "bloom/detail/errors.hpp"

#include <cstddef>
#include <new>
#include <type_traits>

namespace bloom {

/// Allocates storage for T aligned to `Alignment` bytes (a power of two, at least alignof(T)).
template <class T, std::size_t Alignment = 64>
class aligned_allocator {
    static_assert((Alignment & (Alignment - 1)) == 0 && Alignment >= alignof(T),
                  "bloom::aligned_allocator: Alignment must be a power of two no smaller than alignof(T)");

  public:
    /// The type allocated.
    using value_type = T;
    /// Stateless: any two instances can free each other's storage.
    using is_always_equal = std::true_type;

    /// The same allocator for another type, with the same alignment.
    template <class U>
    struct rebind {
        /// aligned_allocator<U, Alignment>.
        using other = aligned_allocator<U, Alignment>;
    };

    /// A stateless allocator.
    aligned_allocator() noexcept = default;
    /// Converts from the allocator of another type (stateless: nothing to copy).
    template <class U>
    explicit aligned_allocator(const aligned_allocator<U, Alignment>&) noexcept {}

    /// Storage for `count` objects; throws std::bad_alloc on failure.
    [[nodiscard]] T* allocate(std::size_t count) {
        if (count > static_cast<std::size_t>(-1) / sizeof(T)) {
            detail::throw_bad_alloc();
        }
        return static_cast<T*>(::operator new(count * sizeof(T), std::align_val_t(Alignment)));
    }

    /// Frees storage from allocate(). Never throws.
    void deallocate(T* pointer, std::size_t) noexcept {
        ::operator delete(pointer, std::align_val_t(Alignment));
    }

    /// Always true: storage from one instance can be freed by any other.
    template <class U>
    friend bool operator==(const aligned_allocator&, const aligned_allocator<U, Alignment>&) noexcept {
        return true;
    }
    /// Always false (see operator==).
    template <class U>
    friend bool operator!=(const aligned_allocator&, const aligned_allocator<U, Alignment>&) noexcept {
        return false;
    }
};

} // namespace bloom

#endif // BLOOM_ALIGNED_ALLOCATOR_HPP
