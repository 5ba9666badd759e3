#!/usr/bin/env bash
# `make bench-uploads`: how fast the server stores uploads, against plain SQLite's rate on the same logs.
# A corpus (200 generated games of each ruleset, or the folder given) is posted once, each game a
# `POST /api/games`, to a release server on a fresh database: by one uploader, then by 4 at once. Prints
# each rate and its ratio to plain SQLite's inserts of the same event rows, one transaction per game (timed
# by `almanac bench` just before, on the same machine).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-target/bench-uploads-corpus}
PORT=${PORT:-8099}
# Another build to compare with (an older binary, say).
ALMANAC=${ALMANAC:-./target/release/almanac}
if [ -z "${1:-}" ]; then bench/generated-corpus.sh "$CORPUS"; fi
WORK=$(mktemp -d)
SERVER=
stop() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null || true; rm -rf "$WORK"; }
trap stop EXIT
plain=$("$ALMANAC" bench "$CORPUS" --db "$WORK" | sed -n 's/^plain SQLite, the same event rows, one transaction per game: \([0-9]*\) events\/s.*/\1/p')
echo "plain SQLite, the same event rows, one transaction per game: $plain events/s"
for uploaders in 1 4; do
  DB=$WORK/uploads-$uploaders.db
  "$ALMANAC" club create bench --db "$DB" >/dev/null
  export ALMANAC_TOKEN=$("$ALMANAC" token create --club bench --db "$DB" 2>/dev/null)
  "$ALMANAC" serve --db "$DB" --bind 127.0.0.1:$PORT --writes-per-minute 0 >/dev/null 2>&1 &
  SERVER=$!
  until curl -sf "http://127.0.0.1:$PORT/api/games" >/dev/null; do sleep 0.2; done
  line=$(python3 bench/upload_corpus.py "http://127.0.0.1:$PORT" "$CORPUS" $uploaders)
  rate=$(sed -n 's/.*: \([0-9]*\) events\/s$/\1/p' <<<"$line")
  echo "$uploaders uploader(s): $line = $(python3 -c "print(f'{$rate / $plain:.2f}')")× plain SQLite"
  kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=
done
