#!/usr/bin/env bash
# bench/startup.sh DB: how soon a release server answers on database DB — from its start to the port opening,
# from the port opening to the first `GET /api/games` answer, and until the games an older version derived
# are listed (`GET /api/status` no longer `checking`). `GAMES=23600 bench/scale.sh` makes a 100,000-game one.
set -euo pipefail
cd "$(dirname "$0")/.."
DB=$1
PORT=${PORT:-8411}
now() { date +%s.%N; }
t0=$(now)
./target/release/almanac serve --db "$DB" --bind 127.0.0.1:$PORT >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
until (echo >/dev/tcp/127.0.0.1/$PORT) 2>/dev/null; do sleep 0.01; done
t1=$(now)
curl -s -o /dev/null "http://127.0.0.1:$PORT/api/games"
t2=$(now)
until ! curl -s "http://127.0.0.1:$PORT/api/status" | grep -q '"checking":true'; do sleep 0.02; done
t3=$(now)
python3 -c "print(f'port open {$t1 - $t0:.2f} s after the start; first /api/games answer {($t2 - $t1) * 1000:.0f} ms after that; games due listed {($t3 - $t1) * 1000:.0f} ms after it')"
