#!/bin/sh
# with_xvfb.sh COMMAND [ARGS...]: runs COMMAND on a private Xvfb display and exits with COMMAND's
# status, its stdout and stderr untouched.
#
# Why not xvfb-run -a: run concurrently (ctest -j), it picks display numbers by racing for lock
# files, and its cleanup now and then fails after the command has finished ("problem while
# cleaning up temporary directory", exit 5), adding a line to the command's stderr and replacing
# its exit status. Xvfb -displayfd chooses a free display itself and reports it when it is ready.
# Exit 125 (and one line) when Xvfb does not start.
set -u
scratch=$(mktemp -d "${TMPDIR:-/tmp}/with_xvfb.XXXXXX") || exit 125
Xvfb -displayfd 3 -screen 0 2000x1200x24 -nolisten tcp 3>"$scratch/display" >"$scratch/log" 2>&1 &
server=$!
waited=0
until [ -s "$scratch/display" ]; do
  if ! kill -0 "$server" 2>/dev/null || [ "$waited" -ge 600 ]; then  # 600 x 0.05 s
    echo "with_xvfb: Xvfb did not start: $(tail -n 1 "$scratch/log")" >&2
    kill "$server" 2>/dev/null
    rm -rf "$scratch"
    exit 125
  fi
  sleep 0.05
  waited=$((waited + 1))
done
display=$(head -n 1 "$scratch/display")
DISPLAY=":$display" "$@"
status=$?
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
rm -rf "$scratch"
exit "$status"
