#!/usr/bin/env python3
"""Times whole processes interleaved: each round runs every command once, in the order given,
so that all of them see the same machine; prints each command's median, first quartile and
ratio to the last command's median.

    Benchmarks/tools/interleaved.py ROUNDS 'COMMAND' 'COMMAND' ... 'BASELINE COMMAND'

Each COMMAND is split as a shell would (shlex), run without a shell, its output discarded.
Three untimed runs of each come first.
"""
import os
import shlex
import statistics
import sys
import time


def run(argv, devnull):
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    os.waitpid(pid, 0)
    return time.perf_counter() - start


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    commands = [shlex.split(command) for command in sys.argv[2:]]
    devnull = os.open(os.devnull, os.O_WRONLY)
    for command in commands:
        for _ in range(3):
            run(command, devnull)
    times = [[] for _ in commands]
    for _ in range(rounds):
        for index, command in enumerate(commands):
            times[index].append(run(command, devnull))
    baseline = statistics.median(times[-1])
    for command, samples in zip(commands, times):
        median = statistics.median(samples)
        quartile = statistics.quantiles(samples, n=4)[0]
        print(f"{median * 1000:7.2f} ms  p25 {quartile * 1000:6.2f}  x{median / baseline:5.2f}  {shlex.join(command)}")


if __name__ == "__main__":
    main()
