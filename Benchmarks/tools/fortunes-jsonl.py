#!/usr/bin/env python3
"""Writes Debian's fortunes as a journal of real text, in JSON Lines as `journal import` and
`journal bench --corpus` read it: one entry per fortune (the `%`-separated texts of every file
under the folder, in path order), dated an hour apart from 2020-01-01 UTC.

    apt-get install fortunes fortunes-de
    Benchmarks/tools/fortunes-jsonl.py [/usr/share/games/fortunes] > fortunes.jsonl
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
    folder = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/games/fortunes"
    start = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
    for index, text in enumerate(fortunes(folder)):
        date = (start + datetime.timedelta(hours=index)).strftime("%Y-%m-%dT%H:%M:%SZ")
        print(json.dumps({"date": date, "text": text}, ensure_ascii=False))


if __name__ == "__main__":
    main()
