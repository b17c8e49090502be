#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn bloom_bench JSON and bloom_accuracy CSV into PNG plots (with gnuplot) and Markdown tables.

    bench/plot.py --bench results.json [--bench more.json ...] [--accuracy accuracy.csv]
                  [--out-dir docs] [--markdown summary.md]

Plots written to --out-dir (each only when its input is given):
    bench_u64.png, bench_str16.png   ns per operation vs items, one panel per operation, one line per
                                     structure and call style (log-log)
    bench_static.png                 the static (fuse) filters beside blocked Bloom filters of their rates:
                                     ns per lookup (single and bulk) and bits per item vs items, u64 keys
    accuracy.png                     measured false-positive rate vs bits per item, each filter kind beside
                                     its formula (log y)
--markdown writes the tables of ns/op, memory, the static filters, the huge-page experiment and the issue's
targets.
Exits 1 if any benchmark in the JSON reported an error (a member not found).

The JSON comes from `bloom_bench --benchmark_out=FILE --benchmark_out_format=json`; with
--benchmark_repetitions the medians are used. Later --bench files override earlier ones for the same
benchmark, so a separate run of some sizes can be merged in. Needs python3 and gnuplot (Debian:
gnuplot-nox) and nothing else.
"""

import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

OPERATIONS = ["insert", "lookup_hit", "lookup_miss", "lookup_mixed"]
OPERATION_TITLES = {
    "insert": "insert (fill with n items)",
    "lookup_hit": "lookup of members",
    "lookup_miss": "lookup of non-members",
    "lookup_mixed": "lookup, 50/50 mixed",
}
# (structure, calls, legend, colour, dash type); the order is the legend's.
SERIES = [
    ("blocked", "bulk", "blocked, bulk", "#d62728", 2),
    ("blocked", "single", "blocked", "#d62728", 1),
    ("blocked_word", "single", "blocked, one bit per word", "#e377c2", 1),
    ("blocked_reference", "single", "blocked reference (speed of light)", "#17becf", 3),
    ("classic", "bulk", "classic, bulk", "#1f77b4", 2),
    ("classic", "single", "classic", "#1f77b4", 1),
    ("counting", "bulk", "counting (4-bit), bulk", "#ff7f0e", 2),
    ("counting", "single", "counting (4-bit)", "#ff7f0e", 1),
    ("scalable", "single", "scalable (from n/1000)", "#8c564b", 1),
    ("textbook", "single", "textbook filter", "#7f7f7f", 1),
    ("flat_hash_set", "single", "absl::flat_hash_set", "#9467bd", 1),
    ("unordered_set", "single", "std::unordered_set", "#2ca02c", 1),
]
TABLE_COLUMNS = [
    ("classic", "single"),
    ("classic", "bulk"),
    ("blocked", "single"),
    ("blocked", "bulk"),
    ("blocked_word", "single"),
    ("blocked_word", "bulk"),
    ("blocked_reference", "single"),
    ("classic_reference", "single"),
    ("counting", "single"),
    ("counting", "bulk"),
    ("scalable", "single"),
    ("textbook", "single"),
    ("unordered_set", "single"),
    ("flat_hash_set", "single"),
]
# The static filters and the blocked Bloom filters sized for their rates: (structure, legend, colour, dash).
STATIC_SERIES = [
    ("fuse8", "fuse filter, 8-bit fingerprints (2^{-8})", "#2ca02c", 1),
    ("blocked_at_fuse8", "blocked Bloom filter at 2^{-8}", "#d62728", 1),
    ("fuse16", "fuse filter, 16-bit fingerprints (2^{-16})", "#2ca02c", 2),
    ("blocked_at_fuse16", "blocked Bloom filter at 2^{-16}", "#d62728", 2),
]
KEY_TITLES = {"u64": "std::uint64_t keys", "str16": "16-character string keys"}


def load_bench(paths):
    """{(structure, keys, operation, calls, items): {"ns", "bits", "fpr", "huge"}}, context, errors."""
    results = {}
    context = {}
    errors = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        context.update(data.get("context", {}))
        benchmarks = data.get("benchmarks", [])
        has_medians = any(b.get("aggregate_name") == "median" for b in benchmarks)
        for b in benchmarks:
            if b.get("error_occurred"):
                errors.append(f'{b["name"]}: {b.get("error_message", "error")}')
                continue
            if has_medians:
                if b.get("aggregate_name") != "median":
                    continue
            elif b.get("run_type") == "aggregate":
                continue
            name = b.get("run_name", b["name"])
            parts = name.split("/")
            if len(parts) != 5 or "per_item" not in b:
                continue
            structure, keys, operation, calls, items = parts
            results[(structure, keys, operation, calls, int(items))] = {
                "ns": b["per_item"] * 1e9,
                "bits": b.get("bits_per_item"),
                "fpr": b.get("fpr"),
                "huge": b.get("huge_page_share"),
            }
    return results, context, errors


def load_accuracy(path):
    with open(path, encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))


def gnuplot(script, workdir):
    if shutil.which("gnuplot") is None:
        sys.exit("plot.py: gnuplot not found (Debian: apt-get install gnuplot-nox)")
    script_path = os.path.join(workdir, "plot.gp")
    with open(script_path, "w", encoding="utf-8") as file:
        file.write(script)
    subprocess.run(["gnuplot", script_path], check=True, cwd=workdir)


def gp_text(text):
    """Text for a gnuplot string in enhanced mode: a literal underscore is written \\_."""
    return text.replace("_", "\\\\_")


def items_label(items):
    exponent = math.log10(items)
    return f"10^{round(exponent)}" if abs(exponent - round(exponent)) < 1e-9 else f"{items:,}"


def series(workdir, file_name, points, legend, colour, dash, titled):
    """Writes (x, y) points to workdir/file_name and returns gnuplot's plot clause for them: one line of the
    legend's colour and dash type, titled in the legend if `titled` (the first panel carries the legend)."""
    with open(os.path.join(workdir, file_name), "w", encoding="utf-8") as file:
        file.writelines(f"{x} {y:.4f}\n" for x, y in points)
    title = f'title "{gp_text(legend)}"' if titled else "notitle"
    return f'"{file_name}" using 1:2 with linespoints lc rgb "{colour}" dt {dash} pt 7 ps 0.8 lw 2 {title}'


def plot_bench(results, keys, out_path, workdir, subtitle):
    lines = [
        'set terminal pngcairo size 1500,1100 font "sans,12" linewidth 1.5',
        f'set output "{out_path}"',
        f'set multiplot layout 2,2 title "{gp_text(f"bloom benchmarks, {KEY_TITLES[keys]}, 1% target rate{subtitle}")}" '
        'font "sans,15"',
        "set logscale xy",
        "set grid xtics ytics mytics",
        'set xlabel "items in the filter (n)"',
        'set ylabel "ns per operation"',
        'set format x "10^{%T}"',
        "set xrange [5e3:2e8]",
        "set mytics 10",
    ]
    for index, operation in enumerate(OPERATIONS):
        plots = []
        for structure, calls, legend, colour, dash in SERIES:
            points = sorted(
                (items, value["ns"])
                for (s, k, o, c, items), value in results.items()
                if (s, k, o, c) == (structure, keys, operation, calls)
            )
            if not points:
                continue
            plots.append(
                series(workdir, f"{keys}-{operation}-{structure}-{calls}.dat", points, legend, colour, dash,
                       index == 0)
            )
        lines.append(f'set title "{OPERATION_TITLES[operation]}"')
        lines.append("set key top left font \",11\"" if index == 0 else "unset key")
        if plots:
            lines.append("plot " + ", \\\n     ".join(plots))
        else:
            # An empty panel (e.g. a filtered run): gnuplot refuses to plot nothing, so plot a constant
            # below the fixed y range and say why the panel is empty.
            lines += [
                'set label 1 "not measured in this run" at graph 0.5, 0.5 center',
                "set yrange [1:1000]",
                "plot 1e-9 notitle",
                "unset label 1",
                "set autoscale y",
            ]
    lines.append("unset multiplot")
    gnuplot("\n".join(lines) + "\n", workdir)


def plot_static(results, out_path, workdir, subtitle):
    """Three panels over items (u64 keys): single lookups, bulk lookups (50/50 mixed), bits per item."""
    panels = [
        ("lookup, 50/50 mixed, one call per key", "ns per lookup", "lookup_mixed", "single", "ns"),
        ("lookup, 50/50 mixed, bulk contains", "ns per lookup", "lookup_mixed", "bulk", "ns"),
        ("memory", "bits per item", "lookup_mixed", "single", "bits"),
    ]
    lines = [
        'set terminal pngcairo size 1800,650 font "sans,12" linewidth 1.5',
        f'set output "{out_path}"',
        f'set multiplot layout 1,3 title "{gp_text(f"static filters beside Bloom filters of the same rate, std::uint64_t keys{subtitle}")}" '
        'font "sans,15"',
        "set logscale x",
        "set grid xtics ytics",
        'set xlabel "items in the filter (n)"',
        'set format x "10^{%T}"',
        "set xrange [5e5:2e8]",
    ]
    for index, (title, ylabel, operation, calls, field) in enumerate(panels):
        plots = []
        for structure, legend, colour, dash in STATIC_SERIES:
            points = sorted(
                (items, value[field])
                for (s, k, o, c, items), value in results.items()
                if (s, k, o, c) == (structure, "u64", operation, calls) and value.get(field) is not None
                and items >= 1000000
            )
            if not points:
                continue
            plots.append(
                series(workdir, f"static-{field}-{calls}-{structure}.dat", points, legend, colour, dash, index == 0)
            )
        lines.append(f'set title "{title}"')
        lines.append(f'set ylabel "{ylabel}"')
        lines.append("set yrange [0:*]")
        lines.append('set key top left font ",11"' if index == 0 else "unset key")
        lines.append("plot " + ", \\\n     ".join(plots) if plots else "plot 1e-9 notitle")
    lines.append("unset multiplot")
    gnuplot("\n".join(lines) + "\n", workdir)


def static_table(results):
    """The static filters and the Bloom filters of their rates, one row each: memory, rate, ns."""
    out = []
    sizes = sorted({key[4] for key in results if key[0] in ("fuse8", "fuse16") and key[1] == "u64"})
    if not sizes:
        return out
    out.append("\n### Static filters beside Bloom filters of the same rate (u64 keys)\n")
    out.append(
        "Bits per item and measured rate on the run's non-members; ns per key for single lookups of members, "
        "non-members and a 50/50 mix, bulk lookups of the mix, and construction from all n keys (fuse filters: "
        "build; Bloom filters: single inserts).\n"
    )
    out.append(
        "| items | structure | bits per item | measured rate | hit | miss | mixed | bulk mixed | build or insert |"
    )
    out.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for items in sizes:
        for structure in ("fuse8", "blocked_at_fuse8", "fuse16", "blocked_at_fuse16", "blocked"):
            value = results.get((structure, "u64", "lookup_mixed", "single", items))
            if value is None:
                continue

            def ns(operation, calls):
                return fmt(results.get((structure, "u64", operation, calls, items), {}).get("ns"))

            build = ns("build", "single") if structure.startswith("fuse") else ns("insert", "single")
            fpr = value.get("fpr")
            out.append(
                f"| {items_label(items)} | {structure} | {value['bits']:.2f} | "
                + (f"{fpr * 100:.4f}%" if fpr is not None else "—")
                + f" | {ns('lookup_hit', 'single')} | {ns('lookup_miss', 'single')} | {ns('lookup_mixed', 'single')} | "
                f"{ns('lookup_mixed', 'bulk')} | {build} |"
            )
    for label, pairs in (
        ("the blocked Bloom filter of the same rate", (("fuse8", "blocked_at_fuse8"), ("fuse16", "blocked_at_fuse16"))),
        ("the 1% blocked Bloom filter", (("fuse8", "blocked"), ("fuse16", "blocked"))),
    ):
        ratios = []
        for items in sizes:
            for fuse, bloom in pairs:
                for operation in ("lookup_hit", "lookup_miss", "lookup_mixed"):
                    a = results.get((fuse, "u64", operation, "single", items))
                    b = results.get((bloom, "u64", operation, "single", items))
                    if a and b:
                        ratios.append(a["ns"] / b["ns"])
        if ratios:
            ratios.sort()
            out.append(
                f"\nSingle lookups, fuse filter over {label}: {ratios[0]:.2f}x to {ratios[-1]:.2f}x, median "
                f"{ratios[len(ratios) // 2]:.2f}x (target: at most 1.5x).\n"
            )
    return out


def plot_accuracy(rows, out_path, workdir):
    kinds = [("classic", "#1f77b4", 7, "classic filter, optimal k"), ("blocked", "#d62728", 9, "blocked filter, k = 8")]
    plots = []
    for kind, colour, point, legend in kinds:
        data_path = os.path.join(workdir, f"accuracy-{kind}.dat")
        selected = [r for r in rows if r["kind"] == kind]
        if not selected:
            continue
        with open(data_path, "w", encoding="utf-8") as file:
            for r in selected:
                file.write(f'{r["bits_per_item"]} {r["measured_rate"]} {r["formula_rate"]} {r["sigma"]}\n')
        name = os.path.basename(data_path)
        plots.append(f'"{name}" using 1:3 with lines lc rgb "{colour}" lw 2 title "{gp_text(legend)}: formula"')
        plots.append(
            f'"{name}" using 1:2:(4*$4) with yerrorbars lc rgb "{colour}" pt {point} ps 1.3 '
            f'title "{gp_text(legend)}: measured (bars: ±4σ)"'
        )
    items = rows[0]["items"] if rows else "?"
    queries = rows[0]["queries"] if rows else "?"
    script = "\n".join(
        [
            'set terminal pngcairo size 1100,750 font "sans,12" linewidth 1.5',
            f'set output "{out_path}"',
            f'set title "False-positive rate vs memory: measured ({int(items):,} items, '
            f'{int(queries):,} non-member queries) and formula" font "sans,14"',
            "set logscale y",
            'set format y "10^{%T}"',
            "set grid xtics ytics mytics",
            'set xlabel "bits per item (m / n)"',
            'set ylabel "false-positive rate"',
            "set xtics 2",
            "set xrange [3.5:20.5]",
            'set arrow from 3.5,0.01 to 20.5,0.01 nohead dt 3 lc rgb "#555555"',
            'set label "1%" at 20.3,0.0125 right textcolor rgb "#555555"',
            "set mxtics 2",
            "set key top right",
            "plot " + ", \\\n     ".join(plots),
        ]
    )
    gnuplot(script + "\n", workdir)


def fmt(value, digits=3):
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.{digits - 1}f}" if value < 1 else f"{value:.2f}"


def markdown(results, accuracy_rows, context):
    out = []
    keys_present = [k for k in ("u64", "str16") if any(key[1] == k for key in results)]
    sizes = sorted({key[4] for key in results})
    out.append("### ns per operation\n")
    out.append(
        "Single: one call per key. Bulk: the range `insert(first, last)` / `contains(first, last, out)` over all "
        "n pre-shuffled keys, time per key.\n"
    )
    for keys in keys_present:
        out.append(f"\n**{KEY_TITLES[keys]}**\n")
        header = "| items | operation | " + " | ".join(
            f"{s}{' bulk' if c == 'bulk' else ''}" for s, c in TABLE_COLUMNS
        ) + " |"
        out.append(header)
        out.append("|---:|---|" + "---:|" * len(TABLE_COLUMNS))
        for items in sizes:
            for operation in OPERATIONS:
                cells = [fmt(results.get((s, keys, operation, c, items), {}).get("ns")) for s, c in TABLE_COLUMNS]
                if all(cell == "—" for cell in cells):
                    continue
                out.append(f"| {items_label(items)} | {operation} | " + " | ".join(cells) + " |")

    out.append("\n### Memory and measured rate\n")
    out.append("| keys | items | structure | bits per item | measured false-positive rate |")
    out.append("|---|---:|---|---:|---:|")
    for keys in keys_present:
        for items in sizes:
            for structure in ("classic", "blocked", "blocked_word", "blocked_reference", "counting", "scalable",
                              "textbook", "unordered_set", "flat_hash_set"):
                value = results.get((structure, keys, "lookup_miss", "single", items))
                if value is None:
                    continue
                fpr = value.get("fpr")
                out.append(
                    f"| {keys} | {items_label(items)} | {structure} | {value['bits']:.2f} | "
                    + (f"{fpr * 100:.3f}%" if fpr is not None else "0 (exact)")
                    + " |"
                )

    out.extend(static_table(results))

    huge_rows = []
    for (structure, keys, operation, calls, items), value in sorted(results.items()):
        if not structure.endswith("_hugepage"):
            continue
        base = results.get((structure[: -len("_hugepage")], keys, operation, calls, items))
        if base is None:
            continue
        huge_rows.append(
            f"| {items_label(items)} | {structure[: -len('_hugepage')]} | {operation} | {calls} | "
            f"{fmt(base['ns'])} | {fmt(value['ns'])} | {base['ns'] / value['ns']:.2f}x | "
            f"{(base.get('huge') or 0) * 100:.0f}% / {(value.get('huge') or 0) * 100:.0f}% |"
        )
    if huge_rows:
        out.append("\n### Transparent huge pages (u64 keys)\n")
        out.append(
            "| items | filter | operation | calls | default allocator ns | huge pages ns | speed-up | "
            "THP-backed share (default / huge) |"
        )
        out.append("|---:|---|---|---|---:|---:|---:|---:|")
        out.extend(huge_rows)

    def ns(structure, operation, calls, items, keys="u64"):
        value = results.get((structure, keys, operation, calls, items))
        return None if value is None else value["ns"]

    def row(text, measured, ok):
        out.append(f"| {text} | {measured} | {'yes' if ok else '**no**'} |")

    out.append("\n### Speed against the speed-of-light references (u64 keys, 1%)\n")
    out.append(
        "Ratios of this run: the filter's ns per operation over the reference's (bench/reference_filters.hpp). "
        "Targets: single operations within 1.1x of the reference, bulk at most 0.9x the reference's single "
        "operations; classic inserts within 1.1x of classic_reference; every kind's bulk operations at most as "
        "slow as its single ones, classic bulk lookups of members at most 0.8x.\n"
    )
    out.append("| target | measured | met |")
    out.append("|---|---|---|")
    lookups = ("lookup_hit", "lookup_miss", "lookup_mixed")
    for items in (1_000_000, 10_000_000, 100_000_000):
        for structure in ("blocked", "blocked_word"):
            for op in ("insert",) + lookups:
                mine, ref = ns(structure, op, "single", items), ns("blocked_reference", op, "single", items)
                if mine and ref:
                    row(f"{structure} single {op} ≤ 1.1x blocked_reference at {items_label(items)}",
                        f"{mine / ref:.2f}x ({mine:.2f} vs {ref:.2f} ns)", mine / ref <= 1.1)
                bulk = ns(structure, op, "bulk", items)
                if bulk and ref:
                    row(f"{structure} bulk {op} ≤ 0.9x blocked_reference single at {items_label(items)}",
                        f"{bulk / ref:.2f}x ({bulk:.2f} vs {ref:.2f} ns)", bulk / ref <= 0.9)
        mine, ref = ns("classic", "insert", "single", items), ns("classic_reference", "insert", "single", items)
        if mine and ref:
            row(f"classic single insert ≤ 1.1x classic_reference at {items_label(items)}",
                f"{mine / ref:.2f}x ({mine:.2f} vs {ref:.2f} ns)", mine / ref <= 1.1)
        # Bulk is never slower than single, for every kind and mix (classic lookups of members: 0.8x).
        for structure in ("classic", "blocked", "blocked_word", "counting", "scalable"):
            for op in ("insert",) + lookups:
                bulk, single = ns(structure, op, "bulk", items), ns(structure, op, "single", items)
                if bulk and single:
                    target = 0.8 if (structure, op) == ("classic", "lookup_hit") else 1.0
                    row(f"{structure} bulk {op} ≤ {target}x {structure} single at {items_label(items)}",
                        f"{bulk / single:.2f}x ({bulk:.2f} vs {single:.2f} ns)", bulk / single <= target)
    for structure in ("blocked", "blocked_word"):
        value = results.get((structure, "u64", "lookup_miss", "single", 10_000_000))
        if value and value.get("fpr") is not None:
            row(f"{structure}: bits per item and measured rate at 10^7 (target 1%)",
                f"{value['bits']:.2f} bits, {value['fpr'] * 100:.3f}%", value["fpr"] <= 0.0101)
    for op in ("insert",) + lookups:
        for calls in ("single", "bulk"):
            mine, before = ns("blocked", op, calls, 10_000_000, "str16"), ns("blocked_word", op, calls, 10_000_000, "str16")
            if mine and before:
                row(f"strings: blocked {calls} {op} vs one bit per word at 10^7",
                    f"{mine / before:.2f}x ({mine:.2f} vs {before:.2f} ns)", mine / before <= 1.1)

    out.append("\n### Memory and speed against std::unordered_set\n")
    out.append("| target | measured | met |")
    out.append("|---|---|---|")

    for keys in keys_present:
        items = max((i for (s, k, o, c, i) in results if s == "unordered_set" and k == keys), default=None)
        if items is None:
            continue
        the_set = results.get(("unordered_set", keys, "lookup_miss", "single", items))
        for structure in ("classic", "blocked", "counting", "scalable"):
            value = results.get((structure, keys, "lookup_miss", "single", items))
            if value is None or the_set is None:
                continue
            ratio = the_set["bits"] / value["bits"]
            row(
                f"{structure} ≥ 10x less memory than unordered_set ({keys}, {items_label(items)})",
                f"{ratio:.1f}x ({value['bits']:.2f} vs {the_set['bits']:.0f} bits per item)",
                ratio >= 10,
            )
            for calls in ("single", "bulk"):
                mine = ns(structure, "lookup_miss", calls, items, keys)
                if mine is None:
                    continue
                row(
                    f"{structure} {calls} non-member lookup faster than unordered_set ({keys}, {items_label(items)})",
                    f"{mine:.1f} vs {the_set['ns']:.1f} ns ({the_set['ns'] / mine:.1f}x)",
                    mine < the_set["ns"],
                )

    if accuracy_rows:
        out.append("\n### Accuracy: measured rate vs formula\n")
        out.append(
            "| bits per item | classic k | classic measured | classic formula | blocked measured | blocked formula |"
        )
        out.append("|---:|---:|---:|---:|---:|---:|")
        by_bits = {}
        for r in accuracy_rows:
            by_bits.setdefault(round(float(r["bits_per_item"])), {})[r["kind"]] = r
        for bits in sorted(by_bits):
            classic = by_bits[bits].get("classic")
            blocked = by_bits[bits].get("blocked")

            def pct(r, column):
                return "—" if r is None else f"{float(r[column]) * 100:.4g}%"

            out.append(
                f"| {bits} | {classic['hash_count'] if classic else '—'} | {pct(classic, 'measured_rate')} | "
                f"{pct(classic, 'formula_rate')} | {pct(blocked, 'measured_rate')} | {pct(blocked, 'formula_rate')} |"
            )
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", action="append", default=[], help="bloom_bench JSON output (repeatable)")
    parser.add_argument("--accuracy", help="bloom_accuracy CSV output")
    parser.add_argument("--out-dir", default="docs", help="where the PNGs go (default: docs)")
    parser.add_argument("--markdown", help="also write the Markdown tables to this file ('-': stdout)")
    parser.add_argument("--subtitle", default="", help="text appended to the benchmark plots' titles")
    args = parser.parse_args()
    if not args.bench and not args.accuracy:
        parser.error("give --bench and/or --accuracy")

    results, context, errors = load_bench(args.bench) if args.bench else ({}, {}, [])
    accuracy_rows = load_accuracy(args.accuracy) if args.accuracy else []
    os.makedirs(args.out_dir, exist_ok=True)
    out_dir = os.path.abspath(args.out_dir)
    subtitle = f", {args.subtitle}" if args.subtitle else ""
    with tempfile.TemporaryDirectory(prefix="bloom-plot-") as workdir:
        for keys in ("u64", "str16"):
            if any(key[1] == keys for key in results):
                path = os.path.join(out_dir, f"bench_{keys}.png")
                plot_bench(results, keys, path, workdir, subtitle)
                print(f"plot.py: wrote {os.path.relpath(path)}")
        if any(key[0] in ("fuse8", "fuse16") and key[1] == "u64" for key in results):
            path = os.path.join(out_dir, "bench_static.png")
            plot_static(results, path, workdir, subtitle)
            print(f"plot.py: wrote {os.path.relpath(path)}")
        if accuracy_rows:
            path = os.path.join(out_dir, "accuracy.png")
            plot_accuracy(accuracy_rows, path, workdir)
            print(f"plot.py: wrote {os.path.relpath(path)}")
    if args.markdown:
        text = markdown(results, accuracy_rows, context)
        if args.markdown == "-":
            sys.stdout.write(text)
        else:
            with open(args.markdown, "w", encoding="utf-8") as file:
                file.write(text)
            print(f"plot.py: wrote {os.path.relpath(args.markdown)}")
    if errors:
        # A benchmark reports an error only for a wrong answer (a member not found): fail loudly.
        sys.exit("plot.py: benchmarks that failed:\n  " + "\n  ".join(errors))


if __name__ == "__main__":
    main()
