#!/usr/bin/env bash
# A throw-away PostgreSQL 15 for the tests, from Debian's packages.
#
#   tests/pg-server.sh start DIR   makes a cluster in DIR/data, starts it with
#                                  its Unix socket in DIR (no TCP), creates the
#                                  database sluice_test and prints its URI,
#                                  postgresql:///sluice_test?host=DIR&user=U
#   tests/pg-server.sh stop DIR    stops it (fast: open sessions are ended)
#                                  and removes DIR
#
# PostgreSQL refuses to run as root, so as root the cluster belongs to a
# system user, sluice-test (made here if missing), and DIR is given to it:
# DIR's parent folders must let that user through (a folder in /tmp does).
# Not as root, the cluster is the caller's. fsync is off: the data is
# thrown away, and the tests need speed, not durability across a crash of
# the machine. Everything but the URI goes to stderr; the server's log is
# DIR/server.log.
set -euo pipefail
# useradd and runuser live in sbin, which a root shell's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin

bindir=${SLUICE_PG_BINDIR:-/usr/lib/postgresql/15/bin}
test_user=sluice-test

usage() {
  echo "usage: $0 start|stop DIR" >&2
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
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 50
EOF

  # -w: pg_ctl waits for the postmaster to say it is ready (its pid file),
  # then pg_isready asks the server itself over the socket.
  as_owner "$bindir/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" \
    --wait --timeout=60 start >&2 || {
    cat "$dir/server.log" >&2 || true
    exit 1
  }
  "$bindir/pg_isready" --host="$dir" --username="$user" --timeout=30 >&2
  "$bindir/createdb" --host="$dir" --username="$user" sluice_test >&2
  echo "postgresql:///sluice_test?host=$dir&user=$user"
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
  *) usage ;;
esac
