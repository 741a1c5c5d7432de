#!/usr/bin/env bash
# Stops every server whose pid file is in target/servers (TERM, wait <= 10 s,
# then KILL) and removes the pid files. Safe to call when nothing runs.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

shopt -s nullglob
n=0
for pidfile in "$SERVERS_DIR"/*.pid; do
    stop_pidfile "$pidfile" 10 & # all in parallel
    n=$((n + 1))
done
wait
if [ "$n" -eq 0 ]; then
    log "no server pid file in $SERVERS_DIR: nothing to stop"
fi
