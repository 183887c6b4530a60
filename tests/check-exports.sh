#!/usr/bin/env bash
# Checks what a shared library exports: every defined dynamic symbol must
# be public API (sluice_*), none private (_sluice_*) or anything else, and
# none of the engine's private classes, whose functions are named like
# public ones (a GType's functions cannot start with an underscore) but are
# declared only in *-private.h: SluiceChannel (sluice-channel-private.h).
#
# Usage: tests/check-exports.sh build/src/sluice/libsluice-1.so
# Exits 77 (skip) without nm, 1 if anything else is exported.
set -u
lib=${1:?usage: check-exports.sh LIBRARY}
if ! command -v nm >/dev/null 2>&1; then
  echo "check-exports: nm not found, skipping" >&2
  exit 77
fi
if ! symbols=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Za-z]$/ && $2 !~ /^[Aa]$/ { print $2, $3 }'); then
  echo "check-exports: nm failed on $lib" >&2
  exit 1
fi
private_classes='sluice_channel_'
public=$(printf '%s\n' "$symbols" | grep ' sluice_' | grep -v -E " (${private_classes})" | grep -c . || true)
leaked=$(printf '%s\n' "$symbols" | grep -E " (${private_classes})" || true)
bad=$(printf '%s\n' "$symbols" | grep -v '^$' | grep -v ' sluice_' || true)
if [ "$public" -eq 0 ]; then
  echo "check-exports: $lib exports no sluice_* symbol" >&2
  exit 1
fi
if [ -n "$leaked" ]; then
  echo "check-exports: $lib exports functions of a private class:" >&2
  printf '%s\n' "$leaked" >&2
  exit 1
fi
if [ -n "$bad" ]; then
  echo "check-exports: $lib exports symbols outside the public API:" >&2
  printf '%s\n' "$bad" >&2
  exit 1
fi
echo "check-exports: $lib exports $public sluice_* symbols and nothing else"
