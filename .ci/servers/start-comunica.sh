#!/usr/bin/env bash
# Usage: start-comunica.sh PORT FILE
# Serves FILE (an RDF file: .ttl, .nt, …; not gzipped) with Comunica's
# comunica-sparql-file-http on 127.0.0.1:PORT (loopback only: see
# loopback.cjs); PID in target/servers/comunica-PORT.pid, log in
# target/servers/comunica-PORT.log. Comunica has no named graphs for a file
# source and ignores default-graph-uri: the file is the default graph, so
# each dataset gets its own server. Returns once
# http://127.0.0.1:PORT/sparql answers a SELECT (<= COMUNICA_START_TIMEOUT,
# default 120 s per attempt, COMUNICA_START_ATTEMPTS attempts, default 3). On failure,
# nothing is left running.
# Environment: COMUNICA_TIMEOUT_S (per-query timeout in seconds, 120).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: $0 PORT FILE"
port="$1"
file="$2"
check_port_arg "$port"
[ -f "$file" ] && [ -r "$file" ] || die "no readable file: $file"
case "$file" in *.gz) die "Comunica reads no gzipped files: $file" ;; esac
file="$(cd "$(dirname "$file")" && pwd -P)/$(basename "$file")"
bin="$SERVERS_DIR/comunica/node_modules/.bin/comunica-sparql-file-http"
[ -x "$bin" ] || die "$bin is missing: run .ci/servers/install-comunica.sh"

name="comunica-$port"
pidfile="$SERVERS_DIR/$name.pid"
logfile="$SERVERS_DIR/$name.log"
timeout_s="${COMUNICA_START_TIMEOUT:-120}"

if pidfile_alive "$pidfile"; then
    die "$name is already running (pid $(cat "$pidfile")); run .ci/servers/stop.sh first"
fi
rm -f "$pidfile"
port_in_use "$port" && die "port $port on 127.0.0.1 is already in use by another process"

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

# One attempt: start the server and wait until it answers. A worker of Comunica's cluster has
# been seen dying at start (EPIPE on its channel to the primary) on a loaded machine, leaving a
# server that never answers; a fresh start is then the cure, so up to COMUNICA_START_ATTEMPTS.
start_once() {
    NODE_OPTIONS="--require=$REPO_ROOT/.ci/servers/loopback.cjs" \
        node "$bin" "$file" --port "$port" --workers 1 --timeout "${COMUNICA_TIMEOUT_S:-120}" \
        </dev/null >"$logfile" 2>&1 &
    echo $! >"$pidfile"
    started=1
    wait_sparql_ready "http://127.0.0.1:$port/sparql" "$pidfile" "$timeout_s" "$logfile"
}

t0=$EPOCHREALTIME
attempts="${COMUNICA_START_ATTEMPTS:-3}"
for attempt in $(seq 1 "$attempts"); do
    log "starting Comunica on 127.0.0.1:$port over $file (attempt $attempt of $attempts)"
    if start_once; then
        log "Comunica ready at http://127.0.0.1:$port/sparql (pid $(cat "$pidfile")) in $(elapsed_since "$t0")s"
        exit 0
    fi
    log "attempt $attempt failed"
    stop_pidfile "$pidfile" 5
    started=0
done
die "Comunica did not become ready after $attempts attempts (see $logfile)"
