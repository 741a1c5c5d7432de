#!/usr/bin/env bash
# Usage: start-oxigraph.sh PORT
# Serves the on-disk store target/servers/oxigraph-PORT/ (created empty if
# missing) with `oxigraph serve` on 127.0.0.1:PORT; PID in
# target/servers/oxigraph-PORT.pid, log in target/servers/oxigraph-PORT.log.
# Data is loaded BEFORE the start, offline, by load-oxigraph.sh (Oxigraph's
# bulk loader: ~7x faster than uploading over HTTP); up.sh wipes the store
# first. Returns once http://127.0.0.1:PORT/query answers a SELECT
# (<= OXIGRAPH_START_TIMEOUT, default 20 s). On failure, nothing is left
# running.
# Environment: OXIGRAPH_TIMEOUT_S (per-query timeout in seconds, 120).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 PORT"
port="$1"
check_port_arg "$port"
bin="$SERVERS_DIR/bin/oxigraph"
[ -x "$bin" ] || die "$bin is missing: run .ci/servers/install-oxigraph.sh"

name="oxigraph-$port"
dir="$SERVERS_DIR/$name"
pidfile="$SERVERS_DIR/$name.pid"
logfile="$SERVERS_DIR/$name.log"
timeout_s="${OXIGRAPH_START_TIMEOUT:-20}"

if pidfile_alive "$pidfile"; then
    die "$name is already running (pid $(cat "$pidfile")); run .ci/servers/stop.sh first"
fi
rm -f "$pidfile"
port_in_use "$port" && die "port $port on 127.0.0.1 is already in use by another process"
mkdir -p "$dir"

started=0
cleanup() {
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$started" = 1 ]; then
        log "start failed: stopping $name"
        stop_pidfile "$pidfile" 5
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

t0=$EPOCHREALTIME
log "starting Oxigraph on 127.0.0.1:$port, store $dir"
"$bin" serve --location "$dir" --bind "127.0.0.1:$port" --timeout-s "${OXIGRAPH_TIMEOUT_S:-120}" \
    </dev/null >"$logfile" 2>&1 &
echo $! >"$pidfile"
started=1

wait_sparql_ready "http://127.0.0.1:$port/query" "$pidfile" "$timeout_s" "$logfile" ||
    die "Oxigraph did not become ready (see $logfile)"
log "Oxigraph ready at http://127.0.0.1:$port/query (pid $(cat "$pidfile")) in $(elapsed_since "$t0")s"
