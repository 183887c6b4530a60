#!/usr/bin/env bash
# reports.sh SLUICE_RUN OUTDIR: the `--clock virtual --json` report (and
# the standard error and exit status) of every preset and every
# tests/scenarios/*.pool, one file each in OUTDIR. A change meant to be
# only faster (issue 29) leaves them byte-identical:
#
#   tests/bench/reports.sh build-bench/src/cli/sluice-run /tmp/before   # at the old commit
#   tests/bench/reports.sh build-bench/src/cli/sluice-run /tmp/after    # with the change
#   diff -r /tmp/before /tmp/after
set -euo pipefail
bin=$(realpath "$1")
out=$2
mkdir -p "$out"
cd "$(dirname "$0")/../.."
for f in data/presets/*.pool tests/scenarios/*.pool; do
  name=$(echo "$f" | tr / _)
  status=0
  timeout 120 "$bin" "$f" --clock virtual --json >"$out/$name.json" 2>"$out/$name.err" || status=$?
  echo "exit $status" >>"$out/$name.json"
done
