#!/usr/bin/env bash
# Issue 12's deterministic playback: every preset played in the window at a
# speed (`sluice --preset NAME --speed S --export-events FILE.jsonl`: the
# paced clock, frames drawn) records exactly the events of
# `sluice-run PRESET --clock virtual --events FILE.jsonl`. Presets that use
# `block` or `thread` spend real time; they are only checked to finish and
# to export their events.
#
# Every preset at 10×, and the teaching presets also at 2×, where frames
# are drawn many times between two timers.
#
# Usage (under a display, e.g. xvfb-run -a):
#   SLUICE_APP=build/src/app/sluice SLUICE_RUN=build/src/cli/sluice-run tests/check-playback.sh
# Exits 1 on any difference.
set -u
here=$(cd "$(dirname "$0")" && pwd)
presets=${SLUICE_PRESETS_DIR:-$here/../data/presets}
for tool in "${SLUICE_APP:-}" "${SLUICE_RUN:-}"; do
  if [ ! -x "$tool" ]; then
    echo "check-playback: set SLUICE_APP and SLUICE_RUN to the built programs" >&2
    exit 1
  fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
slow_speed_presets=" first-look retries mix stop-after service-observed "

play () {
  local name=$1 speed=$2 want=$3
  local got="$tmp/$name-$speed.jsonl"

  if ! "$SLUICE_APP" --preset "$name" --speed "$speed" --export-events "$got" >"$tmp/app.log" 2>&1; then
    echo "not ok: $name at ${speed}×: the app failed"; sed 's/^/    /' "$tmp/app.log" | head -5
    status=1
    return
  fi
  if [ -z "$want" ]; then
    if [ -s "$got" ]; then echo "ok: $name at ${speed}× (real time: finished, events exported)"
    else echo "not ok: $name at ${speed}×: no events"; status=1; fi
    return
  fi
  if cmp -s "$want" "$got"; then
    echo "ok: $name at ${speed}×: $(wc -l <"$got") events, the same as sluice-run --clock virtual"
  else
    echo "not ok: $name at ${speed}×: its events differ from sluice-run --clock virtual"
    diff "$want" "$got" | head -6 | sed 's/^/    /'
    status=1
  fi
}

for path in "$presets"/*.pool; do
  name=$(basename "$path" .pool)
  want="$tmp/$name.want.jsonl"
  # A preset that needs real time refuses the virtual clock (exit 2).
  if ! "$SLUICE_RUN" "$path" --clock virtual --events "$want" >/dev/null 2>"$tmp/run.log"; then
    if grep -q "need real time" "$tmp/run.log"; then
      want=""
    else
      echo "not ok: $name: sluice-run --clock virtual failed"; sed 's/^/    /' "$tmp/run.log" | head -5
      status=1
      continue
    fi
  fi
  play "$name" 10 "$want"
  case "$slow_speed_presets" in
    *" $name "*) play "$name" 2 "$want" ;;
  esac
done

exit $status
