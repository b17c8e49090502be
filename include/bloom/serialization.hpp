// SPDX-License-Identifier: MIT
#ifndef BLOOM_SERIALIZATION_HPP
#define BLOOM_SERIALIZATION_HPP

// Saving filters and loading them back, across restarts, machines and CPU architectures.
//
// Every filter kind (classic, blocked, counting, scalable with its stages, and the concurrent ones as
// snapshots of their plain layout) is written as one record of the portable format of docs/FORMAT.md: a
// little-endian header (kind, hasher id, seed, shape, counts), the words, and an XXH3 checksum. A loader
// checks everything before it trusts it: malformed, truncated or corrupt input, another kind, or a filter
// saved with another hasher throws bloom::format_error naming the problem, and nothing is allocated
// beyond what the input holds.
//
//     #include <bloom/serialization.hpp>
//
//     bloom::bloom_filter<std::string> seen(1'000'000, 0.01);
//     seen.insert("https://example.com/");
//     bloom::save_file(seen, "seen.bloom");                      // atomic: old file or new, never half
//     auto again = bloom::load_file<bloom::bloom_filter<std::string>>("seen.bloom");
//     std::vector<std::byte> bytes = bloom::to_bytes(seen);       // or save(seen, stream)
//     auto copy = bloom::from_bytes<bloom::bloom_filter<std::string>>(bytes.data(), bytes.size());
//
// A filter whose hasher has state loads with that hasher passed in; its Hasher type must declare
// `static constexpr std::uint64_t format_id` (bloom::hash<T> does) so that a file never loads into a
// filter that would put its items elsewhere. To answer lookups straight from a file or buffer without
// loading it, see <bloom/filter_view.hpp>.

#include "bloom/blocked_bloom_filter.hpp"
#include "bloom/bloom_filter.hpp"
#include "bloom/concurrent_bloom_filter.hpp"
#include "bloom/counting_bloom_filter.hpp"
#include "bloom/detail/errors.hpp"
#include "bloom/detail/io/atomic_file.hpp"
#include "bloom/detail/io/file_format.hpp"
#include "bloom/detail/io/record_io.hpp"
#include "bloom/format_error.hpp"
#include "bloom/fuse_filter.hpp"
#include "bloom/mapped_file.hpp"
#include "bloom/scalable_bloom_filter.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <ios>
#include <istream>
#include <limits>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

#if __cplusplus >= 202002L && __has_include(<span>)
#    include <span>
#endif

namespace bloom {
namespace detail {

/// Clears a stream's exception mask while it lives and restores it after, so that a loader sees a short
/// or failed read as a count of bytes and reports it as bloom::format_error, never as the
/// std::ios_base::failure the mask would raise. Restoring the mask of a stream left failed raises that
/// failure itself (exceptions() calls clear(rdstate())): the mask and the state are kept and the throw is
/// swallowed, as a destructor must, while the loader's format_error propagates.
class stream_exceptions_suspended {
  public:
    explicit stream_exceptions_suspended(std::ios& stream) : m_stream(stream), m_mask(stream.exceptions()) {
        stream.exceptions(std::ios::goodbit);
    }
    stream_exceptions_suspended(const stream_exceptions_suspended&) = delete;
    stream_exceptions_suspended& operator=(const stream_exceptions_suspended&) = delete;
    ~stream_exceptions_suspended() {
        detail::ignore_stream_failure([&] { m_stream.exceptions(m_mask); });
    }

  private:
    std::ios& m_stream;
    std::ios::iostate m_mask;
};

/// Every byte of the file at `path`, read through the standard library: load_file's way where there is no
/// mmap. Throws std::filesystem::filesystem_error from `where` with the error the system reported.
[[nodiscard]] inline std::vector<unsigned char> read_file_bytes(const std::filesystem::path& path,
                                                                const char* where) {
    // A directory opens for reading on POSIX systems and fails only at the first read, with an error a
    // stream does not keep: named here, as EISDIR.
    std::error_code status_error;
    if (std::filesystem::is_directory(path, status_error)) {
        throw_file_error(where, "cannot read", path, EISDIR);
    }
    // std::filebuf opens through the C library (fopen or open) in libstdc++, libc++ and Microsoft's
    // library, which report why in errno; EIO stands in should one not.
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw_file_error(where, "cannot open", path, errno != 0 ? errno : EIO);
    }
    // Read to the end rather than to a size asked beforehand, which the file may no longer have.
    std::vector<unsigned char> bytes;
    constexpr std::size_t smallest_read = std::size_t{1} << 16;
    while (in) {
        const std::size_t offset = bytes.size();
        bytes.resize(offset + std::max(smallest_read, offset));
        errno = 0;
        in.read(reinterpret_cast<char*>(bytes.data() + offset),
                static_cast<std::streamsize>(bytes.size() - offset));
        bytes.resize(offset + static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) {
        throw_file_error(where, "cannot read", path, errno != 0 ? errno : EIO);
    }
    return bytes;
}

} // namespace detail

/// The kinds of filter a saved record can hold (header byte 10 of docs/FORMAT.md).
enum class filter_kind { classic = 1, blocked = 2, counting = 3, scalable = 4, fuse = 5 };

/// "classic", "blocked", "counting", "scalable" or "fuse".
[[nodiscard]] inline const char* to_string(filter_kind kind) noexcept {
    return detail::kind_name(static_cast<detail::record_kind>(kind));
}

/// What a saved record's header says, read without loading the filter: enough to choose the type to
/// load it as, or to describe the file.
struct saved_filter_info {
    filter_kind kind = filter_kind::classic; ///< Which filter the record holds.
    unsigned counter_bits = 0;               ///< Bits per counter (counting), else 0.
    unsigned hash_count = 0;                 ///< k (0 for scalable).
    std::uint64_t hasher_id = 0;             ///< The id of the hasher that placed the items.
    std::uint64_t seed = 0;                  ///< The seed of every hash.
    std::uint64_t bit_count = 0;             ///< m: bits, or counters (counting); 0 for scalable.
    std::uint64_t expected_items = 0;        ///< n the filter was sized for (scalable: the first stage's).
    double target_false_positive_rate = 0.0; ///< p the filter was sized for (not a current rate).
    /// The saved filter's item_count(): items inserted that were new, or after a union or intersection the
    /// estimate from the bits; counting filters: inserts minus successful removes; scalable: the stages' sum.
    std::uint64_t item_count = 0;
    std::uint64_t record_bytes = 0; ///< The whole record: header, payload, checksum.
    probe_scheme probes = probe_scheme::enhanced_double_hashing; ///< Classic and counting: the probe scheme.
};

/// Reads the header of the record at `data`: checks the magic, version, header checksum and that the
/// record fits in `size` bytes (the payload checksum is checked when the filter loads). O(1). Throws
/// bloom::format_error naming the problem.
[[nodiscard]] inline saved_filter_info inspect(const std::byte* data, std::size_t size) {
    const detail::record_header header =
        detail::parse_header(reinterpret_cast<const unsigned char*>(data), size, "bloom::inspect");
    saved_filter_info info;
    info.kind = static_cast<filter_kind>(header.kind);
    info.counter_bits = header.counter_bits;
    info.hash_count = header.hash_count;
    info.hasher_id = header.hasher_id;
    info.seed = header.seed;
    info.bit_count = header.bit_count;
    info.expected_items = header.expected_items;
    info.target_false_positive_rate = header.target_false_positive_rate;
    info.item_count = header.item_count;
    info.record_bytes = detail::record_size(header);
    info.probes = static_cast<probe_scheme>(header.probes);
    return info;
}

/// Writes `filter` to `out` as one record of docs/FORMAT.md, then flushes `out`, so that an error the
/// buffer held back is reported here. Throws std::ios_base::failure if a write or the flush fails (or the
/// stream has already failed), std::invalid_argument if the filter is moved-from (checked before anything
/// is written) or its hash count exceeds the format's limit (4096).
template <class Filter>
void save(const Filter& filter, std::ostream& out) {
    detail::check_savable(filter, "bloom::save");
    // Stops at the first failed write: the rest would be neither written nor worth hashing.
    const auto sink = [&out](const unsigned char* data, std::size_t size) {
        if (!out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size))) {
            detail::throw_stream_failure("bloom::save: the stream failed while writing");
        }
    };
    detail::write_record(sink, filter, detail::host_word_order);
    if (!out.flush()) {
        detail::throw_stream_failure("bloom::save: the stream failed while flushing");
    }
}

/// The record of `filter` as bytes: what save() writes. Throws std::invalid_argument as save() does.
template <class Filter>
[[nodiscard]] std::vector<std::byte> to_bytes(const Filter& filter) {
    detail::check_savable(filter, "bloom::to_bytes");
    std::vector<std::byte> bytes;
    const auto sink = [&bytes](const unsigned char* data, std::size_t size) {
        const auto* first = reinterpret_cast<const std::byte*>(data);
        bytes.insert(bytes.end(), first, first + size);
    };
    detail::write_record(sink, filter, detail::host_word_order);
    return bytes;
}

/// The Filter held by the `size` bytes at `data`: exactly one record, nothing after it. `hash_function`
/// and `allocator` serve filters whose hasher or allocator has state. Throws bloom::format_error if the
/// bytes are malformed, truncated, corrupt, of another kind, or saved with another hasher.
template <class Filter>
[[nodiscard]] Filter
from_bytes(const std::byte* data, std::size_t size,
           const typename Filter::hasher& hash_function = typename Filter::hasher(),
           const typename Filter::allocator_type& allocator = typename Filter::allocator_type()) {
    return detail::read_record<Filter>(reinterpret_cast<const unsigned char*>(data), size, hash_function,
                                       allocator, detail::host_word_order, "bloom::from_bytes");
}

#if defined(__cpp_lib_span)
/// The Filter held by `bytes`; see from_bytes(const std::byte*, std::size_t).
template <class Filter>
[[nodiscard]] Filter
from_bytes(std::span<const std::byte> bytes,
           const typename Filter::hasher& hash_function = typename Filter::hasher(),
           const typename Filter::allocator_type& allocator = typename Filter::allocator_type()) {
    return from_bytes<Filter>(bytes.data(), bytes.size(), hash_function, allocator);
}
#endif

/// Reads one record from `in` into a Filter and leaves the stream just past it, so records can follow
/// one another in a stream. Holds the record's bytes while it builds the filter (load_file maps the file
/// instead), growing its buffer only as bytes arrive: a header that promises more than the stream has
/// costs no more memory than the stream's bytes. Throws bloom::format_error as from_bytes does, and for a
/// short or failed read, whatever exceptions() `in` has enabled (a short read leaves `in` failed).
template <class Filter>
[[nodiscard]] Filter
load(std::istream& in, const typename Filter::hasher& hash_function = typename Filter::hasher(),
     const typename Filter::allocator_type& allocator = typename Filter::allocator_type()) {
    constexpr const char* where = "bloom::load";
    const detail::stream_exceptions_suspended suspended(in);
    std::vector<unsigned char> bytes(detail::record_header_bytes);
    const auto read = [&in, &bytes](std::size_t offset, std::size_t count) {
        in.read(reinterpret_cast<char*>(bytes.data() + offset), static_cast<std::streamsize>(count));
        return static_cast<std::size_t>(in.gcount());
    };
    const auto read_error = [&in]() -> std::string {
        return in.bad() ? " (the stream reported a read error)" : "";
    };
    const std::size_t header_read = read(0, bytes.size());
    if (header_read < detail::record_header_bytes) {
        if (in.bad()) {
            detail::throw_format_error(where, "the stream reported a read error after " +
                                                  std::to_string(header_read) + " bytes");
        }
        bytes.resize(header_read);
    }
    // Checks magic, version and header checksum; the size check is made below, as bytes arrive.
    const std::uint64_t payload_bytes =
        detail::parse_header(bytes.data(), bytes.size(), where, detail::header_only).payload_bytes;
    constexpr std::uint64_t largest_payload =
        std::numeric_limits<std::size_t>::max() - detail::record_header_bytes - detail::record_checksum_bytes;
    if (payload_bytes > largest_payload) {
        detail::throw_format_error(where, "payload of " + std::to_string(payload_bytes) +
                                              " bytes does not fit in this platform's memory");
    }
    const std::size_t total =
        detail::record_header_bytes + static_cast<std::size_t>(payload_bytes) + detail::record_checksum_bytes;
    // Each read asks for as many bytes as have arrived (64 KiB at least), so the buffer never holds more
    // than twice what the stream delivered.
    constexpr std::size_t smallest_read = std::size_t{1} << 16;
    while (bytes.size() < total) {
        const std::size_t offset = bytes.size();
        const std::size_t wanted = std::min(std::max(smallest_read, offset), total - offset);
        bytes.resize(offset + wanted);
        const std::size_t got = read(offset, wanted);
        if (got < wanted) {
            detail::throw_format_error(
                where, "truncated: the header promises " + std::to_string(payload_bytes) +
                           " payload bytes and an 8-byte checksum, the stream ends after " +
                           std::to_string(offset + got - detail::record_header_bytes) + read_error());
        }
    }
    return detail::read_record<Filter>(bytes.data(), bytes.size(), hash_function, allocator,
                                       detail::host_word_order, where);
}

/// What save_file does when `path` exists: replace it, or (create_new) fail with an EEXIST
/// filesystem_error, decided at the moment the new file is put in place, so two processes creating one
/// path never replace each other's file.
enum class save_mode { replace, create_new };

/// Saves `filter` to `path` atomically: writes a temporary file in the same directory, flushes it to disk
/// and renames it over `path`, so a crash mid-save leaves the previous file intact. A symbolic link is
/// followed (the link keeps naming the new file); a path that is a directory, device, FIFO or socket is
/// refused before anything is written; another hard link of a replaced file keeps the old content. A
/// replaced file keeps its permissions; a temporary file left by a writer that died is removed. Throws
/// std::filesystem::filesystem_error naming the file on any I/O failure, std::invalid_argument as save()
/// does (a moved-from filter before any file is touched). To change a saved filter without
/// losing a concurrent writer's changes, see bloom::update_file.
template <class Filter>
void save_file(const Filter& filter, const std::filesystem::path& path, save_mode mode = save_mode::replace) {
    detail::check_savable(filter, "bloom::save_file");
    detail::write_file_atomically(
        path, [&filter](const auto& sink) { detail::write_record(sink, filter, detail::host_word_order); },
        "bloom::save_file",
        mode == save_mode::create_new ? detail::write_mode::create_new : detail::write_mode::replace);
}

/// Loads the Filter saved at `path` (maps the file where mmap exists, so it is read once, without a
/// second copy). Throws std::filesystem::filesystem_error with the system's error (ENOENT, EACCES,
/// EISDIR, ...) if the file cannot be read, bloom::format_error naming the file and the problem if its
/// contents are not a valid filter of this type.
template <class Filter>
[[nodiscard]] Filter
load_file(const std::filesystem::path& path,
          const typename Filter::hasher& hash_function = typename Filter::hasher(),
          const typename Filter::allocator_type& allocator = typename Filter::allocator_type()) {
    const std::string where = "bloom::load_file: " + path.string();
#if defined(BLOOM_HAS_MAPPED_FILE)
    // A directory opens, and mmap then fails with ENODEV: name the real problem.
    std::error_code status_error;
    if (std::filesystem::is_directory(path, status_error)) {
        detail::throw_file_error("bloom::load_file", "cannot read", path, EISDIR);
    }
    const mapped_file file(path);
    return detail::read_record<Filter>(reinterpret_cast<const unsigned char*>(file.data()), file.size(),
                                       hash_function, allocator, detail::host_word_order, where.c_str());
#else
    const std::vector<unsigned char> bytes = detail::read_file_bytes(path, "bloom::load_file");
    return detail::read_record<Filter>(bytes.data(), bytes.size(), hash_function, allocator,
                                       detail::host_word_order, where.c_str());
#endif
}

} // namespace bloom

#endif // BLOOM_SERIALIZATION_HPP
