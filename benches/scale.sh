#!/usr/bin/env bash
# Issue 9's scale benchmark in one command, for before/after comparisons:
#   bash benches/scale.sh [K_LIST] [BACKENDS]      (defaults: 1,10,100 and embedded,oxigraph)
# Builds the release binary, installs the Oxigraph CLI if needed, then runs `bench scale` on
# carcinogenesis (its lp.json problem, --noise 30, with and without numeric splits) and on
# family (Aunt, Uncle, Cousin) with a fixed test budget. Tables go to stdout and to
# target/scale/<name>.md (+ .json); replicated KBs and on-disk stores are kept in
# target/scale/ and reused (k = 100 carcinogenesis: 7.4M triples, ~106 MB gzipped, a few GB
# of Oxigraph store). Needs ../shared/datasets. Environment: MAX_TESTS (10000), PORT (17933).
set -euo pipefail
cd "$(dirname "$0")/.."
ks="${1:-1,10,100}"
backends="${2:-embedded,oxigraph}"
data=../shared/datasets
[ -d "$data" ] || { echo "benches/scale.sh: $data is missing" >&2; exit 1; }
case "$backends" in *oxigraph*) bash .ci/servers/install-oxigraph.sh ;; esac
nice cargo build --release
bin=target/release/oxilearn
mkdir -p target/scale
run() { # NAME KB PROBLEMS [bench scale options…] -- [learn options…]
    local name="$1" kb="$2" lp="$3"
    shift 3
    echo "== $name" >&2
    "$bin" bench scale --kb "$kb" --problems "$lp" --k "$ks" --backends "$backends" \
        --max-tests "${MAX_TESTS:-10000}" --port "${PORT:-17933}" \
        --out-md "target/scale/$name.md" --out-json "target/scale/$name.json" "$@"
}
run carcinogenesis-numbers "$data/carcinogenesis/carcinogenesis.nt.gz" "$data/carcinogenesis/lp.json" \
    -- --noise 30
run carcinogenesis-no-numbers "$data/carcinogenesis/carcinogenesis.nt.gz" "$data/carcinogenesis/lp.json" \
    -- --noise 30 --no-numbers
for p in Aunt Uncle Cousin; do
    run "family-$p" "$data/family/family-benchmark_rich_background.owl" "$data/family/lps.json" \
        --problem "$p"
done
