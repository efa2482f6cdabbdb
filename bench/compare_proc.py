#!/usr/bin/python3
"""The Python side of bench/compare_proc.sh.

  compare_proc.py generate N PATH          writes a `label,a,b` CSV of N rows: label 0/1 (30% positives),
                                           a = N(0,1) + 1.2 label rounded to 3 decimals (ties),
                                           b = 0.6 a + N(0,1) + 0.5 label (correlated with a); repr() digits
  compare_proc.py sklearn PATH ROWS REPS   times a user's numpy loop of REPS bootstrap replicates of
                                           sklearn.metrics.roc_auc_score on the first ROWS rows (indices
                                           drawn with numpy, stratified by class as pROC and assay do)
                                           and prints `sklearn_bootstrap_auc ROWS SECONDS_PER_REPLICATE`
"""
import sys
import time

import numpy as np


def generate(n, path):
    rng = np.random.default_rng(20261126)
    y = (rng.random(n) < 0.3).astype(int)
    a = np.round(rng.normal(size=n) + 1.2 * y, 3)
    b = 0.6 * a + rng.normal(size=n) + 0.5 * y
    with open(path, "w") as f:
        f.write("label,a,b\n")
        for i in range(0, n, 100_000):
            f.writelines(f"{y[j]},{a[j]!r},{b[j]!r}\n" for j in range(i, min(n, i + 100_000)))


def sklearn_loop(path, rows, reps):
    import pandas as pd
    from sklearn.metrics import roc_auc_score

    d = pd.read_csv(path, nrows=rows)
    y = d["label"].to_numpy()
    s = d["a"].to_numpy()
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    rng = np.random.default_rng(1)
    t0 = time.perf_counter()
    out = np.empty(reps)
    for r in range(reps):
        idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        out[r] = roc_auc_score(y[idx], s[idx])
    dt = time.perf_counter() - t0
    print(f"sklearn_bootstrap_auc {rows} {dt / reps:.6f}")


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "sklearn":
        sklearn_loop(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit("usage: compare_proc.py generate N PATH | sklearn PATH ROWS REPS")
