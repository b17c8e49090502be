// SPDX-License-Identifier: MIT
#ifndef BLOOM_ALIGNED_ALLOCATOR_HPP
#define BLOOM_ALIGNED_ALLOCATOR_HPP

// bloom::aligned_allocator<T, Alignment>: a stateless allocator whose storage starts on an `Alignment`
// boundary (C++17 aligned operator new). The blocked filter uses it by default so each 512-bit block is
// exactly one 64-byte cache line; any other allocator works too, only slower when blocks straddle lines.

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
    using value_type = T;
    using is_always_equal = std::true_type;

    template <class U>
    struct rebind {
        using other = aligned_allocator<U, Alignment>;
    };

    aligned_allocator() noexcept = default;
    template <class U>
    explicit aligned_allocator(const aligned_allocator<U, Alignment>&) noexcept {}

    /// Storage for `count` objects; throws std::bad_alloc on failure.
    [[nodiscard]] T* allocate(std::size_t count) {
        if (count > static_cast<std::size_t>(-1) / sizeof(T)) {
            throw std::bad_alloc();
        }
        return static_cast<T*>(::operator new(count * sizeof(T), std::align_val_t(Alignment)));
    }

    void deallocate(T* pointer, std::size_t) noexcept {
        ::operator delete(pointer, std::align_val_t(Alignment));
    }

    template <class U>
    friend bool operator==(const aligned_allocator&, const aligned_allocator<U, Alignment>&) noexcept {
        return true;
    }
    template <class U>
    friend bool operator!=(const aligned_allocator&, const aligned_allocator<U, Alignment>&) noexcept {
        return false;
    }
};

} // namespace bloom

#endif // BLOOM_ALIGNED_ALLOCATOR_HPP
