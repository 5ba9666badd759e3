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
# DB: a scratch SQLite file by default, or an empty PostgreSQL database (postgres://...); SERVERS: how many
# servers share it (more than one needs PostgreSQL), on ports PORT, PORT+1 ...; READ_DB: streaming replicas
# of that PostgreSQL database (URLs, space-separated) every server sends its reads to.
DB=${DB:-$WORK/load.db}
SERVERS=${SERVERS:-1}
READS=()
for r in ${READ_DB:-}; do READS+=(--read-db "$r"); done
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
URLS=""
for k in $(seq 0 $((SERVERS - 1))); do
  port=$((PORT + k))
  if "$SERVER" serve --help | grep -q -- --demo-club; then
    # No write limit: the crowd comes from one address and measures what the server takes.
    "$SERVER" serve --db "$DB" "${READS[@]}" --bind 127.0.0.1:$port --seed data/samples --demo-club load --writes-per-minute 0 \
      >"$WORK/out$k.txt" 2>"$WORK/requests$k.log" &
  else
    "$SERVER" serve --db "$DB" --bind 127.0.0.1:$port --seed data/samples >"$WORK/out$k.txt" 2>"$WORK/requests$k.log" &
  fi
  PIDS+=($!)
  # Until it answers; a server that died (or never answers in a minute) ends the run.
  for _ in $(seq 300); do
    curl -sf "http://127.0.0.1:$port/api/games" >/dev/null && break
    kill -0 "${PIDS[-1]}" 2>/dev/null || { echo "the server on port $port stopped:"; tail -5 "$WORK/requests$k.log"; exit 1; }
    sleep 0.2
  done
  URLS="$URLS${URLS:+,}http://127.0.0.1:$port"
done
# The token the last server printed (each start revokes the one printed before).
TOKEN=$(sed -n 's/^Demo club `load`: .* with the token //p' "$WORK/out$((SERVERS - 1)).txt")
./target/release/almanac bench-load --url "$URLS" --token "${TOKEN:-none}" \
  --uploaders "${UPLOADERS:-50}" --readers "${READERS:-200}" --writers "${WRITERS:-5}" --seconds "${DURATION:-60}"
echo "server: $SERVER x $SERVERS on ${DB%%\?*}; $(nproc) cores; requests logged: $(cat "$WORK"/requests*.log | wc -l)"
# Where each server's reads went (the primary, each replica), as it counts them.
for k in $(seq 0 $((SERVERS - 1))); do
  echo "server $k reads: $(curl -sf "http://127.0.0.1:$((PORT + k))/api/status" | sed -n 's/.*"reads":\({[^}]*}\).*/\1/p')"
done
