#!/usr/bin/env python3
"""The table recorder's path, measured: a live game of FIRST events, then each following event of the file
entered as a recorder enters it (one POST per entry, naming the sequence it follows, then GET /next for
what may happen next), while SPECTATORS follow the game's stream. Prints the entries' acknowledgement
p50/p99, /next's, and how long the spectators took to hear of each entry (and whether every one heard of
every entry).

    bench/recorder.py URL TOKEN LOG [FIRST] [SPECTATORS]
"""
import http.client
import json
import sys
import threading
import time
import urllib.parse


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))] if values else float("nan")


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def main():
    url, token, path = sys.argv[1], sys.argv[2], sys.argv[3]
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    spectators = int(sys.argv[5]) if len(sys.argv) > 5 else 100
    host = urllib.parse.urlparse(url).netloc
    lines = open(path, encoding="utf-8").read().splitlines()
    assert len(lines) > first + 1, f"{path} has {len(lines) - 1} events, fewer than {first} and one more"
    auth = {"Authorization": f"Bearer {token}"}

    def request(conn, method, target, body=None, headers=None):
        conn.request(method, target, body=body, headers={**auth, **(headers or {})})
        r = conn.getresponse()
        return r.status, r.read()

    conn = http.client.HTTPConnection(host)
    status, body = request(conn, "POST", "/api/games?publish=true", "\n".join(lines[: first + 1]).encode(),
                           {"Content-Type": "application/x-ndjson"})
    assert status in (200, 201), (status, body)
    game = json.loads(body)["id"]

    heard = {}  # seq -> [times each spectator heard it]
    lock = threading.Lock()
    ready = threading.Barrier(spectators + 1)

    def spectate():
        c = http.client.HTTPConnection(host, timeout=60)
        c.request("GET", f"/api/games/{game}/stream", headers={"Accept": "text/event-stream"})
        r = c.getresponse()
        assert r.status == 200, r.status
        first_message = True
        while True:
            line = r.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                seq = json.loads(line[6:])["seq"]
                if first_message:
                    first_message = False
                    ready.wait()
                    continue
                with lock:
                    heard.setdefault(seq, []).append(time.perf_counter())
                if seq >= len(lines) - 1:
                    return

    threads = [threading.Thread(target=spectate, daemon=True) for _ in range(spectators)]
    for t in threads:
        t.start()
    ready.wait()

    acks, nexts, sent = [], [], {}
    for k, line in enumerate(lines[first + 1:]):
        seq = first + k
        body = json.dumps({"expected_seq": seq, "events": [json.loads(line)]}).encode()
        started = time.perf_counter()
        status, answer = request(conn, "POST", f"/api/games/{game}/events", body, {"Content-Type": "application/json"})
        done = time.perf_counter()
        assert status == 200, (status, answer)
        sent[seq + 1] = started
        acks.append(done - started)
        started = time.perf_counter()
        status, _ = request(conn, "GET", f"/api/games/{game}/next")
        nexts.append(time.perf_counter() - started)
        assert status == 200
    for t in threads:
        t.join(timeout=30)

    delays = [t - sent[seq] for seq, times in heard.items() if seq in sent for t in times]
    expected = spectators * len(sent)
    print(f"recorder: {len(sent)} entries after {first} events, {spectators} spectators following")
    print(f"  entry acknowledged      p50 {ms(percentile(acks, 50))}  p99 {ms(percentile(acks, 99))}")
    print(f"  what may happen next    p50 {ms(percentile(nexts, 50))}  p99 {ms(percentile(nexts, 99))}")
    print(f"  a spectator hears of it p50 {ms(percentile(delays, 50))}  p99 {ms(percentile(delays, 99))}"
          f"  ({len(delays)} of {expected} heard)")


if __name__ == "__main__":
    main()
