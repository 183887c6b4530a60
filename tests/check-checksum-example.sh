#!/usr/bin/env bash
# Runs examples/checksum.py (PyGObject, through the build tree's typelib) on
# a scratch folder and checks what it prints: every digest line equal to
# sha256sum(1)'s for the same path (names with a space, a backslash and a
# newline included), the entries it cannot hash in the error group at the
# end with their reasons, and exit status 1; then a folder it can hash in
# full, exit status 0 and no error group.
#
# The entry that fails for everyone, root included, is a dangling symlink
# (FileNotFoundError); a FIFO is refused (it would block a reader). A file
# with mode 000 is checked against what sha256sum makes of it: root reads
# it, anyone else gets PermissionError.
#
# Usage: SLUICE_TYPELIB=build/src/sluice/Sluice-1.typelib \
#        GI_TYPELIB_PATH=build/src/sluice LD_LIBRARY_PATH=build/src/sluice \
#        tests/check-checksum-example.sh
# SLUICE_TYPELIB is empty when the build has no typelib, PYTHON names a
# Python with the gi module. Exits 77 (skip) when introspection is disabled
# or Python has no gi module (python3-gi), 1 on any failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
example=$here/../examples/checksum.py
python=${PYTHON:-python3}
[ -n "$python" ] || python=python3

if [ -z "${SLUICE_TYPELIB:-}" ]; then
  echo "check-checksum-example: built without introspection, skipping" >&2
  exit 77
fi
if [ ! -f "$SLUICE_TYPELIB" ]; then
  echo "check-checksum-example: $SLUICE_TYPELIB was not built" >&2
  exit 1
fi
if ! "$python" -c 'import gi' 2>/dev/null; then
  echo "check-checksum-example: $python has no gi module (python3-gi), skipping" >&2
  exit 77
fi

tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() {
  echo "check-checksum-example: $*" >&2
  failures=$((failures + 1))
}

mkdir -p tree/sub/deeper clean
printf 'hello\n' > tree/hello.txt
: > tree/empty
seq 1 400000 > tree/sub/numbers.txt          # 2.6 MB: several reads
printf 'spaced\n' > 'tree/sub/with space.txt'
printf 'slash\n' > 'tree/sub/back\slash'
printf 'newline\n' > $'tree/sub/deeper/new\nline'
printf 'locked\n' > tree/locked.txt
chmod 000 tree/locked.txt
ln -s no-such-target tree/sub/dangling
mkfifo tree/sub/fifo
ln -s sub tree/link-to-folder                # not followed, not a file
printf 'one\n' > clean/one
printf 'two\n' > clean/two

# What sha256sum says of each regular file it can read: the lines the
# example must print, in any order.
expected_failed=2
: > expected.txt
for f in tree/hello.txt tree/empty tree/sub/numbers.txt 'tree/sub/with space.txt' \
         'tree/sub/back\slash' $'tree/sub/deeper/new\nline' tree/locked.txt; do
  if sha256sum "$f" >> expected.txt 2>/dev/null; then
    :
  elif [ "$f" = tree/locked.txt ]; then
    expected_failed=3
  else
    fail "sha256sum cannot read $f"
  fi
done
total=$(( $(wc -l < expected.txt) + expected_failed ))

"$python" "$example" --workers 3 --timeout 30 tree > out.txt 2> err.txt
status=$?
if [ "$status" -ne 1 ]; then
  fail "exit status $status on a folder with unreadable entries, expected 1"
fi
if ! diff <(sort expected.txt) <(sort out.txt) > diff.txt; then
  fail "digests differ from sha256sum's (< sha256sum, > checksum.py):"
  cat diff.txt >&2
fi

# The error group: a header, then one line per entry, after every digest.
header="checksum.py: $expected_failed of $total files could not be hashed:"
if ! grep -qxF "$header" err.txt; then
  fail "no line '$header'"
fi
group=$(sed -n '/could not be hashed:$/,$p' err.txt)
for line in "  tree/sub/dangling: FileNotFoundError('No such file or directory')" \
            "  tree/sub/fifo: NotARegularFileError('not a regular file')"; do
  if ! printf '%s\n' "$group" | grep -qxF "$line"; then
    fail "the error group lacks '$line'"
  fi
done
if [ "$expected_failed" -eq 3 ] &&
   ! printf '%s\n' "$group" | grep -qxF "  tree/locked.txt: PermissionError('Permission denied')"; then
  fail "the error group lacks tree/locked.txt's PermissionError"
fi
if [ "$(printf '%s\n' "$group" | grep -c '^  ')" -ne "$expected_failed" ]; then
  fail "the error group has other entries than the $expected_failed expected"
fi

"$python" "$example" clean > clean-out.txt 2> clean-err.txt
status=$?
if [ "$status" -ne 0 ]; then
  fail "exit status $status on a folder it can hash in full, expected 0"
fi
if ! diff <(sha256sum clean/one clean/two | sort) <(sort clean-out.txt) > diff.txt; then
  fail "digests of the clean folder differ from sha256sum's:"
  cat diff.txt >&2
fi
if [ -s clean-err.txt ]; then
  fail "unexpected messages on the clean folder:"
  cat clean-err.txt >&2
fi

if [ "$failures" -gt 0 ]; then
  echo "--- checksum.py's output on stderr:" >&2
  cat err.txt >&2
  exit 1
fi
echo "check-checksum-example: $total entries, $expected_failed in the error group, digests equal sha256sum's"
