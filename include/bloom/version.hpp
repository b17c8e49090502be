// SPDX-License-Identifier: MIT
#ifndef BLOOM_VERSION_HPP
#define BLOOM_VERSION_HPP

/// The library's version, stated once: CMake reads these three lines.
#define BLOOM_VERSION_MAJOR 0
#define BLOOM_VERSION_MINOR 1
#define BLOOM_VERSION_PATCH 0

#endif // BLOOM_VERSION_HPP
