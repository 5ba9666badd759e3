#!/usr/bin/env bash
# HTTP load figures: the state at random turns (32 connections) and chart rendering (1 connection), with wrk,
# against a release build on a scratch database holding one game (default: the six-player sample).
set -euo pipefail
cd "$(dirname "$0")/.."
GAME_FILE=${1:-data/samples/catan-six-players.jsonl}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
DB=$(mktemp -d)/bench.db
ID=$(./target/release/almanac import --db "$DB" "$GAME_FILE" | cut -f1)
TURNS=$(./target/release/almanac state --db "$DB" "$ID" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["turn"])')
./target/release/almanac serve --db "$DB" --bind 127.0.0.1:8097 >/dev/null &
SERVER=$!
trap 'kill $SERVER' EXIT
sleep 1
echo "state at a random turn, 32 connections, 10 s:"
GAME=$ID TURNS=$TURNS wrk -t2 -c32 -d10s --latency -s bench/state.lua http://127.0.0.1:8097 | grep -E "50%|99%|Requests/sec"
echo "charts, 1 connection, 5 s:"
GAME=$ID wrk -t1 -c1 -d5s --latency -s bench/charts.lua http://127.0.0.1:8097 | grep -E "50%|99%|Requests/sec"
