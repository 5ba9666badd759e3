#!/usr/bin/env bash
# Records of another program at native speed: catanatron replays the corpus (bench/catanatron_replay.py),
# then `almanac validate` reads and validates the same files; both whole processes, reading included.
# almanac is timed on every core (as it runs) and on one core (taskset), so the figures say both.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-bench-corpus}
PYTHON=${PYTHON:-.venv-catanatron/bin/python}
ALMANAC=${ALMANAC:-./target/release/almanac}
files=("$CORPUS"/*.json)
seconds() { # command...: the best of three runs' wall-clock seconds
  local best=""
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    best=$(python3 -c "print(min(float('${best:-inf}'), $t1 - $t0))")
  done
  echo "$best"
}
t0=$(date +%s.%N)
"$PYTHON" bench/catanatron_replay.py "${files[@]}"
catanatron=$(python3 -c "print($(date +%s.%N) - $t0)")
all=$(seconds "$ALMANAC" validate --format catanatron "${files[@]}")
one=$(seconds taskset -c 0 "$ALMANAC" validate --format catanatron "${files[@]}")
python3 - "$catanatron" "$all" "$one" "${#files[@]}" "$(nproc)" <<'PY'
import sys
catanatron, every, one, n, cores = map(float, sys.argv[1:])
print(f"catanatron replays {n:.0f} games: {catanatron:.2f} s (whole process)")
print(f"almanac validate --format catanatron, the same files: {every:.2f} s on {cores:.0f} cores = {catanatron / every:.0f}x; "
      f"{one:.2f} s on one core = {catanatron / one:.0f}x (best of 3, whole process)")
PY
