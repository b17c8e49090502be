// SPDX-License-Identifier: MIT
// Built with -fno-exceptions: every header compiles, filters work, and an error prints its message and
// aborts (ctest matches the message and expects the abort, which this program turns into exit code 0).
#include <bloom/bloom.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
extern "C" void aborted(int) { std::_Exit(0); }
} // namespace

int main() {
    bloom::bloom_filter<std::string> names(1'000, 0.01);
    names.insert("alice");
    bloom::blocked_bloom_filter<int> numbers(1'000, 0.01);
    numbers.insert(7);
    if (!names.contains("alice") || !numbers.contains(7)) {
        std::puts("lookups failed");
        return 2;
    }
    const auto bytes = bloom::to_bytes(numbers);
    if (bloom::from_bytes<bloom::blocked_bloom_filter<int>>(bytes.data(), bytes.size()) != numbers) {
        std::puts("round trip failed");
        return 3;
    }
    std::signal(SIGABRT, aborted);
    const bloom::bloom_filter<int> invalid(0, 0.01); // prints the message and aborts
    std::printf("not aborted: %llu bits\n", static_cast<unsigned long long>(invalid.bit_count()));
    return 1;
}
