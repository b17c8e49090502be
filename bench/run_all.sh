#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates the benchmark results and the plots under docs/ (see bench/README.md):
#   1. builds the bench preset (Release, -O3 -march=native, warnings as errors)
#   2. bloom_bench at every size up to BLOOM_BENCH_MAX_ITEMS (default 1e8)   -> $out/bench.json
#   3. bloom_accuracy, 4 to 20 bits per item                                  -> $out/accuracy.csv
#   4. bench/plot.py: docs/bench_u64.png, docs/bench_str16.png, docs/accuracy.png and $out/summary.md
# Usage: bench/run_all.sh [bloom_bench flags, e.g. --benchmark_filter=u64 --benchmark_min_time=0.1]
# $out is BLOOM_BENCH_OUT, default build/bench-results. The full run takes about 40 minutes on 2 cores
# and needs about 7 GB of memory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh cmake ninja-build g++ pkg-config libxxhash-dev libbenchmark-dev libabsl-dev \
    gnuplot-nox python3
out=${BLOOM_BENCH_OUT:-build/bench-results}
mkdir -p "$out"

cmake --workflow --preset bench
build/bench/bench/bloom_bench --benchmark_out="$out/bench.json" --benchmark_out_format=json "$@" |
    tee "$out/bench.txt"
build/bench/bench/bloom_accuracy | tee "$out/accuracy.csv"
python3 bench/plot.py --bench "$out/bench.json" --accuracy "$out/accuracy.csv" --out-dir docs \
    --markdown "$out/summary.md"
