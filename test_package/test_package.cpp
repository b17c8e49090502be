// SPDX-License-Identifier: MIT
// Smallest real use of an installed bloom: size a filter, insert, look up, check the answers.
#include <bloom/bloom.hpp>
#include <cstdio>
#include <string>

int main() {
    bloom::bloom_filter<std::string> names(1000, 0.01);
    names.insert("alice");
    const bool has_alice = names.contains("alice");
    const bool has_bob = names.contains("bob");
    std::printf("bloom %d.%d.%d: %u hashes over %llu bits; alice %s, bob %s\n", BLOOM_VERSION_MAJOR,
                BLOOM_VERSION_MINOR, BLOOM_VERSION_PATCH, names.hash_count(),
                static_cast<unsigned long long>(names.bit_count()), has_alice ? "maybe" : "no",
                has_bob ? "maybe" : "no");
    return has_alice ? 0 : 1; // a false negative would be a bug; bob may be a false positive
}
