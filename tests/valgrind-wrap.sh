#!/bin/sh
# Runs a program under valgrind with the project's settings: every
# definite leak and every invalid access fails it (exit 99, a status no
# Sluice program uses, so the checks that compare exit statuses see it).
# GSlice is bypassed so that valgrind sees each GObject's own free.
here=$(cd "$(dirname "$0")" && pwd)
export G_SLICE=always-malloc
export G_DEBUG="${G_DEBUG:-gc-friendly}"
exec valgrind --quiet --leak-check=full --show-leak-kinds=definite \
  --errors-for-leak-kinds=definite --error-exitcode=99 \
  --suppressions=/usr/share/glib-2.0/valgrind/glib.supp \
  --suppressions="$here/valgrind.supp" "$@"
