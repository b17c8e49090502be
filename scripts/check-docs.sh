#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails if any public entity of namespace bloom lacks a /// comment: runs Doxygen (Debian: doxygen) over
# include/bloom with docs/Doxyfile (bloom::detail excluded) and treats every warning as an error. The
# rendered reference lands in build/docs/html (start page: docs/reference.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh doxygen
mkdir -p build/docs
doxygen --version
warnings=$(doxygen docs/Doxyfile 2>&1 | grep -i 'warning' || true)
if [[ -n $warnings ]]; then
    printf '%s\n' "$warnings" | sed "s|$PWD/||"
    echo "check-docs: $(printf '%s\n' "$warnings" | wc -l) Doxygen warning(s): document every public entity" >&2
    exit 1
fi
echo "check-docs: every public entity is documented (reference in build/docs/html/index.html)"
