#!/usr/bin/env bash
# `make bench-load`: a crowd against a release server on loopback — 50 uploaders, 200 readers and 5 live
# writers for 60 s (UPLOADERS, READERS, WRITERS, DURATION in seconds) on a scratch database seeded with the samples —
# then every acknowledged game read back. Prints throughput, p50 / p99 per kind of request, errors and lost
# games. SERVER names another build of `almanac` to measure (one from before clubs needs no token).
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER=${SERVER:-./target/release/almanac}
PORT=${PORT:-8098}
WORK=$(mktemp -d)
DB=$WORK/load.db
if "$SERVER" serve --help | grep -q -- --demo-club; then
  # No write limit: the crowd comes from one address and measures what the server takes.
  "$SERVER" serve --db "$DB" --bind 127.0.0.1:$PORT --seed data/samples --demo-club load --writes-per-minute 0 \
    >"$WORK/out.txt" 2>"$WORK/requests.log" &
else
  "$SERVER" serve --db "$DB" --bind 127.0.0.1:$PORT --seed data/samples >"$WORK/out.txt" 2>"$WORK/requests.log" &
fi
PID=$!
trap 'kill $PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
until curl -sf "http://127.0.0.1:$PORT/api/games" >/dev/null; do sleep 0.2; done
TOKEN=$(sed -n 's/^Demo club `load`: .* with the token //p' "$WORK/out.txt")
./target/release/almanac bench-load --url "http://127.0.0.1:$PORT" --token "${TOKEN:-none}" \
  --uploaders "${UPLOADERS:-50}" --readers "${READERS:-200}" --writers "${WRITERS:-5}" --seconds "${DURATION:-60}"
echo "server: $SERVER; $(nproc) cores; requests logged: $(wc -l <"$WORK/requests.log")"
