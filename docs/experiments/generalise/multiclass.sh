#!/usr/bin/env bash
# Issue 31: the multi-class learners (tdt, trf, multiclass MRSI) on generated multi-class
# node-classification problems (affiliation-like: the class is decided by the funder of the
# projects an entity works on, with distractor links), defaults only, train/test split.
# Usage: multiclass.sh [BIN] (default: the release build). Writes target/generalise-mc/<problem>/
# and target/generalise-mc/results.tsv (read by table.py with the algorithms given).
set -euo pipefail
BIN=${1:-target/release/oxilearn}
OUT=target/generalise-mc
mkdir -p "$OUT"
RES=$OUT/results.tsv
echo -e "problem\tnoise\timbalance\talgorithm\ttest_accuracy\ttest_f1\ttrain_accuracy" > "$RES"
# 3, 4 and 5 classes × seeds 1-3 (noise 0.1/0.2/0.3, imbalance 1:2/1:3/1:4 rotating).
for k in 3 4 5; do
  for seed in 1 2 3; do
    noise=$(echo "0.1 0.2 0.3" | cut -d' ' -f$seed)
    imb=$(echo "2 3 4" | cut -d' ' -f$seed)
    name="k${k}-s${seed}"
    d=$OUT/$name
    "$BIN" generate-node-problems --out "$d" --classes $k --seed $seed --noise $noise --imbalance $imb 2>/dev/null
    for a in tdt trf multiclass; do
      row=$("$BIN" learn --kb "$d/kb.nt" --algorithm $a --problems "$d/train.tsv" --test "$d/test.tsv" \
              --label-column class --quiet --json |
            python3 -c 'import json,sys; d=json.load(sys.stdin); d=d[0] if isinstance(d,list) else d; print("%.4f\t-\t%.4f" % (d["test"]["accuracy"], d["train"]["accuracy"]))')
      echo -e "$name\t$noise\t$imb\t$a\t$row" | tee -a "$RES"
    done
  done
done
