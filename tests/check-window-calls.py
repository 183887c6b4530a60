#!/usr/bin/env python3
# check-window-calls.py: the playground window's files call one way
#
# SluiceWindow is one object over several files (src/app/sluice-window*.c,
# see sluice-window-private.h): the object and its wiring on top, the
# actions, the flows (lessons, the unsaved question, files, attach…) below
# them, and leaves (state, banner, projector, keys) that call no other
# window file. A call from one file into a function another defines is an
# edge; a circle of edges (two files calling each other, directly or round
# a longer way) is an error, named with the calls that make it. Prints the
# graph, so that a change of it shows in the test's log.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import glob
import os
import re
import sys

# The leaves: every flow calls them, so they call no other window file.
LEAVES = {'sluice-window-state.c', 'sluice-window-banner.c', 'sluice-window-projector.c',
          'sluice-window-keys.c'}

DEFINITION = re.compile(r'^(_?sluice_window_\w+)\s*\(', re.M)
CALL = re.compile(r'\b(_?sluice_window_\w+)\b')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def short(name):
    return name[len('sluice-'):-len('.c')]


def main():
    app = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'app')
    files = sorted(glob.glob(os.path.join(app, 'sluice-window.c')) +
                   glob.glob(os.path.join(app, 'sluice-window-*.c')))
    code = {}
    owner = {}
    for path in files:
        name = os.path.basename(path)
        with open(path, encoding='utf-8') as f:
            code[name] = STRING.sub('""', COMMENT.sub(' ', f.read()))
        for m in DEFINITION.finditer(code[name]):
            owner[m.group(1)] = name

    # A use of the name (a call, or a function handed on as a callback).
    edges = {name: {} for name in code}
    for name, text in code.items():
        for m in CALL.finditer(text):
            callee = owner.get(m.group(1))
            if callee is not None and callee != name:
                edges[name].setdefault(callee, set()).add(m.group(1))

    for name in sorted(edges):
        if edges[name]:
            print('%s -> %s' % (short(name), ', '.join(short(c) for c in sorted(edges[name]))))

    # Tarjan's strongly connected components: one of more than one file is
    # a circle.
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)

    status = 0
    for leaf in sorted(LEAVES):
        if leaf not in edges:
            print('error: %s is gone: update LEAVES here and sluice-window-private.h' % leaf, file=sys.stderr)
            status = 1
        elif edges[leaf]:
            print('error: %s is a leaf, yet calls %s' % (short(leaf), ', '.join(
                '%s (%s)' % (short(b), ', '.join(sorted(edges[leaf][b]))) for b in sorted(edges[leaf]))),
                file=sys.stderr)
            status = 1

    for component in circles:
        print('error: these window files call each other round a circle:', file=sys.stderr)
        for a in component:
            for b in component:
                if b in edges[a]:
                    print('  %s -> %s (%s)' % (short(a), short(b), ', '.join(sorted(edges[a][b]))),
                          file=sys.stderr)
    return 1 if circles else status


if __name__ == '__main__':
    sys.exit(main())
