#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer target tests/fuzz/load_fuzzer.cpp (clang, -fsanitize=fuzzer,address,undefined) and
# runs it on every loader and view, seeded with the golden records of tests/data/ the Guava streams of
# tests/data/guava/ and a small Parquet file (its footer).
#   bash scripts/fuzz.sh                         # 60 seconds (what CI runs)
#   BLOOM_FUZZ_SECONDS=3600 bash scripts/fuzz.sh # longer; the corpus grows in build/fuzz/corpus
# A crash leaves its input in build/fuzz/ (crash-*, leak-*, timeout-*, oom-*); reproduce it with
# `build/fuzz/load_fuzzer build/fuzz/crash-...`, add a unit test for it, and keep the input in
# tests/fuzz/regressions/, which every run replays first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh clang libclang-rt-14-dev libxxhash-dev

seconds=${BLOOM_FUZZ_SECONDS:-60}
out=build/fuzz
mkdir -p "$out/corpus"
find tests/data -maxdepth 1 -type f -exec cp {} "$out/corpus/" \;
cp tests/data/guava/*.bin tests/data/parquet/tiny.parquet "$out/corpus/"

clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -Iinclude tests/fuzz/load_fuzzer.cpp -o "$out/load_fuzzer"

# -rss_limit_mb: a loader may allocate only what the input holds; inputs are at most -max_len bytes.
"$out/load_fuzzer" "$out/corpus" tests/fuzz/regressions -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=1024 \
    -artifact_prefix="$out/" -print_final_stats=1
echo "fuzz: no findings in ${seconds}s"
