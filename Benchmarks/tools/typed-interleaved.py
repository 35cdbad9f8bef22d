#!/usr/bin/env python3
"""Types the same queries into several `journal search --interactive` processes on one store,
a key at a time, interleaved: each query is typed into every process in turn (the order turns
with each query), so that all of them see the same machine. For each key it times the frame
that shows the answer's entries (no "searching…") and the frame that shows its total too (no
"counting…"), as `journal bench`'s TypingSession does, and checks that every process ends each
key on the same status (total). Prints, for each process, the median, p95 and max over the
keys of the first round (entries read from disk for the first time) and of the later ones,
then its slowest keys.

    Benchmarks/tools/typed-interleaved.py ROUNDS QUERIES-FILE STORE JOURNAL ...

QUERIES-FILE holds one query a line, as typed (quotes and all). A JOURNAL written
JOURNAL@STORE searches that store instead: builds of two store formats each on its own copy
of the same journal (imported from the same file), whose totals must still agree.
"""
import fcntl
import os
import pty
import re
import select
import statistics
import struct
import sys
import termios
import time

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[@-~]")


class Screen:
    def __init__(self, journal, store):
        self.pid, self.terminal = pty.fork()
        if self.pid == 0:
            os.environ["TERM"] = "xterm-256color"
            os.environ.pop("NO_COLOR", None)
            os.execv(journal, ["journal", "--store", store, "search", "--interactive", "--strategy", "prefix"])
        fcntl.ioctl(self.terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.output = b""
        self.frame("")

    def frame(self, query):
        """Reads frames until one shows `query` with its search finished: its status line."""
        while True:
            end = self.output.rfind(b"\x1b[?25h")
            if end >= 0:
                frame, self.output = self.output[:end].decode("utf8", "replace"), self.output[end + 6:]
                lines = ESCAPES.sub("", frame[frame.rfind("\x1b[H") + 3:]).replace("\r", "").split("\n")
                if len(lines) > 1 and lines[0].rstrip() == ("> " + query).rstrip() and "searching" not in lines[1]:
                    return lines[1]
                continue
            ready, _, _ = select.select([self.terminal], [], [], 60)
            if not ready:
                raise SystemExit(f"no answer for {query!r} within 60 s")
            self.output += os.read(self.terminal, 1 << 16)

    def type(self, query):
        """Each key's (page seconds, total seconds, typed, final status)."""
        keys, typed = [], ""
        for character in query:
            typed += character
            start = time.perf_counter()
            os.write(self.terminal, character.encode())
            status = self.frame(typed)
            page = time.perf_counter() - start
            while "counting" in status:
                status = self.frame(typed)
            keys.append((page, time.perf_counter() - start, typed, status.split(" · ")[0]))
        os.write(self.terminal, b"\x15")
        while "counting" in self.frame(""):
            pass
        return keys

    def close(self):
        os.write(self.terminal, b"\x1b")
        os.waitpid(self.pid, 0)


def summary(values):
    values = sorted(values)
    return (f"{statistics.median(values) * 1000:7.2f} / {values[int(0.95 * (len(values) - 1))] * 1000:7.2f}"
            f" / {values[-1] * 1000:7.2f}")


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    rounds, queries, store, journals = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    with open(queries, encoding="utf8") as file:
        queries = [line.rstrip("\n") for line in file if line.strip()]
    screens = [Screen(*journal.split("@", 1)) if "@" in journal else Screen(journal, store) for journal in journals]
    keys = [[[] for _ in range(rounds)] for _ in journals]
    for round in range(rounds):
        for number, query in enumerate(queries):
            order = list(range(len(screens)))
            order = order[number % len(order):] + order[:number % len(order)]
            typed = {}
            for index in order:
                typed[index] = screens[index].type(query)
                keys[index][round] += typed[index]
            statuses = {index: [key[3] for key in typed[index]] for index in order}
            if len({tuple(s) for s in statuses.values()}) > 1:
                raise SystemExit(f"the processes disagree on {query!r}: {statuses}")
    for screen in screens:
        screen.close()
    print(f"{sum(len(q) for q in queries)} keys a round, {rounds} rounds; ms as median / p95 / max")
    for index, journal in enumerate(journals):
        first, later = keys[index][0], [key for round in keys[index][1:] for key in round]
        print(f"\n{journal}")
        print(f"  first round, entries shown:  {summary([k[0] for k in first])}")
        print(f"  first round, with the total: {summary([k[1] for k in first])}")
        if later:
            print(f"  later rounds, entries shown:  {summary([k[0] for k in later])}")
            print(f"  later rounds, with the total: {summary([k[1] for k in later])}")
        for page, total, typed, status in sorted(first, reverse=True)[:5]:
            print(f"    {page * 1000:7.1f} ms entries, {total * 1000:7.1f} ms total  {typed:<24} {status}")


main()
