#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs conanfile.py's methods against a minimal stand-in for the `conan` module (Conan itself is not
available from Debian's archive) and checks what the recipe declares:

    python3 scripts/check_conan_recipe.py EXPECTED_VERSION

Checked: the version read from include/bloom/version.hpp, package type, the xxhash requirement range,
package_id cleared, the C++17 check, and the CMake/pkg-config names consumers rely on.
"""

import importlib.util
import os
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
calls = {"requires": [], "min_cppstd": None, "info_cleared": False, "layout": None}


class CppInfo:
    def __init__(self):
        self.properties = {}
        self.requires = []
        self.bindirs = ["bin"]
        self.libdirs = ["lib"]

    def set_property(self, name, value):
        self.properties[name] = value


class Info:
    def clear(self):
        calls["info_cleared"] = True


class ConanFile:
    def __init__(self):
        self.recipe_folder = ROOT
        self.cpp_info = CppInfo()
        self.info = Info()
        self.version = None

    def requires(self, reference):
        calls["requires"].append(reference)


class ConanInvalidConfiguration(Exception):
    pass


def check_min_cppstd(conanfile, cppstd):
    calls["min_cppstd"] = cppstd


def load(conanfile, path):
    with open(path, encoding="utf-8") as file:
        return file.read()


def copy(conanfile, pattern, src, dst):
    raise AssertionError("copy() runs only in package(), which this check does not call")


def basic_layout(conanfile, src_folder="."):
    calls["layout"] = src_folder


def install_stub_modules():
    modules = {
        "conan": {"ConanFile": ConanFile},
        "conan.errors": {"ConanInvalidConfiguration": ConanInvalidConfiguration},
        "conan.tools": {},
        "conan.tools.build": {"check_min_cppstd": check_min_cppstd},
        "conan.tools.files": {"copy": copy, "load": load},
        "conan.tools.layout": {"basic_layout": basic_layout},
    }
    for name, members in modules.items():
        module = types.ModuleType(name)
        module.__dict__.update(members)
        sys.modules[name] = module


def main():
    expected_version = sys.argv[1]
    install_stub_modules()
    spec = importlib.util.spec_from_file_location("recipe", os.path.join(ROOT, "conanfile.py"))
    recipe_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recipe_module)
    recipe_class = next(
        value for value in vars(recipe_module).values()
        if isinstance(value, type) and issubclass(value, ConanFile) and value is not ConanFile
    )
    recipe = recipe_class()
    recipe.set_version()
    recipe.layout()
    recipe.requirements()
    recipe.package_id()
    recipe.validate()
    recipe.package_info()

    problems = []

    def expect(condition, text):
        if not condition:
            problems.append(text)

    expect(recipe.version == expected_version, f"version {recipe.version!r}, expected {expected_version!r}")
    expect(recipe.name == "bloom-cpp", f"name {recipe.name!r}, expected 'bloom-cpp'")
    expect(recipe.package_type == "header-library", f"package_type {recipe.package_type!r}")
    expect(calls["requires"] == ["xxhash/[>=0.8.1 <0.9]"], f"requires {calls['requires']}")
    expect(calls["info_cleared"], "package_id() does not clear the package id")
    expect(str(calls["min_cppstd"]) == "17", f"check_min_cppstd({calls['min_cppstd']})")
    properties = recipe.cpp_info.properties
    expect(properties.get("cmake_file_name") == "bloom", f"cmake_file_name {properties.get('cmake_file_name')!r}")
    expect(properties.get("cmake_target_name") == "bloom::bloom",
           f"cmake_target_name {properties.get('cmake_target_name')!r}")
    expect(properties.get("pkg_config_name") == "bloom", f"pkg_config_name {properties.get('pkg_config_name')!r}")
    expect(recipe.cpp_info.libdirs == [] and recipe.cpp_info.bindirs == [], "a header-only package has no lib/bin dirs")
    expect("include/*" in recipe.exports_sources, "exports_sources misses include/*")
    if problems:
        sys.exit("conanfile.py: " + "; ".join(problems))
    print(f"conanfile.py: {recipe.name}/{recipe.version}, {recipe.package_type}, requires {calls['requires'][0]}, "
          f"find_package({properties['cmake_file_name']}) -> {properties['cmake_target_name']}")


if __name__ == "__main__":
    main()
