#!/usr/bin/env bash
# bench-store.sh SLUICE_RUN RESULTS.json [JOBS] [ROUNDS]: the durable job
# store (issues 16 and 27).
#
# 1. Sluice against graphile-worker on one throw-away PostgreSQL, at
#    concurrency 1 and 4: each drain enqueues JOBS no-op jobs, then times
#    one worker process draining them (Sluice: `sluice-run worker --workers
#    C --until-empty`, wall time from start to exit; graphile-worker:
#    tests/bench/graphile/drain.js, from its run() to the last completion,
#    its start-up not counted). CPU per job = the worker process's CPU
#    plus the PostgreSQL server's (its backends, measured through the
#    postmaster's children) during the drain, over JOBS. Medians of ROUNDS
#    rounds, the two alternating, and the ratios of the medians. Before each
#    PostgreSQL drain the database is vacuumed, so that the dead rows of
#    one drain are not an autovacuum counted in the next.
# 2. SQLite, concurrency 1 and 4, the same drains.
# 3. Scaling across processes (docs/job-store.md): 1, 2 and 4 worker processes
#    on one store, each with 4 workers, JOBS / 10 jobs.
#
# graphile-worker is installed with npm into tests/bench/graphile (git-
# ignored) the first time; without node and npm it is skipped with a
# message. A throw-away PostgreSQL comes from tests/pg-server.sh (skipped
# with a message when its packages are missing).
set -euo pipefail

run=$1
results=$2
jobs=${3:-20000}
rounds=${4:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
graphile="$here/bench/graphile"
scratch=$(mktemp -d /tmp/sluice-bench-store.XXXXXX)
pg_dir=""
ticks=$(getconf CLK_TCK)

cleanup () {
  if [ -n "$pg_dir" ]; then
    "$here/pg-server.sh" stop "$pg_dir" >/dev/null 2>&1 || true
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT

now () { date +%s.%N; }

# The server's CPU so far, in µs: the postmaster's own and its reaped
# children's (backends that ended), plus the live children's.
pg_cpu_us () {
  local pid total=0
  pid=$(head -n 1 "$pg_dir/data/postmaster.pid")
  total=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pid/stat")
  for child in $(pgrep -P "$pid"); do
    total=$((total + $(awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null || echo 0)))
  done
  echo $((total * 1000000 / ticks))
}

# Before each PostgreSQL drain: the dead rows of the drains before it
# vacuumed now, so that an autovacuum of one peer's tables is not counted
# in the next peer's drain (the server's CPU is the postmaster's children).
settle_pg () {
  [ -n "$pg_uri" ] && psql "$pg_uri" -qXc 'VACUUM' >/dev/null 2>&1 || true
}

median () { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# sluice_drain STORE TENANT CONCURRENCY: "jobs/s cpu_us_per_job"
sluice_drain () {
  local store=$1 tenant=$2 c=$3 pg_before=0 pg_after=0 times
  "$run" enqueue --store "$store" --tenant "$tenant" --count "$jobs" --behaviour ok \
    --key-prefix "$tenant" >/dev/null
  [[ $store == postgresql* ]] && settle_pg
  [ -n "$pg_dir" ] && [[ $store == postgresql* ]] && pg_before=$(pg_cpu_us)
  /usr/bin/time -f '%e %U %S' -o "$scratch/time" \
    "$run" worker --store "$store" --tenant "$tenant" --workers "$c" --until-empty >/dev/null 2>&1
  [ -n "$pg_dir" ] && [[ $store == postgresql* ]] && pg_after=$(pg_cpu_us)
  times=$(tail -n 1 "$scratch/time")
  awk -v n="$jobs" -v t="$times" -v pg=$((pg_after - pg_before)) 'BEGIN {
    split(t, f, " "); printf "%.0f %.0f", n / f[1], ((f[2] + f[3]) * 1e6 + pg) / n }'
}

# graphile_drain CONCURRENCY: "jobs/s cpu_us_per_job"
graphile_drain () {
  local c=$1 pg_before pg_after out
  node "$graphile/drain.js" enqueue "$pg_uri" "$jobs" "$c" >/dev/null
  settle_pg
  pg_before=$(pg_cpu_us)
  out=$(node "$graphile/drain.js" drain "$pg_uri" "$jobs" "$c")
  pg_after=$(pg_cpu_us)
  echo "$out" | python3 -c "import json, sys; r = json.load(sys.stdin); \
print('%.0f %.0f' % ($jobs / r['seconds'], (r['cpu_us'] + $((pg_after - pg_before))) / $jobs))"
}

# measure_processes STORE TENANT PROCESSES: jobs/s of several processes
measure_processes () {
  local store=$1 tenant=$2 workers=$3 n=$((jobs / 10)) start end pids=()

  "$run" enqueue --store "$store" --tenant "$tenant" --count "$n" --behaviour ok \
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
  awk -v n="$n" -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", n / (b - a) }'
}

kinds=(sqlite)
pg_uri=""
if [ -x /usr/lib/postgresql/15/bin/initdb ]; then
  # A folder of its own: the server runs as another user when this is root.
  pg_dir=$(mktemp -d /tmp/sluice-bench-pg.XXXXXX)
  pg_uri=$("$here/pg-server.sh" start "$pg_dir" 2>/dev/null | tail -n 1)
  kinds+=(postgresql)
else
  echo "bench-store: PostgreSQL skipped: postgresql-15 is not installed" >&2
fi

have_graphile=0
if [ -n "$pg_uri" ] && command -v node >/dev/null && command -v npm >/dev/null; then
  if [ ! -d "$graphile/node_modules/graphile-worker" ]; then
    (cd "$graphile" && npm install --no-audit --no-fund --silent >/dev/null 2>&1) || true
  fi
  [ -d "$graphile/node_modules/graphile-worker" ] && have_graphile=1
fi
[ "$have_graphile" = 1 ] || echo "bench-store: graphile-worker skipped: no node/npm or no PostgreSQL" >&2

declare -A rate cpu
peers=(sluice-sqlite)
[ -n "$pg_uri" ] && peers+=(sluice-pg)
[ "$have_graphile" = 1 ] && peers+=(graphile)
for c in 1 4; do
  for peer in "${peers[@]}"; do
    rate[$peer-$c]=""
    cpu[$peer-$c]=""
  done
  for ((r = 1; r <= rounds; r++)); do
    for peer in "${peers[@]}"; do
      case $peer in
        sluice-sqlite) figures=$(sluice_drain "sqlite:$scratch/drain-$c-$r.db" "d$c-$r" "$c") ;;
        sluice-pg) figures=$(sluice_drain "$pg_uri" "d$c-$r" "$c") ;;
        graphile) figures=$(graphile_drain "$c") ;;
      esac
      rate[$peer-$c]+=" ${figures% *}"
      cpu[$peer-$c]+=" ${figures#* }"
    done
  done
done

declare -A med
for key in "${!rate[@]}"; do
  # shellcheck disable=SC2086
  med[rate-$key]=$(median ${rate[$key]})
  # shellcheck disable=SC2086
  med[cpu-$key]=$(median ${cpu[$key]})
done

printf '\njob store: %d no-op jobs per drain, one worker process, medians of %d rounds\n' "$jobs" "$rounds"
printf '%-22s %12s %12s %14s %14s\n' "" "jobs/s c=1" "jobs/s c=4" "CPU µs/job c=1" "CPU µs/job c=4"
for peer in "${peers[@]}"; do
  printf '%-22s %12s %12s %14s %14s\n' "$peer" "${med[rate-$peer-1]}" "${med[rate-$peer-4]}" \
    "${med[cpu-$peer-1]}" "${med[cpu-$peer-4]}"
done
if [ "$have_graphile" = 1 ]; then
  ratio () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
  printf '%-22s %11s× %11s× %13s× %13s×\n' "sluice-pg / graphile" \
    "$(ratio "${med[rate-sluice-pg-1]}" "${med[rate-graphile-1]}")" \
    "$(ratio "${med[rate-sluice-pg-4]}" "${med[rate-graphile-4]}")" \
    "$(ratio "${med[cpu-sluice-pg-1]}" "${med[cpu-graphile-1]}")" \
    "$(ratio "${med[cpu-sluice-pg-4]}" "${med[cpu-graphile-4]}")"
fi

declare -A scaling
for kind in "${kinds[@]}"; do
  for workers in 1 2 4; do
    if [ "$kind" = sqlite ]; then
      store="sqlite:$scratch/jobs-$workers.db"
    else
      store=$pg_uri
    fi
    scaling[$kind-$workers]=$(measure_processes "$store" "bench-$workers" "$workers")
  done
done

printf '\njob store: %d jobs, worker processes with 4 workers each (jobs/s, higher is better)\n' $((jobs / 10))
printf '%-12s %10s %10s %10s\n' store "1 process" "2" "4"
for kind in "${kinds[@]}"; do
  printf '%-12s %10s %10s %10s\n' "$kind" "${scaling[$kind-1]}" "${scaling[$kind-2]}" "${scaling[$kind-4]}"
done

{
  printf '{"jobs": %d, "rounds": %d, "drains": {' "$jobs" "$rounds"
  sep=""
  for peer in "${peers[@]}"; do
    printf '%s"%s": {"jobs_per_s": {"1": %s, "4": %s}, "cpu_us_per_job": {"1": %s, "4": %s}}' "$sep" "$peer" \
      "${med[rate-$peer-1]}" "${med[rate-$peer-4]}" "${med[cpu-$peer-1]}" "${med[cpu-$peer-4]}"
    sep=", "
  done
  printf '}, "processes": {'
  sep=""
  for kind in "${kinds[@]}"; do
    printf '%s"%s": {"1": %s, "2": %s, "4": %s}' "$sep" "$kind" "${scaling[$kind-1]}" "${scaling[$kind-2]}" \
      "${scaling[$kind-4]}"
    sep=", "
  done
  printf '}}\n'
} > "$results"
