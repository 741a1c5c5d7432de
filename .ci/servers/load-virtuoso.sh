#!/usr/bin/env bash
# Usage: load-virtuoso.sh PORT_SQL FILE GRAPH_IRI [EXPECTED_TRIPLES]
# Bulk-loads FILE into the named graph GRAPH_IRI of the Virtuoso listening on
# 127.0.0.1:PORT_SQL (isql-vt; ld_add + rdf_loader_run + checkpoint), checks
# DB.DBA.LOAD_LIST.ll_error, prints the graph's triple count and, given
# EXPECTED_TRIPLES, fails unless it matches. The loader picks the parser by
# extension: .ttl/.nt/.n3 (Turtle family), .owl/.rdf/.xml (RDF/XML), each
# optionally .gz/.bz2/.xz. The graph is cleared first (so loading again
# does not duplicate blank-node triples) unless LOAD_APPEND=1.
# start-virtuoso.sh puts the repository and ../shared/datasets in DirsAllowed
# (Virtuoso 7.2.5's loader was seen reading /tmp as well).
# Environment: VIRTUOSO_DBA_PASSWORD (dba), VIRTUOSO_LOAD_TIMEOUT (600 s).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] && [ $# -le 4 ] || die "usage: $0 PORT_SQL FILE GRAPH_IRI [EXPECTED_TRIPLES]"
sql_port="$1"
graph="$3"
expected="${4:-}"
check_port_arg "$sql_port"
check_iri "$graph"
[ -f "$2" ] && [ -r "$2" ] || die "no readable file: $2"
file="$(cd "$(dirname "$2")" && pwd -P)/$(basename "$2")"
case "$file" in *"'"*) die "file name with a quote is not supported: $file" ;; esac
case "$expected" in '' | [0-9]*) ;; *) die "EXPECTED_TRIPLES must be a number: $expected" ;; esac
inner="$file"
for z in .gz .bz2 .xz; do inner="${inner%"$z"}"; done
case "$inner" in
    *.ttl | *.nt | *.n3 | *.owl | *.rdf | *.xml) ;;
    *) die "unsupported file type for Virtuoso's bulk loader: $file (want .ttl .nt .n3 .owl .rdf .xml, optionally compressed)" ;;
esac
require_cmd isql-vt "run .ci/servers/install-virtuoso.sh"

# Runs SQL $1 through isql-vt; prints its output. isql-vt exits 0 even on
# SQL errors, so its output is checked for '*** Error'.
vsql() {
    local out
    if ! out="$(timeout "${VIRTUOSO_LOAD_TIMEOUT:-600}" isql-vt "127.0.0.1:$sql_port" dba "${VIRTUOSO_DBA_PASSWORD:-dba}" \
        VERBOSE=OFF BANNER=OFF PROMPT=OFF ECHO=OFF "EXEC=$1" </dev/null 2>&1)"; then
        printf '%s\n' "$out" >&2
        die "isql-vt failed or timed out on 127.0.0.1:$sql_port"
    fi
    if [[ "$out" == *'*** Error'* ]]; then
        printf '%s\n' "$out" >&2
        die "SQL error on 127.0.0.1:$sql_port"
    fi
    printf '%s\n' "$out"
}

t0=$EPOCHREALTIME
log "loading $file into <$graph> (Virtuoso SQL port $sql_port)"
clear="SPARQL CLEAR GRAPH <$graph>;"
[ "${LOAD_APPEND:-0}" = 1 ] && clear=""
vsql "$clear
DELETE FROM DB.DBA.LOAD_LIST WHERE ll_file = '$file';
ld_add('$file', '$graph');
rdf_loader_run();
checkpoint;" >/dev/null

status="$(vsql "SELECT concat('LOADSTATE|', cast(ll_state AS varchar), '|', coalesce(replace(replace(ll_error, chr(10), ' '), chr(13), ' '), 'NULL')) FROM DB.DBA.LOAD_LIST WHERE ll_file = '$file';" |
    sed -n 's/^LOADSTATE|//p' | sed 's/[[:space:]]*$//')"
[ -n "$status" ] || die "$file is not in DB.DBA.LOAD_LIST after loading"
state="${status%%|*}"
error="${status#*|}"
if [ "$error" != NULL ] || [ "$state" != 2 ]; then
    die "Virtuoso failed to load $file into <$graph> (ll_state $state): $error"
fi

count="$(vsql "SPARQL SELECT COUNT(*) FROM <$graph> WHERE { ?s ?p ?o };" | grep -E '^[[:space:]]*[0-9]+[[:space:]]*$' | tr -d '[:space:]' | tail -n1)"
[ -n "$count" ] || die "could not count the triples of <$graph>"
log "loaded $file into <$graph> in $(elapsed_since "$t0")s: graph has $count triples"
if [ -n "$expected" ] && [ "$count" != "$expected" ]; then
    die "<$graph> has $count triples on Virtuoso, expected $expected"
fi
echo "$count"
