#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/check-optimisation-levels.sh
# The headers compile without a warning at every optimisation level, with g++ and clang++. Which warnings
# GCC reports (-Wmaybe-uninitialized above all) depends on what inlining and value tracking see, so headers
# clean in the presets' builds (-O2; -O1 under the sanitizers) can still break a user's -O3 or -Os build
# under -Werror.
# Compiles, at -O0, -O1, -O2, -O3 and -Os with each compiler and the warnings of bloom's own targets:
#   1. README's first example, taken from README.md as written;
#   2. a translation unit that includes <bloom/bloom.hpp> and, for std::string and std::uint64_t keys,
#      inserts into, queries, saves and loads every filter kind (plus the views and Parquet's filter).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v clang++ >/dev/null 2>&1; then
    bash scripts/install-deps.sh clang
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The code block that follows the "## First example" heading.
awk '/^## First example/ { found = 1; next }
     found && /^```cpp/ { inside = 1; next }
     inside && /^```/ { exit }
     inside { print }' README.md >"$work/readme_example.cpp"
if ! grep -q 'int main' "$work/readme_example.cpp"; then
    echo "check-optimisation-levels: no C++ block with a main() after '## First example' in README.md" >&2
    exit 1
fi

cat >"$work/every_filter.cpp" <<'EOF'
#include <bloom/bloom.hpp>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

template <class T>
T key(std::uint64_t i) {
    if constexpr (std::is_same_v<T, std::string>) {
        return "key-" + std::to_string(i);
    } else {
        return i * 0x9e3779b97f4a7c15ULL;
    }
}

// Inserts, queries, saves to a stream and to bytes, and loads back: the paths users compile most.
template <class Filter>
int exercise(Filter& filter) {
    using value_type = typename Filter::value_type;
    int failures = 0;
    for (std::uint64_t i = 0; i < 100; ++i) {
        filter.insert(key<value_type>(i));
    }
    failures += filter.contains(key<value_type>(7)) ? 0 : 1;

    std::stringstream stream;
    bloom::save(filter, stream);
    const Filter from_stream = bloom::load<Filter>(stream);
    failures += from_stream.contains(key<value_type>(7)) ? 0 : 1;

    const std::vector<std::byte> bytes = bloom::to_bytes(filter);
    const Filter from_bytes = bloom::from_bytes<Filter>(bytes.data(), bytes.size());
    failures += from_bytes.contains(key<value_type>(7)) ? 0 : 1;
    return failures;
}

template <class T>
int exercise_every_kind() {
    int failures = 0;
    bloom::bloom_filter<T> classic(1000, 0.01);
    bloom::blocked_bloom_filter<T> blocked(1000, 0.01);
    bloom::counting_bloom_filter<T> counting(1000, 0.01);
    bloom::scalable_bloom_filter<T> scalable(10, 0.01);
    bloom::concurrent_bloom_filter<T> concurrent(1000, 0.01);
    bloom::concurrent_blocked_bloom_filter<T> concurrent_blocked(1000, 0.01);
    failures += exercise(classic);
    failures += exercise(blocked);
    failures += exercise(counting);
    failures += exercise(scalable);
    failures += exercise(concurrent);
    failures += exercise(concurrent_blocked);

    const std::vector<std::byte> classic_bytes = bloom::to_bytes(classic);
    const bloom::bloom_filter_view<T> classic_view(classic_bytes.data(), classic_bytes.size());
    failures += classic_view.contains(key<T>(7)) ? 0 : 1;
    const std::vector<std::byte> blocked_bytes = bloom::to_bytes(blocked);
    const bloom::blocked_bloom_filter_view<T> blocked_view(blocked_bytes.data(), blocked_bytes.size());
    failures += blocked_view.contains(key<T>(7)) ? 0 : 1;
    return failures;
}

template <class T>
int exercise_parquet(const T& value) {
    bloom::parquet::split_block_filter<T> filter(bloom::parquet::split_block_filter<T>::min_num_bytes);
    filter.insert(value);
    const std::vector<std::byte> stored = filter.write();
    const auto loaded = bloom::parquet::split_block_filter<T>::read(stored.data(), stored.size());
    return loaded.contains(value) ? 0 : 1;
}

} // namespace

int main() {
    return exercise_every_kind<std::string>() + exercise_every_kind<std::uint64_t>() +
           exercise_parquet(std::string("alice")) + exercise_parquet(std::int64_t{42});
}
EOF

flags=(-std=c++17 -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror -Iinclude)
failed=0
for compiler in g++ clang++; do
    for level in -O0 -O1 -O2 -O3 -Os; do
        for source in readme_example every_filter; do
            if "$compiler" "${flags[@]}" "$level" -c "$work/$source.cpp" -o "$work/$source.o"; then
                echo "ok:     $compiler $level $source.cpp"
            else
                echo "FAILED: $compiler $level $source.cpp" >&2
                failed=1
            fi
        done
    done
done
if ((failed)); then
    echo "check-optimisation-levels: warnings at some level (above)" >&2
    exit 1
fi
echo "optimisation levels: README's first example and every filter kind compile clean at -O0 to -Os"
