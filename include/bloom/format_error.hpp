// SPDX-License-Identifier: MIT
#ifndef BLOOM_FORMAT_ERROR_HPP
#define BLOOM_FORMAT_ERROR_HPP

// bloom::format_error — what every loader throws when its input is not a valid filter: truncated or
// malformed bytes, an unknown version or kind, a checksum mismatch, sizes the input cannot back. The
// message names the problem ("bloom::load: truncated: the header promises 8192 payload bytes, 40 remain").

#include <stdexcept>
#include <string>

namespace bloom {

/// Serialized filter data is malformed, corrupt, or of another kind, version or hasher than asked for.
class format_error : public std::runtime_error {
  public:
    /// An error whose what() is `message`.
    explicit format_error(const std::string& message) : std::runtime_error(message) {}
    /// An error whose what() is `message`.
    explicit format_error(const char* message) : std::runtime_error(message) {}
};

} // namespace bloom

#endif // BLOOM_FORMAT_ERROR_HPP
