#!/usr/bin/env python3
# check-layers.py: no include points up between the source folders
#
# The layers (an arrow means "may include"):
#   app ─► render ─► model ─► scenario ─► engine (src/sluice)
#   app ─► remote (attach client, recordings) ─► scenario
#   cli ─► remote, store, scenario;  store ─► engine
# A header of a folder the including folder may not reach is an error,
# named with its file and line.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys

MAY_INCLUDE = {
    'sluice': {'sluice'},
    'util': {'util', 'sluice'},
    'scenario': {'scenario', 'util', 'sluice'},
    'remote': {'remote', 'scenario', 'util', 'sluice'},
    'model': {'model', 'scenario', 'util', 'sluice'},
    'render': {'render', 'model', 'scenario', 'util', 'sluice'},
    'store': {'store', 'util', 'sluice'},
    'cli': {'cli', 'remote', 'store', 'scenario', 'util', 'sluice'},
    'app': {'app', 'render', 'model', 'remote', 'store', 'scenario', 'util', 'sluice'},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([^>"]+)[>"]')


def main():
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src')
    owner = {}
    for folder in MAY_INCLUDE:
        for name in os.listdir(os.path.join(src, folder)):
            if name.endswith('.h'):
                owner.setdefault(name, folder)

    problems = []
    for folder, allowed in MAY_INCLUDE.items():
        for name in sorted(os.listdir(os.path.join(src, folder))):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(src, folder, name)
            with open(path, encoding='utf-8') as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    header = os.path.basename(m.group(1))
                    target = owner.get(header)
                    if target is not None and target not in allowed:
                        problems.append('src/%s/%s:%d: includes %s of src/%s/, a layer above or beside it'
                                        % (folder, name, number, header, target))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
