#!/usr/bin/env bash
# bench/generated-corpus.sh DIR: 200 generated games of each ruleset in DIR, made once (DIR.done marks it),
# for the upload and import benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=$1
if [ ! -f "$CORPUS.done" ]; then
  cargo build --release --quiet --example catan_sample --example carcassonne_sample --example catan_cards_sample \
    --example cities_knights_sample --example elasund_sample \
    -p almanac-catan -p almanac-carcassonne -p almanac-catan-cards -p almanac-cities-knights -p almanac-elasund
  rm -rf "$CORPUS"
  for ex in catan_sample carcassonne_sample catan_cards_sample elasund_sample cities_knights_sample; do
    ./target/release/examples/$ex corpus 200 "$CORPUS" 1 >/dev/null
  done
  touch "$CORPUS.done"
fi
