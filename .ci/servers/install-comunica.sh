#!/usr/bin/env bash
# Installs Comunica's SPARQL endpoint over local RDF files,
# comunica-sparql-file-http (npm package @comunica/query-sparql-file), into
# target/servers/comunica (its own node_modules and npm cache there: nothing
# outside the clone). Version 4 is pinned: version 5 needs a newer Node than
# the machine's 20. Idempotent: skips when that version is already installed.
# Environment: COMUNICA_VERSION overrides the version.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

version="${COMUNICA_VERSION:-4.5.0}"
case "$version" in *[!0-9.]*) die "unexpected Comunica version '$version'" ;; esac
dir="$SERVERS_DIR/comunica"
bin="$dir/node_modules/.bin/comunica-sparql-file-http"
installed="$dir/node_modules/@comunica/query-sparql-file/package.json"

if [ -x "$bin" ] && [ -f "$installed" ] &&
    grep -q "\"version\": \"$version\"" "$installed"; then
    log "Comunica $version already installed: $bin"
    exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
    log "npm missing: installing Debian's nodejs and npm"
    if ! DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y --no-install-recommends nodejs npm >&2; then
        log "apt-get install failed; retrying once after apt-get update"
        { timeout 300 apt-get update && DEBIAN_FRONTEND=noninteractive timeout 900 \
            apt-get install -y --no-install-recommends nodejs npm; } >&2 ||
            die "could not install nodejs and npm"
    fi
fi
node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
[ "$node_major" -ge 18 ] || die "Comunica 4 needs Node >= 18; this machine has $(node --version 2>&1)"

t0=$EPOCHREALTIME
mkdir -p "$dir"
[ -f "$dir/package.json" ] || printf '{ "name": "oxilearn-test-comunica", "private": true }\n' >"$dir/package.json"
log "npm install @comunica/query-sparql-file@$version into $dir"
if ! timeout 900 npm install --prefix "$dir" --cache "$dir/.npm-cache" --no-audit --no-fund \
    --no-update-notifier --loglevel=error --save-exact "@comunica/query-sparql-file@$version" >&2; then
    die "npm install @comunica/query-sparql-file@$version failed"
fi
[ -x "$bin" ] || die "npm installed no $bin"
log "installed Comunica $version at $bin in $(elapsed_since "$t0")s"
