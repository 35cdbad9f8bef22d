#!/usr/bin/env python3
"""Turns fortune cookies and Japanese manual pages into journal entries (see ./build)."""
import argparse
import gzip
import json
import random
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

FORTUNES = Path("/usr/share/games/fortunes")


def fortune_files():
    """(package, path) for every fortune text file the packages installed."""
    for package in ["fortunes", "fortunes-de", "fortunes-es", "fortunes-it", "fortunes-ru", "fortunes-zh"]:
        listed = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True).stdout.split()
        for name in sorted(listed):
            path = Path(name)
            if (path.is_file() and not path.is_symlink() and FORTUNES in path.parents
                    and path.suffix not in (".dat", ".u8") and "off" not in path.parts):
                yield package, path


def fortunes(path):
    text = path.read_bytes().decode("utf-8", errors="replace")
    for cookie in re.split(r"^%\s*$", text, flags=re.M):
        cookie = cookie.strip("\n")
        # Art and banners are drawings, not prose.
        if cookie.strip() and "\ufffd" not in cookie and sum(c.isalpha() for c in cookie) > len(cookie) / 3:
            yield cookie


ROFF_ESCAPE = re.compile(r"\\f[BIRP]|\\f\(..|\\[-&|^e(]|\\\*\(..|\\s[-+]?\d|\\,|\\/")


def manual_paragraphs():
    """Japanese paragraphs of the manual pages, roff markup removed."""
    for path in sorted(Path("/usr/share/man/ja").glob("man*/*.gz")):
        try:
            source = gzip.decompress(path.read_bytes()).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        paragraph = []
        for line in source.splitlines() + [".PP"]:
            if line.startswith((".", "'")):
                text = "".join(paragraph).strip()
                if len(text) >= 30 and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text):
                    yield text
                paragraph = []
            else:
                paragraph.append(ROFF_ESCAPE.sub("", line).replace("\\", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=0, help="at most this many (0: all)")
    parser.add_argument("--seed", type=int, default=2013)
    arguments = parser.parse_args()

    sources = [(package, cookie) for package, path in fortune_files() for cookie in fortunes(path)]
    sources += [("manpages-ja", paragraph) for paragraph in manual_paragraphs()]
    counts = {}
    for package, _ in sources:
        counts[package] = counts.get(package, 0) + 1
    texts = [text for _, text in sources]
    rng = random.Random(arguments.seed)
    rng.shuffle(texts)
    if arguments.entries:
        texts = texts[:arguments.entries]
    date = datetime(2015, 1, 1, 8, 0, tzinfo=timezone.utc)
    for text in texts:
        date += timedelta(minutes=rng.randint(30, 60 * 30))
        print(json.dumps({"date": date.isoformat().replace("+00:00", "Z"), "text": text}, ensure_ascii=False))
    print(f"{len(texts)} entries from " + ", ".join(f"{package} {count}" for package, count in counts.items()), file=sys.stderr)


main()
