// SPDX-License-Identifier: MIT
// Compiled against single_include/ alone: no include/, no bloom target.
#include <bloom/bloom.hpp>
#include <string>

#if !defined(BLOOM_VERSION_MAJOR) || !defined(BLOOM_VERSION_MINOR) || !defined(BLOOM_VERSION_PATCH)
#    error "the single header must define BLOOM_VERSION_MAJOR, BLOOM_VERSION_MINOR and BLOOM_VERSION_PATCH"
#endif

int main() {
    bloom::bloom_filter<std::string> filter(1000, 0.01);
    filter.insert("a");
    return filter.contains("a") ? 0 : 1;
}
