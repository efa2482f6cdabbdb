"""assay.report with intervals against scikit-learn's classification_report without any, on arrays
in memory (issue target: the full report with every interval faster than scikit-learn's bare text
report). Median of 5 runs after one warm-up; prints both times and the ratio.

    .venv/bin/python bench/python_report.py [--n 1000000] [--repeat 5]

Binary labels, a score column (threshold 0.5 gives the predictions scikit-learn is given).
assay.report computes the confusion matrix, every rate, ROC AUC, average precision, log loss, Brier
score, the per-class table and, with ci=0.95, Wilson intervals, DeLong for ROC AUC and the
bootstrap (2000 replicates) for the rest.
"""

import argparse
import statistics
import time

import numpy as np
from sklearn import metrics as sk

import assay


def median_time(f, repeat):
    f()
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, a.n)
    score = np.clip(y * 0.3 + rng.random(a.n) * 0.7, 0, 1)
    pred = (score >= 0.5).astype(np.int64)
    theirs = median_time(lambda: sk.classification_report(y, pred), a.repeat)
    ours = median_time(lambda: assay.report(y, y_score=score, ci=0.95, keep_curves=False), a.repeat)
    ours_plain = median_time(lambda: assay.report(y, y_score=score, keep_curves=False), a.repeat)
    print(f"n = {a.n}")
    print(f"scikit-learn classification_report (no intervals): {theirs:.3f} s")
    print(f"assay.report, ci=0.95 (every interval):            {ours:.3f} s  ratio {theirs / ours:.2f}x")
    print(f"assay.report, no intervals:                         {ours_plain:.3f} s  ratio {theirs / ours_plain:.2f}x")


if __name__ == "__main__":
    main()
