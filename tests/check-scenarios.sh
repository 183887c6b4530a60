#!/usr/bin/env bash
# Runs every tests/scenarios/*.pool through sluice-run and compares the report
# with NAME.expected.json: every key present in the expected file must match
# exactly (lists in order, objects key by key; `elapsed` to the microsecond).
# An expected file {"_exit_status": N} (N != 0) asserts that sluice-run exits
# with N, prints nothing on standard output and says why on standard error.
# Then every tests/scenarios/bad/*.pool must exit 2 with a message on standard
# error that names the file.
#
# Usage: SLUICE_RUN=build/src/cli/sluice-run tests/check-scenarios.sh [NAME…]
# Exits 1 on any mismatch. Needs bash and python3 (standard library only).
set -u
here=$(cd "$(dirname "$0")" && pwd)
SLUICE_RUN=${SLUICE_RUN:-$here/../build/src/cli/sluice-run}
if [ ! -x "$SLUICE_RUN" ]; then
  echo "check-scenarios: sluice-run not found at $SLUICE_RUN (set SLUICE_RUN)" >&2
  exit 1
fi
export SLUICE_RUN
exec python3 - "$here/scenarios" "$@" <<'PY'
import json, os, subprocess, sys

scen_dir = sys.argv[1]
only = set(sys.argv[2:])
run = os.environ["SLUICE_RUN"]
TIMEOUT = 60
failures = 0
checked = 0


def same(expected, got):
    """Exact equality that does not confuse true with 1 or a list with a tuple."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(expected) is type(got) and expected == got
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        return expected == got
    if isinstance(expected, list) and isinstance(got, list):
        return len(expected) == len(got) and all(same(a, b) for a, b in zip(expected, got))
    if isinstance(expected, dict) and isinstance(got, dict):
        return expected.keys() == got.keys() and all(same(expected[k], got[k]) for k in expected)
    return type(expected) is type(got) and expected == got


def diff(key, expected, got):
    lines = [f"    {key}:", f"      expected: {json.dumps(expected)}", f"      actual:   {json.dumps(got)}"]
    if isinstance(expected, dict) and isinstance(got, dict):
        for k in sorted(set(expected) | set(got)):
            if k not in got:
                lines.append(f"      - {k!r} missing (expected {json.dumps(expected[k])})")
            elif k not in expected:
                lines.append(f"      + {k!r} unexpected ({json.dumps(got[k])})")
            elif not same(expected[k], got[k]):
                lines.append(f"      ~ {k!r}: expected {json.dumps(expected[k])}, actual {json.dumps(got[k])}")
    elif isinstance(expected, list) and isinstance(got, list):
        for i, (a, b) in enumerate(zip(expected, got)):
            if not same(a, b):
                lines.append(f"      first difference at [{i}]: expected {json.dumps(a)}, actual {json.dumps(b)}")
                break
        else:
            if len(expected) != len(got):
                lines.append(f"      length: expected {len(expected)}, actual {len(got)}")
    return "\n".join(lines)


def run_file(path):
    try:
        p = subprocess.run([run, path, "--json"], capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, b"", b"timed out after %d s" % TIMEOUT
    return p.returncode, p.stdout, p.stderr


def matches(expected, status, out):
    """Whether a run gave every expected key (for the retry below)."""
    if status != 0:
        return False
    try:
        report = json.loads(out)
    except ValueError:
        return False
    for key, want in expected.items():
        if key.startswith("_"):
            continue
        if key not in report:
            return False
        got = report[key]
        if key == "elapsed" and isinstance(got, (int, float)) and not isinstance(got, bool):
            if abs(got - want) >= 5e-7:
                return False
        elif not same(want, got):
            return False
    return True


names = sorted(f[:-5] for f in os.listdir(scen_dir) if f.endswith(".pool"))
if only:
    names = [n for n in names if n in only]

for name in names:
    pool = os.path.join(scen_dir, name + ".pool")
    exp_path = os.path.join(scen_dir, name + ".expected.json")
    if not os.path.exists(exp_path):
        print(f"FAIL {name}: no {name}.expected.json")
        failures += 1
        continue
    with open(exp_path) as f:
        expected = json.load(f)
    # "_timing_sensitive": the scenario measures real time to the
    # millisecond, which a run under valgrind (SLUICE_SLOW_RUNS=1) cannot.
    if expected.get("_timing_sensitive") and os.environ.get("SLUICE_SLOW_RUNS") == "1":
        print(f"skip {name}: timing-sensitive, and runs are slow here")
        continue
    checked += 1
    status, out, err = run_file(pool)
    # A real-clock scenario judged to the millisecond (the spec's 1 ms
    # overrun slack) can miss on a machine busy with other work: up to
    # two more runs, and the note says so. A wrong engine misses every time.
    for attempt in (2, 3):
        if not expected.get("_timing_sensitive") or matches(expected, status, out):
            break
        print(f"note {name}: run {attempt - 1} missed by real time; running it again")
        status, out, err = run_file(pool)
    want_status = expected.get("_exit_status", 0)
    if want_status != 0:
        problems = []
        if status != want_status:
            problems.append(f"exit status {status}, expected {want_status}")
        if out.strip():
            problems.append("printed a report on standard output")
        if not err.strip():
            problems.append("said nothing on standard error")
        if problems:
            failures += 1
            print(f"FAIL {name}: " + "; ".join(problems))
            if err.strip():
                print("    stderr: " + err.decode(errors="replace").strip().splitlines()[-1])
        else:
            print(f"ok   {name} (exit {status}: {err.decode(errors='replace').strip().splitlines()[-1]})")
        continue
    if status != 0:
        failures += 1
        print(f"FAIL {name}: exit status {status}")
        print("    stderr: " + err.decode(errors="replace").strip()[-2000:])
        continue
    try:
        report = json.loads(out)
    except ValueError as e:
        failures += 1
        print(f"FAIL {name}: standard output is not one JSON object ({e})")
        continue
    bad = []
    for key, want in expected.items():
        if key.startswith("_"):
            continue
        if key not in report:
            bad.append(f"    {key}: missing from the report (expected {json.dumps(want)})")
            continue
        got = report[key]
        if key == "elapsed" and isinstance(got, (int, float)) and not isinstance(got, bool):
            ok = abs(got - want) < 5e-7  # the report is rounded to 1 µs
        else:
            ok = same(want, got)
        if not ok:
            bad.append(diff(key, want, got))
    if bad:
        failures += 1
        print(f"FAIL {name}")
        print("\n".join(bad))
    else:
        print(f"ok   {name}")

bad_dir = os.path.join(scen_dir, "bad")
bad_names = sorted(f for f in os.listdir(bad_dir) if f.endswith(".pool")) if os.path.isdir(bad_dir) else []
if only:
    bad_names = [n for n in bad_names if n[:-5] in only or "bad/" + n[:-5] in only]
for f in bad_names:
    checked += 1
    path = os.path.join(bad_dir, f)
    status, out, err = run_file(path)
    text = err.decode(errors="replace")
    problems = []
    if status != 2:
        problems.append(f"exit status {status}, expected 2")
    if f not in text:
        problems.append(f"standard error does not name {f}")
    if out.strip():
        problems.append("printed something on standard output")
    first = text.strip().splitlines()[0] if text.strip() else "(nothing on stderr)"
    if problems:
        failures += 1
        print(f"FAIL bad/{f}: " + "; ".join(problems))
        print(f"    stderr: {first}")
    else:
        print(f"ok   bad/{f}: {first}")

print(f"{checked - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
PY
