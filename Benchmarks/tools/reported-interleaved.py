#!/usr/bin/env python3
"""Compares two builds of `journal`, each on its own store, by the time each search reports
(its status line's "· N ms", or "milliseconds" in JSON): each round runs every query once with
each build, the order of the builds swapped from one round to the next, so that both see the
same machine. Prints each query's two medians, their ratio (second over first) and whether the
two builds answered alike (their outputs the same but for the time).

    Benchmarks/tools/reported-interleaved.py ROUNDS BUILD STORE OTHER-BUILD OTHER-STORE QUERIES

QUERIES is a file of one command line a line after `journal --store STORE`, split as a shell
would (shlex): `search --json --limit 1 "the it n"`.
"""
import re
import shlex
import statistics
import subprocess
import sys

REPORTED = re.compile(r'"milliseconds":([0-9.]+)|· ([0-9.]+) ms')


def run(binary, store, args):
    output = subprocess.run([binary, "--store", store] + args, capture_output=True).stdout.decode()
    match = REPORTED.search(output)
    if match is None:
        sys.exit(f"no time reported by {binary} --store {store} {shlex.join(args)}:\n{output}")
    return float(match.group(1) or match.group(2)), REPORTED.sub("", output)


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    builds = [(sys.argv[2], sys.argv[3]), (sys.argv[4], sys.argv[5])]
    with open(sys.argv[6]) as lines:
        queries = [line.strip() for line in lines if line.strip()]
    for query in queries:
        args = shlex.split(query)
        times, outputs = [[], []], [None, None]
        for round in range(rounds):
            order = [0, 1] if round % 2 == 0 else [1, 0]
            for index in order:
                milliseconds, outputs[index] = run(*builds[index], args)
                times[index].append(milliseconds)
        first, second = statistics.median(times[0]), statistics.median(times[1])
        same = "same" if outputs[0] == outputs[1] else "DIFFERENT"
        print(f"{query:50s} {first:8.2f} {second:8.2f}  {second / first:5.2f}  {same}", flush=True)


if __name__ == "__main__":
    main()
