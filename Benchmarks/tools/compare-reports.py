#!/usr/bin/env python3
"""Compares `journal compare --format json` reports of two builds on the same journal: every
strategy's total for every query must be the same in all of them; prints each strategy's
median before and after and the median and worst of its per-query ratios (after / before).

    Benchmarks/tools/compare-reports.py BEFORE.json[,BEFORE2.json…] AFTER.json[,AFTER2.json…]

A query's median over several reports of one build is the median of their medians.
"""
import json
import statistics
import sys


def table(paths):
    out = {}
    for path in paths.split(","):
        for strategy in json.load(open(path))["strategies"]:
            for query in strategy["queries"]:
                out.setdefault((strategy["name"], query["query"]), []).append((query["total"], query["median_ms"]))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = table(sys.argv[1]), table(sys.argv[2])
    mismatches = 0
    for key, runs in before.items():
        totals_before, totals_after = {t for t, _ in runs}, {t for t, _ in after.get(key, [])}
        if totals_before != totals_after or len(totals_before) != 1:
            mismatches += 1
            print("totals differ:", key, sorted(totals_before, key=str), sorted(totals_after, key=str))
    print(f"strategy and query pairs: {len(before)}, totals that differ: {mismatches}")
    names = list(dict.fromkeys(name for name, _ in before))
    print(f"{'strategy':<14} {'before ms':>10} {'after ms':>10} {'after/before':>13} {'worst':>7}")
    for name in names:
        keys = [k for k in before if k[0] == name and all(m is not None for _, m in before[k] + after.get(k, []))]
        if not keys:
            continue
        b = [statistics.median(m for _, m in before[k]) for k in keys]
        a = [statistics.median(m for _, m in after[k]) for k in keys]
        ratios = [y / x for x, y in zip(b, a) if x > 0]
        print(
            f"{name:<14} {statistics.median(b):10.3f} {statistics.median(a):10.3f} "
            f"{statistics.median(ratios):13.3f} {max(ratios):7.2f}"
        )


main()
