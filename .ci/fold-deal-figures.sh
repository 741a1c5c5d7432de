#!/usr/bin/env bash
# Issue 29 step 4: cv figures on fixtures/family (every binary learner, 2 and 3 folds, seeds 7
# and 11) and fixtures/multiclass (zoo, 3 folds), to compare fold deals.
#   bash .ci/fold-deal-figures.sh BINARY OUTDIR
B=$1; O=$2; mkdir -p $O
for a in celoe tbc forest-mixing owl-boost wfoil-dl tdt; do
  mt=(--max-tests 300); [ $a = tdt ] && mt=()
  for s in 7 11; do
  $B cv --kb fixtures/family/family.ttl --problems fixtures/family/problems.json --algorithm $a "${mt[@]}" --max-runtime 0 --folds 2 --seed $s --json --quiet > $O/fam2-$a-$s.json 2>$O/fam2-$a-$s.err
  $B cv --kb fixtures/family/family.ttl --problems fixtures/family/problems.json --problem Father --problem Grandparent --algorithm $a "${mt[@]}" --max-runtime 0 --folds 3 --seed $s --json --quiet > $O/fam3-$a-$s.json 2>$O/fam3-$a-$s.err
  done
done
for s in 7 11; do
  $B cv --kb fixtures/multiclass/zoo.ttl --problems fixtures/multiclass/zoo-train.tsv --label-column class --algorithm multiclass --rule-tests 300 --max-runtime 0 --folds 3 --seed $s --json --quiet > $O/mc-$s.json 2>$O/mc-$s.err
done
