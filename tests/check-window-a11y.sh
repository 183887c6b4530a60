#!/bin/sh
# check-window-a11y.sh: runs check-window-a11y.py against the real app on a
# session bus of its own with the accessibility bus (at-spi), under the Xvfb
# the caller started (xvfb-run). GSK_RENDERER, if set, picks the renderer.
set -eu
here=$(dirname "$0")
exec dbus-run-session -- sh -c '
  /usr/libexec/at-spi-bus-launcher --launch-immediately &
  launcher=$!
  trap "kill $launcher 2>/dev/null" EXIT
  unset NO_AT_BRIDGE GTK_A11Y
  /usr/bin/python3 "$1"
' check-window-a11y "$here/check-window-a11y.py"
