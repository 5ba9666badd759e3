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
#   tests/postgres.sh start-failover DIR
#                                 a pg_auto_failover formation (Debian's pg-auto-failover-cli and
#                                 postgresql-NN-auto-failover): a monitor, a primary and a synchronous secondary,
#                                 each a `pg_autoctl run` in a session of its own, as the user `postgres` (whose
#                                 socket directory Debian's build of pg_autoctl uses); the monitor checks health
#                                 every second, so a lost primary is failed over in seconds. Prints the
#                                 multi-host URL servers take (target_session_attrs=read-write)
#   tests/postgres.sh kill-primary DIR
#                                 kill -9 the formation's primary node, its keeper and its PostgreSQL (a machine
#                                 lost); prints the port it listened on
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
start-failover)
  mkdir -p "$dir/run"
  chown -R postgres "$dir"
  autoctl() {
    runuser -u postgres -- env -i HOME="$dir" XDG_CONFIG_HOME="$dir/config" XDG_DATA_HOME="$dir/data" \
      XDG_RUNTIME_DIR="$dir/run" TMPDIR="$dir" LC_ALL=C.UTF-8 PATH="$bin:/usr/bin:/bin" pg_autoctl "$@"
  }
  # run NAME ARGS...: a pg_autoctl in a session of its own (its process group is its session's id,
  # kept in DIR/NAME.session), its log in DIR/NAME.log.
  run() {
    local name=$1
    shift
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$dir/$name.session" runuser -u postgres -- env -i HOME="$dir" \
      XDG_CONFIG_HOME="$dir/config" XDG_DATA_HOME="$dir/data" XDG_RUNTIME_DIR="$dir/run" TMPDIR="$dir" LC_ALL=C.UTF-8 \
      PATH="$bin:/usr/bin:/bin" pg_autoctl "$@" >"$dir/$name.log" 2>&1 </dev/null &
  }
  monitor_port=$(free_port)
  autoctl create monitor --pgdata "$dir/monitor" --pgport "$monitor_port" --hostname 127.0.0.1 --listen 127.0.0.1 \
    --auth trust --no-ssl >"$dir/monitor-create.log" 2>&1
  run monitor run --pgdata "$dir/monitor"
  monitor="postgres://autoctl_node@127.0.0.1:$monitor_port/pg_auto_failover"
  until "$bin/psql" "$monitor" -qAtc "SELECT 1" >/dev/null 2>&1; do sleep 0.2; done
  # Failover in seconds, not the production default's half a minute (the tests wait for it).
  "$bin/psql" "postgres://postgres@127.0.0.1:$monitor_port/pg_auto_failover" -qAt \
    -c "ALTER SYSTEM SET pgautofailover.health_check_period = 1000" \
    -c "ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000" \
    -c "ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1" \
    -c "ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500" \
    -c "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 3000" \
    -c "ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 5000" \
    -c "ALTER SYSTEM SET pgautofailover.startup_grace_period = 2000" \
    -c "SELECT pg_reload_conf()" >/dev/null
  ports=()
  for node in node1 node2; do
    port=$(free_port)
    ports+=("$port")
    run "$node" create postgres --pgdata "$dir/$node" --pgport "$port" --hostname 127.0.0.1 --listen 127.0.0.1 \
      --auth trust --no-ssl --monitor "$monitor" --name "$node" --run
    # The first node is a primary alone ("single") before the second is made from it; then the two are a
    # primary and its secondary.
    want=$([ "$node" = node1 ] && echo "'single'" || echo "'primary', 'secondary'")
    count=$([ "$node" = node1 ] && echo 1 || echo 2)
    until [ "$("$bin/psql" "$monitor" -qAtc "SELECT count(*) FROM pgautofailover.node WHERE reportedstate IN ($want) AND reportedstate = goalstate" 2>/dev/null)" = "$count" ]; do
      sleep 0.3
    done
  done
  echo "$monitor" >"$dir/monitor-url"
  echo "postgres://postgres@127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}/postgres?target_session_attrs=read-write"
  ;;
kill-primary)
  monitor=$(cat "$dir/monitor-url")
  primary=$("$bin/psql" "$monitor" -qAtc "SELECT nodename || ' ' || nodeport FROM pgautofailover.node WHERE reportedstate IN ('primary', 'wait_primary', 'single')")
  read -r node port <<<"$primary"
  kill -9 -- "-$(cat "$dir/$node.session")"
  echo "$port"
  ;;
stop)
  for session in "$dir"/*.session; do
    if [ -f "$session" ]; then kill -9 -- "-$(cat "$session")" 2>/dev/null || true; fi
  done
  for data in "$dir/data" "$dir/replica/data" "$dir/primary/data"; do
    if [ -d "$data" ]; then as_owner "$bin/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1 || true; fi
  done
  rm -rf "$dir"
  ;;
esac
