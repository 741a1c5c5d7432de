#!/usr/bin/env bash
# Installs the Oxigraph server CLI at target/servers/bin/oxigraph, in the
# version that Cargo.toml pins for the oxigraph crate. PyPI's "oxigraph"
# package (not pyoxigraph) is a wheel that ships the prebuilt CLI as
# oxigraph-VERSION.data/scripts/oxigraph; it is downloaded into
# target/servers/pip (no pip cache elsewhere) and extracted.
# Idempotent: skips when the binary already reports that version.
# Environment: OXIGRAPH_VERSION overrides the version.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

version="${OXIGRAPH_VERSION:-}"
if [ -z "$version" ]; then
    line="$(grep -E '^[[:space:]]*oxigraph[[:space:]]*=' Cargo.toml | head -n1 || true)"
    [ -n "$line" ] || die "no oxigraph dependency in $REPO_ROOT/Cargo.toml"
    version="$(printf '%s\n' "$line" | sed -nE 's/.*version[[:space:]]*=[[:space:]]*"[=^~ ]*([0-9][^"]*)".*/\1/p')"
    [ -n "$version" ] || version="$(printf '%s\n' "$line" | sed -nE 's/^[^=]*=[[:space:]]*"[=^~ ]*([0-9][^"]*)".*/\1/p')"
    [ -n "$version" ] || die "cannot read the oxigraph version from: $line"
fi
case "$version" in *[!0-9.a-z]*) die "unexpected oxigraph version '$version'" ;; esac

bin="$SERVERS_DIR/bin/oxigraph"
if [ -x "$bin" ] && [ "$("$bin" --version 2>/dev/null || true)" = "oxigraph $version" ]; then
    log "oxigraph $version already installed: $bin"
    exit 0
fi

require_cmd python3
python3 -m pip --version >/dev/null 2>&1 || die "pip for python3 is missing (apt-get install python3-pip)"
case "$(uname -m)" in
    x86_64 | aarch64) ;;
    *) log "WARNING: $(uname -m): PyPI may have no oxigraph wheel for this machine" ;;
esac

t0=$EPOCHREALTIME
pipdir="$SERVERS_DIR/pip"
mkdir -p "$pipdir" "$SERVERS_DIR/bin"
wheel="$(compgen -G "$pipdir/oxigraph-$version-*.whl" | head -n1 || true)"
if [ -z "$wheel" ]; then
    log "pip download oxigraph==$version (binary wheel) into $pipdir"
    if ! timeout 300 python3 -m pip download --no-deps --only-binary=:all: --no-cache-dir \
        --disable-pip-version-check -q -d "$pipdir" "oxigraph==$version" >&2; then
        die "pip download oxigraph==$version failed"
    fi
    wheel="$(compgen -G "$pipdir/oxigraph-$version-*.whl" | head -n1 || true)"
    [ -n "$wheel" ] || die "pip did not produce an oxigraph-$version wheel in $pipdir"
fi

log "extracting the CLI from $(basename "$wheel")"
tmp="$bin.tmp.$$"
python3 - "$wheel" "$tmp" <<'PY' || die "no oxigraph server binary in $wheel"
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist() if n.endswith(".data/scripts/oxigraph")]
    if not names:
        sys.exit("no *.data/scripts/oxigraph in wheel; members: " + ", ".join(z.namelist()))
    with z.open(names[0]) as src, open(out, "wb") as dst:
        dst.write(src.read())
PY
chmod 755 "$tmp"
got="$("$tmp" --version 2>&1 || true)"
if [ "$got" != "oxigraph $version" ]; then
    rm -f "$tmp"
    die "extracted binary does not run as expected: '$got'"
fi
mv -f "$tmp" "$bin"
log "installed $got at $bin in $(elapsed_since "$t0")s"
