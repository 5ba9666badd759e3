#!/usr/bin/env python3
"""Posts every almanac/1 log of a folder once to a running Almanac, from N threads, and prints how long the
server took to store them all: games, events and events per second. `bench/uploads.sh` runs it against
plain SQLite's rate on the same logs. The club token is read from $ALMANAC_TOKEN.

    ALMANAC_TOKEN=alm_... python3 bench/upload_corpus.py http://127.0.0.1:8097 corpus/ 4
"""
import http.client
import os
import queue
import sys
import threading
import time
import urllib.parse

url, folder, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
target = urllib.parse.urlsplit(url)
files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".jsonl"))
bodies = [open(f, "rb").read() for f in files]
events = sum(b.count(b"\n", 0, len(b) - 1) for b in bodies)  # every line after the header is an event
todo = queue.Queue()
for b in bodies:
    todo.put(b)
failed = []


def uploader():
    conn = http.client.HTTPConnection(target.hostname, target.port)
    while True:
        try:
            body = todo.get_nowait()
        except queue.Empty:
            return
        conn.request("POST", "/api/games", body=body, headers={"Content-Type": "application/x-ndjson",
                                                                "Authorization": "Bearer " + os.environ.get("ALMANAC_TOKEN", "")})
        response = conn.getresponse()
        answer = response.read()
        if response.status != 201:
            failed.append(f"{response.status} {answer[:200]!r}")


start = time.monotonic()
workers = [threading.Thread(target=uploader) for _ in range(threads)]
for w in workers:
    w.start()
for w in workers:
    w.join()
seconds = time.monotonic() - start
if failed:
    sys.exit(f"{len(failed)} uploads not stored as new games, the first: {failed[0]}")
print(f"{len(bodies)} games, {events} events in {seconds:.2f} s: {events / seconds:.0f} events/s")
