#!/usr/bin/env bash
# Runs every data/presets/*.pool through sluice-run --json and checks that it
# exits 0 and that live_operations is 0. Presets that use `block` or `thread`
# need real time and run as they are; every other preset runs with
# --clock virtual, so the whole set takes well under a second.
#
# Usage: SLUICE_RUN=build/src/cli/sluice-run tests/check-presets.sh
# Exits 1 on any failure. Needs bash and python3 (standard library only).
set -u
here=$(cd "$(dirname "$0")" && pwd)
SLUICE_RUN=${SLUICE_RUN:-$here/../build/src/cli/sluice-run}
if [ ! -x "$SLUICE_RUN" ]; then
  echo "check-presets: sluice-run not found at $SLUICE_RUN (set SLUICE_RUN)" >&2
  exit 1
fi
export SLUICE_RUN
exec python3 - "$here/../data/presets" <<'PY'
import json, os, re, subprocess, sys

presets = sys.argv[1]
run = os.environ["SLUICE_RUN"]
failures = 0
names = sorted(f for f in os.listdir(presets) if f.endswith(".pool"))
if not names:
    print(f"no presets in {presets}")
    sys.exit(1)
real_only = re.compile(r"^\s*(default|item\.\d+)\s*=\s*(block|thread)\b", re.M)

for f in names:
    path = os.path.join(presets, f)
    with open(path, encoding="utf-8", errors="replace") as fh:
        text = fh.read()
    argv = [run, path, "--json"]
    # `mix` entries can name block/thread too: "mix=…, 10% block 0.1".
    needs_real = real_only.search(text) or re.search(r"^\s*mix\s*=.*\b(block|thread)\b", text, re.M)
    if not needs_real:
        argv += ["--clock", "virtual"]
    try:
        p = subprocess.run(argv, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        failures += 1
        print(f"FAIL {f}: timed out")
        continue
    problems = []
    report = {}
    if p.returncode != 0:
        problems.append(f"exit status {p.returncode}")
    try:
        report = json.loads(p.stdout)
    except ValueError:
        problems.append("no JSON report")
    if report and report.get("live_operations") != 0:
        problems.append(f"live_operations = {report.get('live_operations')!r}")
    clock = "real" if needs_real else "virtual"
    if problems:
        failures += 1
        print(f"FAIL {f} ({clock}): " + "; ".join(problems))
        err = p.stderr.decode(errors="replace").strip()
        if err:
            print("    stderr: " + err[-1000:])
    else:
        print(f"ok   {f} ({clock}): outcome {report.get('outcome')}, "
              f"{len(report.get('results', []))} results, elapsed {report.get('elapsed')}")

print(f"{len(names) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
PY
