#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/install-deps.sh PACKAGE...
# Installs the Debian packages that are missing. As root, or with password-less
# sudo, it runs apt-get itself; otherwise it prints the one command to run and
# exits 1. Does nothing when every package is installed.
set -euo pipefail

missing=()
for package in "$@"; do
    status=$(dpkg-query --show --showformat='${db:Status-Status}' "$package" 2>/dev/null || true)
    if [[ $status != installed ]]; then
        missing+=("$package")
    fi
done
if ((${#missing[@]} == 0)); then
    exit 0
fi

if ((EUID == 0)); then
    as_root=(env)
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo env)
else
    echo "install-deps: missing Debian packages: ${missing[*]}; install them with:" >&2
    echo "sudo apt-get install -y ${missing[*]}"
    exit 1
fi

echo "install-deps: installing ${missing[*]}"
apt_options=(-q -o DPkg::Lock::Timeout=300)
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get "${apt_options[@]}" update
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive \
    apt-get "${apt_options[@]}" install -y --no-install-recommends "${missing[@]}"
