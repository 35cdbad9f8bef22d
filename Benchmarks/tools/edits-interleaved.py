#!/usr/bin/env python3
"""Times one-entry edits and deletes as whole `journal` processes, builds alternated: each
round edits one entry and deletes the next in every journal given, each journal with its own
build, in turn. Prints each build's median, least and most, in milliseconds.

    Benchmarks/tools/edits-interleaved.py OFFSET JOURNAL STORE [JOURNAL STORE ...]

The journals should hold the same entries (at least 300,000 of them); OFFSET moves the entries
changed, so that a second run changes others. Entries are deleted: run it on copies.
"""
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4 or len(sys.argv) % 2 != 0:
        sys.exit(__doc__)
    offset = int(sys.argv[1])
    builds = list(zip(sys.argv[2::2], sys.argv[3::2]))
    times = {(build, kind): [] for build in range(len(builds)) for kind in ("edit", "delete")}
    for round in range(10):
        number = 200_000 + round * 7_919 + offset
        for build, (journal, store) in enumerate(builds):
            for kind, arguments in (
                ("edit", ["edit", "--text", f"an edited entry {round} with quokka{round} words", f"p{number}"]),
                ("delete", ["delete", "--yes", f"p{number + 1}"]),
            ):
                start = time.perf_counter()
                subprocess.run([journal, "--store", store] + arguments, check=True, stdout=subprocess.DEVNULL)
                times[(build, kind)].append((time.perf_counter() - start) * 1000)
    for (build, kind), values in times.items():
        print(
            f"{builds[build][0]} {kind}: median {statistics.median(values):.1f} ms "
            f"({min(values):.1f}–{max(values):.1f})")


if __name__ == "__main__":
    main()
