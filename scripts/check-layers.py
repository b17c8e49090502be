#!/usr/bin/env python3
"""Check that every #include line of the library keeps the layer order (docs/how-it-works.md, "Layers").

Layers, bottom to top: detail primitives -> sizing and hash -> layouts -> filter kinds -> serialization,
views, Parquet -> the umbrella header -> the tool. A header may include only headers of its own layer or
below; a detail/ header never includes a public filter header; examples/ and bench/ include only public
headers; the tool (tools/) stands on top and may include any header that has a layer (it takes the file
lock from detail/io/ to serialise its updates).
Every header under include/ must have a layer here, so a new header is placed on purpose.

    python3 scripts/check-layers.py        exit 0 if the order holds, 1 with one line per violation
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "include"

LAYER_NAMES = ["primitives", "sizing and hash", "layouts", "filter kinds",
               "serialization, views, Parquet", "umbrella"]

# Each header's layer, by its path under include/ (fnmatch-free: exact names, and one folder rule).
LAYERS = {
    0: ["bloom/detail/config.hpp", "bloom/detail/errors.hpp", "bloom/detail/xxhash.hpp",
        "bloom/detail/byte_order.hpp", "bloom/detail/bit_words.hpp", "bloom/detail/counter_words.hpp",
        "bloom/detail/atomic_words.hpp", "bloom/detail/bit_rates.hpp", "bloom/detail/probe.hpp",
        "bloom/detail/pipeline.hpp", "bloom/detail/block_kernels.hpp", "bloom/detail/classic_kernels.hpp", "bloom/detail/murmur3.hpp", "bloom/detail/members.hpp", "bloom/format_error.hpp",
        "bloom/version.hpp"],
    1: ["bloom/sizing.hpp", "bloom/hash.hpp", "bloom/aligned_allocator.hpp"],
    2: ["bloom/detail/classic_layout.hpp", "bloom/detail/blocked_layout.hpp",
        "bloom/detail/split_block_layout.hpp", "bloom/detail/guava_layout.hpp"],
    3: ["bloom/detail/filter_declarations.hpp", "bloom/detail/filter_base.hpp", "bloom/detail/filter_surface.hpp", "bloom/basic_bloom_filter.hpp",
        "bloom/bloom_filter.hpp", "bloom/blocked_bloom_filter.hpp", "bloom/counting_bloom_filter.hpp",
        "bloom/scalable_bloom_filter.hpp", "bloom/concurrent_bloom_filter.hpp", "bloom/fuse_filter.hpp"],
    4: ["bloom/detail/io/*", "bloom/serialization.hpp", "bloom/filter_view.hpp", "bloom/mapped_file.hpp",
        "bloom/update_file.hpp", "bloom/parquet.hpp", "bloom/parquet_file.hpp", "bloom/guava.hpp"],
    5: ["bloom/bloom.hpp"],
}
FILTER_LAYER = 3

INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*[<"](bloom/[^">]+)[">]')


def layer_of(header):
    for layer, names in LAYERS.items():
        for name in names:
            if name == header or (name.endswith("/*") and header.startswith(name[:-1])):
                return layer
    return None


def includes(path):
    """(line number, included bloom/ header) for every #include line of `path` (comments are not lines)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = INCLUDE_LINE.match(line)
        if match:
            yield number, match.group(1)


def main():
    problems = []
    headers = sorted(p.relative_to(INCLUDE).as_posix() for p in INCLUDE.rglob("*.hpp"))
    for header in headers:
        own = layer_of(header)
        if own is None:
            problems.append(f"include/{header}: has no layer in scripts/check-layers.py; place it")
            continue
        for number, target in includes(INCLUDE / header):
            if target == header:
                problems.append(f"include/{header}:{number}: includes itself")
                continue
            theirs = layer_of(target)
            if theirs is None:
                problems.append(f"include/{header}:{number}: includes {target}, which has no layer")
            elif theirs > own:
                problems.append(f"include/{header}:{number}: {LAYER_NAMES[own]} header includes {target}, "
                                f"a {LAYER_NAMES[theirs]} header above it")
            elif (header.startswith("bloom/detail/") and theirs == FILTER_LAYER
                  and not target.startswith("bloom/detail/")):
                problems.append(f"include/{header}:{number}: a detail/ header includes the public filter "
                                f"header {target}")
    for folder in ("examples", "bench"):
        for source in sorted((ROOT / folder).rglob("*")):
            if source.suffix not in (".cpp", ".hpp", ".h", ".cc"):
                continue
            for number, target in includes(source):
                if target.startswith("bloom/detail/"):
                    problems.append(f"{source.relative_to(ROOT).as_posix()}:{number}: includes {target}; "
                                    f"{folder}/ uses only public headers")
    for source in sorted((ROOT / "tools").rglob("*.cpp")):
        for number, target in includes(source):
            if layer_of(target) is None:
                problems.append(f"{source.relative_to(ROOT).as_posix()}:{number}: includes {target}, which "
                                f"has no layer")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-layers: {len(problems)} violation(s) of the layer order", file=sys.stderr)
        return 1
    print(f"check-layers: {len(headers)} headers keep the layer order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
