// SPDX-License-Identifier: MIT
#ifndef BLOOM_DETAIL_IO_ATOMIC_FILE_HPP
#define BLOOM_DETAIL_IO_ATOMIC_FILE_HPP

// Replacing a file so that a crash at any moment leaves either the old file or the new one, never a mix
// or nothing: write a temporary file in the same directory (rename is atomic only within a file system),
// flush it to the disk, rename it over the target, then flush the directory so the rename itself lasts.
//
// What the rename replaces is settled before anything is written:
// - a symbolic link is followed to its final target, and the temporary file goes beside the target: the
//   link keeps pointing at the new file (renaming over the link itself would turn it into a regular file
//   and the target would never change);
// - a path that is a directory, device, FIFO or socket is refused: a rename would replace the node;
// - another hard link of the target keeps the old content: the new file is a new inode (writing in place
//   instead would let a crash leave half a filter under every name);
// - create_new fails with EEXIST when the target exists at the moment the new file is linked in, so two
//   creators never replace each other's file.
// Temporary names are the target's name (cut to fit the 255-byte name limit) plus ".tmp-PID-N"; one left
// by a writer that died is removed by the next write of that file.

#include "bloom/detail/errors.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <string>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#    include <csignal>
#    include <cstdio>
#    include <dirent.h>
#    include <fcntl.h>
#    include <sys/stat.h>
#    include <sys/types.h>
#    include <unistd.h>
#else
#    include <fstream>
#endif

namespace bloom::detail {

/// Whether a write replaces an existing file or only ever creates a new one.
enum class write_mode { replace, create_new };

/// The part of a temporary name before the process id: the target's name, cut so that the whole name
/// (plus ".tmp-", two 20-digit numbers and a dash) fits the common 255-byte limit of a file name.
[[nodiscard]] inline std::string temporary_prefix(const std::filesystem::path& target) {
    constexpr std::size_t longest_name = 255;
    constexpr std::size_t suffix_room = 5 + 20 + 1 + 20;
    std::string name = target.filename().string();
    if (name.size() > longest_name - suffix_room) {
        name.resize(longest_name - suffix_room);
    }
    return name + ".tmp-";
}

/// A name beside `target` that no other writer in this process or another one uses at the same time.
[[nodiscard]] inline std::filesystem::path temporary_path_for(const std::filesystem::path& target,
                                                              unsigned long process_id) {
    static std::atomic<unsigned long> counter{0};
    return target.parent_path() / (temporary_prefix(target) + std::to_string(process_id) + "-" +
                                   std::to_string(counter.fetch_add(1)));
}

#if defined(__unix__) || defined(__APPLE__)

/// "a directory", "a FIFO", ...: what a non-regular file is, for messages.
[[nodiscard]] inline const char* file_type_name(mode_t mode) noexcept {
    if (S_ISDIR(mode)) {
        return "a directory";
    }
    if (S_ISCHR(mode) || S_ISBLK(mode)) {
        return "a device";
    }
    if (S_ISFIFO(mode)) {
        return "a FIFO";
    }
    if (S_ISSOCK(mode)) {
        return "a socket";
    }
    return "not a regular file";
}

/// The file a write of `path` must replace: `path` with every symbolic link followed (a link to a missing
/// file names the file to create). Throws std::filesystem::filesystem_error if that is not a regular
/// file, before anything is opened for writing.
[[nodiscard]] inline std::filesystem::path write_target(const std::filesystem::path& path,
                                                        const char* where) {
    std::filesystem::path target = path;
    for (int links = 0;; ++links) {
        struct stat status {};
        if (::lstat(target.c_str(), &status) != 0) {
            if (errno == ENOENT) {
                return target;
            }
            throw_file_error(where, "cannot inspect the file", path, errno);
        }
        if (S_ISLNK(status.st_mode)) {
            if (links == 40) {
                throw_file_error(where, "too many levels of symbolic links", path, ELOOP);
            }
            std::error_code error;
            const std::filesystem::path next = std::filesystem::read_symlink(target, error);
            if (error) {
                throw_file_error(where, "cannot read the symbolic link", target, error.value());
            }
            target = next.is_absolute() ? next : target.parent_path() / next;
            continue;
        }
        if (!S_ISREG(status.st_mode)) {
            throw_file_error(where,
                             std::string("is ") + file_type_name(status.st_mode) + ", not a regular file",
                             path, S_ISDIR(status.st_mode) ? EISDIR : EINVAL);
        }
        return target;
    }
}

/// Removes the temporary files of `target` left by writers that died before renaming them (their process
/// no longer exists). Best effort: anything it cannot read or remove stays.
inline void remove_abandoned_temporaries(const std::filesystem::path& target) {
    const std::string prefix = temporary_prefix(target);
    const std::filesystem::path directory = target.parent_path().empty() ? "." : target.parent_path();
    DIR* const listing = ::opendir(directory.c_str());
    if (listing == nullptr) {
        return;
    }
    while (const dirent* entry = ::readdir(listing)) {
        const std::string name = entry->d_name;
        if (name.compare(0, prefix.size(), prefix) != 0) {
            continue;
        }
        // PID-N: digits, a dash, digits.
        const std::size_t dash = name.find('-', prefix.size());
        if (dash == std::string::npos || dash == prefix.size() || dash + 1 == name.size() ||
            name.find_first_not_of("0123456789", prefix.size()) != dash ||
            name.find_first_not_of("0123456789", dash + 1) != std::string::npos ||
            dash - prefix.size() > 10) {
            continue;
        }
        const long process_id = std::stol(name.substr(prefix.size(), dash - prefix.size()));
        if (process_id <= 0 || process_id == static_cast<long>(::getpid())) {
            continue;
        }
        if (::kill(static_cast<pid_t>(process_id), 0) != 0 && errno == ESRCH) {
            (void)::unlinkat(::dirfd(listing), entry->d_name, 0);
        }
    }
    ::closedir(listing);
}

/// Puts the finished temporary file at `target` without replacing anything: a hard link fails with EEXIST
/// if `target` exists at that moment. Returns 0 or the error.
[[nodiscard]] inline int link_without_replacing(const std::filesystem::path& temporary,
                                                const std::filesystem::path& target) noexcept {
    if (::link(temporary.c_str(), target.c_str()) == 0) {
        ::unlink(temporary.c_str());
        return 0;
    }
    const int error = errno;
#    if defined(__linux__) && defined(RENAME_NOREPLACE)
    // File systems without hard links (FAT, some FUSE ones) still offer an exclusive rename on Linux.
    if (error == EPERM || error == EOPNOTSUPP || error == ENOSYS) {
        if (::renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) {
            return 0;
        }
        return errno;
    }
#    endif
    return error;
}

/// Writes `path` atomically with what `write(sink)` passes to its sink (a callable taking
/// (const unsigned char*, std::size_t)): through symbolic links to their target, refusing a target that
/// is not a regular file, and (create_new) refusing to replace a file that exists when the new one is
/// put in place. Throws std::filesystem::filesystem_error naming the file on any failure (EEXIST for an
/// existing file under create_new), and leaves no temporary file behind.
template <class Writer>
void write_file_atomically(const std::filesystem::path& path, Writer&& write, const char* where,
                           write_mode mode = write_mode::replace) {
    const std::filesystem::path target = write_target(path, where);
    if (mode == write_mode::create_new && ::access(target.c_str(), F_OK) == 0) {
        throw_file_error(where, "already exists", path, EEXIST);
    }
    remove_abandoned_temporaries(target);
    const std::filesystem::path temporary =
        temporary_path_for(target, static_cast<unsigned long>(::getpid()));
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
    if (mode == write_mode::replace && ::stat(target.c_str(), &existing) == 0 &&
        ::fchmod(descriptor, existing.st_mode & 07777) != 0) {
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
    undo_on_error([&] { write(sink); },
                  [&] {
                      if (!abandoned) {
                          ::close(descriptor);
                          ::unlink(temporary.c_str());
                      }
                  });
    if (::fsync(descriptor) != 0) {
        abandon("cannot flush to disk", errno);
    }
    if (::close(descriptor) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw_file_error(where, "cannot close", path, error);
    }
    if (mode == write_mode::create_new) {
        const int error = link_without_replacing(temporary, target);
        if (error != 0) {
            ::unlink(temporary.c_str());
            throw_file_error(where, error == EEXIST ? "already exists" : "cannot put the new file in place",
                             path, error);
        }
    } else if (::rename(temporary.c_str(), target.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw_file_error(where, "cannot rename the temporary file over the target", path, error);
    }
    std::filesystem::path directory = target.parent_path();
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
void write_file_atomically(const std::filesystem::path& path, Writer&& write, const char* where,
                           write_mode mode = write_mode::replace) {
    if (mode == write_mode::create_new && std::filesystem::exists(path)) {
        throw_file_error(where, "already exists", path, EEXIST);
    }
    const std::filesystem::path temporary = temporary_path_for(path, 0);
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            throw_file_error(where, "cannot create a temporary file beside the target", temporary, EIO);
        }
        const auto sink = [&](const unsigned char* data, std::size_t size) {
            out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        };
        undo_on_error([&] { write(sink); },
                      [&] {
                          out.close();
                          std::filesystem::remove(temporary);
                      });
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

#endif // BLOOM_DETAIL_IO_ATOMIC_FILE_HPP
