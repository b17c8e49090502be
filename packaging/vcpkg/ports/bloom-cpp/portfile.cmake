# SPDX-License-Identifier: MIT
# Overlay port for bloom, a header-only library: builds nothing, installs the headers, the CMake package
# (find_package(bloom), target bloom::bloom) and the pkg-config file.
#
# This port lives in the library's own repository and takes the sources from the checkout it sits in:
#     vcpkg install bloom-cpp --overlay-ports=<checkout>/packaging/vcpkg/ports
# A registry copy would fetch a release instead (vcpkg_from_github with the release tag and its SHA512).
# scripts/check-packaging.sh replays these steps with plain CMake in CI.

set(VCPKG_BUILD_TYPE release) # header-only: one configuration is enough

get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        -DBLOOM_BUILD_TESTS=OFF
        -DBLOOM_BUILD_EXAMPLES=OFF
        -DBLOOM_BUILD_BENCHMARKS=OFF
        -DBLOOM_BUILD_TOOLS=OFF
        -DBLOOM_INSTALL=ON
)
vcpkg_cmake_install()
# Our package installs to share/cmake/bloom; vcpkg wants share/<package>.
vcpkg_cmake_config_fixup(PACKAGE_NAME bloom CONFIG_PATH share/cmake/bloom)
vcpkg_fixup_pkgconfig()

# Header-only: nothing belongs in lib/ or debug/.
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/lib" "${CURRENT_PACKAGES_DIR}/debug")
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/share/doc")

file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
