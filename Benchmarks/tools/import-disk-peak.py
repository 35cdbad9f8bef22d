#!/usr/bin/env python3
# Imports INPUT into an empty journal in /tmp/impbench-TAG with BINARY and prints its time, its
# peak resident memory, the most disk the journal's folder took (its files' sizes, sampled every
# 50 ms), the main store's largest WAL, and the finished journal's size.
#
#   Benchmarks/tools/import-disk-peak.py JOURNAL_BINARY INPUT.jsonl TAG [--keep]
import os, subprocess, sys, time, threading, shutil, resource
binary, inp, tag = sys.argv[1:4]
d = f"/tmp/impbench-{tag}"
shutil.rmtree(d, ignore_errors=True)
peak = {"disk": 0, "wal": 0}
stop = False
def size():
    t = 0
    for root, _, files in os.walk(d):
        for f in files:
            try: t += os.lstat(os.path.join(root, f)).st_size
            except FileNotFoundError: pass
    return t
def sample():
    while not stop:
        peak["disk"] = max(peak["disk"], size())
        try: peak["wal"] = max(peak["wal"], os.path.getsize(d + "/journal.sqlite-wal"))
        except FileNotFoundError: pass
        time.sleep(0.05)
th = threading.Thread(target=sample); th.start()
start = time.time()
p = subprocess.Popen([binary, "--store", d, "import", inp], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(p.pid, 0)
secs = time.time() - start
stop = True; th.join()
final = size()
print(f"{tag}: {secs:.1f} s, exit {status}, peak RSS {usage.ru_maxrss/1024:.0f} MB, peak disk {peak['disk']/1e6:.0f} MB, "
      f"peak main WAL {peak['wal']/1e6:.0f} MB, final {final/1e6:.0f} MB, peak/final {peak['disk']/final:.2f}")
if "--keep" not in sys.argv: shutil.rmtree(d, ignore_errors=True)
