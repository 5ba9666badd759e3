#!/usr/bin/env python3
"""Posts a game log to a running Almanac over and over from N threads, retitled each time so that every
upload is a new game, until stopped; prints how many it posted. `bench/http.sh` runs it beside wrk. The
club token to upload with is read from $ALMANAC_TOKEN.

    ALMANAC_TOKEN=alm_... python3 bench/uploads.py http://127.0.0.1:8097 data/samples/catan-helpers.jsonl 4
"""
import http.client
import os
import signal
import sys
import threading
import urllib.parse

url, path, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
target = urllib.parse.urlsplit(url)
first, rest = open(path, encoding="utf-8").read().split("\n", 1)
stop = threading.Event()
posted = [0] * threads


def uploader(k):
    conn = http.client.HTTPConnection(target.hostname, target.port)
    i = 0
    while not stop.is_set():
        i += 1
        header = first.replace('"title":"', f'"title":"upload {k}-{i} ', 1)
        body = (header + "\n" + rest).encode()
        conn.request("POST", "/api/games", body=body, headers={"Content-Type": "application/x-ndjson",
                                                                "Authorization": "Bearer " + os.environ.get("ALMANAC_TOKEN", "")})
        response = conn.getresponse()
        response.read()
        if response.status not in (200, 201):
            print(f"upload {k}-{i}: {response.status}", file=sys.stderr)
        posted[k] += 1


signal.signal(signal.SIGTERM, lambda *_: stop.set())
workers = [threading.Thread(target=uploader, args=(k,), daemon=True) for k in range(threads)]
for w in workers:
    w.start()
while not stop.is_set():
    stop.wait(0.2)
for w in workers:
    w.join(timeout=30)
print(sum(posted))
