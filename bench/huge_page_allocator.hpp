// SPDX-License-Identifier: MIT
#ifndef BLOOM_BENCH_HUGE_PAGE_ALLOCATOR_HPP
#define BLOOM_BENCH_HUGE_PAGE_ALLOCATOR_HPP

// The huge-page experiment (issue 3, item 4), bench-only. A lookup in a filter of 100 MB misses the TLB as
// well as the cache: with 4 KiB pages the page walk is one more dependent memory access. Transparent huge
// pages (2 MiB) cover the same filter with 50x fewer TLB entries. huge_page_allocator hands out storage
// aligned to 2 MiB and asks Linux to back it with huge pages (madvise(MADV_HUGEPAGE)); the kernel may
// refuse (THP disabled, or no contiguous memory), so resident_huge_page_bytes() reports what it got.

#if defined(__linux__)
#    define BLOOM_BENCH_HAVE_HUGE_PAGES 1

#    include <cstddef>
#    include <cstdint>
#    include <fstream>
#    include <new>
#    include <sstream>
#    include <string>
#    include <sys/mman.h>

namespace bench {

/// Storage from a fresh anonymous mapping aligned to 2 MiB, rounded up to whole huge pages and advised
/// MADV_HUGEPAGE before first use. (Not malloc: glibc may serve a large request from heap pages that are
/// already faulted in as small pages, which the advice does not convert.) Requests below one huge page
/// get 64-byte-aligned storage from operator new without advice.
template <class T>
class huge_page_allocator {
  public:
    using value_type = T;
    static constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

    huge_page_allocator() noexcept = default;
    template <class U>
    huge_page_allocator(const huge_page_allocator<U>&) noexcept {}

    T* allocate(std::size_t count) {
        if (count > (static_cast<std::size_t>(-1) - 2 * huge_page_bytes) / sizeof(T)) {
            throw std::bad_alloc();
        }
        const std::size_t bytes = count * sizeof(T);
        if (bytes < huge_page_bytes) {
            return static_cast<T*>(::operator new(bytes, std::align_val_t(64)));
        }
        const std::size_t rounded = round_up(bytes);
        // Map one huge page more than needed, then unmap the unaligned head and the tail.
        void* const mapped = ::mmap(nullptr, rounded + huge_page_bytes, PROT_READ | PROT_WRITE,
                                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED) {
            throw std::bad_alloc();
        }
        const auto start = reinterpret_cast<std::uintptr_t>(mapped);
        const std::uintptr_t aligned = (start + huge_page_bytes - 1) & ~(std::uintptr_t{huge_page_bytes} - 1);
        if (aligned != start) {
            ::munmap(mapped, aligned - start);
        }
        const std::size_t tail = huge_page_bytes - (aligned - start);
        if (tail != 0) {
            ::munmap(reinterpret_cast<void*>(aligned + rounded), tail);
        }
        // Best effort: without THP the storage is still valid, just backed by small pages.
        (void)::madvise(reinterpret_cast<void*>(aligned), rounded, MADV_HUGEPAGE);
        return reinterpret_cast<T*>(aligned);
    }

    void deallocate(T* memory, std::size_t count) noexcept {
        const std::size_t bytes = count * sizeof(T);
        if (bytes < huge_page_bytes) {
            ::operator delete(memory, std::align_val_t(64));
        } else {
            ::munmap(memory, round_up(bytes));
        }
    }

    template <class U>
    friend bool operator==(const huge_page_allocator&, const huge_page_allocator<U>&) noexcept {
        return true;
    }
    template <class U>
    friend bool operator!=(const huge_page_allocator&, const huge_page_allocator<U>&) noexcept {
        return false;
    }

  private:
    static std::size_t round_up(std::size_t bytes) noexcept {
        return (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
    }
};

/// Bytes of the mapping that holds `address` which the kernel backs with transparent huge pages
/// (AnonHugePages in /proc/self/smaps); 0 if it cannot tell.
inline std::uint64_t resident_huge_page_bytes(const void* address) {
    const auto target = reinterpret_cast<std::uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t begin = 0;
        std::uintptr_t end = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> begin >> dash >> end && dash == '-') {
            inside = begin <= target && target < end;
            continue;
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0) {
            std::istringstream value(line.substr(14));
            std::uint64_t kibibytes = 0;
            value >> kibibytes;
            return kibibytes * 1024;
        }
    }
    return 0;
}

/// The system's THP mode, the bracketed word of /sys/kernel/mm/transparent_hugepage/enabled.
inline std::string transparent_huge_page_mode() {
    std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text;
    std::getline(setting, text);
    const std::size_t open = text.find('[');
    const std::size_t close = text.find(']', open);
    return open == std::string::npos || close == std::string::npos ? "unknown"
                                                                   : text.substr(open + 1, close - open - 1);
}

} // namespace bench

#endif // defined(__linux__)

#endif // BLOOM_BENCH_HUGE_PAGE_ALLOCATOR_HPP
