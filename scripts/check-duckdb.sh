#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/check-duckdb.sh [BUILD_DIR]
# bloom::parquet::file against the real DuckDB (npm's @duckdb/node-api, which carries DuckDB's engine,
# installed into a scratch folder; Node.js and npm from Debian if missing): DuckDB writes Parquet files
# with Bloom filters (strings, INT32, INT64, FLOAT, DOUBLE; several row groups; non-ASCII text, NULLs) and
# answers parquet_bloom_probe for thousands of members and non-members; bloom_parquet_interop must give
# the same answer for every value and row group and keep every member. BUILD_DIR holds
# bloom_parquet_interop (default build/dev, built here). Then examples/parquet_row_groups skips row groups
# of a DuckDB-written file and checks every answer against a full scan.
# To refresh the small committed fixture: node parquet_interop.mjs tests/data/parquet --small (see below).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build=${1:-build/dev}
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    bash scripts/install-deps.sh nodejs npm
fi
if [[ ! -d $build ]]; then
    cmake --preset dev
fi
cmake --build "$build" --target bloom_parquet_interop parquet_row_groups

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/out"
# The script resolves @duckdb/node-api from its own folder: it runs from the scratch folder.
cp tests/interop/duckdb/parquet_interop.mjs "$scratch/"
(cd "$scratch" && npm install --no-audit --no-fund --loglevel=error @duckdb/node-api >/dev/null)
echo "@duckdb/node-api $(node -p "require('$scratch/node_modules/@duckdb/node-api/package.json').version")"
(cd "$scratch" && node parquet_interop.mjs out)
"$build/tests/bloom_parquet_interop" "$scratch/out"
echo "---- examples/parquet_row_groups on DuckDB's users.parquet ----"
"$build/examples/parquet_row_groups" "$scratch/out/users.parquet"
echo "check-duckdb: bloom::parquet::file and DuckDB agree on every value and row group"
