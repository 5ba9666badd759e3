#!/usr/bin/env bash
# The bytes a browser transfers to open one replay: the page, the static files and the game's drawing it names,
# each chart as the page loads it, the game's summary, its events and its final state.
#   bench/replay-weight.sh http://127.0.0.1:8080 GAME_ID [gzip]
set -euo pipefail
base=$1; id=$2; enc=${3:-}
total=0
get() {
  local n
  n=$(curl -s -o /dev/null ${enc:+-H "Accept-Encoding: $enc"} -w '%{size_download}' "$base$1")
  total=$((total + n))
  printf '%8d %s\n' "$n" "$1"
}
page=$(curl -s "$base/games/$id")
get "/games/$id"
for s in $(grep -o '/static/[^"]*' <<<"$page" | sort -u); do get "$s"; done
for c in $(grep -o 'data-chart="[^"]*"' <<<"$page" | cut -d'"' -f2); do get "/api/games/$id/charts/$c.svg"; done
get "/api/games/$id"; get "/api/games/$id/events"; get "/api/games/$id/state"
echo "total $total bytes"
