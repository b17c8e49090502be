#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds bloom and runs every test (unit tests, header checks, consumer tests)
# with the `dev` presets: Ninja, RelWithDebInfo with assertions, warnings as errors.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# python3 runs the single_include.up_to_date test (scripts/amalgamate.py --check); libbenchmark-dev
# lets the dev build compile bench/ so the benchmarks cannot rot; libsqlite3-dev builds the SQLite
# examples, which run as tests.
bash scripts/install-deps.sh cmake ninja-build g++ libxxhash-dev catch2 libbenchmark-dev libsqlite3-dev pkg-config \
    python3
cmake --workflow --preset dev
