// SPDX-License-Identifier: MIT
#include <bloom/bloom.hpp>
#include <string>

int main() {
    bloom::bloom_filter<std::string> filter(1000, 0.01);
    filter.insert("a");
    return filter.contains("a") ? 0 : 1;
}
