#!/usr/bin/env python3
"""Where a command's time goes, by phase and by thread, from a `perf record --call-graph dwarf`.

A sample belongs to the first phase (in the order given) whose name part is found in one of the
symbols of its stack; the main thread (the first sample's) is set apart from the others. For
each phase it prints when its first and last samples came (seconds from the first sample) and
how many there were. With `--under PHASE`, it prints instead the symbols found most often in
that phase's main-thread samples, with how many samples hold each (inclusive) and how many end in
it (self).

    perf record -F 250 --call-graph dwarf,16384 -o sync.perf -- journal --store B sync FOLDER
    Benchmarks/tools/perf-phases.py sync.perf takeIn=6takeIn catchUp=catchUpThroughLatestChange
    Benchmarks/tools/perf-phases.py sync.perf takeIn=6takeIn --under takeIn
"""
import collections
import re
import subprocess
import sys


def samples(path):
    out = subprocess.run(
        ["perf", "script", "-i", path, "-F", "tid,time,ip,sym"], capture_output=True, text=True, check=True
    ).stdout
    found, current = [], None
    for line in out.splitlines():
        head = re.match(r"^\s*(\d+)\s+([\d.]+):\s*$", line)
        if head:
            if current:
                found.append(current)
            current = (int(head.group(1)), float(head.group(2)), [])
        elif current is not None and line.strip():
            parts = line.strip().split(" ", 1)
            current[2].append(parts[1] if len(parts) > 1 else "?")
    if current:
        found.append(current)
    return found


def main():
    args = sys.argv[1:]
    under = None
    if "--under" in args:
        at = args.index("--under")
        under = args[at + 1]
        del args[at : at + 2]
    path, phases = args[0], [tuple(arg.split("=", 1)) for arg in args[1:]]
    every = samples(path)
    start, main_thread = min(s[1] for s in every), every[0][0]

    def phase(stack):
        for name, part in phases:
            if any(part in symbol for symbol in stack):
                return name
        return "other"

    if under:
        chosen = [s for s in every if s[0] == main_thread and phase(s[2]) == under]
        inclusive, own = collections.Counter(), collections.Counter()
        for _, _, stack in chosen:
            inclusive.update(set(stack))
            own[stack[0]] += 1
        print(f"{len(chosen)} main-thread samples in {under}")
        for symbol, count in inclusive.most_common(120):
            print(f"{count:6} {own[symbol]:6}  {symbol[:150]}")
        return
    spans = collections.defaultdict(lambda: [float("inf"), 0.0, 0])
    for thread, time, stack in every:
        span = spans[("main" if thread == main_thread else "others", phase(stack))]
        span[0], span[1], span[2] = min(span[0], time - start), max(span[1], time - start), span[2] + 1
    print(f"{'thread':8} {'phase':16} {'first s':>8} {'last s':>8} {'samples':>8}")
    for (thread, name), (first, last, count) in sorted(spans.items(), key=lambda item: item[1][0]):
        print(f"{thread:8} {name:16} {first:8.2f} {last:8.2f} {count:8}")
    print(f"{len(every)} samples over {max(s[1] for s in every) - start:.2f} s")


main()
