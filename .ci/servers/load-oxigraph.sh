#!/usr/bin/env bash
# Usage: load-oxigraph.sh PORT FILE GRAPH_IRI [EXPECTED_TRIPLES]
# Loads FILE into the named graph GRAPH_IRI of the store
# target/servers/oxigraph-PORT/ that start-oxigraph.sh PORT serves. Loading
# is OFFLINE, before the server starts (RocksDB allows one process per
# store): it fails if the server of PORT is running. The graph is cleared
# first (so loading again does not duplicate blank-node triples) unless
# LOAD_APPEND=1. Prints the graph's triple count and, given
# EXPECTED_TRIPLES, fails unless it matches.
# Formats by extension: .ttl, .nt, .n3, .owl/.rdf/.xml (passed as RDF/XML:
# Oxigraph does not know the .owl extension), each optionally .gz (read
# directly by `oxigraph load`).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] && [ $# -le 4 ] || die "usage: $0 PORT FILE GRAPH_IRI [EXPECTED_TRIPLES]"
port="$1"
file="$2"
graph="$3"
expected="${4:-}"
check_port_arg "$port"
check_iri "$graph"
[ -f "$file" ] && [ -r "$file" ] || die "no readable file: $file"
case "$expected" in '' | [0-9]*) ;; *) die "EXPECTED_TRIPLES must be a number: $expected" ;; esac
bin="$SERVERS_DIR/bin/oxigraph"
[ -x "$bin" ] || die "$bin is missing: run .ci/servers/install-oxigraph.sh"

case "${file%.gz}" in
    *.ttl) format=text/turtle ;;
    *.nt) format=application/n-triples ;;
    *.n3) format=text/n3 ;;
    *.owl | *.rdf | *.xml) format=application/rdf+xml ;;
    *) die "unsupported file type: $file (want .ttl .nt .n3 .owl .rdf .xml, optionally .gz)" ;;
esac

name="oxigraph-$port"
dir="$SERVERS_DIR/$name"
pidfile="$SERVERS_DIR/$name.pid"
if pidfile_alive "$pidfile"; then
    die "$name is running: Oxigraph data is loaded before the server starts (stop it with .ci/servers/stop.sh)"
fi
mkdir -p "$dir"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT

# Runs the oxigraph CLI; shows its output only when it fails.
ox() {
    if ! timeout "${OXIGRAPH_LOAD_TIMEOUT:-600}" "$bin" "$@" >"$out" 2>&1; then
        grep -v '^ *[0-9]*: \|^ *at \|RUST_BACKTRACE' "$out" | head -n 20 >&2
        return 1
    fi
}

t0=$EPOCHREALTIME
log "loading $file into <$graph> (Oxigraph store $dir, $format)"
if [ "${LOAD_APPEND:-0}" != 1 ]; then
    ox update --location "$dir" --update "DROP SILENT GRAPH <$graph>" ||
        die "could not clear <$graph> in $dir"
fi
ox load --location "$dir" --file "$file" --format "$format" --graph "$graph" ||
    die "Oxigraph failed to load $file into <$graph>"
ox query --location "$dir" --results-format csv \
    --query "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <$graph> { ?s ?p ?o } }" ||
    die "could not count the triples of <$graph>"
count="$(tr -d '\r' <"$out" | sed -n 2p)"
case "$count" in '' | *[!0-9]*) die "unexpected count answer for <$graph>: '$(cat "$out")'" ;; esac
log "loaded $file into <$graph> in $(elapsed_since "$t0")s: graph has $count triples"
if [ -n "$expected" ] && [ "$count" != "$expected" ]; then
    die "<$graph> has $count triples on Oxigraph, expected $expected"
fi
echo "$count"
