#!/usr/bin/env bash
# Installs Virtuoso Open Source 7 (server virtuoso-t + isql-vt) from Debian.
# Idempotent: does nothing when virtuoso-t is already on PATH.
# virtuoso-opensource-7-bin has no maintainer scripts: it starts no daemon
# and ships no virtuoso.ini (start-virtuoso.sh writes its own). Should a
# future package start one, the virtuoso-t processes that appear during the
# install are stopped.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

if command -v virtuoso-t >/dev/null 2>&1; then
    log "virtuoso-t already installed: $(command -v virtuoso-t)"
else
    [ "$(id -u)" = 0 ] || die "need root to apt-get install virtuoso-opensource-7-bin"
    require_cmd apt-get
    t0=$EPOCHREALTIME
    before=" $(pgrep -x virtuoso-t 2>/dev/null | tr '\n' ' ' || true) "
    log "apt-get install virtuoso-opensource-7-bin"
    apt_log="$(mktemp)"
    export DEBIAN_FRONTEND=noninteractive
    if ! timeout 600 apt-get install -y --no-install-recommends virtuoso-opensource-7-bin >"$apt_log" 2>&1; then
        log "apt-get install failed; retrying once after apt-get update"
        if ! { timeout 300 apt-get update && timeout 600 apt-get install -y --no-install-recommends virtuoso-opensource-7-bin; } >>"$apt_log" 2>&1; then
            tail -n 30 "$apt_log" >&2
            rm -f "$apt_log"
            die "could not install virtuoso-opensource-7-bin"
        fi
    fi
    rm -f "$apt_log"
    command -v virtuoso-t >/dev/null 2>&1 || die "virtuoso-t not found after install"
    for pid in $(pgrep -x virtuoso-t 2>/dev/null || true); do
        case "$before" in *" $pid "*) continue ;; esac
        log "the package started a virtuoso-t daemon (pid $pid): stopping it"
        kill -TERM "$pid" 2>/dev/null || true
        for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    log "installed in $(elapsed_since "$t0")s"
fi

command -v isql-vt >/dev/null 2>&1 || die "isql-vt not found (expected in virtuoso-opensource-7-bin)"
log "server $(command -v virtuoso-t) ($(virtuoso-t -? 2>&1 | sed -n 's/^Version \([^ ]*\).*/\1/p' | head -n1)), client $(command -v isql-vt)"
