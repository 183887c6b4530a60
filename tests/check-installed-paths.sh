#!/usr/bin/env bash
# Installs the build into a scratch DESTDIR (as scripts/test-installed does)
# and checks that the installed programs do not depend on the tree they
# were built from:
# - no installed binary or library (everything under bindir and libdir)
#   contains the absolute path of the build directory or of the source
#   directory; debug information is left out (meson install --strip), as
#   a package splits it off and it names the build directory by design;
# - the app compiles in the installed presets folder;
# - the installed sluice-run runs an installed preset with none of the
#   uninstalled run's variables set (SLUICE_PRESETS_DIR, SLUICE_LOCALEDIR,
#   GSETTINGS_SCHEMA_DIR), from a neutral working directory.
#
# Usage: tests/check-installed-paths.sh BUILDDIR SOURCEDIR
# Exits 0 when all is well, 1 on a failure, 77 (skip) when it cannot tell.
set -u

builddir=$(cd "${1:?usage: check-installed-paths.sh BUILDDIR SOURCEDIR}" && pwd -P) || exit 1
srcdir=$(cd "${2:?usage: check-installed-paths.sh BUILDDIR SOURCEDIR}" && pwd -P) || exit 1

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

option() {
  meson introspect "$builddir" --buildoptions |
    python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"
}
prefix=$(option prefix) && bindir=$(option bindir) && libdir=$(option libdir) && datadir=$(option datadir) || {
  echo "check-installed-paths: meson introspect failed on $builddir" >&2
  exit 1
}
# Relative directories are under the prefix; absolute ones stay.
under_prefix() { case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac; }
bindir=$(under_prefix "$bindir")
libdir=$(under_prefix "$libdir")
datadir=$(under_prefix "$datadir")

for tree in "$srcdir" "$builddir"; do
  case "$prefix/" in
    "$tree"/*)
      echo "check-installed-paths: the prefix $prefix is inside $tree: installed paths name it legitimately" >&2
      exit 77 ;;
  esac
done

# meson test builds only what the tests depend on: meson install builds
# the rest (nothing, usually). --strip works on the staged copies only.
if ! log=$(meson install -C "$builddir" --strip --destdir "$stage" 2>&1); then
  echo "check-installed-paths: meson install failed:" >&2
  printf '%s\n' "$log" >&2
  exit 1
fi

status=0
n_files=0
for dir in "$stage$bindir" "$stage$libdir"; do
  [ -d "$dir" ] || continue
  while IFS= read -r -d '' file; do
    n_files=$((n_files + 1))
    for tree in "$builddir" "$srcdir"; do
      count=$(grep -a -c -F -- "$tree" "$file" || true)
      if [ "$count" -gt 0 ]; then
        echo "not ok: ${file#"$stage"} names $tree ($count times):" >&2
        # What the strings are, for the fix.
        if command -v strings >/dev/null; then
          strings -a "$file" | grep -F -- "$tree" | sed 's/^/    /' >&2
        fi
        status=1
      fi
    done
  done < <(find "$dir" -type f -print0)
done
if [ "$n_files" -eq 0 ]; then
  echo "not ok: nothing was installed under $bindir or $libdir" >&2
  exit 1
fi
echo "checked $n_files installed files under $bindir and $libdir for $builddir and $srcdir"

# The app looks for its presets where they are installed.
presets="$datadir/sluice/presets"
app="$stage$bindir/sluice"
if [ -f "$app" ]; then
  if [ "$(grep -a -c -F -- "$presets" "$app" || true)" -eq 0 ]; then
    echo "not ok: the app does not name the installed presets folder $presets" >&2
    status=1
  else
    echo "ok: the app looks for its presets in $presets"
  fi
fi

# The installed runner on an installed preset, as a user without the
# tree runs it: no uninstalled variables, the working directory elsewhere.
run="$stage$bindir/sluice-run"
if [ ! -x "$run" ]; then
  echo "not ok: sluice-run is not installed in $bindir" >&2
  exit 1
fi
if [ ! -f "$stage$presets/first-look.pool" ]; then
  echo "ok: # SKIP no presets installed (the app, which installs them, is disabled)"
  exit $status
fi
report=$(cd / && env -u SLUICE_PRESETS_DIR -u SLUICE_LOCALEDIR -u GSETTINGS_SCHEMA_DIR \
                    -u G_TEST_SRCDIR -u G_TEST_BUILDDIR \
                    LD_LIBRARY_PATH="$stage$libdir" \
                    "$run" "$stage$presets/first-look.pool" --clock virtual --json)
run_status=$?
if [ "$run_status" -ne 0 ]; then
  echo "not ok: the installed sluice-run exited $run_status on the installed first-look preset" >&2
  status=1
elif ! printf '%s\n' "$report" |
       python3 -c 'import json,sys; r=json.load(sys.stdin); sys.exit(0 if isinstance(r, dict) and r else 1)'; then
  echo "not ok: the installed sluice-run printed no JSON report:" >&2
  printf '%s\n' "$report" >&2
  status=1
else
  echo "ok: the installed sluice-run ran $presets/first-look.pool"
fi

exit $status
