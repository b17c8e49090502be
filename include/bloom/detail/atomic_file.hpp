// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_ATOMIC_FILE_HPP
#define BLOOM_DETAIL_ATOMIC_FILE_HPP

// Replacing a file so that a crash at any moment leaves either the old file or the new one, never a mix
// or nothing: write a temporary file in the same directory (rename is atomic only within a file system),
// flush it to the disk, rename it over the target, then flush the directory so the rename itself lasts.

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <string>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#    include <fcntl.h>
#    include <sys/stat.h>
#    include <unistd.h>
#else
#    include <fstream>
#endif

namespace bloom::detail {

[[noreturn]] inline void throw_file_error(const char* where, const std::string& what,
                                          const std::filesystem::path& path, int error) {
    throw std::filesystem::filesystem_error(std::string(where) + ": " + what, path,
                                            std::error_code(error, std::generic_category()));
}

/// A name beside `target` that no other writer in this process or another one uses at the same time.
[[nodiscard]] inline std::filesystem::path temporary_path_for(const std::filesystem::path& target,
                                                              unsigned long process_id) {
    static std::atomic<unsigned long> counter{0};
    std::filesystem::path temporary = target;
    temporary += ".tmp-" + std::to_string(process_id) + "-" + std::to_string(counter.fetch_add(1));
    return temporary;
}

#if defined(__unix__) || defined(__APPLE__)

/// Writes `path` atomically with what `write(sink)` passes to its sink (a callable taking
/// (const unsigned char*, std::size_t)). Throws std::filesystem::filesystem_error naming the file on
/// any failure, and leaves no temporary file behind.
template <class Writer>
void write_file_atomically(const std::filesystem::path& path, Writer&& write, const char* where) {
    const std::filesystem::path temporary = temporary_path_for(path, static_cast<unsigned long>(::getpid()));
    const int descriptor = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (descriptor < 0) {
        throw_file_error(where, "cannot create a temporary file beside the target", temporary, errno);
    }
    bool abandoned = false;
    const auto abandon = [&](const std::string& what, int error) {
        abandoned = true;
        ::close(descriptor);
        ::unlink(temporary.c_str());
        throw_file_error(where, what, path, error);
    };
    // Replacing a file keeps its permissions.
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0 && ::fchmod(descriptor, existing.st_mode & 07777) != 0) {
        abandon("cannot copy the permissions of the file it replaces", errno);
    }
    const auto sink = [&](const unsigned char* data, std::size_t size) {
        while (size != 0) {
            const ::ssize_t written = ::write(descriptor, data, size);
            if (written < 0) {
                if (errno == EINTR) {
                    continue;
                }
                abandon("cannot write", errno);
            }
            data += written;
            size -= static_cast<std::size_t>(written);
        }
    };
    try {
        write(sink);
    } catch (...) {
        if (!abandoned) {
            ::close(descriptor);
            ::unlink(temporary.c_str());
        }
        throw;
    }
    if (::fsync(descriptor) != 0) {
        abandon("cannot flush to disk", errno);
    }
    if (::close(descriptor) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw_file_error(where, "cannot close", path, error);
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw_file_error(where, "cannot rename the temporary file over the target", path, error);
    }
    std::filesystem::path directory = path.parent_path();
    if (directory.empty()) {
        directory = ".";
    }
    const int directory_descriptor = ::open(directory.c_str(), O_RDONLY | O_CLOEXEC);
    if (directory_descriptor >= 0) {
        // Some file systems refuse fsync on a directory; the file itself is already safe.
        (void)::fsync(directory_descriptor);
        ::close(directory_descriptor);
    }
}

#else

/// Portable fallback: writes a temporary file beside `path` with std::ofstream and renames it over the
/// target (std::filesystem::rename replaces it). Without a POSIX fsync the data may still sit in the
/// operating system's cache when this returns.
template <class Writer>
void write_file_atomically(const std::filesystem::path& path, Writer&& write, const char* where) {
    const std::filesystem::path temporary = temporary_path_for(path, 0);
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw_file_error(where, "cannot create a temporary file beside the target", temporary, EIO);
        }
        const auto sink = [&](const unsigned char* data, std::size_t size) {
            out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        };
        try {
            write(sink);
        } catch (...) {
            out.close();
            std::filesystem::remove(temporary);
            throw;
        }
        out.flush();
        if (!out) {
            out.close();
            std::filesystem::remove(temporary);
            throw_file_error(where, "cannot write", path, EIO);
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::filesystem::remove(temporary);
        throw_file_error(where, "cannot rename the temporary file over the target", path, error.value());
    }
}

#endif

} // namespace bloom::detail

#endif // BLOOM_DETAIL_ATOMIC_FILE_HPP
