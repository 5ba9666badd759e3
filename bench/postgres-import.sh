#!/usr/bin/env bash
# `make bench-postgres-import`: `almanac import` of one corpus into a fresh SQLite file and into a fresh
# PostgreSQL set as a server would be (tests/postgres.sh start-for-bench: fsync on, commits not waiting for
# the disk, as SQLite's synchronous=NORMAL), each timed; prints both rates and PostgreSQL's ratio to SQLite.
# The corpus: bench/uploads.sh's (200 generated games of each ruleset), or the folder given.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-target/bench-uploads-corpus}
if [ -z "${1:-}" ]; then bench/generated-corpus.sh "$CORPUS"; fi
WORK=$(mktemp -d)
# PostgreSQL runs as an unprivileged user when this runs as root: it must reach its folder.
chmod 755 "$WORK"
PG=$WORK/postgres
stop() { tests/postgres.sh stop "$PG" 2>/dev/null || true; rm -rf "$WORK"; }
trap stop EXIT
URL=$(tests/postgres.sh start-for-bench "$PG")
# Every line after a log's header is an event.
events=$(awk 'FNR > 1' "$CORPUS"/*.jsonl | wc -l)
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N); python3 -c "print($t1 - $t0)"; }
sqlite=$(seconds ./target/release/almanac import --db "$WORK/bench.db" "$CORPUS")
postgres=$(seconds ./target/release/almanac import --db "$URL" "$CORPUS")
python3 - "$events" "$sqlite" "$postgres" <<'PY'
import sys
events, sqlite, postgres = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
print(f"SQLite:     {events} events in {sqlite:.2f} s: {events / sqlite:.0f} events/s")
print(f"PostgreSQL: {events} events in {postgres:.2f} s: {events / postgres:.0f} events/s = {sqlite / postgres:.2f}× SQLite")
PY
