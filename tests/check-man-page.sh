#!/bin/sh
# check-man-page.sh PAGE PROGRAM: the manual page is valid roff without a
# warning (groff -man -ww), and it mentions every option that
# `PROGRAM --help-all` (or --help, for a program without it) prints.
set -eu

page=$1
program=$2
status=0

if ! command -v groff >/dev/null; then
  echo "1..0 # SKIP groff is not installed (scripts/setup-deps installs groff-base)"
  exit 0
fi

# Every warning (-ww) is an error: the page must format cleanly.
warnings=$(groff -man -ww -z -Tutf8 "$page" 2>&1 >/dev/null) || true
if [ -n "$warnings" ]; then
  echo "$page: groff warns:" >&2
  echo "$warnings" >&2
  status=1
fi
if command -v man >/dev/null; then
  warnings=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null) || true
  if [ -n "$warnings" ]; then
    echo "$page: man --warnings:" >&2
    echo "$warnings" >&2
    status=1
  fi
fi

# The page as plain text (ASCII hyphens), and the options --help prints:
# lines such as "  -p, --preset=NAME   Open …".
text=$(groff -man -Tascii -P-c -P-b -P-u "$page" 2>/dev/null)
help=$("$program" --help-all 2>/dev/null || "$program" --help)
options=$(printf '%s\n' "$help" | sed -n 's/^  *\(-[A-Za-z?], \)\{0,1\}\(--[A-Za-z0-9-]*\).*/\1\2/p' |
          tr ',' ' ')
[ -n "$options" ] || { echo "$program --help printed no options" >&2; exit 1; }

for option in $options; do
  if ! printf '%s\n' "$text" | grep -q -e "$option\([^A-Za-z0-9-]\|\$\)"; then
    echo "$page: does not mention $option, which $program --help prints" >&2
    status=1
  fi
done

[ $status -ne 0 ] || echo "$page: valid, and mentions every option of $(basename "$program"): $(echo $options)"
exit $status
