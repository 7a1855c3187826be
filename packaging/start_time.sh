#!/usr/bin/env bash
# Seconds from starting a program to the Verbatim window on screen, RUNS times (under xvfb-run).
#   xvfb-run -a packaging/start_time.sh RUNS COMMAND [ARGS...]
# e.g. the bundle against the venv, on the same library:
#   xvfb-run -a packaging/start_time.sh 3 dist/verbatim/verbatim-app
#   xvfb-run -a packaging/start_time.sh 3 .venv/bin/python -m ui.launch
# Each run is closed with SIGTERM once its window shows. Uses the caller's VERBATIM_DATA_DIR.
set -euo pipefail
runs=$1
shift
now() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }  # milliseconds
for _ in $(seq "$runs"); do
    start=$(now)
    "$@" > /dev/null 2>>"${START_TIME_LOG:-/dev/null}" &
    pid=$!
    until xwininfo -root -tree 2>/dev/null | grep -q '"Verbatim'; do
        kill -0 "$pid" 2>/dev/null || { echo "the program exited before its window showed" >&2; exit 1; }
        sleep 0.05
    done
    ms=$(($(now) - start))
    printf 'window after %d.%02d s\n' $((ms / 1000)) $((ms % 1000 / 10))
    kill -TERM "$pid"
    wait "$pid" || true
done
