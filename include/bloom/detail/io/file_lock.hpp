// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_IO_FILE_LOCK_HPP
#define BLOOM_DETAIL_IO_FILE_LOCK_HPP

// Serialising the read-modify-write of a filter file (bloom::update_file, `bloom add`, `bloom merge` into
// an input). Each writer replaces the file by a rename, so without a lock two updates that overlap both
// load the old file and the second rename throws the first one's work away. The lock is an exclusive
// flock(2) on the file itself, held from before the load until after the rename (docs/FORMAT.md, "Updating
// a file in place", says how other programs cooperate). A writer that waited may wake holding the lock of
// a file that has just been renamed away: it compares the inode it locked with the one the path names now
// and starts again on the new file. Readers take no lock: they open the old or the new inode, each whole.
//
// Reading goes through read(2) into memory, not a mapping: a file truncated or rewritten in place by
// another program then reads short or fails its checksum (a format_error) instead of raising SIGBUS.

#include "bloom/detail/errors.hpp"
#include "bloom/detail/io/atomic_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#    include <fcntl.h>
#    include <sys/file.h>
#    include <sys/stat.h>
#    include <unistd.h>
#    define BLOOM_DETAIL_HAS_FILE_LOCK 1
#endif

#if defined(BLOOM_DETAIL_HAS_FILE_LOCK)

namespace bloom::detail {

/// Reads what `descriptor` delivers until end of file, or until `enough(bytes so far)` says the rest is
/// not needed (a caller that knows the record's size from its header stops there, so an endless pipe
/// cannot exhaust memory). Throws std::filesystem::filesystem_error naming `path` on a read error.
template <class Enough>
[[nodiscard]] std::vector<unsigned char> read_descriptor(int descriptor, const std::filesystem::path& path,
                                                         const char* where, Enough&& enough) {
    std::vector<unsigned char> bytes;
    struct stat status {};
    std::size_t chunk = std::size_t{1} << 16;
    if (::fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 0) {
        chunk = static_cast<std::size_t>(status.st_size) + 1; // one read, and one more to see the end
    }
    std::size_t used = 0;
    for (;;) {
        if (enough(bytes.data(), used)) {
            break;
        }
        bytes.resize(used + chunk);
        const ::ssize_t got = ::read(descriptor, bytes.data() + used, chunk);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw_file_error(where, "cannot read", path, errno);
        }
        if (got == 0) {
            break;
        }
        used += static_cast<std::size_t>(got);
        chunk = std::max<std::size_t>(chunk, std::size_t{1} << 16);
    }
    bytes.resize(used);
    return bytes;
}

/// Opens `path` for reading without ever blocking on a FIFO with no writer (such a FIFO then reads as
/// empty). Directories and devices are refused: neither holds a filter, and a device may never end.
[[nodiscard]] inline int open_for_reading(const std::filesystem::path& path, const char* where) {
    const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (descriptor < 0) {
        throw_file_error(where, errno == ENOENT ? "no such file" : "cannot open", path, errno);
    }
    struct stat status {};
    if (::fstat(descriptor, &status) != 0) {
        const int error = errno;
        ::close(descriptor);
        throw_file_error(where, "cannot inspect the file", path, error);
    }
    if (S_ISDIR(status.st_mode) || S_ISCHR(status.st_mode) || S_ISBLK(status.st_mode) ||
        S_ISSOCK(status.st_mode)) {
        ::close(descriptor);
        throw_file_error(where, std::string("is ") + file_type_name(status.st_mode) + ", not a filter file",
                         path, S_ISDIR(status.st_mode) ? EISDIR : EINVAL);
    }
    // Blocking reads from here on: a pipe with a writer delivers everything it sends.
    ::fcntl(descriptor, F_SETFL, ::fcntl(descriptor, F_GETFL) & ~O_NONBLOCK);
    return descriptor;
}

/// An exclusive lock on the regular file `path` names (through symbolic links), held while the object
/// lives. The constructor waits for other holders and re-opens until the locked file is the one the path
/// names. Throws std::filesystem::filesystem_error naming the file if it is missing, not a regular file,
/// or cannot be locked.
class file_lock {
  public:
    file_lock(const std::filesystem::path& path, const char* where) : m_path(path) {
        for (;;) {
            m_descriptor = open_for_reading(path, where);
            struct stat locked {};
            if (::fstat(m_descriptor, &locked) != 0 || !S_ISREG(locked.st_mode)) {
                fail(where, "is not a regular file", EINVAL);
            }
            while (::flock(m_descriptor, LOCK_EX) != 0) {
                if (errno != EINTR) {
                    fail(where, "cannot lock", errno);
                }
            }
            struct stat named {};
            if (::stat(path.c_str(), &named) == 0 && named.st_dev == locked.st_dev &&
                named.st_ino == locked.st_ino) {
                return;
            }
            // Replaced (or removed) while we waited: lock what the path names now.
            ::close(m_descriptor);
            m_descriptor = -1;
        }
    }
    file_lock(const file_lock&) = delete;
    file_lock& operator=(const file_lock&) = delete;
    /// Releases the lock (closing the descriptor does).
    ~file_lock() {
        if (m_descriptor >= 0) {
            ::close(m_descriptor);
        }
    }

    /// The locked file's contents, read whole.
    [[nodiscard]] std::vector<unsigned char> read(const char* where) const {
        return read_descriptor(m_descriptor, m_path, where,
                               [](const unsigned char*, std::size_t) { return false; });
    }

    /// How many names (hard links) the locked file has.
    [[nodiscard]] std::uint64_t link_count() const noexcept {
        struct stat status {};
        return ::fstat(m_descriptor, &status) == 0 ? static_cast<std::uint64_t>(status.st_nlink) : 1;
    }

  private:
    [[noreturn]] void fail(const char* where, const char* what, int error) {
        ::close(m_descriptor);
        m_descriptor = -1;
        throw_file_error(where, what, m_path, error);
    }

    std::filesystem::path m_path;
    int m_descriptor = -1;
};

} // namespace bloom::detail

#endif // BLOOM_DETAIL_HAS_FILE_LOCK

#endif // BLOOM_DETAIL_IO_FILE_LOCK_HPP
