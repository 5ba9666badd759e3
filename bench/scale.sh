#!/bin/sh
# The scale figures of what coaches ask: a generated corpus of $GAMES games of each ruleset (the random legal
# players of the property tests, players drawn from a club of 300), imported as one club's published games,
# then `almanac bench-scale` on the database. Generation and import are timed too.
#   bench/scale.sh            2,000 games of each ruleset (a few minutes on 2 cores)
#   GAMES=23600 bench/scale.sh    about 100,000 games (about 20 minutes on 2 cores, and 4 GB of disk)
set -eu
GAMES=${GAMES:-2000}
DIR=${SCALE_DIR:-target/scale-$GAMES}
CARGO=${CARGO:-cargo}
$CARGO build --release --bin almanac --quiet
$CARGO build --release --quiet --example catan_sample --example carcassonne_sample --example catan_cards_sample \
  --example cities_knights_sample --example elasund_sample \
  -p almanac-catan -p almanac-carcassonne -p almanac-catan-cards -p almanac-cities-knights -p almanac-elasund
mkdir -p "$DIR"
if [ ! -f "$DIR/corpus.done" ]; then
  start=$(date +%s)
  # Cities & Knights games run longest: a quarter as many of them.
  for ex in catan_sample carcassonne_sample catan_cards_sample elasund_sample; do
    ./target/release/examples/$ex corpus "$GAMES" "$DIR/corpus" 1 &
  done
  ./target/release/examples/cities_knights_sample corpus $((GAMES / 4)) "$DIR/corpus" 1 &
  wait
  echo "generated $(ls "$DIR/corpus" | wc -l) games in $(( $(date +%s) - start )) s"
  touch "$DIR/corpus.done"
fi
if [ ! -f "$DIR/db.done" ]; then
  rm -f "$DIR/scale.db" "$DIR/scale.db-wal" "$DIR/scale.db-shm"
  ./target/release/almanac club create --db "$DIR/scale.db" Generated >/dev/null
  start=$(date +%s)
  ./target/release/almanac import --db "$DIR/scale.db" --club Generated --publish "$DIR/corpus" >/dev/null
  echo "imported in $(( $(date +%s) - start )) s"
  touch "$DIR/db.done"
fi
./target/release/almanac bench-scale --db "$DIR/scale.db"
