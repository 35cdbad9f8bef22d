#!/usr/bin/env python3
"""Types the benchmark's query set into `journal search --interactive`, a key at a time, on a
pseudo-terminal of 120x40, after evicting the given store files from the page cache
(posix_fadvise DONTNEED), and prints how long the first frame took, then the slowest keys:
key press to the frame showing the answer, and the search's own time from the status line. A diagnostic beside `journal bench`
(whose TypingSession measures the same way): it tells which store's cold reads a slow key
waits for.

    Benchmarks/tools/typing-cold.py JOURNAL STORE [FILE_TO_EVICT ...]
"""
import os
import pty
import re
import select
import statistics
import struct
import sys
import termios
import fcntl
import time

QUERIES = ["the", "and", "terbra", "this", "long", "家族", "aaato", "pesellato", "maarato", "qzxj", "t", "a",
           "th", "an", "the this", "and aaato", "résumé", "café", "fährt", "中学", "e"]
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[@-~]")


def main():
    journal, store, evicted = sys.argv[1], sys.argv[2], sys.argv[3:]
    for path in evicted:
        descriptor = os.open(path, os.O_RDONLY)
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(descriptor)
    opened = time.perf_counter()
    pid, terminal = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(journal, ["journal", "--store", store, "search", "--interactive"])
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    output = b""

    def answered(query):
        """Reads frames until one shows `query` with its search finished; its status line."""
        nonlocal output
        while True:
            end = output.rfind(b"\x1b[?25h")
            if end >= 0:
                frame, output = output[:end].decode("utf8", "replace"), output[end + 6:]
                lines = ESCAPES.sub("", frame[frame.rfind("\x1b[H") + 3:]).replace("\r", "").split("\n")
                if len(lines) > 1 and lines[0].rstrip() == ("> " + query).rstrip() and "searching" not in lines[1]:
                    return lines[1]
                continue
            select.select([terminal], [], [], 30)
            output += os.read(terminal, 1 << 16)

    answered("")
    print(f"first frame (the newest entries) {(time.perf_counter() - opened) * 1000:.0f} ms after starting")
    keys = []
    for query in QUERIES:
        typed = ""
        for character in query:
            typed += character
            start = time.perf_counter()
            os.write(terminal, character.encode())
            status = answered(typed)
            keys.append(((time.perf_counter() - start) * 1000, typed, status))
        os.write(terminal, b"\x15")
        answered("")
    os.write(terminal, b"\x1b")
    os.waitpid(pid, 0)
    keys.sort(reverse=True)
    for milliseconds, typed, status in keys[:8]:
        print(f"{milliseconds:7.1f} ms  {typed:<12} {status}")
    print(f"{len(keys)} keys: median {statistics.median(k[0] for k in keys):.1f} ms, "
          f"p95 {keys[len(keys) // 20][0]:.1f} ms")


main()
