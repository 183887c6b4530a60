#!/usr/bin/env bash
# A throw-away PostgreSQL 15 for the tests, from Debian's packages.
#
#   tests/pg-server.sh start DIR   makes a cluster in DIR/data, starts it with
#                                  its Unix socket in DIR (no TCP), creates the
#                                  database sluice_test and prints its URI,
#                                  postgresql:///sluice_test?host=DIR&user=U
#   tests/pg-server.sh stop DIR    stops it (fast: open sessions are ended)
#                                  and removes DIR
#   tests/pg-server.sh crash DIR   kills the server and all its processes
#                                  with SIGKILL, as a crash would, and waits
#                                  until they are gone
#   tests/pg-server.sh recover DIR starts the cluster in DIR again (after a
#                                  crash, PostgreSQL replays its WAL) and
#                                  prints its URI again
#
# PostgreSQL refuses to run as root, so as root the cluster belongs to a
# system user, sluice-test (made here if missing), and DIR is given to it:
# DIR's parent folders must let that user through (a folder in /tmp does).
# Not as root, the cluster is the caller's. fsync and synchronous_commit are
# off: the data is thrown away, and the tests need speed, not durability.
# With SLUICE_PG_DURABLE=1 the server keeps PostgreSQL's defaults instead
# (fsync, synchronous_commit and full_page_writes on), for a test that
# kills the server and checks that what it acknowledged survived: with
# synchronous_commit off a commit is acknowledged before its WAL leaves the
# server's memory, and a killed server loses it. Everything but the URI
# goes to stderr; the server's log is DIR/server.log.
set -euo pipefail
# useradd and runuser live in sbin, which a root shell's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin

bindir=${SLUICE_PG_BINDIR:-/usr/lib/postgresql/15/bin}
test_user=sluice-test

usage() {
  echo "usage: $0 start|stop|crash|recover DIR" >&2
  exit 2
}

[ $# -eq 2 ] || usage
command=$1
dir=$2

# Runs a server program as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$test_user" -- "$@"
  else
    "$@"
  fi
}

owner_name() {
  if [ "$(id -u)" -eq 0 ]; then
    echo "$test_user"
  else
    id -un
  fi
}

start() {
  if [ ! -x "$bindir/initdb" ]; then
    echo "pg-server: no PostgreSQL 15 in $bindir (scripts/setup-deps installs postgresql-15)" >&2
    exit 1
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ "$(id -u)" -eq 0 ]; then
    if ! id "$test_user" >/dev/null 2>&1; then
      useradd --system --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin "$test_user"
    fi
    chown "$test_user:" "$dir"
  fi
  chmod 700 "$dir"
  local user
  user=$(owner_name)

  # Trust on the socket only: there is no TCP listener, and the socket is
  # in a folder that only the owner (and root) can enter.
  as_owner "$bindir/initdb" --pgdata="$dir/data" --username="$user" \
    --auth-local=trust --auth-host=reject --encoding=UTF8 --locale=C.UTF-8 \
    --no-sync >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
  cat >>"$dir/data/postgresql.conf" <<EOF

# tests/pg-server.sh
listen_addresses = ''
unix_socket_directories = '$dir'
max_connections = 50
EOF
  if [ "${SLUICE_PG_DURABLE:-0}" != 1 ]; then
    printf '%s\n' "fsync = off" "synchronous_commit = off" "full_page_writes = off" \
      >>"$dir/data/postgresql.conf"
  fi

  run_server
  "$bindir/createdb" --host="$dir" --username="$user" sluice_test >&2
  echo "postgresql:///sluice_test?host=$dir&user=$user"
}

# -w: pg_ctl waits for the postmaster to say it is ready (its pid file),
# then pg_isready asks the server itself over the socket.
run_server() {
  as_owner "$bindir/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" \
    --wait --timeout=60 start >&2 || {
    cat "$dir/server.log" >&2 || true
    exit 1
  }
  "$bindir/pg_isready" --host="$dir" --username="$(owner_name)" --timeout=30 >&2
}

# The postmaster and every process it started (each in a session of its
# own), killed at once: the postmaster is stopped first, so that it starts
# no other while its children are listed.
crash() {
  dir=$(cd "$dir" && pwd)
  local pid pids
  pid=$(head -n 1 "$dir/data/postmaster.pid")
  kill -STOP "$pid"
  pids="$pid $(ps -o pid= --ppid "$pid" | tr '\n' ' ')"
  # shellcheck disable=SC2086
  kill -KILL $pids
  # The processes are gone a moment after the signal, and a new postmaster
  # must not find one of them still holding the shared memory: polled, for
  # at most 10 s.
  for _ in $(seq 200); do
    # shellcheck disable=SC2086
    kill -0 $pids 2>/dev/null || return 0
    sleep 0.05
  done
  echo "pg-server: the server in $dir did not die" >&2
  exit 1
}

recover() {
  dir=$(cd "$dir" && pwd)
  run_server
  echo "postgresql:///sluice_test?host=$dir&user=$(owner_name)"
}

stop() {
  [ -d "$dir" ] || return 0
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bindir/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >&2 ||
      echo "pg-server: could not stop the server in $dir" >&2
  fi
  rm -rf "$dir"
}

case "$command" in
  start) start ;;
  stop) stop ;;
  crash) crash ;;
  recover) recover ;;
  *) usage ;;
esac
