# shellcheck shell=bash
# Helpers shared by the .ci/servers/*.sh scripts. Source it, don't run it.
# Sourcing it cds to the repository root and defines SERVERS_DIR
# (target/servers: everything downloaded or created lives there; /target is
# git-ignored).

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
cd "$REPO_ROOT" || exit 1
# shellcheck disable=SC2034 # used by the scripts that source this file
SERVERS_DIR="$REPO_ROOT/target/servers"
SHARED_DATASETS="$REPO_ROOT/../shared/datasets"
if [ -d "$SHARED_DATASETS" ]; then
    SHARED_DATASETS="$(cd "$SHARED_DATASETS" && pwd -P)"
fi

SCRIPT_NAME="$(basename "$0" .sh)"

log() { printf '[%s] %s\n' "$SCRIPT_NAME" "$*" >&2; }
die() {
    printf '[%s] ERROR: %s\n' "$SCRIPT_NAME" "$*" >&2
    exit 1
}

# Seconds (3 decimals) since the float timestamp $1 (from $EPOCHREALTIME).
elapsed_since() {
    awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}

require_cmd() {
    command -v "$1" >/dev/null 2>&1 || die "'$1' is not installed${2:+ ($2)}"
}

# Validates a port number.
check_port_arg() {
    case "$1" in
        '' | *[!0-9]*) die "not a port number: '$1'" ;;
    esac
    [ "$1" -ge 1024 ] && [ "$1" -le 65535 ] || die "port out of range 1024-65535: $1"
}

# True if something already listens on 127.0.0.1:$1.
port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Rejects IRIs that cannot be written inside <...> in SPARQL or '...' in SQL.
check_iri() {
    local bad='[^[:graph:]]|[<>"{}|^`\\'"'"']'
    [ -n "$1" ] || die "empty graph IRI"
    if [[ "$1" =~ $bad ]]; then die "unsupported character in graph IRI: '$1'"; fi
    [[ "$1" =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]] || die "graph IRI must be absolute: '$1'"
}

# Percent-encodes $1 for a URL query string.
urlencode() {
    python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"
}

# True if the process in pid file $1 is alive.
pidfile_alive() {
    local pid
    [ -f "$1" ] || return 1
    pid="$(cat "$1" 2>/dev/null || true)"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# Stops the process whose PID is in pid file $1 (TERM, wait <= $2 s
# (default 10), then KILL) and removes the pid file. Only signals the PID if
# its command line names one of our servers (guards against PID reuse).
stop_pidfile() {
    local pidfile="$1" grace="${2:-10}" pid cmd i
    [ -f "$pidfile" ] || return 0
    pid="$(cat "$pidfile" 2>/dev/null || true)"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
        case "$cmd" in
            *virtuoso-t* | *oxigraph* | *comunica-sparql-file-http*) ;;
            *)
                log "pid $pid from $pidfile is not one of our servers ($cmd); not signalling it"
                rm -f "$pidfile"
                return 0
                ;;
        esac
        local t0=$EPOCHREALTIME
        log "stopping pid $pid ($(basename "$pidfile" .pid))"
        kill -TERM "$pid" 2>/dev/null || true
        for ((i = 0; i < grace * 10; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$pid" 2>/dev/null; then
            log "pid $pid still alive after ${grace}s: KILL"
            kill -KILL "$pid" 2>/dev/null || true
            for ((i = 0; i < 50; i++)); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -0 "$pid" 2>/dev/null && log "WARNING: pid $pid survived SIGKILL"
        fi
        log "pid $pid stopped in $(elapsed_since "$t0")s"
    fi
    rm -f "$pidfile"
}

# Prints the body of GET $1 with Accept $2, or fails; bounded by 5 s.
# Uses curl, or python3 where curl is missing.
http_get() {
    local url="$1" accept="$2"
    if command -v curl >/dev/null 2>&1; then
        curl -sS -f -m 5 -H "Accept: $accept" "$url"
    else
        python3 - "$url" "$accept" <<'PY'
import sys, urllib.request
req = urllib.request.Request(sys.argv[1], headers={"Accept": sys.argv[2]})
with urllib.request.urlopen(req, timeout=5) as r:
    sys.stdout.write(r.read().decode("utf-8"))
PY
    fi
}

# Waits until SPARQL endpoint $1 answers SELECT * WHERE {?s ?p ?o} LIMIT 1
# with SPARQL JSON results. Fails if the process in pid file $2 dies or after
# $3 seconds; $4 is the log shown on failure.
wait_sparql_ready() {
    local endpoint="$1" pidfile="$2" timeout="$3" logfile="$4" url deadline out
    url="$endpoint?query=SELECT%20*%20WHERE%20%7B%3Fs%20%3Fp%20%3Fo%7D%20LIMIT%201"
    deadline=$((SECONDS + timeout))
    while :; do
        if ! pidfile_alive "$pidfile"; then
            log "server died during start-up; last lines of $logfile:"
            tail -n 30 "$logfile" >&2 || true
            return 1
        fi
        if out="$(http_get "$url" 'application/sparql-results+json' 2>/dev/null)" &&
            [[ "$out" == *'"head"'* ]]; then
            return 0
        fi
        if [ "$SECONDS" -ge "$deadline" ]; then
            log "$endpoint not ready after ${timeout}s; last lines of $logfile:"
            tail -n 30 "$logfile" >&2 || true
            return 1
        fi
        sleep 0.2
    done
}
