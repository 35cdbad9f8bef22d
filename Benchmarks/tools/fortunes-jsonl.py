#!/usr/bin/env python3
"""Writes Debian's fortunes as a journal of real text, in JSON Lines as `journal import` and
`journal bench --corpus` read it: one entry per fortune (the `%`-separated texts of every file
under the folder, in path order), dated an hour apart from 2020-01-01 UTC.

    apt-get install fortunes fortunes-de
    Benchmarks/tools/fortunes-jsonl.py [--copies N] [/usr/share/games/fortunes] > fortunes.jsonl

The 80,719 entries the benchmark's runs since 2026-11-29 call "the fortunes" are those of six
packages, as Corpora/debian/build.py lists them: fortunes, fortunes-de, fortunes-es, fortunes-it,
fortunes-ru and fortunes-zh.

--copies N writes them N times, each copy dated 3,650 days after the one before, so that no
entry repeats another (a journal of real text N times larger, its vocabulary that of one copy).
"""
import datetime
import json
import os
import sys


def fortunes(folder):
    for root, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            path = os.path.join(root, name)
            # The .dat files index the texts; .u8 names are links to them.
            if name.endswith((".dat", ".u8")) or os.path.islink(path):
                continue
            raw = open(path, "rb").read()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
            for chunk in text.split("\n%\n"):
                chunk = chunk.strip()
                if chunk and chunk != "%":
                    yield chunk


def main():
    args = sys.argv[1:]
    copies = 1
    if "--copies" in args:
        at = args.index("--copies")
        copies = int(args[at + 1])
        del args[at:at + 2]
    folder = args[0] if args else "/usr/share/games/fortunes"
    start = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
    texts = list(fortunes(folder))
    for copy in range(copies):
        first = start + datetime.timedelta(days=3650 * copy)
        for index, text in enumerate(texts):
            date = (first + datetime.timedelta(hours=index)).strftime("%Y-%m-%dT%H:%M:%SZ")
            print(json.dumps({"date": date, "text": text}, ensure_ascii=False))


if __name__ == "__main__":
    main()
