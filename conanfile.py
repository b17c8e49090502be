# SPDX-License-Identifier: MIT
"""Conan 2 recipe for bloom, a header-only C++17 library of Bloom filters.

    conan create . --build=missing          # builds and runs test_package/
    # consumers: requires = "bloom-cpp/0.1.0"; then find_package(bloom) and bloom::bloom

The package is named bloom-cpp (several "bloom" packages exist); the CMake package stays `bloom`, the
target `bloom::bloom`, the pkg-config module `bloom`. The version is read from include/bloom/version.hpp,
where it is stated once.
"""

import os
import re

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration
from conan.tools.build import check_min_cppstd
from conan.tools.files import copy, load
from conan.tools.layout import basic_layout

required_conan_version = ">=2.0"


class BloomCppConan(ConanFile):
    name = "bloom-cpp"
    description = "Header-only Bloom filters for C++17: classic, cache-blocked SIMD, counting, scalable, concurrent"
    license = "MIT"
    topics = ("bloom-filter", "probabilistic", "header-only", "simd", "xxhash")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    exports_sources = "include/*", "LICENSE"
    no_copy_source = True

    def set_version(self):
        header = load(self, os.path.join(self.recipe_folder, "include", "bloom", "version.hpp"))
        parts = []
        for part in ("MAJOR", "MINOR", "PATCH"):
            found = re.search(rf"#\s*define\s+BLOOM_VERSION_{part}\s+(\d+)", header)
            if found is None:
                raise ConanInvalidConfiguration(f"include/bloom/version.hpp does not define BLOOM_VERSION_{part}")
            parts.append(found.group(1))
        self.version = ".".join(parts)

    def layout(self):
        basic_layout(self, src_folder=".")

    def requirements(self):
        self.requires("xxhash/[>=0.8.1 <0.9]")

    def package_id(self):
        self.info.clear()

    def validate(self):
        check_min_cppstd(self, 17)

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        copy(self, "*.hpp", os.path.join(self.source_folder, "include"), os.path.join(self.package_folder, "include"))

    def package_info(self):
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
        self.cpp_info.set_property("cmake_file_name", "bloom")
        self.cpp_info.set_property("cmake_target_name", "bloom::bloom")
        self.cpp_info.set_property("pkg_config_name", "bloom")
        self.cpp_info.requires = ["xxhash::xxhash"]
