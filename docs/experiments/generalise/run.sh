#!/usr/bin/env bash
# Issue 31 item 7: celoe, tdt, trf and multiclass (MRSI) on generated node-classification
# problems with train/test splits, defaults only. Usage: run.sh [BIN] (default: the release
# build). Writes target/generalise/<problem>/ and target/generalise/results.tsv.
set -euo pipefail
BIN=${1:-target/release/oxilearn}
OUT=target/generalise
mkdir -p "$OUT"
RES=$OUT/results.tsv
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

binary_row() { # dir algorithm
  local d=$1 a=$2
  "$BIN" bench learn --kb "$d/kb.nt" --problems "$d/train.json" --test "$d/test.json" \
    --algorithm "$a" --quiet --json |
    python3 -c 'import json,sys; r=json.load(sys.stdin)["rows"][0]; t=r["test"]; print("%.4f\t%.4f\t%.4f" % (t["accuracy"], t["f1"], r["accuracy"]))'
}
multiclass_row() { # dir train test [--label-column class]
  local d=$1; shift
  "$BIN" learn --kb "$d/kb.nt" --algorithm multiclass --quiet --json "$@" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); d=d[0] if isinstance(d,list) else d; print("%.4f\t-\t%.4f" % (d["test"]["accuracy"], d["train"]["accuracy"]))'
}
for p in "${problems[@]}"; do
  IFS=: read -r name noise imb <<< "$p"
  d=$OUT/$name
  for a in celoe tdt trf; do
    echo -e "$name\t$noise\t$imb\t$a\t$(binary_row "$d" $a)" | tee -a "$RES"
  done
  echo -e "$name\t$noise\t$imb\tmulticlass\t$(multiclass_row "$d" --problems "$d/train.json" --test "$d/test.json")" | tee -a "$RES"
done
