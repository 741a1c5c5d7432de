#!/usr/bin/env bash
# Issue 29 steps 3-4 behaviour check: runs a fixed set of commands (every learner on
# fixtures/family: learn, cv, evaluate, predict, enrich; multiclass, tdt and trf on
# fixtures/multiclass) with a fixed seed and --max-tests, and writes their outputs under OUT
# (default target/glue-after). Timings (`*_ms`, rates) are blanked in a normalised copy, so
# two runs compare file by file (normalised outputs; model files and enriched graphs byte
# for byte). A file only OUT_B has is a command OUT_A's binary did not run: listed as new.
#   bash .ci/glue-compare.sh BINARY OUT
#   bash .ci/glue-compare.sh --compare OUT_A OUT_B   (exit 1 on any difference)
set -u
if [ "${1:-}" = --compare ]; then
  status=0
  for d in norm files; do
    for f in "$2/$d"/*; do
      cmp -s "$f" "$3/$d/${f##*/}" || { diff "$f" "$3/$d/${f##*/}"; status=1; }
    done
    for f in "$3/$d"/*; do
      [ -e "$2/$d/${f##*/}" ] || echo "new (no before): $d/${f##*/}"
    done
  done
  [ $status = 0 ] && echo "identical: $2 $3"
  exit $status
fi
B=${1:-target/debug/oxilearn}
OUT=${2:-target/glue-after}
rm -rf "$OUT"; mkdir -p "$OUT/raw" "$OUT/norm" "$OUT/files"
KB=fixtures/family/family.ttl
P=fixtures/family/problems.json
Z=fixtures/multiclass
run() { # name, command...
  local name=$1; shift
  "$@" >"$OUT/raw/$name.out" 2>"$OUT/raw/$name.err"
  echo "exit $?" >>"$OUT/raw/$name.err"
}
for a in celoe tbc forest-mixing owl-boost wfoil-dl; do
  common=(--kb $KB --problems $P --algorithm $a --max-tests 300 --max-runtime 0 --quiet)
  run learn-$a "$B" learn "${common[@]}" --json
  run learn-text-$a "$B" learn "${common[@]}" --problem Father
  run learn-save-$a "$B" learn "${common[@]}" --problem Father --json --save-model "$OUT/files/$a.model.json"
  run cv-$a "$B" cv "${common[@]}" --problem Father --problem Grandparent --folds 3 --seed 7 --json
  run evaluate-$a "$B" evaluate --kb $KB --problems $P --model "$OUT/files/$a.model.json" --json --quiet
  run predict-$a "$B" predict --kb $KB --model "$OUT/files/$a.model.json" --individuals $P --json --quiet
  run enrich-$a "$B" enrich --kb $KB --model "$OUT/files/$a.model.json" --individuals $P --out "$OUT/files/$a.enriched.nq" --graph urn:glue:g --target-class http://example.org/family#Father --json --quiet
done
run cv-multi "$B" cv --kb $KB --problems $P --algorithm celoe,tbc --max-tests 200 --max-runtime 0 --problem Father --folds 3 --seed 7 --json --quiet
run evaluate-concept "$B" evaluate --kb $KB --problems $P --concept Male --json --quiet
mc=(--kb $Z/zoo.ttl --label-column class --algorithm multiclass --rule-tests 300 --max-runtime 0 --quiet)
run mc-learn "$B" learn "${mc[@]}" --problems $Z/zoo-train.tsv --json --save-model "$OUT/files/mc.model.json"
run mc-learn-test "$B" learn "${mc[@]}" --problems $Z/zoo-train.tsv --test $Z/zoo-test.tsv --json
run mc-learn-text "$B" learn "${mc[@]}" --problems $Z/zoo-train.tsv --test $Z/zoo-test.tsv
for c in mrl mrsu cn2; do
  run mc-learn-$c "$B" learn "${mc[@]}" --problems $Z/zoo-train.tsv --combine $c --json
done
run mc-cv "$B" cv "${mc[@]}" --problems $Z/zoo-train.tsv --folds 3 --seed 7 --json
run mc-evaluate "$B" evaluate --kb $Z/zoo.ttl --problems $Z/zoo-test.tsv --label-column class --model "$OUT/files/mc.model.json" --json --quiet
run mc-predict "$B" predict --kb $Z/zoo.ttl --model "$OUT/files/mc.model.json" --whole-kb --json --quiet
run mc-enrich "$B" enrich --kb $Z/zoo.ttl --model "$OUT/files/mc.model.json" --individuals $Z/zoo-test.tsv --out "$OUT/files/mc.enriched.nq" --graph urn:glue:g --json --quiet
# The tree learners on the multi-class problem (issue 29: one pipeline; no "before" on main
# before it, where they needed --algorithm multiclass).
for a in tdt trf; do
  t=(--kb $Z/zoo.ttl --label-column class --algorithm $a --max-runtime 0 --quiet)
  run mc-learn-$a "$B" learn "${t[@]}" --problems $Z/zoo-train.tsv --test $Z/zoo-test.tsv --json --save-model "$OUT/files/mc-$a.model.json"
  run mc-learn-text-$a "$B" learn "${t[@]}" --problems $Z/zoo-train.tsv --test $Z/zoo-test.tsv
  run mc-cv-$a "$B" cv "${t[@]}" --problems $Z/zoo-train.tsv --folds 3 --seed 7 --json
  run mc-evaluate-$a "$B" evaluate --kb $Z/zoo.ttl --problems $Z/zoo-test.tsv --label-column class --model "$OUT/files/mc-$a.model.json" --json --quiet
  run mc-predict-$a "$B" predict --kb $Z/zoo.ttl --model "$OUT/files/mc-$a.model.json" --whole-kb --json --quiet
  run mc-enrich-$a "$B" enrich --kb $Z/zoo.ttl --model "$OUT/files/mc-$a.model.json" --individuals $Z/zoo-test.tsv --out "$OUT/files/mc-$a.enriched.nq" --graph urn:glue:g --json --quiet
done
python3 - "$OUT" <<'PY'
import json, os, re, sys
out = sys.argv[1]
TIME = re.compile(r'(_ms$|^ms_|seconds|per_second|elapsed|^queries_sent$)')
def norm(v):
    if isinstance(v, dict):
        return {k: ("<time>" if TIME.search(k) else norm(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    return v
for f in sorted(os.listdir(f"{out}/raw")):
    text = open(f"{out}/raw/{f}").read()
    if f.endswith(".out"):
        try:
            text = json.dumps(norm(json.loads(text)), indent=1, ensure_ascii=False) + "\n"
        except ValueError:
            text = re.sub(r' \(\d+/s\)', '', text)
            text = re.sub(r'\d+ ms|under 1 ms|\d+ queries sent', '<time>', text)
    else:
        text = re.sub(r'\d+(\.\d+)? ?m?s\b', '<time>', text)
    text = text.replace(out, "<OUT>")
    open(f"{out}/norm/{f}", "w").write(text)
PY
