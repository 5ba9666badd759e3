#!/usr/bin/env bash
# The server's figures with wrk, against a release build on a scratch database holding one game (default:
# the six-player sample): the state at random turns and the game's charts, at 32 and 256 connections, first
# with nothing else running, then while 4 uploaders post large games (the Helpers sample, retitled each
# time so every upload is a new game; bench/uploads.py) as fast as the server takes them; then the table
# recorder's path (bench/recorder.py). Prints requests/s, p50 and p99.
set -euo pipefail
cd "$(dirname "$0")/.."
GAME_FILE=${1:-data/samples/catan-six-players.jsonl}
UPLOAD_FILE=${UPLOAD_FILE:-data/samples/catan-helpers.jsonl}
DURATION=${DURATION:-10s}
PORT=${PORT:-8097}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
for p in $PORT $((PORT + 1)); do
  if curl -s -o /dev/null "http://127.0.0.1:$p/"; then
    echo "something already answers on port $p (a server left from another run?): stop it, or set PORT" >&2
    exit 1
  fi
done
WORK=$(mktemp -d)
DB=$WORK/bench.db
ID=$(./target/release/almanac import --db "$DB" "$GAME_FILE" | cut -f1)
TURNS=$(./target/release/almanac state --db "$DB" "$ID" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["turn"])')
./target/release/almanac club create bench --db "$DB" >/dev/null
export ALMANAC_TOKEN=$(./target/release/almanac token create --club bench --db "$DB" 2>/dev/null)
# No write limit: the uploaders measure what the server takes, not what it allows one client; the recorder's
# 100 spectators all come from loopback.
./target/release/almanac serve --db "$DB" --bind 127.0.0.1:$PORT --writes-per-minute 0 --streams-per-address 200 \
  >/dev/null 2>"$WORK/requests.log" &
SERVER=$!
UPLOADERS=()
stop() { kill "${UPLOADERS[@]}" "$SERVER" 2>/dev/null || true; }
trap stop EXIT
URL=http://127.0.0.1:$PORT
until curl -sf "$URL/api/games" >/dev/null; do sleep 0.2; done
CHARTS=$(curl -s "$URL/games/$ID" | grep -o 'data-chart="[a-z-]*"' | cut -d'"' -f2 | paste -sd, -)

measure() { # what connections script
  local out
  out=$(GAME=$ID TURNS=$TURNS CHARTS=$CHARTS wrk -t2 -c"$2" -d"$DURATION" --latency -s "bench/$3.lua" "$URL")
  printf '%-34s %4s connections: %8s req/s  p50 %8s  p99 %8s\n' "$1" "$2" \
    "$(awk '/Requests\/sec/ {print $2}' <<<"$out")" "$(awk '$1=="50%" {print $2}' <<<"$out")" \
    "$(awk '$1=="99%" {print $2}' <<<"$out")"
}

echo "game $ID ($GAME_FILE): $TURNS turns; charts $CHARTS; $(nproc) cores"
# The state after a random event: of the one game (held in memory), then of a random game among $COLD_GAMES
# stored on a second server (nearly always out of memory: answered from the game's nearest checkpoint).
EVENTS=$(curl -s "$URL/api/games/$ID" | python3 -c 'import json,sys; print(json.load(sys.stdin)["event_count"])')
echo "$ID $EVENTS" > "$WORK/one.txt"
COLD_GAMES=${COLD_GAMES:-1000}
COLD_DIR=target/bench-http-corpus-$COLD_GAMES
if [ ! -f "$COLD_DIR.done" ]; then
  cargo build --release --quiet --example catan_sample -p almanac-catan
  rm -rf "$COLD_DIR" && ./target/release/examples/catan_sample corpus "$COLD_GAMES" "$COLD_DIR" 1 >/dev/null
  touch "$COLD_DIR.done"
fi
./target/release/almanac import --db "$WORK/cold.db" "$COLD_DIR" >/dev/null
./target/release/almanac serve --db "$WORK/cold.db" --bind 127.0.0.1:$((PORT + 1)) >/dev/null 2>&1 &
COLD=$!
COLD_URL=http://127.0.0.1:$((PORT + 1))
until curl -sf "$COLD_URL/api/games" >/dev/null; do sleep 0.2; done
curl -s "$COLD_URL/api/games?limit=1000" | python3 -c '
import json, sys
for g in json.load(sys.stdin)["games"]: print(g["id"], g["event_count"])' > "$WORK/cold.txt"
measure_games() { # what connections url list; the rate in $RATE
  local out
  out=$(GAMES_FILE=$4 wrk -t2 -c"$2" -d"$DURATION" --latency -s bench/states.lua "$3")
  RATE=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  printf '%-34s %4s connections: %8s req/s  p50 %8s  p99 %8s\n' "$1" "$2" \
    "$RATE" "$(awk '$1=="50%" {print $2}' <<<"$out")" "$(awk '$1=="99%" {print $2}' <<<"$out")"
}
measure_games "state after an event, one game" 64 "$URL" "$WORK/one.txt"
cached=$RATE
measure_games "the same, random of $(wc -l < "$WORK/cold.txt") games" 64 "$COLD_URL" "$WORK/cold.txt"
echo "a cold state against a cached one: $(python3 -c "print(f'{$RATE / $cached:.2f}')")× (the goal: 0.25× or more)"
kill "$COLD" 2>/dev/null || true
for c in 32 256; do
  measure "state at a random turn" $c state
  measure "charts" $c charts
done
python3 bench/uploads.py "$URL" "$UPLOAD_FILE" 4 >"$WORK/uploads.txt" &
UPLOADERS+=($!)
started=$(date +%s)
for c in 32 256; do
  measure "state, 4 uploads running" $c state
  measure "charts, 4 uploads running" $c charts
done
kill "${UPLOADERS[@]}" 2>/dev/null || true
wait "${UPLOADERS[@]}" 2>/dev/null || true
seconds=$(($(date +%s) - started))
echo "uploads stored meanwhile: $(cat "$WORK/uploads.txt") games of $(wc -l < "$UPLOAD_FILE") lines in ${seconds} s; requests logged: $(wc -l < "$WORK/requests.log")"
# The table recorder's path: a live game of 1,000 events, each next entry posted as a recorder posts it
# (then what may happen next asked), while 100 spectators follow its stream.
python3 bench/recorder.py "$URL" "$ALMANAC_TOKEN" data/samples/catan-helpers.jsonl 1000 100
