// SPDX-License-Identifier: MIT
#ifndef BLOOM_UPDATE_FILE_HPP
#define BLOOM_UPDATE_FILE_HPP

// bloom::update_file — change a saved filter in place without losing anyone's changes:
//
//     bloom::update_file<bloom::bloom_filter<std::string>>("seen.bloom", [&](auto& seen) {
//         for (const std::string& url : batch) {
//             seen.insert(url);
//         }
//     });
//
// Loading, changing and saving with load_file and save_file is a race when two processes do it at once:
// both load the old filter and the second save throws away the first one's batch. update_file holds an
// exclusive lock on the file (flock(2), docs/FORMAT.md "Updating a file in place") from before the load
// until the new file has been renamed into place, so concurrent updates run one after another and every
// batch lands. Readers (load_file, views) take no lock and never wait: they see the old file or the new
// one, whole. Available where flock exists (Linux, macOS, the BSDs): BLOOM_HAS_UPDATE_FILE says so.

#include "bloom/detail/io/file_lock.hpp"
#include "bloom/serialization.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(BLOOM_DETAIL_HAS_FILE_LOCK)
#    define BLOOM_HAS_UPDATE_FILE 1

namespace bloom {

/// Loads the Filter saved at `path` (through symbolic links), calls `update(filter)`, and saves the filter
/// back atomically (save_file), all under an exclusive lock of the file, so concurrent update_file calls
/// and `bloom add` runs on one file serialise. Returns what `update` returns. If `update` or the load
/// throws, the file is left as it was. Throws std::filesystem::filesystem_error if the file is missing,
/// not a regular file, or cannot be locked, read or replaced; bloom::format_error if it does not hold a
/// valid Filter. Another hard link of the file keeps the old filter (the save writes a new file).
template <class Filter, class Update>
decltype(auto)
update_file(const std::filesystem::path& path, Update&& update,
            const typename Filter::hasher& hash_function = typename Filter::hasher(),
            const typename Filter::allocator_type& allocator = typename Filter::allocator_type()) {
    constexpr const char* where = "bloom::update_file";
    const detail::file_lock lock(path, where);
    const std::vector<unsigned char> bytes = lock.read(where);
    const std::string context = std::string(where) + ": " + path.string();
    Filter filter = detail::read_record<Filter>(bytes.data(), bytes.size(), hash_function, allocator,
                                                detail::host_word_order, context.c_str());
    using result = std::invoke_result_t<Update&&, Filter&>;
    if constexpr (std::is_void_v<result>) {
        std::invoke(std::forward<Update>(update), filter);
        save_file(filter, path);
    } else {
        result value = std::invoke(std::forward<Update>(update), filter);
        save_file(filter, path);
        return value;
    }
}

} // namespace bloom

#endif // BLOOM_DETAIL_HAS_FILE_LOCK

#endif // BLOOM_UPDATE_FILE_HPP
