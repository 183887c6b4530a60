#!/usr/bin/env python3
# check-window-calls.py: the app's files call one way
#
# A call from one file of src/app into a function another defines is an
# edge; a circle of edges (two files calling each other, directly or round
# a longer way) is an error, named with the calls that make it: the flows
# go action → document → controller → model → views, and an object that
# is spread over several files (the window, sluice-window-private.h) or
# made of smaller ones (the run controller, the remote feed, the status
# lines) calls into them, never back. Prints the graph, so that a change
# of it shows in the test's log.
#
# SluiceWindow is one object over several files (src/app/sluice-window*.c):
# the object and its wiring on top, the actions, the flows (lessons, the
# unsaved question, files, attach…) below them, and leaves (state, banner,
# projector, keys) that call no other window file.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import glob
import os
import re
import sys

# The leaves: every flow calls them, so they call no other window file.
LEAVES = {'sluice-window-state.c', 'sluice-window-banner.c', 'sluice-window-projector.c',
          'sluice-window-keys.c'}

# Circles not undone yet, each with why it stays: one that is gone must
# leave this list too, so that it only shrinks.
KNOWN = {
}

DEFINITION = re.compile(r'^(_?sluice_\w+)\s*\(', re.M)
CALL = re.compile(r'\b(_?sluice_\w+)\b')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def short(name):
    return name[len('sluice-'):-len('.c')]


def read_graph(app):
    code = {}
    owner = {}
    for path in sorted(glob.glob(os.path.join(app, 'sluice-*.c'))):
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
    return edges


def find_circles(edges):
    """Tarjan's strongly connected components: one of more than one file
    is a circle."""
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
    return circles


def check_leaves(edges):
    status = 0
    for leaf in sorted(LEAVES):
        if leaf not in edges:
            print('error: %s is gone: update LEAVES here and sluice-window-private.h' % leaf, file=sys.stderr)
            status = 1
        else:
            window = {b: calls for b, calls in edges[leaf].items() if b.startswith('sluice-window')}
            if window:
                print('error: %s is a leaf, yet calls %s' % (short(leaf), ', '.join(
                    '%s (%s)' % (short(b), ', '.join(sorted(window[b]))) for b in sorted(window))),
                    file=sys.stderr)
                status = 1
    return status


def main():
    app = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'app')
    edges = read_graph(app)

    for name in sorted(edges):
        if edges[name]:
            print('%s -> %s' % (short(name), ', '.join(short(c) for c in sorted(edges[name]))))

    status = check_leaves(edges)
    circles = find_circles(edges)
    for component in circles:
        if frozenset(component) in KNOWN:
            print('known circle (%s): %s' % (KNOWN[frozenset(component)], ', '.join(short(c) for c in component)))
            continue
        status = 1
        print('error: these app files call each other round a circle:', file=sys.stderr)
        for a in component:
            for b in component:
                if b in edges[a]:
                    print('  %s -> %s (%s)' % (short(a), short(b), ', '.join(sorted(edges[a][b]))),
                          file=sys.stderr)
    found = {frozenset(c) for c in circles}
    for known in sorted(KNOWN, key=sorted):
        if known not in found:
            print('error: the circle of %s is undone: take it off KNOWN' % KNOWN[known], file=sys.stderr)
            status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())
