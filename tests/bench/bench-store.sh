#!/usr/bin/env bash
# bench-store.sh SLUICE_RUN RESULTS.json [JOBS]: jobs per second through the
# durable job store (issue 16), SQLite and PostgreSQL, with 1, 2 and 4
# worker processes on one store. Each measurement enqueues JOBS jobs that
# succeed at once (`ok`: the cost is the store's, not the handler's), then
# starts the workers with --until-empty and times them until the last one
# has exited; jobs/s = JOBS / that time. Scaling across processes is the
# point of PostgreSQL (SKIP LOCKED); SQLite serialises its writers.
#
# A throw-away PostgreSQL comes from tests/pg-server.sh (skipped with a
# message when its packages are missing).
set -euo pipefail

run=$1
results=$2
jobs=${3:-2000}
here=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d /tmp/sluice-bench-store.XXXXXX)
pg_dir=""

cleanup () {
  if [ -n "$pg_dir" ]; then
    "$here/pg-server.sh" stop "$pg_dir" >/dev/null 2>&1 || true
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT

now () { date +%s.%N; }

# measure STORE TENANT WORKERS: prints jobs/s
measure () {
  local store=$1 tenant=$2 workers=$3 start end pids=()

  "$run" enqueue --store "$store" --tenant "$tenant" --count "$jobs" --behaviour "ok" \
    --key-prefix "$tenant" >/dev/null
  start=$(now)
  for ((i = 0; i < workers; i++)); do
    "$run" worker --store "$store" --tenant "$tenant" --workers 4 --queue-size 8 \
      --until-empty >/dev/null 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid"
  done
  end=$(now)
  awk -v n="$jobs" -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", n / (b - a) }'
}

declare -A figures
kinds=(sqlite)
if [ -x /usr/lib/postgresql/15/bin/initdb ]; then
  # A folder of its own: the server runs as another user when this is root.
  pg_dir=$(mktemp -d /tmp/sluice-bench-pg.XXXXXX)
  pg_uri=$("$here/pg-server.sh" start "$pg_dir" 2>/dev/null | tail -n 1)
  kinds+=(postgresql)
else
  echo "bench-store: PostgreSQL skipped: postgresql-15 is not installed" >&2
fi

for kind in "${kinds[@]}"; do
  for workers in 1 2 4; do
    if [ "$kind" = sqlite ]; then
      store="sqlite:$scratch/jobs-$workers.db"
    else
      store=$pg_uri
    fi
    figures[$kind-$workers]=$(measure "$store" "bench-$workers" "$workers")
  done
done

printf '\njob store: %d jobs, each worker process with 4 workers (jobs/s, higher is better)\n' "$jobs"
printf '%-12s %10s %10s %10s\n' store "1 process" "2" "4"
for kind in "${kinds[@]}"; do
  printf '%-12s %10s %10s %10s\n' "$kind" "${figures[$kind-1]}" "${figures[$kind-2]}" "${figures[$kind-4]}"
done

{
  printf '{"jobs": %d' "$jobs"
  for kind in "${kinds[@]}"; do
    printf ', "%s": {"1": %s, "2": %s, "4": %s}' "$kind" "${figures[$kind-1]}" "${figures[$kind-2]}" \
      "${figures[$kind-4]}"
  done
  printf '}\n'
} > "$results"
