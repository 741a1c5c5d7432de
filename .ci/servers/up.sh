#!/usr/bin/env bash
# The one entry point for CI: installs Virtuoso, Oxigraph and Comunica, starts
# them on 127.0.0.1, loads the test datasets into named graphs on the first two,
# checks the triple counts, and writes target/servers/env.sh (source it) with
#   OXILEARN_TEST_OXIGRAPH  the Oxigraph SPARQL query endpoint
#   OXILEARN_TEST_VIRTUOSO  the Virtuoso SPARQL endpoint
#   OXILEARN_TEST_GRAPHS    the graph IRIs loaded (space-separated)
#   OXILEARN_TEST_COMUNICA  Comunica over fixtures/family/family.ttl
#   OXILEARN_TEST_COMUNICA_TRAINS  Comunica over fixtures/trains/trains.ttl
# (Comunica has no named graphs for file sources and ignores
# default-graph-uri: one server per fixture, the file its default graph.)
# Stop everything with .ci/servers/stop.sh. Any failure stops what was
# started and exits non-zero. Running it again restarts from scratch.
# Ports (environment): OXILEARN_OXIGRAPH_PORT (17878),
# OXILEARN_VIRTUOSO_HTTP_PORT (18890), OXILEARN_VIRTUOSO_SQL_PORT (11111),
# OXILEARN_COMUNICA_PORT (13030; the trains server uses the next port).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=.ci/servers
source "$here/lib.sh"

ox_port="${OXILEARN_OXIGRAPH_PORT:-17878}"
vt_http="${OXILEARN_VIRTUOSO_HTTP_PORT:-18890}"
vt_sql="${OXILEARN_VIRTUOSO_SQL_PORT:-11111}"
cm_port="${OXILEARN_COMUNICA_PORT:-13030}"
cm_trains_port=$((cm_port + 1))
envfile="$SERVERS_DIR/env.sh"

# FILE|GRAPH|EXPECTED_TRIPLES
datasets=(
    "fixtures/family/family.ttl|http://oxilearn.test/fixtures/family|205"
    "fixtures/trains/trains.ttl|http://oxilearn.test/fixtures/trains|275"
)
if [ -d ../shared ]; then
    datasets+=(
        "../shared/datasets/family/family-benchmark_rich_background.owl|http://oxilearn.test/family|2032"
        "../shared/datasets/carcinogenesis/carcinogenesis.nt.gz|http://oxilearn.test/carcinogenesis|74227"
    )
else
    log "../shared not found: loading the repository fixtures only"
fi

T0=$EPOCHREALTIME
timings=()
step() { # step NAME COMMAND...: runs COMMAND, records its duration
    local name="$1" t
    shift
    t=$EPOCHREALTIME
    "$@"
    timings+=("$(printf '%-50s %6ss' "$name" "$(elapsed_since "$t")")")
}

on_exit() {
    rc=$?
    if [ "$rc" -ne 0 ]; then
        printf '\n[up] ######## FAILED (exit %s): SPARQL test servers NOT up; stopping what was started ########\n' "$rc" >&2
        rm -f "$envfile"
        for p in "${cm_pids[@]:-}"; do
            if [ -n "$p" ] && kill -TERM "$p" 2>/dev/null; then wait "$p" 2>/dev/null || true; fi
        done
        if [ -n "${vt_start_pid:-}" ] && kill -0 "$vt_start_pid" 2>/dev/null; then
            kill -TERM "$vt_start_pid" 2>/dev/null || true
            wait "$vt_start_pid" 2>/dev/null || true
            cat "$vt_start_log" >&2 2>/dev/null || true
        fi
        bash "$here/stop.sh" || true
        printf '[up] logs: %s/*.log, %s/virtuoso-*/virtuoso.log\n' "$SERVERS_DIR" "$SERVERS_DIR" >&2
    fi
    exit "$rc"
}
trap on_exit EXIT

mkdir -p "$SERVERS_DIR"
rm -f "$envfile"
bash "$here/stop.sh" # leftovers of an earlier run

if ! command -v curl >/dev/null 2>&1; then
    log "curl missing: installing it"
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y --no-install-recommends curl >&2 ||
        die "could not install curl"
fi

step "install Virtuoso" bash "$here/install-virtuoso.sh"
step "install Oxigraph" bash "$here/install-oxigraph.sh"
step "install Comunica" bash "$here/install-comunica.sh"

# Comunica (Node) starts in the background too: it reads its file at start-up.
cm_t0=$EPOCHREALTIME
cm_pids=()
for spec in "$cm_port|fixtures/family/family.ttl" "$cm_trains_port|fixtures/trains/trains.ttl"; do
    IFS='|' read -r p f <<<"$spec"
    bash "$here/start-comunica.sh" "$p" "$f" 2>"$SERVERS_DIR/start-comunica-$p.out" &
    cm_pids+=("$!")
done

# Virtuoso starts in the background (it takes a few seconds) while Oxigraph
# loads its store offline.
vt_start_log="$SERVERS_DIR/start-virtuoso.out"
vt_start_pid=""
vt_t0=$EPOCHREALTIME
bash "$here/start-virtuoso.sh" "$vt_http" "$vt_sql" 2>"$vt_start_log" &
vt_start_pid=$!

rm -rf "$SERVERS_DIR/oxigraph-$ox_port"
for d in "${datasets[@]}"; do
    IFS='|' read -r f g n <<<"$d"
    step "load Oxigraph  $(basename "$f")" bash "$here/load-oxigraph.sh" "$ox_port" "$f" "$g" "$n" >/dev/null
done
step "start Oxigraph (to ready)" bash "$here/start-oxigraph.sh" "$ox_port"

if ! wait "$vt_start_pid"; then
    cat "$vt_start_log" >&2
    die "Virtuoso failed to start"
fi
cat "$vt_start_log" >&2
timings+=("$(printf '%-50s %6ss' "start Virtuoso (to ready, in parallel)" "$(elapsed_since "$vt_t0")")")

for d in "${datasets[@]}"; do
    IFS='|' read -r f g n <<<"$d"
    step "load Virtuoso  $(basename "$f")" bash "$here/load-virtuoso.sh" "$vt_sql" "$f" "$g" "$n" >/dev/null
done

for i in "${!cm_pids[@]}"; do
    p=$((cm_port + i))
    if ! wait "${cm_pids[$i]}"; then
        cat "$SERVERS_DIR/start-comunica-$p.out" >&2
        die "Comunica on port $p failed to start"
    fi
    cat "$SERVERS_DIR/start-comunica-$p.out" >&2
done
cm_pids=()
timings+=("$(printf '%-50s %6ss' "start Comunica x2 (to ready, in parallel)" "$(elapsed_since "$cm_t0")")")

graphs=""
for d in "${datasets[@]}"; do
    IFS='|' read -r _ g _ <<<"$d"
    graphs="$graphs${graphs:+ }$g"
done
cat >"$envfile.tmp" <<ENV
# Written by .ci/servers/up.sh; stop the servers with .ci/servers/stop.sh
export OXILEARN_TEST_OXIGRAPH=http://127.0.0.1:$ox_port/query
export OXILEARN_TEST_VIRTUOSO=http://127.0.0.1:$vt_http/sparql
export OXILEARN_TEST_GRAPHS="$graphs"
export OXILEARN_TEST_COMUNICA=http://127.0.0.1:$cm_port/sparql
export OXILEARN_TEST_COMUNICA_TRAINS=http://127.0.0.1:$cm_trains_port/sparql
ENV
mv -f "$envfile.tmp" "$envfile"

{
    echo "[up] SPARQL test servers up ($(elapsed_since "$T0")s in all):"
    printf '[up]   %s\n' "${timings[@]}"
    echo "[up] graphs (same triple count on both): $graphs"
    echo "[up] source $envfile"
    sed -n 's/^export /[up]   /p' "$envfile"
} >&2
