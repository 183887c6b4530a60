#!/usr/bin/python3
# check-window-a11y.py: the real app driven as a screen reader (or a
# person with one) would: through its accessibility tree on AT-SPI, by the
# names the controls read as. Run, let it end, Reset, Run again; a lesson's
# choice, Run to Find Out, the verdict, Next Lesson. Every run must end and
# every view must show the current run. The store window: its pages as
# tabs, the Jobs list, Pause and Resume of a tenant (the store says so).
#
# tests/check-window-a11y.sh starts it on a session bus with the
# accessibility bus, under Xvfb; GSK_RENDERER says which renderer.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import json
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

APP = os.environ["SLUICE_APP"]
# A person's patience: a run of these presets takes well under a second
# at its speed; stalled runs never ended.
RUN_LIMIT_S = 30
failures = 0


def fail(message):
    global failures
    failures += 1
    print("not ok: " + message, flush=True)


def ok(message):
    print("ok: " + message, flush=True)


def walk(node, into_buttons=True):
    """Every accessible under node, depth first, as it is now (what AT-SPI
    cached of it may be from before the window was built); without
    into_buttons, not what is inside a button (a lesson card's texts)."""
    try:
        node.clear_cache()
    except Exception:
        pass
    stack = [node]
    while stack:
        current = stack.pop()
        if current is None:
            continue
        yield current
        try:
            if not into_buttons and current is not node and current.get_role_name() == "push button":
                continue
            count = current.get_child_count()
        except Exception:
            continue
        for i in range(count - 1, -1, -1):
            try:
                stack.append(current.get_child_at_index(i))
            except Exception:
                pass


def fresh(node):
    """@node as it is now, not as AT-SPI cached it."""
    try:
        node.clear_cache()
    except Exception:
        pass
    return node


def enabled(node):
    try:
        return fresh(node).get_state_set().contains(Atspi.StateType.SENSITIVE)
    except Exception:
        return False


def text_of(node):
    try:
        return fresh(node).get_name() or ""
    except Exception:
        return ""


# GTK 4.8 says neither SHOWING nor what is on a stack's hidden page: the
# names below are unique in the window (the lesson gallery's cards are
# buttons named "Lesson N: …", and what is inside them is skipped).
def find(app, role, name, prefix=False):
    for node in walk(app, into_buttons=False):
        try:
            if node.get_role_name() == role and (node.get_name() == name or
                                                 (prefix and (node.get_name() or "").startswith(name))):
                return node
        except Exception:
            continue
    return None


def labels(app):
    texts = []
    for node in walk(app, into_buttons=False):
        try:
            if node.get_role_name() == "label":
                texts.append(node.get_name())
        except Exception:
            continue
    return texts


class Window:
    """The nodes a person reads and presses, found once: their names and
    states are read fresh each time."""

    def __init__(self, app):
        self.app = app
        self.counters = {}
        self.banner = None
        for node in walk(app, into_buttons=False):
            try:
                role, name = node.get_role_name(), node.get_name() or ""
            except Exception:
                continue
            match = re.fullmatch(r"\d+(?: of \d+)? (Pulled|Succeeded|Failed)", name)
            if role == "label" and match:
                self.counters[match.group(1)] = node
            elif role == "label" and name.startswith("Ready:"):
                self.banner = node
        self.run = find(app, "push button", "Run")

    def counter(self, title):
        match = re.match(r"(\d+)", text_of(self.counters[title])) if title in self.counters else None
        return int(match.group(1)) if match else None

    def banner_text(self):
        return text_of(self.banner) if self.banner is not None else ""


def wait_for(predicate, limit_s, what):
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    fail("waited %d s for %s" % (limit_s, what))
    return None


def press(app, role, name, prefix=False):
    node = wait_for(lambda: find(app, role, name, prefix), 10, "a %s named %r" % (role, name))
    if node is None:
        return False
    if not wait_for(lambda: enabled(node), 10, "%r to be enabled" % name):
        return False
    node.get_action_iface().do_action(0)  # noqa: the 2.46 name
    return True


def choose(radio):
    """GTK 4.8 gives a check button no AT-SPI action and no focus call: as
    a person does, click it where it is."""
    extents = radio.get_component_iface().get_extents(Atspi.CoordType.SCREEN)
    Atspi.generate_mouse_event(extents.x + min(10, extents.width // 2), extents.y + extents.height // 2, "b1c")
    wait_for(lambda: fresh(radio).get_state_set().contains(Atspi.StateType.CHECKED), 5,
             "the choice %r to be checked" % text_of(radio))


def start(args, ready=("Run", "Run to Find Out")):
    process = subprocess.Popen([APP] + args)
    desktop = Atspi.get_desktop(0)

    def app():
        for i in range(desktop.get_child_count()):
            child = desktop.get_child_at_index(i)
            if child is not None and child.get_name() in ("sluice", "Sluice"):
                return child
        return None

    found = wait_for(app, 30, "the app on the accessibility bus")
    if found is not None:
        wait_for(lambda: any(find(found, "push button", name) for name in ready),
                 30, "the window's %s button" % " or ".join(ready))
    return process, found


def run_to_the_end(window, button):
    """Presses @button (Run, Run to Find Out) and waits until the run ended:
    Run can be pressed again and the banner says how it ended."""
    if not press(window.app, "push button", button):
        return False
    began = time.monotonic()
    ended = wait_for(lambda: enabled(window.run)
                     and re.match(r"(Finished|Ended|Cancelled|The caller)", window.banner_text()),
                     RUN_LIMIT_S, "the run to end")
    if ended:
        ok("%s: the run ended after %.1f s" % (button, time.monotonic() - began))
    return bool(ended)


def check_run_reset_run_again():
    process, app = start(["--preset", "retries"])
    if app is None:
        process.kill()
        return
    window = Window(app)
    first = None
    for i in range(5):
        if not run_to_the_end(window, "Run"):
            break
        state = (window.counter("Pulled"), window.counter("Succeeded"), window.counter("Failed"))
        if first is None:
            first = state
        elif state != first:
            fail("run %d ended as %r, run 1 as %r" % (i + 1, state, first))
        if not press(app, "push button", "Reset"):
            break
        if not wait_for(lambda: window.counter("Succeeded") == 0 and window.counter("Pulled") == 0, 10,
                        "Reset to clear the counters"):
            break
    if first is not None:
        if first != (8, 6, 2):
            fail("the retries preset ended as %r, expected 8 pulled, 6 succeeded, 2 failed" % (first,))
        else:
            ok("Run, Reset, Run again: every run ended as 8 pulled, 6 succeeded, 2 failed")
    process.terminate()
    process.wait(10)


def question(app):
    for text in labels(app):
        if text and text.endswith("?"):
            return text
    return None


def check_next_lesson():
    process, app = start(["--lesson", "completion-order"])
    if app is None:
        process.kill()
        return
    window = Window(app)
    for i in range(3):
        asked = question(app)
        radios = [n for n in walk(app, into_buttons=False) if n.get_role_name() == "radio button"]
        if len(radios) < 2:
            fail("lesson %d: its choices are not radio buttons (%d found)" % (i + 1, len(radios)))
            break
        choose(radios[0])
        if window.counter("Pulled") != 0:
            fail("lesson %d shows %r pulled before it ran" % (i + 1, window.counter("Pulled")))
        if not run_to_the_end(window, "Run to Find Out"):
            break
        # "Next Lesson: Backpressure: …": it names where it leads.
        if not wait_for(lambda: find(app, "push button", "Next Lesson", prefix=True), 15, "the verdict's Next Lesson"):
            break
        if not window.counter("Pulled"):
            fail("lesson %d: nothing pulled shown after its run" % (i + 1))
        press(app, "push button", "Next Lesson", prefix=True)
        if not wait_for(lambda: question(app) not in (None, asked), 10, "the next lesson's question"):
            break
        if not wait_for(lambda: window.counter("Pulled") == 0, 10, "the next lesson to show no run"):
            break
        ok("lesson %d: chose, ran, revealed; the next lesson shows nothing of it" % (i + 1))
    process.terminate()
    process.wait(10)


def store_status(uri):
    out = subprocess.run([os.environ["SLUICE_RUN"], "store", "status", "--store", uri, "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def paused_tenants(uri):
    status = store_status(uri)
    return [t.get("tenant") or t.get("name") for t in status.get("tenants", []) if t.get("paused")]


def check_store_window():
    """The store window as a person with a screen reader drives it: its
    pages are tabs named as they read, a tenant is paused and resumed
    through its row's buttons (the store says so), a job shows in Jobs."""
    folder = tempfile.mkdtemp(prefix="sluice-a11y-")
    uri = "sqlite:" + os.path.join(folder, "jobs.db")
    subprocess.run([os.environ["SLUICE_RUN"], "enqueue", "--store", uri, "--tenant", "mail", "--count", "3",
                    "--key-prefix", "send"], check=True, capture_output=True)
    process, app = start(["--store", uri], ready=("Back to Playground",))
    if app is None:
        process.kill()
        return
    for page in ("Overview", "Jobs", "Queues", "Workers", "Throughput"):
        if wait_for(lambda: find(app, "page tab", page), 10, "the store window's %s tab" % page) is None:
            process.kill()
            return
    press(app, "page tab", "Jobs")
    if wait_for(lambda: "send-2" in labels(app), 15, "the Jobs page to list send-2"):
        ok("store window: the Jobs page lists the enqueued jobs")
    press(app, "page tab", "Queues")
    if press(app, "push button", "Pause") and wait_for(lambda: "mail" in paused_tenants(uri), 15,
                                                       "the store to say mail is paused"):
        if press(app, "push button", "Resume") and wait_for(lambda: paused_tenants(uri) == [], 15,
                                                            "the store to say mail runs again"):
            ok("store window: Pause and Resume on the Queues page change the store")
    process.terminate()
    process.wait(10)


check_run_reset_run_again()
check_next_lesson()
check_store_window()
print("%s under %s" % ("FAILED" if failures else "passed", os.environ.get("GSK_RENDERER", "the default renderer")))
sys.exit(1 if failures else 0)
