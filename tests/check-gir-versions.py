#!/usr/bin/env python3
"""check-gir-versions.py: every public symbol of libsluice says when it came.

Reads Sluice-1.gir and fails on any documented part of the API (a type,
function, method, constructor, property, signal, virtual method, constant,
callback, enumeration or record) whose doc comment has no `Since:` (the
GIR's version attribute), or a `Since:` older than the first stable API,
1.0, or one that names no version that sluice-version-macros.h defines
(SLUICE_VERSION_x_y). Its declarations are marked SLUICE_AVAILABLE_IN_x_y
with the same version, which tests/check-exports.sh and the build check.

Usage: check-gir-versions.py SLUICE-1.GIR SLUICE-VERSION-MACROS.H
"""

import re
import sys
import xml.etree.ElementTree as ET

CORE = "{http://www.gtk.org/introspection/core/1.0}"
KINDS = ["class", "interface", "record", "enumeration", "bitfield", "callback", "constant",
         "function", "method", "constructor", "property", "signal", "virtual-method",
         "function-macro"]
GLIB = "{http://www.gtk.org/introspection/glib/1.0}"


def known_versions(macros_path):
    with open(macros_path, encoding="utf-8") as f:
        return {"%s.%s" % m for m in re.findall(r"#define SLUICE_VERSION_(\d+)_(\d+)\b", f.read())}


def name_of(element, parent):
    name = element.get("name") or element.get(GLIB + "name") or "?"
    if parent is not None and parent.get("name"):
        return "%s.%s" % (parent.get("name"), name)
    return name


def walk(element, parent=None):
    for child in element:
        tag = child.tag.replace(CORE, "").replace(GLIB, "glib:")
        if tag in KINDS or tag == "glib:signal":
            yield child, parent
        if tag in ("class", "interface", "record", "enumeration", "bitfield"):
            yield from walk(child, child)


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    versions = known_versions(sys.argv[2])
    namespace = ET.parse(sys.argv[1]).getroot().find(CORE + "namespace")
    problems = []
    for element, parent in walk(namespace):
        if element.get(GLIB + "is-gtype-struct-for"):
            continue  # the class struct of a final type: G_DECLARE_FINAL_TYPE's, not ours
        version = element.get("version")
        what = name_of(element, parent)
        if version is None:
            problems.append("%s: no Since: in its doc comment" % what)
        elif version not in versions:
            problems.append("%s: Since: %s, a version that sluice-version-macros.h does not define "
                            "(it has %s)" % (what, version, ", ".join(sorted(versions))))
    for line in problems:
        print(line)
    if problems:
        print("%d public symbol(s) without a valid Since:" % len(problems))
        return 1
    print("every public symbol says when it came")
    return 0


if __name__ == "__main__":
    sys.exit(main())
