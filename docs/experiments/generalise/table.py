"""Markdown table of target/generalise/results.tsv (or the file given): test accuracy per
problem and learner (the learners in the file's order), then the means (all problems, and per
noise level)."""
import csv, sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1] if len(sys.argv) > 1 else "target/generalise/results.tsv"), delimiter="\t"))
algos = sys.argv[2].split(",") if len(sys.argv) > 2 else list(dict.fromkeys(r["algorithm"] for r in rows))
acc = defaultdict(dict)
meta = {}
for r in rows:
    acc[r["problem"]][r["algorithm"]] = float(r["test_accuracy"])
    meta[r["problem"]] = (r["noise"], r["imbalance"])
print("| problem | noise | imbalance | " + " | ".join(algos) + " |")
print("|---|---|---|" + "---|" * len(algos))
for p in sorted(acc):
    cells = [f"{acc[p][a]:.3f}" if a in acc[p] else "–" for a in algos]
    print(f"| {p} | {meta[p][0]} | 1:{meta[p][1]} | " + " | ".join(cells) + " |")
complete = [p for p in acc if all(a in acc[p] for a in algos)]
def mean(ps, a):
    return sum(acc[p][a] for p in ps) / max(len(ps), 1)
print(f"| **mean ({len(complete)} problems)** | | | " + " | ".join(f"**{mean(complete, a):.3f}**" for a in algos) + " |")
for n in sorted({meta[p][0] for p in complete}):
    ps = [p for p in complete if meta[p][0] == n]
    print(f"| mean, noise {n} ({len(ps)}) | | | " + " | ".join(f"{mean(ps, a):.3f}" for a in algos) + " |")
