#!/usr/bin/env bash
# Usage: start-virtuoso.sh PORT_HTTP PORT_SQL
# Starts a throw-away Virtuoso on 127.0.0.1 with a fresh database in
# target/servers/virtuoso-PORT_HTTP/ (ini, db files, virtuoso.log), PID in
# target/servers/virtuoso-PORT_HTTP.pid, console output in
# target/servers/virtuoso-PORT_HTTP.log. Returns once
# http://127.0.0.1:PORT_HTTP/sparql answers a SELECT (<= VIRTUOSO_START_TIMEOUT,
# default 60 s). On failure, nothing is left running.
# Environment: VIRTUOSO_RESULT_MAX_ROWS (10000), VIRTUOSO_MAX_QUERY_TIME
# (seconds, 120), VIRTUOSO_DIRS_ALLOWED (extra comma-separated dirs for
# bulk loading).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: $0 PORT_HTTP PORT_SQL"
http_port="$1"
sql_port="$2"
check_port_arg "$http_port"
check_port_arg "$sql_port"
[ "$http_port" != "$sql_port" ] || die "HTTP and SQL ports must differ"
require_cmd virtuoso-t "run .ci/servers/install-virtuoso.sh"

name="virtuoso-$http_port"
dir="$SERVERS_DIR/$name"
pidfile="$SERVERS_DIR/$name.pid"
logfile="$SERVERS_DIR/$name.log"
timeout_s="${VIRTUOSO_START_TIMEOUT:-60}"

if pidfile_alive "$pidfile"; then
    die "$name is already running (pid $(cat "$pidfile")); run .ci/servers/stop.sh first"
fi
rm -f "$pidfile"
for p in "$http_port" "$sql_port"; do
    port_in_use "$p" && die "port $p on 127.0.0.1 is already in use by another process"
done

rm -rf "$dir"
mkdir -p "$dir/vsp" "$dir/vad"

dirs_allowed="., $REPO_ROOT"
[ -d "$SHARED_DATASETS" ] && dirs_allowed="$dirs_allowed, $SHARED_DATASETS"
[ -n "${VIRTUOSO_DIRS_ALLOWED:-}" ] && dirs_allowed="$dirs_allowed, $VIRTUOSO_DIRS_ALLOWED"

cat >"$dir/virtuoso.ini" <<INI
; Written by .ci/servers/start-virtuoso.sh for tests: throw-away database.
[Database]
DatabaseFile       = $dir/virtuoso.db
ErrorLogFile       = $dir/virtuoso.log
LockFile           = $dir/virtuoso.lck
TransactionFile    = $dir/virtuoso.trx
xa_persistent_file = $dir/virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
MaxCheckpointRemap = 2000
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = $dir/virtuoso-temp.db
TransactionFile    = $dir/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping           = 0

[Parameters]
; ORDER BY … OFFSET/LIMIT paging past 10,000 rows needs a larger sort window (error SR353).
MaxSortedTopRows           = 1000000
MaxQueryMem                = 2G
ServerPort          = 127.0.0.1:$sql_port
DisableUnixSocket   = 1
ServerThreads       = 10
CheckpointInterval  = 0
O_DIRECT            = 0
CaseMode            = 2
MaxStaticCursorRows = 5000
AllowOSCalls        = 0
DirsAllowed         = $dirs_allowed
; an empty directory: no VAD package is installed at start-up
VADInstallDir       = $dir/vad
NumberOfBuffers     = 20000
MaxDirtyBuffers     = 15000
MaxQueryMem         = 1G

[HTTPServer]
ServerPort           = 127.0.0.1:$http_port
ServerRoot           = $dir/vsp
MaxClientConnections = 8
ServerThreads        = 8
EnabledDavVSP        = 0
HTTPProxyEnabled     = 0
MaxKeepAlives        = 10
KeepAliveTimeout     = 10
Charset              = UTF-8

[Client]
SQL_PREFETCH_ROWS  = 100
SQL_PREFETCH_BYTES = 16000
SQL_QUERY_TIMEOUT  = 0
SQL_TXN_TIMEOUT    = 0

[Replication]
ServerName   = oxilearn-test-$http_port
ServerEnable = 0

[SPARQL]
; At most this many rows per result (silently truncated beyond).
ResultSetMaxRows           = ${VIRTUOSO_RESULT_MAX_ROWS:-10000}
; Seconds; 0 = no refusal on the optimizer's cost estimate.
MaxQueryCostEstimationTime = 0
MaxQueryExecutionTime      = ${VIRTUOSO_MAX_QUERY_TIME:-120}
DefaultGraph               =
INI

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
log "starting Virtuoso: HTTP 127.0.0.1:$http_port, SQL 127.0.0.1:$sql_port, db $dir"
(cd "$dir" && exec virtuoso-t +foreground +configfile "$dir/virtuoso.ini") </dev/null >"$logfile" 2>&1 &
echo $! >"$pidfile"
started=1

wait_sparql_ready "http://127.0.0.1:$http_port/sparql" "$pidfile" "$timeout_s" "$logfile" ||
    die "Virtuoso did not become ready (see $logfile and $dir/virtuoso.log)"
log "Virtuoso ready at http://127.0.0.1:$http_port/sparql (pid $(cat "$pidfile")) in $(elapsed_since "$t0")s"

# `enrich` tests write through the SPARQL endpoint: let its anonymous user run
# SPARQL Update (a test server on loopback only; never do this on a public one).
grant_out="$(timeout 60 isql-vt "127.0.0.1:$sql_port" dba "${VIRTUOSO_DBA_PASSWORD:-dba}" \
    VERBOSE=OFF BANNER=OFF PROMPT=OFF ECHO=OFF \
    "EXEC=GRANT SPARQL_UPDATE TO \"SPARQL\"; DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 7);" </dev/null 2>&1)" ||
    die "isql-vt failed granting SPARQL_UPDATE: $grant_out"
[[ "$grant_out" != *'*** Error'* ]] || die "granting SPARQL_UPDATE failed: $grant_out"
log "Virtuoso: SPARQL Update allowed for the endpoint's anonymous user"
