#!/usr/bin/env bash
# Issue 31 item 7: celoe, tdt, trf and multiclass (MRSI) on generated node-classification
# problems with train/test splits. Usage: run.sh [BIN [SPEC...]] (BIN default: the release
# build). A SPEC is a learner name (its defaults) or `label=name flags…`, e.g.
# 'trf-nb5=trf --no-balance --min-leaf 5'; default: celoe tdt trf multiclass. Writes
# target/generalise/<problem>/ and $RES (default target/generalise/results.tsv).
set -euo pipefail
BIN=${1:-target/release/oxilearn}
shift || true
specs=("$@")
[ ${#specs[@]} -eq 0 ] && specs=(celoe tdt trf multiclass)
OUT=target/generalise
mkdir -p "$OUT"
RES=${RES:-$OUT/results.tsv}
echo -e "problem\tnoise\timbalance\talgorithm\ttest_accuracy\ttest_f1\ttrain_accuracy" > "$RES"

# Five binary rule templates × three generator seeds; noise 0.1/0.2/0.3 and imbalance
# 1:3 / 1:6 / 1:10 rotate with the seed.
gen() {
  local name=$1; shift
  "$BIN" generate-node-problems --out "$OUT/$name" "$@" 2>/dev/null
}
problems=()
for rule in 0 1 2 3 4; do
  for seed in 1 2 3; do
    noise=$(echo "0.1 0.2 0.3" | cut -d' ' -f$seed)
    imb=$(echo "3 6 10" | cut -d' ' -f$seed)
    name="r${rule}-s${seed}"
    gen "$name" --rule $rule --seed $seed --noise $noise --imbalance $imb
    problems+=("$name:$noise:$imb")
  done
done

# `learn --test`: test accuracy and F1 of the held-out split; training accuracy from the
# run's errors (binary learners) or its `train` block (multiclass, which runs through its
# own pipeline and reads a binary file as two classes; F1 is not reported there).
row() { # dir algorithm [flags…]
  local d=$1 a=$2; shift 2
  "$BIN" learn --kb "$d/kb.nt" --problems "$d/train.json" --test "$d/test.json" \
    --algorithm "$a" --quiet --json "$@" |
    python3 -c '
import json, sys
d = json.load(sys.stdin); d = d[0] if isinstance(d, list) else d; t = d["test"]
if "train" in d:
    print("%.4f\t-\t%.4f" % (t["accuracy"], d["train"]["accuracy"]))
else:
    e = d["errors"]; n = d["positives"] + d["negatives"]
    train = 1 - (len(e["missed_positives"]) + len(e["covered_negatives"])) / n
    print("%.4f\t%.4f\t%.4f" % (t["accuracy"], t["f1"], train))'
}
for p in "${problems[@]}"; do
  IFS=: read -r name noise imb <<< "$p"
  for spec in "${specs[@]}"; do
    label=${spec%%=*}
    read -r -a line <<< "${spec#*=}"
    echo -e "$name\t$noise\t$imb\t$label\t$(row "$OUT/$name" "${line[@]}")" | tee -a "$RES"
  done
done
