#!/usr/bin/env python3
"""The slow-body attack on a running Almanac: N connections each promise a 15 MiB upload, send all of it
but the last byte, and pause. Prints the server's resident memory (from /proc, by pid) before, while the
connections hang, and what each connection was finally answered.

    python3 bench/slow_bodies.py http://127.0.0.1:8099 SERVER_PID [TOKEN] [N]
"""
import socket
import sys
import threading
import time
import urllib.parse

url, pid = sys.argv[1], int(sys.argv[2])
token = sys.argv[3] if len(sys.argv) > 3 else ""
n = int(sys.argv[4]) if len(sys.argv) > 4 else 40
target = urllib.parse.urlsplit(url)
size = 15 * 1024 * 1024
chunk = b"x" * (1024 * 1024)


def rss_mb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


answers = []


def attacker():
    s = socket.create_connection((target.hostname, target.port))
    head = (f"POST /api/games HTTP/1.1\r\nHost: {target.netloc}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/octet-stream\r\nContent-Length: {size}\r\n\r\n")
    s.sendall(head.encode())
    sent = 0
    s.settimeout(120)
    try:
        while sent < size - 1:
            part = chunk[: min(len(chunk), size - 1 - sent)]
            s.sendall(part)
            sent += len(part)
        reply = s.recv(200).decode(errors="replace")
        answers.append(reply.split("\r\n")[0] if reply else "closed")
    except OSError as e:
        answers.append(f"{type(e).__name__} after {sent >> 20} MiB sent")


before = rss_mb()
threads = [threading.Thread(target=attacker, daemon=True) for _ in range(n)]
for t in threads:
    t.start()
peak = before
for _ in range(20):
    time.sleep(1)
    peak = max(peak, rss_mb())
print(f"{n} connections: server RSS {before:.0f} MB before, {peak:.0f} MB at most over 20 s")
for t in threads:
    t.join(timeout=100)
counts = {}
for a in answers:
    counts[a] = counts.get(a, 0) + 1
print("answers:", counts)
