#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs examples/quickstart.cpp with the `release` presets.
# Arguments are passed on to the quickstart program.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh cmake ninja-build g++ libxxhash-dev pkg-config
# The demo needs neither Catch2 nor Google Benchmark.
cmake --preset release -DBLOOM_BUILD_TESTS=OFF -DBLOOM_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build --preset release --target quickstart
exec build/release/examples/quickstart "$@"
