#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that every bulk operation still issues prefetches.

A prefetch changes speed, never answers, so no unit test sees one go missing; and GCC deletes calls of a
function that only prefetches (it writes no memory): the bulk operations of the string filters, then of the
classic and fuse filters, lost all their prefetches that way. This disassembles the object file of
tests/prefetch/bulk_forms.cpp and requires, for each of its extern "C" functions named bulk_*, a prefetch
instruction in the function or in a function it calls (directly or not) within that object file.

Usage: check-prefetch.py [--objdump PATH] OBJECT_FILE...
Exit status: 0 if every bulk_* function reaches a prefetch, 1 if one does not, 2 on bad usage.
"""
import argparse
import re
import subprocess
import sys

# x86 (prefetcht0/t1/t2/nta, prefetchw) and AArch64 (prfm).
PREFETCH = re.compile(r"\s(prefetch\w*|prfm)\s")
FUNCTION = re.compile(r"^[0-9a-f]+ <(.+)>:$")
CALL = re.compile(r"\s(?:call|callq|jmp|jmpq|bl|b)\s+[0-9a-f]+\s+<([^>+]+)(?:\+0x[0-9a-f]+)?>")


def functions_of(objdump, path):
    """{function name: (has a prefetch, names it calls)} from the disassembly of one object file."""
    text = subprocess.run([objdump, "-d", "-r", "--no-show-raw-insn", path], check=True,
                          capture_output=True, text=True).stdout
    functions = {}
    current = None
    for line in text.splitlines():
        match = FUNCTION.match(line)
        if match:
            current = match.group(1)
            functions[current] = [False, set()]
            continue
        if current is None:
            continue
        if PREFETCH.search(line + " "):
            functions[current][0] = True
        call = CALL.search(line)
        if call:
            functions[current][1].add(call.group(1))
        # Relocations name the real callee of a call whose target the assembler left at zero.
        relocation = re.search(r"R_\w+(?:PLT32|PC32|CALL26|JUMP26)\s+(\S+?)(?:[-+]0x[0-9a-f]+)?$", line)
        if relocation:
            functions[current][1].add(relocation.group(1))
    return functions


def reaches_prefetch(functions, name):
    seen = set()
    stack = [name]
    while stack:
        function = stack.pop()
        if function in seen or function not in functions:
            continue
        seen.add(function)
        has_prefetch, callees = functions[function]
        if has_prefetch:
            return True
        stack.extend(callees)
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objdump", default="objdump")
    parser.add_argument("objects", nargs="+")
    args = parser.parse_args()
    failures = []
    checked = 0
    for path in args.objects:
        functions = functions_of(args.objdump, path)
        for name in sorted(functions):
            if re.fullmatch(r"bulk_\w+", name):  # not the .cold parts GCC splits off
                checked += 1
                if not reaches_prefetch(functions, name):
                    failures.append(name)
    if checked == 0:
        print("check-prefetch: no bulk_* function found", file=sys.stderr)
        return 2
    for name in failures:
        print(f"check-prefetch: {name} issues no prefetch", file=sys.stderr)
    if failures:
        return 1
    print(f"check-prefetch: all {checked} bulk operations issue prefetches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
