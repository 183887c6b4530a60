#!/usr/bin/env bash
# Checks every data/lessons/*.pool (docs/teaching.md, "Lessons"):
# - the file has [scenario] title and description and a [lesson] group (the
#   last group) with order, question, choices, answer, reveal, moment and
#   explain, and the German and Indonesian translation of every text;
# - choices has 2 to 5 choices, each translation as many, none empty;
#   answer names one of them; moment is "SECONDS [item N|worker N|lead|queue]"
#   and lies within the run;
# - the orders are 1..N, each once; every next names a lesson, the one of
#   the following order, and the chain from lesson 1 visits every lesson
#   once; the last lesson has no next;
# - sluice-run loads and runs the lesson (on the virtual clock, but for the
#   lessons whose handler uses block or thread, which need real time): exit
#   status 0, nothing left alive, and its reveal holds. Once sluice-run
#   knows [lesson], the report's lesson.held must be true and lesson.answer
#   the file's answer; the script also checks the reveal itself, so a
#   sluice-run without [lesson] support is checked by running the scenario
#   with the group removed.
#
# Usage: SLUICE_RUN=build/src/cli/sluice-run tests/check-lessons.sh [DIR]
# Exits 1 on any failure. Needs bash and python3 (standard library only).
set -u
here=$(cd "$(dirname "$0")" && pwd)
SLUICE_RUN=${SLUICE_RUN:-$here/../build/src/cli/sluice-run}
if [ ! -x "$SLUICE_RUN" ]; then
  echo "check-lessons: sluice-run not found at $SLUICE_RUN (set SLUICE_RUN)" >&2
  exit 1
fi
export SLUICE_RUN
exec python3 - "${1:-$here/../data/lessons}" <<'PY'
import json, os, re, subprocess, sys, tempfile

lessons_dir = sys.argv[1]
run = os.environ["SLUICE_RUN"]
LANGS = ("de", "id")
TEXT_KEYS = {"scenario": ("title", "description"), "lesson": ("question", "choices", "explain")}
LESSON_KEYS = ("order", "question", "choices", "answer", "reveal", "moment", "explain")
MOMENT = re.compile(r"^(\d+(?:\.\d+)?)(?:\s+(?:(item|worker)\s+(\d+)|(lead|queue)))?$")
# Real-clock runs on a loaded machine may be late; they get a few tries.
REAL_TRIES = 3


def read_keyfile(path):
    """The groups of a GKeyFile in order, each a dict of raw values, and the
    line each group starts on."""
    groups, starts, current = {}, {}, None
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if stripped.startswith("[") and stripped.endswith("]"):
                current = stripped[1:-1]
                if current in groups:
                    raise ValueError(f"line {number}: group [{current}] twice")
                groups[current], starts[current] = {}, number
                continue
            if current is None or "=" not in line:
                raise ValueError(f"line {number}: not a key=value line in a group")
            key, value = line.split("=", 1)
            key = key.strip()
            if key in groups[current]:
                raise ValueError(f"line {number}: [{current}] {key} twice")
            groups[current][key] = value.lstrip()
    return groups, starts


def split_choices(text):
    parts = [p.strip() for p in text.split(";")]
    if parts and parts[-1] == "" and len(parts) > 1:
        parts.pop()  # GKeyFile's trailing list separator
    return parts


def split_conditions(text):
    """reveal's PATH=JSON parts, split at the ';' outside JSON values."""
    parts, start, depth, in_string, i = [], 0, 0, False, 0
    while i <= len(text):
        c = text[i] if i < len(text) else ""
        if c == "" or (c == ";" and not in_string and depth == 0):
            parts.append(text[start:i].strip())
            start = i + 1
        elif in_string and c == "\\":
            i += 1
        elif c == '"':
            in_string = not in_string
        elif not in_string and c in "[{":
            depth += 1
        elif not in_string and c in "]}" and depth > 0:
            depth -= 1
        i += 1
    return parts


def lookup(node, path):
    for segment in path.split("."):
        if isinstance(node, dict) and segment in node:
            node = node[segment]
        elif isinstance(node, list) and segment.isdigit() and int(segment) < len(node):
            node = node[int(segment)]
        else:
            return None, False
    return node, True


def same(a, b):
    """JSON equality where 3 and 3.0 are one number (as sluice-run checks)."""
    numbers = (int, float)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, numbers) and isinstance(b, numbers):
        return float(a) == float(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def check_reveal(reveal, report):
    """(held, shown): whether every condition holds, and what the run showed."""
    held, shown = True, []
    for part in split_conditions(reveal):
        path, _, value = part.partition("=")
        expected = json.loads(value)
        actual, found = lookup(report, path.strip())
        held = held and found and same(actual, expected)
        shown.append(f"{path.strip()}={json.dumps(actual) if found else '(absent)'}")
    return held, "; ".join(shown)


def check_texts(groups, problems):
    for group, keys in TEXT_KEYS.items():
        for key in keys:
            base = groups.get(group, {}).get(key)
            if base is None or not base.strip():
                problems.append(f"[{group}] {key} is missing or empty")
                continue
            for lang in LANGS:
                translated = groups[group].get(f"{key}[{lang}]")
                if translated is None or not translated.strip():
                    problems.append(f"[{group}] {key}[{lang}] is missing or empty")
                elif key != "choices" and translated == base:
                    problems.append(f"[{group}] {key}[{lang}] is not translated (same as {key})")


def check_lesson_group(name, groups, starts, problems):
    lesson = groups.get("lesson")
    if lesson is None:
        problems.append("no [lesson] group")
        return None
    if max(starts, key=starts.get) != "lesson":
        problems.append("[lesson] is not the last group")
    missing = [key for key in LESSON_KEYS if key not in lesson]
    for key in missing:
        problems.append(f"[lesson] {key} is missing")
    if missing:
        return None
    info = {"name": name, "next": lesson.get("next", "").strip() or None}
    try:
        info["order"] = int(lesson["order"])
    except ValueError:
        problems.append(f"[lesson] order {lesson['order']!r} is not an integer")
        return None
    choices = split_choices(lesson["choices"])
    if not 2 <= len(choices) <= 5 or "" in choices:
        problems.append(f"[lesson] choices: {len(choices)} choices (expected 2 to 5, none empty)")
    for lang in LANGS:
        translated = split_choices(lesson.get(f"choices[{lang}]", ""))
        if len(translated) != len(choices) or "" in translated:
            problems.append(f"[lesson] choices[{lang}]: {len(translated)} choices, choices has {len(choices)}")
    try:
        info["answer"] = int(lesson["answer"])
        if not 1 <= info["answer"] <= len(choices):
            problems.append(f"[lesson] answer {info['answer']} is not one of the {len(choices)} choices")
    except ValueError:
        problems.append(f"[lesson] answer {lesson['answer']!r} is not an integer")
    info["reveal"] = lesson["reveal"]
    try:
        for part in split_conditions(lesson["reveal"]):
            path, equals, value = part.partition("=")
            if not equals or not path.strip():
                raise ValueError(f"{part!r} is not PATH=JSON")
            json.loads(value)
    except ValueError as error:
        problems.append(f"[lesson] reveal: {error}")
    match = MOMENT.match(lesson["moment"].strip())
    if match is None:
        problems.append(f"[lesson] moment {lesson['moment']!r} is not SECONDS [item N|worker N|lead|queue]")
    else:
        info["moment"] = (float(match.group(1)), match.group(2), match.group(3))
    return info


def needs_real_time(groups):
    handler = groups.get("handler", {})
    return any(re.search(r"\b(block|thread)\b", value)
               for key, value in handler.items() if key in ("default", "mix") or key.startswith("item."))


def strip_lesson(path):
    """A copy of @path without its [lesson] group (the last one)."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    cut = re.search(r"^\[lesson\]\s*$", text, re.M)
    handle = tempfile.NamedTemporaryFile("w", suffix=".pool", delete=False, encoding="utf-8")
    handle.write(text[:cut.start()] if cut else text)
    handle.close()
    return handle.name


def run_lesson(path, real):
    """(report, note, problems) of one run of the lesson."""
    argv = [run, "--json"] + ([] if real else ["--clock", "virtual"])
    p = subprocess.run(argv + [path], capture_output=True, timeout=120)
    note = ""
    stderr = p.stderr.decode(errors="replace")
    if p.returncode == 2 and "[lesson]: unknown group" in stderr:
        # This sluice-run predates [lesson]: run the scenario alone.
        stripped = strip_lesson(path)
        try:
            p = subprocess.run(argv + [stripped], capture_output=True, timeout=120)
        finally:
            os.unlink(stripped)
        stderr = p.stderr.decode(errors="replace")
        note = " (sluice-run has no [lesson] yet: ran the scenario alone)"
    if p.returncode != 0:
        return None, note, [f"exit status {p.returncode}: {stderr.strip()[-800:]}"]
    try:
        return json.loads(p.stdout), note, []
    except ValueError:
        return None, note, ["no JSON report"]


def check_run(path, groups, info, problems):
    real = needs_real_time(groups)
    for attempt in range(REAL_TRIES if real else 1):
        report, note, run_problems = run_lesson(path, real)
        if run_problems:
            problems.extend(run_problems)
            return ""
        held, shown = check_reveal(info["reveal"], report)
        if held:
            break
    clock = "real" if real else "virtual"
    if report.get("live_operations") != 0:
        problems.append(f"live_operations = {report.get('live_operations')!r}")
    if not held:
        problems.append(f"reveal does not hold on the {clock} clock: expected {info['reveal']}, the run showed {shown}")
    lesson = report.get("lesson")
    if lesson is not None:
        if lesson.get("held") is not True:
            problems.append(f"the report's lesson.held is {lesson.get('held')!r}")
        if lesson.get("answer") != info["answer"]:
            problems.append(f"the report's lesson.answer is {lesson.get('answer')!r}, the file says {info['answer']}")
    elif not note:
        problems.append("the report has no lesson")
    if "moment" in info:
        seconds, kind, index = info["moment"]
        if seconds > report.get("elapsed", 0) + 1e-6 and not real:
            problems.append(f"moment {seconds} s is after the run's end ({report.get('elapsed')} s)")
        if kind == "worker" and int(index) >= int(groups["pool"]["workers"]):
            problems.append(f"moment names worker {index}; workers are 0..{int(groups['pool']['workers']) - 1}")
        if kind == "item" and index not in report.get("attempts", {}):
            problems.append(f"moment names item {index}, which the handler never ran")
    return f"{clock} clock{note}"


def check_chain(lessons):
    """Problems of the orders and the next chain, as strings."""
    problems = []
    by_name = {info["name"]: info for info in lessons}
    orders = sorted(info["order"] for info in lessons)
    if orders != list(range(1, len(lessons) + 1)):
        problems.append(f"orders are {orders}, expected 1..{len(lessons)} each once")
    for info in lessons:
        nxt = info["next"]
        if nxt is None:
            continue
        if nxt not in by_name:
            problems.append(f"{info['name']}: next={nxt} names no lesson")
        elif by_name[nxt]["order"] != info["order"] + 1:
            problems.append(f"{info['name']} (order {info['order']}): next={nxt} has order {by_name[nxt]['order']}")
    firsts = [info for info in lessons if info["order"] == 1]
    if firsts:
        seen, info = [], firsts[0]
        while info is not None and info["name"] not in seen:
            seen.append(info["name"])
            info = by_name.get(info["next"]) if info["next"] else None
        if info is not None:
            problems.append(f"the next chain loops back to {info['name']}")
        missed = sorted(set(by_name) - set(seen))
        if missed:
            problems.append("the next chain from lesson 1 misses " + ", ".join(missed))
    return problems


failures = 0
names = sorted(f for f in os.listdir(lessons_dir) if f.endswith(".pool"))
if len(names) < 12:
    print(f"FAIL only {len(names)} lessons in {lessons_dir}; docs/teaching.md asks for at least twelve")
    failures += 1
lessons = []
for f in names:
    path = os.path.join(lessons_dir, f)
    problems = []
    try:
        groups, starts = read_keyfile(path)
    except (ValueError, UnicodeDecodeError) as error:
        print(f"FAIL {f}: {error}")
        failures += 1
        continue
    check_texts(groups, problems)
    info = check_lesson_group(f[:-len(".pool")], groups, starts, problems)
    how = ""
    if info is not None:
        lessons.append(info)
        how = check_run(path, groups, info, problems)
    if problems:
        failures += 1
        print(f"FAIL {f}:\n    " + "\n    ".join(problems))
    else:
        print(f"ok   {f} (order {info['order']}, {how}): {info['reveal']}")

for problem in check_chain(lessons):
    failures += 1
    print(f"FAIL {problem}")

print(f"{len(names)} lessons, {failures} problems")
sys.exit(1 if failures else 0)
PY
