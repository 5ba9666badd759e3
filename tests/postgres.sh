#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests, from Debian's packages (`make postgres` installs them):
#   tests/postgres.sh start DIR   initdb into DIR (as the unprivileged user `nobody` when run as root), start it
#                                 on a free port of 127.0.0.1 and print its URL
#   tests/postgres.sh start-replicated DIR
#                                 a primary in DIR/primary and a streaming replica of it (pg_basebackup) in
#                                 DIR/replica, each on a free port; prints the two URLs on one line
#   tests/postgres.sh start-for-bench DIR
#                                 as `start`, but as a server would be set for work: fsync and full-page
#                                 writes on, room for WAL between checkpoints, commits not waiting for the
#                                 disk (as SQLite's synchronous=NORMAL); for the import benchmark
#   tests/postgres.sh stop-replica DIR | start-replica DIR
#                                 stop the replica of a pair started in DIR (fast shutdown), or start it again
#                                 on its port: for the tests of a server whose replica goes away and returns
#   tests/postgres.sh freeze-replica DIR | thaw-replica DIR
#                                 stop every process of that replica (SIGSTOP: a host that hangs, its
#                                 connections open and silent), or let them go on (SIGCONT)
#   tests/postgres.sh stop DIR    stop what was started in DIR and remove DIR
# It is a test instance: fsync is off, and it keeps little WAL (a test run creates hundreds of databases,
# each written to the WAL whole, and CI's disk can be small).
set -euo pipefail
cmd=$1
dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}
free_port() {
  # A port nothing answers on (bash's /dev/tcp: no other tool needed).
  local port=$((20000 + RANDOM % 40000))
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((20000 + RANDOM % 40000)); done
  echo "$port"
}
# start_server DATA PORT SETTINGS...: one instance on 127.0.0.1:PORT, its socket and log beside DATA.
start_server() {
  local data=$1 port=$2
  shift 2
  as_owner "$bin/pg_ctl" -D "$data" -l "$data.log" -w \
    -o "-p $port -k $(dirname "$data") -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off \
        -c max_wal_size=64MB -c min_wal_size=32MB $*" start >/dev/null
}
owned_dir() {
  mkdir -p "$1"
  if [ "$(id -u)" = 0 ]; then chown nobody "$1"; fi
}
case $cmd in
start | start-for-bench)
  owned_dir "$dir"
  port=$(free_port)
  as_owner "$bin/initdb" -D "$dir/data" -U almanac --auth=trust --locale=C.UTF-8 -E UTF8 >"$dir/initdb.log"
  work=()
  if [ "$cmd" = start-for-bench ]; then
    # The later of two settings of one name wins.
    work=(-c fsync=on -c full_page_writes=on -c max_wal_size=4GB -c min_wal_size=1GB -c shared_buffers=1GB
          -c synchronous_commit=off)
  fi
  start_server "$dir/data" "$port" -c max_connections=300 -c wal_level=minimal -c max_wal_senders=0 "${work[@]}"
  echo "postgres://almanac@127.0.0.1:$port/postgres"
  ;;
start-replicated)
  owned_dir "$dir"
  owned_dir "$dir/primary"
  owned_dir "$dir/replica"
  primary=$(free_port)
  as_owner "$bin/initdb" -D "$dir/primary/data" -U almanac --auth=trust --locale=C.UTF-8 -E UTF8 >"$dir/initdb.log"
  start_server "$dir/primary/data" "$primary" -c max_connections=100 -c wal_level=replica -c max_wal_senders=4
  # The replica: a base backup of the primary that streams what follows (-R writes standby.signal and
  # primary_conninfo); it answers reads while it replays.
  as_owner "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary" -U almanac -D "$dir/replica/data" -R -X stream >/dev/null
  replica=$(free_port)
  echo "$replica" >"$dir/replica/port"
  start_server "$dir/replica/data" "$replica" -c max_connections=100 -c hot_standby=on
  echo "postgres://almanac@127.0.0.1:$primary/postgres postgres://almanac@127.0.0.1:$replica/postgres"
  ;;
stop-replica)
  as_owner "$bin/pg_ctl" -D "$dir/replica/data" -m fast -w stop >/dev/null
  ;;
start-replica)
  start_server "$dir/replica/data" "$(cat "$dir/replica/port")" -c max_connections=100 -c hot_standby=on
  ;;
freeze-replica | thaw-replica)
  signal=STOP
  if [ "$cmd" = thaw-replica ]; then signal=CONT; fi
  postmaster=$(head -1 "$dir/replica/data/postmaster.pid")
  kill -s "$signal" "$postmaster" $(pgrep -P "$postmaster" || true)
  ;;
stop)
  for data in "$dir/data" "$dir/replica/data" "$dir/primary/data"; do
    if [ -d "$data" ]; then as_owner "$bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true; fi
  done
  rm -rf "$dir"
  ;;
esac
