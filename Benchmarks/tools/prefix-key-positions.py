#!/usr/bin/env python3
"""What positions for prefix keys would add to a search store: reads the store's token postings
(each token's entries and its positions in each), puts each position under the token's first
one, two and three code points, and prints, for each length of key, how many bytes an entry
the position lists would take, laid out as the `posting` table keeps a token's (per entry, the
list's byte length, then the first position and the gaps, all varints).

    Benchmarks/tools/prefix-key-positions.py SEARCH-STORE

Holds every key's positions in memory: a few hundred MB for 20,000 generated entries.
"""
import collections
import sqlite3
import sys


def varints(data):
    values, value, shift = [], 0, 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
        else:
            values.append(value)
            value, shift = 0, 0
    return values


def size(value):
    count = 1
    while value >= 128:
        value >>= 7
        count += 1
    return count


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    db = sqlite3.connect(sys.argv[1])
    entries = db.execute("SELECT count(*) FROM document").fetchone()[0]
    texts = dict(db.execute("SELECT id, text FROM token"))
    keys = [collections.defaultdict(lambda: collections.defaultdict(list)) for _ in range(3)]
    token_bytes = 0
    rows = db.execute(
        "SELECT id >> 32, documents, positions FROM posting "
        "UNION ALL SELECT id >> 32, documents, positions FROM posting_recent")
    for token, documents, positions in rows:
        text = texts[token]
        token_bytes += len(positions)
        entry, offset = 0, 0
        for gap in varints(documents):
            entry += gap
            length, shift = 0, 0
            while True:
                byte = positions[offset]
                offset += 1
                length |= (byte & 0x7F) << shift
                if not byte & 0x80:
                    break
                shift += 7
            position, listed = 0, []
            for step in varints(positions[offset:offset + length]):
                position += step
                listed.append(position)
            offset += length
            for level in range(min(3, len(text))):
                keys[level][text[:level + 1]][entry].extend(listed)
    print(f"{entries} entries; the tokens' positions: {token_bytes / entries:.1f} bytes an entry")
    for level, lists in enumerate(keys):
        total = postings = 0
        for by_entry in lists.values():
            for listed in by_entry.values():
                listed.sort()
                previous = length = 0
                for position in listed:
                    length += size(position - previous)
                    previous = position
                total += size(length) + length
                postings += 1
        print(
            f"keys of {level + 1} code point(s): {len(lists)} keys, {postings} postings, "
            f"positions {total / entries:.1f} bytes an entry")


if __name__ == "__main__":
    main()
