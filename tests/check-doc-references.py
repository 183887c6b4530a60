#!/usr/bin/env python3
"""check-doc-references.py: every document a comment cites is in the tree.

The rules of Sluice live in the repository, in docs/ (the engine contract,
the scenario format, the retry policy, …), and the code cites them there:
`docs/retry-policy.md`. A citation that names no file of the tree (a
specification kept elsewhere, a guide renamed or moved, a bare
`teaching.md` that only the writer knew how to find) leaves a reader with
nothing to open, so this check fails on it.

What counts as a citation:
- a path ending in `.md` (`docs/job-store.md`, `data/lessons/README.md`),
  in the comments of code (C, CSS, shell, Python, meson, scenarios) and
  anywhere in documents (the guides, the README, the D-Bus XML); it must
  name a file from the top of the tree, or from the citing file's folder;
- a path into src/, tests/, docs/, data/, scripts/ or examples/ with a
  file name and extension (`src/scenario/sluice-linter.c`, wildcards
  allowed), in the same places: it must match a file;
- a link of a guide to another guide's page, `[…](retry-policy.html)`: the
  guide docs/retry-policy.md must exist (gi-docgen checks the links to
  symbols, not these);
- any mention of the specification or seed folders outside the tree
  (`shared/spec/`, `shared/seeds/`): always an error.

Usage: check-doc-references.py SOURCEDIR
Prints one line per broken reference (file:line: what) and exits 1 if
there is any, 0 otherwise.
"""

import fnmatch
import os
import re
import sys

# Folders whose files are scanned, from the top of the tree, and single files.
SCANNED_DIRS = ["src", "tests", "scripts", "examples", "data", "docs", "ui", "po", ".ci"]
SCANNED_FILES = ["README.md", "CONTRIBUTING.md", "meson.build", "meson_options.txt"]
# Inputs, not prose: the fuzzer's corpus, broken files made on purpose.
SKIPPED_DIRS = ["tests/fuzz/corpus", "tests/presets-broken"]
TEXT_EXTENSIONS = {".c", ".h", ".py", ".sh", ".build", ".txt", ".md", ".pool", ".in",
                   ".xml", ".ui", ".css", ".toml", ".supp", ""}

MD_CITATION = re.compile(r"(?<![\w./@-])((?:\.\./)*[\w][\w./-]*\.md)\b")
PATH_CITATION = re.compile(
    r"(?<![\w./-])((?:src|tests|docs|data|scripts|examples)/[\w./*-]*[\w*]\.[a-z][\w.]*)")
GUIDE_LINK = re.compile(r"\]\(([\w-]+)\.html\)")
OUTSIDE = re.compile(r"shared/(?:spec|seeds)/|\.\./shared/")

C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
HASH_COMMENT = re.compile(r"#[^\n]*")
PY_DOCSTRING = re.compile(r'"""(?:.|\n)*?"""')


def text_files(top):
    for name in SCANNED_FILES:
        if os.path.isfile(os.path.join(top, name)):
            yield name
    for folder in SCANNED_DIRS:
        for root, dirs, files in os.walk(os.path.join(top, folder)):
            rel_root = os.path.relpath(root, top)
            # node_modules: what a benchmark installs with npm (git-ignored),
            # other projects' documents, not this one's.
            dirs[:] = [d for d in dirs
                       if os.path.join(rel_root, d) not in SKIPPED_DIRS and not d.startswith(".")
                       and d != "node_modules"]
            for name in files:
                if os.path.splitext(name)[1] in TEXT_EXTENSIONS:
                    yield os.path.join(rel_root, name)


def cited_regions(path, text):
    """The parts of @text where a citation counts, as (offset, text) pairs:
    the comments of code (its strings and commands name data and build
    outputs, not documents; a Python file's docstrings count as comments),
    and all of a document."""
    if path.endswith((".c", ".h", ".css")):
        return [(m.start(), m.group(0)) for m in C_COMMENT.finditer(text)]
    if path.endswith((".md", ".xml", ".ui")):
        return [(0, text)]
    regions = [(m.start(), m.group(0)) for m in HASH_COMMENT.finditer(text)]
    if path.endswith(".py"):
        regions += [(m.start(), m.group(0)) for m in PY_DOCSTRING.finditer(text)]
    return regions


def exists(top, citing, cited):
    cited = cited.rstrip(".")
    for base in (top, os.path.join(top, os.path.dirname(citing))):
        candidate = os.path.normpath(os.path.join(base, cited))
        if "*" in cited:
            folder, pattern = os.path.split(candidate)
            if os.path.isdir(folder) and fnmatch.filter(os.listdir(folder), pattern):
                return True
        elif os.path.exists(candidate):
            return True
    return False


def check_file(top, path):
    try:
        with open(os.path.join(top, path), encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        return []
    problems = []
    for offset, region in cited_regions(path, text):
        def where(match):
            return "%s:%d" % (path, text.count("\n", 0, offset + match.start()) + 1)

        for m in OUTSIDE.finditer(region):
            problems.append("%s: cites a file outside the repository (%s…)" % (where(m), m.group(0)))
        for m in MD_CITATION.finditer(region):
            if m.group(1).startswith("share/"):
                continue  # where a document is installed, not a file of the tree
            if not exists(top, path, m.group(1)):
                problems.append("%s: cites %s, which is not in the tree" % (where(m), m.group(1)))
        for m in PATH_CITATION.finditer(region):
            if not exists(top, path, m.group(1)):
                problems.append("%s: cites %s, which is not in the tree" % (where(m), m.group(1)))
        if path.endswith(".md"):
            for m in GUIDE_LINK.finditer(region):
                if not os.path.isfile(os.path.join(top, "docs", m.group(1) + ".md")):
                    problems.append("%s: links to %s.html, but docs/%s.md does not exist"
                                    % (where(m), m.group(1), m.group(1)))
    return problems


def main():
    if len(sys.argv) != 2:
        print("usage: check-doc-references.py SOURCEDIR", file=sys.stderr)
        return 2
    top = sys.argv[1]
    problems = []
    for path in sorted(text_files(top)):
        if os.path.basename(path) == os.path.basename(__file__):
            continue  # its own text describes the citations it looks for
        problems += check_file(top, path)
    for line in problems:
        print(line)
    if problems:
        print("%d reference(s) to files that are not in the tree: cite the guide in docs/ "
              "that holds the rule, or fix the path" % len(problems))
        return 1
    print("every cited document is in the tree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
