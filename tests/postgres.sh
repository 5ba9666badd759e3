#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests, from Debian's packages (`make postgres` installs them):
#   tests/postgres.sh start DIR   initdb into DIR (as the unprivileged user `nobody` when run as root), start it
#                                 on a free port of 127.0.0.1 and print its URL
#   tests/postgres.sh stop DIR    stop it and remove DIR
# It is a test instance: fsync is off, and it keeps little WAL (a test run creates hundreds of databases,
# each written to the WAL whole, and CI's disk can be small).
set -euo pipefail
cmd=$1
dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}
case $cmd in
start)
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown nobody "$dir"; fi
  # A port nothing answers on (bash's /dev/tcp: no other tool needed).
  port=$((20000 + RANDOM % 40000))
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((20000 + RANDOM % 40000)); done
  as_owner "$bin/initdb" -D "$dir/data" -U almanac --auth=trust --locale=C.UTF-8 -E UTF8 >"$dir/initdb.log"
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300 \
    -c wal_level=minimal -c max_wal_senders=0 -c full_page_writes=off -c max_wal_size=64MB -c min_wal_size=32MB" start >/dev/null
  echo "postgres://almanac@127.0.0.1:$port/postgres"
  ;;
stop)
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
esac
