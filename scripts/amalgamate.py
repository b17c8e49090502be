#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate single_include/bloom/bloom.hpp from the headers under include/.

Starting at include/bloom/bloom.hpp, every `#include "..."` of a project header
is replaced by that header's text, recursively, each header once: a header
reached again is dropped, so headers appear in dependency order. System
includes (`#include <...>`) stay as they are. Each inlined header loses its SPDX
line; the output opens with one banner that carries the whole licence text.

A header included inside a conditional block (`#if ...` beyond its own include
guard) is inlined there but not marked as done, so a later unconditional
include of it is inlined again; include guards make the repeat harmless.

Usage:
    python3 scripts/amalgamate.py           write single_include/bloom/bloom.hpp
    python3 scripts/amalgamate.py --check   exit 1 if that file is out of date

Standard library only; the output depends only on the input files.
"""

import argparse
import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE_DIR = ROOT / "include"
ENTRY_HEADER = "bloom/bloom.hpp"
VERSION_HEADER = "bloom/version.hpp"
OUTPUT = ROOT / "single_include" / "bloom" / "bloom.hpp"
LICENSE = ROOT / "LICENSE"

QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SPDX_LINE = re.compile(r"^\s*//\s*SPDX-License-Identifier:")
OPENS_CONDITIONAL = re.compile(r"^\s*#\s*(if|ifdef|ifndef)\b")
CLOSES_CONDITIONAL = re.compile(r"^\s*#\s*endif\b")
GUARD_IFNDEF = re.compile(r"^\s*#\s*ifndef\s+(\w+)\s*$")
GUARD_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s*$")
VERSION_DEFINE = re.compile(r"^\s*#\s*define\s+BLOOM_VERSION_(MAJOR|MINOR|PATCH)\s+(\d+)\b")


class AmalgamationError(Exception):
    pass


def relative(path):
    """A path for messages: relative to the repository, never absolute."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.name


def read_lines(path):
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise AmalgamationError(f"cannot read {relative(path)}: {error.strerror}") from None


def has_include_guard(lines):
    """True when the first two directives are `#ifndef X` and `#define X`."""
    directives = [line for line in lines if line.lstrip().startswith("#")][:2]
    if len(directives) < 2:
        return False
    ifndef = GUARD_IFNDEF.match(directives[0])
    define = GUARD_DEFINE.match(directives[1])
    return bool(ifndef and define and ifndef.group(1) == define.group(1))


def squeeze_blank_lines(lines):
    """Drop leading and trailing blank lines and collapse runs of them to one."""
    result = []
    for line in lines:
        if line.strip() or (result and result[-1].strip()):
            result.append(line)
    while result and not result[-1].strip():
        result.pop()
    return result


class Amalgamator:
    def __init__(self):
        self.done = set()
        self.stack = []

    def resolve(self, name, including_file):
        candidates = [INCLUDE_DIR / name]
        if including_file is not None:
            candidates.append(including_file.parent / name)
        for candidate in candidates:
            if candidate.is_file():
                return candidate
        where = f" (included from {relative(including_file)})" if including_file else ""
        raise AmalgamationError(f'cannot find "{name}" under include/{where}')

    def inline(self, name, including_file=None, conditional=False):
        path = self.resolve(name, including_file)
        key = relative(path)
        if key in self.stack:
            cycle = " -> ".join(self.stack + [key])
            raise AmalgamationError(f"include cycle: {cycle}")
        if not conditional:
            self.done.add(key)
        self.stack.append(key)

        lines = read_lines(path)
        guard_depth = 1 if has_include_guard(lines) else 0
        depth = 0
        body = []
        for line in lines:
            if SPDX_LINE.match(line):
                continue
            include = QUOTED_INCLUDE.match(line)
            if include:
                target = self.resolve(include.group(1), path)
                if relative(target) in self.done:
                    continue
                nested = self.inline(include.group(1), path, conditional or depth > guard_depth)
                body.append("")
                body.extend(nested)
                body.append("")
                continue
            if OPENS_CONDITIONAL.match(line):
                depth += 1
            elif CLOSES_CONDITIONAL.match(line):
                depth -= 1
            body.append(line)

        self.stack.pop()
        body = squeeze_blank_lines(body)
        return [f"// ======== include/{name} " + "=" * max(4, 66 - len(name))] + body


def read_version():
    values = {}
    for line in read_lines(INCLUDE_DIR / VERSION_HEADER):
        match = VERSION_DEFINE.match(line)
        if match:
            values[match.group(1)] = match.group(2)
    missing = [part for part in ("MAJOR", "MINOR", "PATCH") if part not in values]
    if missing:
        names = ", ".join(f"BLOOM_VERSION_{part}" for part in missing)
        raise AmalgamationError(f"include/{VERSION_HEADER} does not define {names}")
    return f"{values['MAJOR']}.{values['MINOR']}.{values['PATCH']}"


def banner():
    licence = read_lines(LICENSE)
    lines = [
        "// GENERATED by scripts/amalgamate.py from include/ — do not edit.",
        "// Regenerate with: python3 scripts/amalgamate.py",
        "//",
        f"// bloom {read_version()}: header-only Bloom filters for C++17, in one file.",
        "// Needs only <xxhash.h> (xxHash 0.8), which it includes with XXH_INLINE_ALL.",
        "//",
    ]
    lines += [f"// {line}".rstrip() for line in squeeze_blank_lines(licence)]
    lines += [
        "//",
        "// SPDX-License-Identifier: MIT",
        "",
        "// The text below is the headers of include/ as written, so the formatter",
        "// leaves it alone here; it is checked where it was written.",
        "// clang-format off",
    ]
    return lines


def amalgamate():
    if not (INCLUDE_DIR / ENTRY_HEADER).is_file():
        raise AmalgamationError(f"include/{ENTRY_HEADER} does not exist")
    lines = banner() + [""] + Amalgamator().inline(ENTRY_HEADER) + ["", "// clang-format on"]
    return "\n".join(lines) + "\n"


def check(text):
    name = relative(OUTPUT)
    try:
        current = OUTPUT.read_text(encoding="utf-8")
    except FileNotFoundError:
        print(f"{name} is missing; generate it with: python3 scripts/amalgamate.py", file=sys.stderr)
        return 1
    if current == text:
        print(f"{name} is up to date")
        return 0
    diff = list(
        difflib.unified_diff(
            current.splitlines(keepends=True),
            text.splitlines(keepends=True),
            fromfile=f"{name} (checked in)",
            tofile=f"{name} (generated from include/)",
        )
    )
    shown = 200
    sys.stderr.writelines(diff[:shown])
    if len(diff) > shown:
        print(f"... {len(diff) - shown} more diff lines", file=sys.stderr)
    print(
        f"\n{name} is out of date with include/; regenerate it with: python3 scripts/amalgamate.py",
        file=sys.stderr,
    )
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 if the checked-in file differs"
    )
    args = parser.parse_args()
    try:
        text = amalgamate()
    except AmalgamationError as error:
        print(f"amalgamate.py: error: {error}", file=sys.stderr)
        return 2
    if args.check:
        return check(text)
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    if OUTPUT.is_file() and OUTPUT.read_text(encoding="utf-8") == text:
        print(f"{relative(OUTPUT)} is already up to date")
        return 0
    with open(OUTPUT, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    print(f"wrote {relative(OUTPUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
