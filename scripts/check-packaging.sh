#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the three ways to consume bloom as a package, as far as this machine allows (vcpkg and Conan
# themselves cannot run here):
#   1. one version: include/bloom/version.hpp, the vcpkg port and the Conan recipe agree
#   2. the Conan recipe and its test_package compile as Python, and the recipe's methods run against a
#      minimal stand-in for the conan module (version parsing, requirements, package_info properties)
#   3. the vcpkg port replayed with plain CMake: configure with the portfile's options, install, apply
#      what vcpkg_cmake_config_fixup does (move share/cmake/bloom to share/bloom and re-derive the
#      prefix from the new location), drop lib/ and debug/, add copyright and usage; then check the
#      layout and build test_package/ against that prefix with find_package(bloom)
#   4. pkg-config: `pkg-config --cflags bloom` from the same prefix compiles and runs test_package.cpp
#   5. README's install, as written, in a fresh copy of the tree: `cmake -S . -B build && cmake --install
#      build --prefix P` with the default generator and no build type installs the headers and the package
#      files (the tool, unbuilt, is skipped) and tests/consumer/find_package builds against P; after
#      building the tool (Release by default) the same install adds a working bin/bloom; and configuring
#      with Catch2, SQLite, Google Benchmark and Python hidden succeeds, skipping what needs them
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# make: README's install uses CMake's default generator, Unix Makefiles, which Debian's cmake only recommends.
bash scripts/install-deps.sh cmake ninja-build make g++ pkg-config python3 libxxhash-dev

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=packaging/vcpkg/ports/bloom-cpp

echo "== 1. one version"
version=$(sed -nE 's/^#[[:space:]]*define[[:space:]]+BLOOM_VERSION_(MAJOR|MINOR|PATCH)[[:space:]]+([0-9]+).*/\2/p' \
    include/bloom/version.hpp | paste -sd.)
port_version=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$port/vcpkg.json")
echo "version.hpp: $version, vcpkg port: $port_version"
[[ $version == "$port_version" ]] || { echo "the vcpkg port's version differs from version.hpp" >&2; exit 1; }

echo "== 2. Conan recipe"
python3 -m py_compile conanfile.py test_package/conanfile.py
python3 scripts/check_conan_recipe.py "$version"

echo "== 3. vcpkg port, replayed with CMake"
prefix="$work/installed"
cmake -S . -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DBLOOM_BUILD_TESTS=OFF -DBLOOM_BUILD_EXAMPLES=OFF -DBLOOM_BUILD_BENCHMARKS=OFF -DBLOOM_BUILD_TOOLS=OFF \
    -DBLOOM_INSTALL=ON >/dev/null
cmake --build "$work/build"
cmake --install "$work/build" >/dev/null
python3 - "$prefix" <<'EOF'
# What vcpkg_cmake_config_fixup(PACKAGE_NAME bloom CONFIG_PATH share/cmake/bloom) does to a package.
import pathlib, re, shutil, sys
prefix = pathlib.Path(sys.argv[1])
source, target = prefix / "share/cmake/bloom", prefix / "share/bloom"
shutil.move(str(source), str(target))
(prefix / "share/cmake").rmdir()
for path in target.glob("*.cmake"):
    text = path.read_text()
    # The exported targets climb from their file to the prefix one directory at a time; re-derive it
    # from the new depth (share/bloom: two levels), as vcpkg does.
    text = re.sub(r'get_filename_component\(_IMPORT_PREFIX "\$\{CMAKE_CURRENT_LIST_FILE\}" PATH\)\n'
                  r'(get_filename_component\(_IMPORT_PREFIX "\$\{_IMPORT_PREFIX\}" PATH\)\n)+',
                  'get_filename_component(_IMPORT_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../" ABSOLUTE)\n', text)
    text = re.sub(r'get_filename_component\(PACKAGE_PREFIX_DIR "\$\{CMAKE_CURRENT_LIST_DIR\}/[./]*" ABSOLUTE\)',
                  'get_filename_component(PACKAGE_PREFIX_DIR "${CMAKE_CURRENT_LIST_DIR}/../../" ABSOLUTE)', text)
    path.write_text(text)
EOF
rm -rf "$prefix/lib" "$prefix/debug" "$prefix/share/doc"
mkdir -p "$prefix/share/bloom-cpp"
cp LICENSE "$prefix/share/bloom-cpp/copyright"
cp "$port/usage" "$prefix/share/bloom-cpp/usage"
for expected in include/bloom/bloom.hpp include/bloom/bloom_filter.hpp share/bloom/bloomConfig.cmake \
    share/bloom/bloomConfigVersion.cmake share/bloom/bloomTargets.cmake share/bloom/FindxxHash.cmake \
    share/pkgconfig/bloom.pc share/bloom-cpp/copyright share/bloom-cpp/usage; do
    [[ -f $prefix/$expected ]] || { echo "missing from the installed port: $expected" >&2; exit 1; }
done
if [[ -e $prefix/share/cmake ]]; then
    echo "share/cmake is left over after the fixup" >&2
    exit 1
fi
cmake -S test_package -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >/dev/null
cmake --build "$work/consumer"
"$work/consumer/test_package"

echo "== 4. pkg-config"
export PKG_CONFIG_PATH="$prefix/share/pkgconfig"
pc_version=$(pkg-config --modversion bloom)
[[ $pc_version == "$version" ]] || { echo "bloom.pc says $pc_version, version.hpp $version" >&2; exit 1; }
# shellcheck disable=SC2046 # pkg-config prints several flags
g++ -std=c++17 -Wall -Wextra -Werror $(pkg-config --cflags bloom) test_package/test_package.cpp \
    $(pkg-config --libs bloom) -o "$work/pkg_config_consumer"
"$work/pkg_config_consumer"

echo "== 5. README's install, as written"
# A copy of the files a fresh clone has (plus new, unignored ones), so that the build/ it makes is its own.
readme="$work/readme"
mkdir "$readme"
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do
        if [[ -e $file ]]; then
            printf '%s\0' "$file"
        fi
    done |
    tar --create --null --files-from=- | tar --extract --directory "$readme"
readme_prefix="$work/readme-prefix"
(cd "$readme" && cmake -S . -B build && cmake --install build --prefix "$readme_prefix") >"$work/readme.log" ||
    { cat "$work/readme.log"; echo "README's install command failed (output above)" >&2; exit 1; }
for expected in include/bloom/bloom.hpp include/bloom/bloom_filter.hpp share/cmake/bloom/bloomConfig.cmake \
    share/cmake/bloom/bloomConfigVersion.cmake share/cmake/bloom/bloomTargets.cmake \
    share/cmake/bloom/FindxxHash.cmake share/pkgconfig/bloom.pc; do
    [[ -f $readme_prefix/$expected ]] || { echo "missing after README's install: $expected" >&2; exit 1; }
done
if [[ -e $readme_prefix/bin/bloom ]]; then
    echo "README's install put an unbuilt bin/bloom in the prefix" >&2
    exit 1
fi
cmake -S tests/consumer/find_package -B "$work/readme-consumer" -DCMAKE_PREFIX_PATH="$readme_prefix" \
    -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >/dev/null
cmake --build "$work/readme-consumer"
"$work/readme-consumer/bloom_find_package_consumer"
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$readme/build/CMakeCache.txt" ||
    { echo "a top-level configure without CMAKE_BUILD_TYPE did not default to Release" >&2; exit 1; }
# README: `cmake --build build` first installs the tool too. Only its target is built here (the rest of
# `all` is the tests, examples and benchmarks, which the other CI steps build).
(cd "$readme" && cmake --build build --target bloom_cli && cmake --install build --prefix "$readme_prefix") \
    >"$work/readme-tool.log" ||
    { cat "$work/readme-tool.log"; echo "building and installing the tool failed (output above)" >&2; exit 1; }
"$readme_prefix/bin/bloom" --version
# A machine with only a compiler, CMake and xxHash: every optional dependency hidden, configuring succeeds.
cmake -S "$readme" -B "$work/readme-bare" -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_SQLite3=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_Python3=ON >"$work/readme-bare.log" ||
    { cat "$work/readme-bare.log"; echo "configuring without the optional dependencies failed" >&2; exit 1; }
for dependency in Catch2 SQLite3 "Google Benchmark"; do
    grep -q "skipped: $dependency not found" "$work/readme-bare.log" ||
        { echo "no 'skipped: $dependency not found' line when $dependency is missing" >&2; exit 1; }
done
grep 'skipped:' "$work/readme-bare.log"
echo "packaging: all checks passed"
