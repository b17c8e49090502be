#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the unit tests on 64-bit ARM under QEMU user-mode emulation, so the NEON block kernel runs the
# same tests as the x86 kernels (among them the golden test that pins the blocked filter's bits, which
# the scalar twin must also pass). Cross-compiles the test sources with Debian's aarch64 g++ (static, so
# no ARM libraries are needed) against the host's header-only xxHash and Catch2 v2.
# Usage: scripts/check-aarch64.sh [Catch2 test spec, e.g. "[blocked]"]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh g++-aarch64-linux-gnu qemu-user libxxhash-dev catch2

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flags=(-std=c++17 -O2 -static -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror -Iinclude -Itests
    "-DBLOOM_TEST_DATA_DIR=\"$PWD/tests/data\"")
# The same sources the CMake build globs: tests/*_test.cpp and the Catch2 v2 main. One object per
# source, two at a time, so a 2-core machine stays responsive.
objects=()
for source in tests/catch_main.cpp tests/*_test.cpp; do
    object="$out/$(basename "$source" .cpp).o"
    objects+=("$object")
    aarch64-linux-gnu-g++ "${flags[@]}" -c "$source" -o "$object" &
    if (($(jobs -r | wc -l) >= 2)); then
        wait -n
    fi
done
wait
aarch64-linux-gnu-g++ -static "${objects[@]}" -o "$out/bloom_tests_aarch64"

kernel=$(printf '#include <bloom/blocked_bloom_filter.hpp>\n#if defined(__ARM_NEON) && !defined(BLOOM_DISABLE_SIMD)\nneon\n#else\nscalar\n#endif\n' |
    aarch64-linux-gnu-g++ -std=c++17 -Iinclude -E -x c++ - | tail -n 1)
echo "check-aarch64: block kernel: $kernel"
qemu-aarch64 "$out/bloom_tests_aarch64" "$@"
