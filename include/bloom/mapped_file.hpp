// SPDX-License-Identifier: MIT
#ifndef BLOOM_MAPPED_FILE_HPP
#define BLOOM_MAPPED_FILE_HPP

// bloom::mapped_file — a whole file mapped read-only into memory (POSIX mmap), for the zero-copy views of
// <bloom/filter_view.hpp>. The pages belong to the kernel's page cache, not to the process: many processes
// mapping one multi-gigabyte filter share a single copy, and the process's anonymous memory does not grow.
//
//     bloom::mapped_file file("urls.bloom");                     // maps; reads nothing yet
//     bloom::bloom_filter_view<std::string> seen(file.data(), file.size());
//     seen.contains("https://example.com/");                     // touches k pages at most
//
// The mapping lives as long as the mapped_file: keep it alive while any view of it is in use. Available
// where <sys/mman.h> is (Linux, macOS, the BSDs); BLOOM_HAS_MAPPED_FILE says so.
//
// When another process changes the file: a file replaced the safe way (bloom::save_file and
// bloom::update_file write a new file and rename it over the old one) leaves the mapping on the old file,
// whole and unchanged, until you map the path again. A file truncated or rewritten in place is the
// mapping's own pages: lookups then read the new bytes (wrong answers, unchecked) or, for pages past the
// new end, the process receives SIGBUS and dies. Update mapped files only by renaming a new file over
// them; to survive files that others may truncate, read them into memory (bloom::load_file of a copy,
// or from_bytes over bytes read with read(2)) instead of mapping them.

#include "bloom/detail/errors.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#if __cplusplus >= 202002L && __has_include(<span>)
#    include <span>
#endif

#if defined(__unix__) || defined(__APPLE__)
#    include <cerrno>
#    include <fcntl.h>
#    include <sys/mman.h>
#    include <sys/stat.h>
#    include <unistd.h>
#    define BLOOM_HAS_MAPPED_FILE 1
#endif

#if defined(BLOOM_HAS_MAPPED_FILE)

namespace bloom {

/// A file mapped read-only and shared: data() points at its bytes for as long as the object lives.
/// Move-only. An empty file maps to data() == nullptr, size() == 0.
class mapped_file {
  public:
    /// Maps all of `path`. Throws std::filesystem::filesystem_error naming the file if it cannot be
    /// opened, examined or mapped.
    explicit mapped_file(const std::filesystem::path& path) {
        const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (descriptor < 0) {
            fail("cannot open", path);
        }
        struct stat status {};
        if (::fstat(descriptor, &status) != 0) {
            const int error = errno;
            ::close(descriptor);
            fail("cannot examine", path, error);
        }
        m_size = static_cast<std::size_t>(status.st_size);
        if (m_size != 0) {
            void* address = ::mmap(nullptr, m_size, PROT_READ, MAP_SHARED, descriptor, 0);
            if (address == MAP_FAILED) {
                const int error = errno;
                ::close(descriptor);
                fail("cannot map", path, error);
            }
            m_data = static_cast<const std::byte*>(address);
        }
        // The mapping keeps the file's pages; the descriptor is no longer needed.
        ::close(descriptor);
    }

    mapped_file(const mapped_file&) = delete;
    mapped_file& operator=(const mapped_file&) = delete;

    /// Takes over `other`'s mapping; `other` is left empty.
    mapped_file(mapped_file&& other) noexcept
        : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)) {}
    /// Unmaps this file and takes over `other`'s mapping; `other` is left empty.
    mapped_file& operator=(mapped_file&& other) noexcept {
        if (this != &other) {
            unmap();
            m_data = std::exchange(other.m_data, nullptr);
            m_size = std::exchange(other.m_size, 0);
        }
        return *this;
    }

    /// Unmaps the file; views of it must no longer be used.
    ~mapped_file() { unmap(); }

    /// The first byte of the file, or nullptr for an empty file.
    [[nodiscard]] const std::byte* data() const noexcept { return m_data; }
    /// The file's size in bytes when it was mapped.
    [[nodiscard]] std::size_t size() const noexcept { return m_size; }
#    if defined(__cpp_lib_span)
    /// The file's bytes as a span.
    [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return {m_data, m_size}; }
#    endif

  private:
    [[noreturn]] static void fail(const char* what, const std::filesystem::path& path, int error = errno) {
        detail::throw_file_error("bloom::mapped_file", what, path, error);
    }

    void unmap() noexcept {
        if (m_data != nullptr) {
            ::munmap(const_cast<std::byte*>(m_data), m_size);
            m_data = nullptr;
            m_size = 0;
        }
    }

    const std::byte* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace bloom

#endif // BLOOM_HAS_MAPPED_FILE

#endif // BLOOM_MAPPED_FILE_HPP
