#!/bin/sh
# check-mime.sh MIME.xml UPDATE-MIME-DATABASE TYPE GLOB: a MIME database
# built from the package alone maps GLOB to TYPE, and names TYPE's comment.
set -eu

package=$1
update=$2
type=$3
glob=$4

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/mime/packages"
cp "$package" "$dir/mime/packages/"

# Refuses a malformed package, and says so on standard error.
errors=$(XDG_DATA_HOME="$dir" XDG_DATA_DIRS="$dir" "$update" "$dir/mime" 2>&1 >/dev/null) || { echo "$errors" >&2; exit 1; }
if [ -n "$errors" ]; then
  echo "update-mime-database: $errors" >&2
  exit 1
fi

# globs2 lines are WEIGHT:TYPE:GLOB[:FLAGS].
if ! awk -F: -v t="$type" -v g="$glob" '$2 == t && $3 == g { found = 1 } END { exit !found }' \
     "$dir/mime/globs2"; then
  echo "$glob is not $type in the database built from $package:" >&2
  cat "$dir/mime/globs2" >&2
  exit 1
fi
if ! grep -q "$type" "$dir/mime/types"; then
  echo "$type is not in the database's types" >&2
  exit 1
fi
# The type's own file in the database, with the comment a file manager shows.
if ! grep -q "<comment>" "$dir/mime/$type.xml" 2>/dev/null; then
  echo "$type has no comment in the database built from $package" >&2
  exit 1
fi
echo "$glob → $type"
