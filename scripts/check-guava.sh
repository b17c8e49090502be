#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/check-guava.sh [BUILD_DIR]
# bloom::guava against the real Guava, both directions (Debian's openjdk-17-jdk-headless and libguava-java,
# installed if missing): Java programs compiled here against guava.jar build filters of longs, ints, ASCII
# and non-ASCII strings and chars, with both strategies, writeTo them and record every put result and
# mightContain answer; bloom_guava_interop must read each file and agree on every answer, and rebuild it
# to the same bytes. Then the other way: our files, read by Guava's readFrom, answer as ours did, and
# Guava rebuilds them byte for byte. BUILD_DIR holds bloom_guava_interop (default build/dev, built here).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build=${1:-build/dev}
bash scripts/install-deps.sh openjdk-17-jdk-headless libguava-java
guava_jar=/usr/share/java/guava.jar
if [[ ! -f $guava_jar ]]; then
    echo "check-guava: $guava_jar is missing after installing libguava-java" >&2
    exit 1
fi
if [[ ! -d $build ]]; then
    cmake --preset dev
fi
cmake --build "$build" --target bloom_guava_interop

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/classes" "$scratch/guava" "$scratch/ours"
# Debian's guava.jar is compiled against annotation jars it does not ship: javac notes their absence.
if ! javac -nowarn -cp "$guava_jar" -d "$scratch/classes" tests/interop/guava/GuavaInterop.java \
    >"$scratch/javac.log" 2>&1; then
    cat "$scratch/javac.log" >&2
    exit 1
fi
java -version 2>&1 | head -1
echo "Guava: $(readlink -f "$guava_jar")"

echo "---- Guava writes, bloom reads ----"
java -cp "$guava_jar:$scratch/classes" GuavaInterop write "$scratch/guava"
"$build/tests/bloom_guava_interop" check "$scratch/guava"

echo "---- bloom writes, Guava reads ----"
"$build/tests/bloom_guava_interop" write "$scratch/ours"
java -cp "$guava_jar:$scratch/classes" GuavaInterop check "$scratch/ours"
echo "check-guava: bloom::guava and Guava agree on every answer and every byte"
