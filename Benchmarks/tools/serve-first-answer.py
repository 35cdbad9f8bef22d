#!/usr/bin/env python3
"""Times how long `journal serve` takes to give its first answer: the process started, the
journal opened and made ready for typing (the prefix table and the date order loaded), and one
search answered. Each round starts every server once, in the order given (reversed every other
round), so that all of them see the same machine; prints each one's median and all its times.

    Benchmarks/tools/serve-first-answer.py ROUNDS QUERY 'COMMAND' ... 'BASELINE COMMAND'

Each COMMAND starts a server (`journal --store S serve`), split as a shell would.
"""
import json
import shlex
import statistics
import subprocess
import sys
import time


def first_answer(command, query):
    start = time.perf_counter()
    server = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    server.stdin.write(json.dumps({"command": "search", "query": query}) + "\n")
    server.stdin.flush()
    answer = json.loads(server.stdout.readline())
    elapsed = (time.perf_counter() - start) * 1000
    server.stdin.close()
    server.wait()
    if "error" in answer:
        sys.exit(f"{command}: {answer['error']}")
    return elapsed


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, query, commands = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    times = [[] for _ in commands]
    for round in range(rounds):
        order = list(range(len(commands)))
        for index in order if round % 2 == 0 else reversed(order):
            times[index].append(first_answer(commands[index], query))
    baseline = statistics.median(times[-1])
    for command, taken in zip(commands, times):
        median = statistics.median(taken)
        print(f"{median:8.1f} ms  {median / baseline:5.2f} ×  {command}")
        print("          " + " ".join(f"{t:.0f}" for t in sorted(taken)))


main()
