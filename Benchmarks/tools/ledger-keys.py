#!/usr/bin/env python3
"""What the sync ledger's keys cost a new device's take-in, in SQLite alone.

A take-in writes, for each entry new to the journal, a row of `sync_entry` (with an index by
the entry's number here) and a row of `sync_version`. This writes those rows for N entries in
one transaction, in the order a take-in meets them, keyed three ways: by the URI's text (as
the ledger was before entry keys), by entry keys (the URI's store as 16 bytes and its number,
as it is now), and with each version as integers too (its device as 16 bytes, milliseconds
and counter). A trigger writes the second row, so no Python runs per row; the time includes
the checkpoint. Rounds alternate; it prints each round and the medians.

    Benchmarks/tools/ledger-keys.py [N] [ROUNDS] [DIR]
"""
import os
import sqlite3
import statistics
import sys
import time
import uuid

N = int(sys.argv[1]) if len(sys.argv) > 1 else 112_416
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
DIR = sys.argv[3] if len(sys.argv) > 3 else "/tmp"

STORE = str(uuid.UUID(int=0x5EED)).upper()
DEVICE = str(uuid.UUID(int=0xDE71CE)).upper()

SCHEMAS = {
    "URI text": """
        CREATE TABLE sync_entry (
            uri TEXT PRIMARY KEY NOT NULL, n INTEGER, head TEXT NOT NULL, merged TEXT, digest BLOB
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX sync_entry_by_n ON sync_entry(n) WHERE n IS NOT NULL;
        CREATE TABLE sync_version (
            uri TEXT NOT NULL, version TEXT NOT NULL, head INTEGER NOT NULL, state TEXT,
            PRIMARY KEY (uri, version)
        ) WITHOUT ROWID;
        CREATE TRIGGER held AFTER INSERT ON sync_version BEGIN
            INSERT INTO sync_entry (uri, n, head, merged, digest)
            VALUES (new.uri, CAST(substr(new.uri, 57) AS INTEGER), new.version, NULL, randomblob(32));
        END;
    """,
    "entry keys": """
        CREATE TABLE sync_entry (
            store BLOB NOT NULL, number INTEGER NOT NULL, n INTEGER, head TEXT NOT NULL, merged TEXT, digest BLOB,
            PRIMARY KEY (store, number)
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX sync_entry_by_n ON sync_entry(n) WHERE n IS NOT NULL;
        CREATE TABLE sync_version (
            store BLOB NOT NULL, number INTEGER NOT NULL, version TEXT NOT NULL, head INTEGER NOT NULL, state TEXT,
            PRIMARY KEY (store, number, version)
        ) WITHOUT ROWID;
        CREATE TRIGGER held AFTER INSERT ON sync_version BEGIN
            INSERT INTO sync_entry (store, number, n, head, merged, digest)
            VALUES (new.store, new.number, new.number, new.version, NULL, randomblob(32));
        END;
    """,
    "versions as integers too": """
        CREATE TABLE sync_entry (
            store BLOB NOT NULL, number INTEGER NOT NULL, n INTEGER, device BLOB NOT NULL,
            ms INTEGER NOT NULL, counter INTEGER NOT NULL, merged TEXT, digest BLOB,
            PRIMARY KEY (store, number)
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX sync_entry_by_n ON sync_entry(n) WHERE n IS NOT NULL;
        CREATE TABLE sync_version (
            store BLOB NOT NULL, number INTEGER NOT NULL, device BLOB NOT NULL, ms INTEGER NOT NULL,
            counter INTEGER NOT NULL, head INTEGER NOT NULL, state TEXT,
            PRIMARY KEY (store, number, ms, counter, device)
        ) WITHOUT ROWID;
        CREATE TRIGGER held AFTER INSERT ON sync_version BEGIN
            INSERT INTO sync_entry (store, number, n, device, ms, counter, merged, digest)
            VALUES (new.store, new.number, new.number, new.device, new.ms, new.counter, NULL, randomblob(32));
        END;
    """,
}

NUMBERS = "(WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ?1) SELECT i FROM c)"
VERSION = "printf('%018d.%05d.', 1700000000000 + i, 0) || ?3"
ROWS = {
    "URI text": """
        INSERT INTO sync_version (uri, version, head, state)
        SELECT 'x-journal://' || ?2 || '/Entry/p' || i, """ + VERSION + """, 1, '' FROM """ + NUMBERS,
    "entry keys": """
        INSERT INTO sync_version (store, number, version, head, state)
        SELECT ?2, i, """ + VERSION + """, 1, '' FROM """ + NUMBERS,
    "versions as integers too": """
        INSERT INTO sync_version (store, number, device, ms, counter, head, state)
        SELECT ?2, i, ?3, 1700000000000 + i, 0, 1, '' FROM """ + NUMBERS,
}


def run(kind):
    path = os.path.join(DIR, "ledger-keys-%d.sqlite" % os.getpid())
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA cache_size = -8192")  # the writer's, as the journal sets it
    db.executescript(SCHEMAS[kind])
    store = STORE if kind == "URI text" else uuid.UUID(STORE).bytes
    device = uuid.UUID(DEVICE).bytes if kind == "versions as integers too" else DEVICE
    start = time.perf_counter()
    db.execute("BEGIN")
    db.execute(ROWS[kind], (N, store, device))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    seconds = time.perf_counter() - start
    size = os.path.getsize(path)
    db.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return seconds, size


times = {kind: [] for kind in SCHEMAS}
sizes = {}
print("SQLite %s, %d entries, %d rounds" % (sqlite3.sqlite_version, N, ROUNDS))
for round in range(1, ROUNDS + 1):
    line = []
    for kind in SCHEMAS:
        seconds, sizes[kind] = run(kind)
        times[kind].append(seconds)
        line.append("%s %.3f s" % (kind, seconds))
    print("round %d: %s" % (round, " | ".join(line)))
text = statistics.median(times["URI text"])
for kind in SCHEMAS:
    median = statistics.median(times[kind])
    print("%-24s median %.3f s, %5.1f MB, %.2f× the URI text's time" % (kind, median, sizes[kind] / 1e6, median / text))
