#!/usr/bin/env python3
"""Times the same searches through several `journal serve` processes, interleaved: each round
sends every query once to every server, in the order given, so that all of them see the same
machine. Prints, for each server, the median round trip of each query over the rounds and the
ratio of each server's medians to the last one's; the totals of every answer must agree.

    Benchmarks/tools/served-interleaved.py ROUNDS QUERIES-FILE 'REQUEST-JSON' 'COMMAND' ... 'BASELINE'

QUERIES-FILE holds one query a line; REQUEST-JSON is the request without its query (for
example '{"command":"search","sort":"relevance","strategy":"token"}'); each COMMAND starts a
server (`journal --store S serve`), split as a shell would. Two untimed rounds come first.
"""
import json
import shlex
import statistics
import subprocess
import sys
import time


def ask(server, request):
    start = time.perf_counter()
    server.stdin.write(request)
    server.stdin.flush()
    line = server.stdout.readline()
    return time.perf_counter() - start, json.loads(line)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    queries = [line.rstrip("\n") for line in open(sys.argv[2], encoding="utf-8") if line.strip()]
    base = json.loads(sys.argv[3])
    servers = [
        subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for command in sys.argv[4:]
    ]
    requests = [json.dumps(dict(base, query=query)) + "\n" for query in queries]
    times = [[[] for _ in queries] for _ in servers]
    for round in range(rounds + 2):
        for index, request in enumerate(requests):
            totals = set()
            for which, server in enumerate(servers):
                seconds, answer = ask(server, request)
                if "error" in answer:
                    sys.exit(f"{sys.argv[4 + which]}: {queries[index]!r}: {answer['error']}")
                totals.add(answer.get("total"))
                if round >= 2:
                    times[which][index].append(seconds)
            if len(totals) != 1:
                sys.exit(f"the servers disagree on {queries[index]!r}: totals {sorted(totals, key=str)}")
    for server in servers:
        server.stdin.close()
        server.wait()
    medians = [[statistics.median(samples) for samples in server] for server in times]
    width = max(len(query) for query in queries)
    print(f"{'query':<{width}}  " + "  ".join(f"server {n + 1:>2} ms" for n in range(len(servers))))
    for index, query in enumerate(queries):
        print(f"{query:<{width}}  " + "  ".join(f"{server[index] * 1000:12.3f}" for server in medians))
    for which, server in enumerate(medians):
        ratios = [mine / theirs for mine, theirs in zip(server, medians[-1])]
        print(
            f"server {which + 1}: median of medians {statistics.median(server) * 1000:.3f} ms, "
            f"to the last: median ratio {statistics.median(ratios):.3f}, worst {max(ratios):.3f}"
        )


main()
