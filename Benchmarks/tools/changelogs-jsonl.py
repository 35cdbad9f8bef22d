#!/usr/bin/env python3
"""Writes the Debian changelogs installed on this machine as a journal of real text, in JSON
Lines as `journal import` and `journal bench --corpus` read it: one entry per changelog entry
(a package's version, its changes and its maintainer), dated as the entry is signed.

    Benchmarks/tools/changelogs-jsonl.py [/usr/share/doc] > changelogs.jsonl

Real text of many hands over thirty years, dated as a journal is, with a vocabulary that keeps
growing (package names, people, bug numbers): a corpus the benchmark's generator did not make.
An entry whose trailer has no date it can read is left out; a file that is not UTF-8 is read as
Latin-1. Entries repeated word for word (the same date and text, in two packages built from one
source) are written once.
"""
import datetime
import email.utils
import gzip
import json
import os
import re
import sys

HEADER = re.compile(r"^\S+ \([^)]*\) [^;]*;")
TRAILER = re.compile(r"^ -- (.*?)  (.+)$")


def changelog_files(folder):
    for package in sorted(os.listdir(folder)):
        for name in ("changelog.Debian.gz", "changelog.gz"):
            path = os.path.join(folder, package, name)
            if os.path.isfile(path) and not os.path.islink(path):
                yield path
                break


def entries(path):
    raw = gzip.open(path, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    block = []
    for line in text.split("\n"):
        if HEADER.match(line):
            block = [line]
            continue
        trailer = TRAILER.match(line)
        if trailer and block:
            try:
                date = email.utils.parsedate_to_datetime(trailer.group(2).strip())
            except (TypeError, ValueError):
                date = None
            if date is not None and date.tzinfo is not None:
                body = "\n".join(block).strip()
                yield date.astimezone(datetime.timezone.utc), f"{body}\n\n{trailer.group(1)}"
            block = []
        elif block:
            block.append(line)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/doc"
    seen = set()
    for path in changelog_files(folder):
        for date, text in entries(path):
            key = (date, text)
            if key in seen:
                continue
            seen.add(key)
            stamp = date.strftime("%Y-%m-%dT%H:%M:%SZ")
            sys.stdout.write(json.dumps({"date": stamp, "text": text}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
