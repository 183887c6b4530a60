#!/bin/sh
# check-catalogues.sh SRCROOT XGETTEXT MSGCMP [XGETTEXT-ARGS...]
#
# Fails when the message catalogues drift from the sources:
#  - a source file under src/, ui/ or data/ with _(), N_(), C_(), NC_(),
#    g_d*gettext() or translatable="yes" that po/POTFILES.in does not list,
#    or a POTFILES.in entry that does not exist;
#  - a message that xgettext finds in the POTFILES.in sources (with the same
#    keywords and flags as i18n.gettext's glib preset) missing from
#    po/sluice.pot or from a po/LANG.po of LINGUAS, or a message in one of
#    them that the sources no longer have;
#  - obsolete (#~) entries left in a .po.
# Untranslated and fuzzy messages are the po-LANG tests' business.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

set -u

srcroot=$1
xgettext=$2
msgcmp=$3
shift 3

podir=$srcroot/po
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
failures=0

fail() {
  echo "not ok: $*"
  failures=$((failures + 1))
}

# ---- POTFILES.in --------------------------------------------------------------

sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$podir/POTFILES.in" | LC_ALL=C sort -u > "$tmp/listed"

while read -r f; do
  [ -f "$srcroot/$f" ] || fail "po/POTFILES.in lists $f, which does not exist"
done < "$tmp/listed"

marks='(^|[^A-Za-z0-9_])(N|C|NC)?_ ?\(|g_d(c|n|p)gettext2? ?\(|translatable="yes"'
(
  cd "$srcroot" &&
  find src ui data -type f \( -name '*.c' -o -name '*.h' -o -name '*.ui' -o -name '*.in' -o -name '*.xml' \) \
    -exec grep -lE "$marks" {} +
) | LC_ALL=C sort -u > "$tmp/marked"

LC_ALL=C comm -23 "$tmp/marked" "$tmp/listed" > "$tmp/unlisted"
while read -r f; do
  fail "$f has translatable strings but po/POTFILES.in does not list it"
done < "$tmp/unlisted"

# Lists the messages msgcmp complains about ("FILE:LINE: this message is used
# but not defined in ..."), quoted from FILE, rather than msgcmp's line numbers.
show_messages() {
  sed -n -e 's/^\(.*\):\([0-9][0-9]*\): this message is used but not defined.*/\1 \2/p' "$1" |
  while read -r file line; do
    awk -v n="$line" '
      /^$/ { if (NR > n) exit; block = ""; next }
      /^(msgctxt|msgid)/ { keep = 1 }
      /^msgstr/ { keep = 0 }
      keep { block = block "    " $0 "\n" }
      END { printf "%s", block }' "$file"
  done
}

# ---- the messages of the sources against the catalogues -------------------------

if ! (cd "$srcroot" && "$xgettext" --package-name=sluice -f po/POTFILES.in -D "$srcroot" \
        -o "$tmp/sources.pot" "$@"); then
  fail "xgettext could not extract the messages of po/POTFILES.in"
  exit 1
fi

catalogues=$podir/sluice.pot
for lang in $(sed -e 's/#.*//' "$podir/LINGUAS"); do
  catalogues="$catalogues $podir/$lang.po"
done

for cat in $catalogues; do
  name=po/$(basename "$cat")
  before=$failures
  if [ ! -f "$cat" ]; then
    fail "$name is missing"
    continue
  fi
  # Messages of the sources that the catalogue lacks ...
  if ! "$msgcmp" --use-fuzzy --use-untranslated "$cat" "$tmp/sources.pot" > "$tmp/out" 2>&1; then
    fail "$name lacks messages of the sources (run: meson compile -C BUILDDIR sluice-pot sluice-update-po):"
    show_messages "$tmp/out"
  fi
  # ... and messages of the catalogue that the sources no longer have.
  if ! "$msgcmp" --use-fuzzy --use-untranslated "$tmp/sources.pot" "$cat" > "$tmp/out" 2>&1; then
    fail "$name has messages the sources no longer have:"
    show_messages "$tmp/out"
  fi
  if grep -q '^#~' "$cat"; then
    fail "$name keeps obsolete (#~) entries: drop them (msgattrib --no-obsolete)"
  fi
  if [ "$failures" -eq "$before" ]; then echo "ok: $name matches the sources"; fi
done

[ "$failures" -eq 0 ]
