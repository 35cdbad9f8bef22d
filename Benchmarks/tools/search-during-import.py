#!/usr/bin/env python3
"""Searches in other processes while `journal import` adds entries: what they answer and how fast.

    search-during-import.py JOURNAL BASE_DIR NEW.jsonl [--words the,und,...] [--fts5] [--slow MS]

BASE_DIR is a journal (left untouched: the run works on a copy). One process imports NEW.jsonl
into the copy while `journal search WORD --limit 20 --json` processes run one after another,
round the words. Prints, for each word, the totals before and after the import and every other
total seen during it (there should be none: an answer is the journal before the import or
after it), how many answers said the index was behind, and the search latency idle and during
the import (median, p95, max), with their ratio. A search counts as during the import when it
started before the import's process ended. With --slow MS, every search during the import
that took over MS ms is listed with when it started.

With --fts5, the same is measured for SQLite's FTS5 on the same entries: a table
`fts(text)` with rowids in date order, filled from BASE_DIR's entries, one `sqlite3` process
inserting NEW.jsonl's texts in one transaction while `sqlite3` processes run
`SELECT count(*)` and the 20 newest rowids for each word.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

DEFAULT_WORDS = "the,and,not,with,were,so,in,was,ing,ful,der,ack,son,sto,glen,fro,lo,ri,ost,cap"
# Times round the words before the import (idle): the p95 of three rounds was their third slowest.
IDLE_ROUNDS = 10


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def describe(label, values):
    return "%s: median %.1f ms, p95 %.1f ms, max %.1f ms (%d searches)" % (
        label, statistics.median(values), percentile(values, 0.95), max(values), len(values))


def journal_search(journal, store, word):
    started = time.perf_counter()
    out = subprocess.run([journal, "search", "--store", store, "--limit", "20", "--json", "--", word],
                         capture_output=True, text=True, check=True).stdout
    elapsed = (time.perf_counter() - started) * 1000
    answer = json.loads(out)
    return answer["total"], answer.get("indexing"), elapsed


def list_slow(timeline, seconds, slow):
    """Prints each search of `timeline` (start, ms, word) over `slow` ms."""
    if slow is None:
        return
    for start, elapsed, word in timeline:
        if elapsed > slow:
            print("  over %.0f ms: %.1f ms (%s), started at %.2f s of %.2f s" % (slow, elapsed, word, start, seconds))


def measure_journal(journal, base, new, words, slow):
    work = tempfile.mkdtemp(prefix="search-during-import-")
    store = os.path.join(work, "journal")
    shutil.copytree(base, store)
    before = {w: journal_search(journal, store, w)[0] for w in words}
    idle = [journal_search(journal, store, w)[2] for _ in range(IDLE_ROUNDS) for w in words]
    started = time.perf_counter()
    importer = subprocess.Popen([journal, "import", "--store", store, new], stdout=subprocess.DEVNULL)
    seen = {w: [] for w in words}
    during = []
    behind = 0
    index = 0
    timeline = []
    while importer.poll() is None:
        word = words[index % len(words)]
        index += 1
        start = time.perf_counter() - started
        total, indexing, elapsed = journal_search(journal, store, word)
        seen[word].append(total)
        during.append(elapsed)
        timeline.append((start, elapsed, word))
        behind += indexing is not None
    import_seconds = time.perf_counter() - started
    if importer.returncode != 0:
        sys.exit("the import failed")
    after = {w: journal_search(journal, store, w)[0] for w in words}
    print("journal: import %.1f s under searches" % import_seconds)
    partial = 0
    for word in words:
        others = sorted(set(t for t in seen[word] if t not in (before[word], after[word])))
        partial += len([t for t in seen[word] if t in others])
        print("  %-6s before %7d  after %7d  seen %4d answers%s" % (
            word, before[word], after[word], len(seen[word]),
            ", OTHER TOTALS: %s" % others if others else ""))
    print("  answers with a total neither before nor after: %d of %d; %d said the index was behind" % (
        partial, len(during), behind))
    print("  " + describe("idle", idle))
    if during:
        print("  " + describe("during", during))
        print("  p95 during / idle: %.2f" % (percentile(during, 0.95) / percentile(idle, 0.95)))
    list_slow(timeline, import_seconds, slow)
    shutil.rmtree(work)


def sqlite(db, sql, stdin=None):
    return subprocess.run(["sqlite3", db], input=sql if stdin is None else stdin,
                          capture_output=True, text=True, check=True).stdout


def fts5_search(db, word):
    quoted = '"' + word.replace('"', '""') + '"*'
    # A reader waits for the lock the writer's last close takes to checkpoint, as a journal
    # search does (without a timeout, sqlite3 fails at once with "database is locked").
    sql = (".timeout 10000\n"
           "SELECT count(*) FROM fts WHERE fts MATCH '%s';"
           "SELECT rowid FROM fts WHERE fts MATCH '%s' ORDER BY rowid DESC LIMIT 20;") % (
               quoted.replace("'", "''"), quoted.replace("'", "''"))
    started = time.perf_counter()
    out = sqlite(db, sql)
    return int(out.split("\n")[0]), (time.perf_counter() - started) * 1000


def measure_fts5(base, new, words, slow):
    work = tempfile.mkdtemp(prefix="search-during-import-fts5-")
    db = os.path.join(work, "fts.sqlite")
    sqlite(db, "PRAGMA journal_mode=WAL; CREATE VIRTUAL TABLE fts USING fts5(text, prefix='1 2 3');"
               "ATTACH '%s' AS main_store;"
               "INSERT INTO fts(rowid, text) SELECT row_number() OVER (ORDER BY date, n), text "
               "FROM main_store.entry ORDER BY date, n;" % os.path.join(base, "journal.sqlite"))
    texts = [json.loads(line)["text"] for line in open(new, encoding="utf-8") if line.strip()]
    script = "PRAGMA busy_timeout=10000; BEGIN;\n" + "".join(
        "INSERT INTO fts(text) VALUES ('%s');\n" % t.replace("'", "''") for t in texts) + "COMMIT;\n"
    before = {w: fts5_search(db, w)[0] for w in words}
    idle = [fts5_search(db, w)[1] for _ in range(IDLE_ROUNDS) for w in words]
    # From a file: written to the writer's standard input, the script would hold this loop
    # until sqlite3 had read nearly all of it, and the searches would start near the end.
    script_path = os.path.join(work, "insert.sql")
    with open(script_path, "w", encoding="utf-8") as file:
        file.write(script)
    started = time.perf_counter()
    writer = subprocess.Popen(["sqlite3", db, ".read " + script_path], stdout=subprocess.DEVNULL)
    during = []
    timeline = []
    index = 0
    while writer.poll() is None:
        word = words[index % len(words)]
        index += 1
        start = time.perf_counter() - started
        total, elapsed = fts5_search(db, word)
        during.append(elapsed)
        timeline.append((start, elapsed, word))
    insert_seconds = time.perf_counter() - started
    print("FTS5: insert %.1f s in one transaction under searches" % insert_seconds)
    print("  " + describe("idle", idle))
    if during:
        print("  " + describe("during", during))
        print("  p95 during / idle: %.2f" % (percentile(during, 0.95) / percentile(idle, 0.95)))
    list_slow(timeline, insert_seconds, slow)
    shutil.rmtree(work)


def main():
    args = sys.argv[1:]
    words = DEFAULT_WORDS.split(",")
    if "--words" in args:
        at = args.index("--words")
        words = args[at + 1].split(",")
        del args[at:at + 2]
    slow = None
    if "--slow" in args:
        at = args.index("--slow")
        slow = float(args[at + 1])
        del args[at:at + 2]
    fts5 = "--fts5" in args
    args = [a for a in args if a != "--fts5"]
    if len(args) != 3:
        sys.exit(__doc__)
    journal, base, new = args
    measure_journal(journal, base, new, words, slow)
    if fts5:
        measure_fts5(base, new, words, slow)


if __name__ == "__main__":
    main()
