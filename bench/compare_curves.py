#!/usr/bin/python3
"""The Python side of bench/compare_curves.sh.

  compare_curves.py arrays CSV BIN   reads the `label,score` CSV (not timed), writes its columns to BIN
                                     (int32 labels, then float64 scores: bench_curves reads them) and
                                     prints the seconds of roc_auc_score + average_precision_score on
                                     those arrays, 3 runs, one per line
  compare_curves.py e2e CSV          times pandas.read_csv + roc_curve + roc_auc_score (one run) and
                                     prints the wall-clock seconds and the number of curve points

Only the work is timed (not the interpreter start-up or the imports), which favours Python.
"""
import sys
import time


def arrays(csv, out):
    import numpy as np
    import pandas as pd
    from sklearn.metrics import average_precision_score, roc_auc_score

    df = pd.read_csv(csv)
    y = df["label"].to_numpy().astype(np.int32)
    s = df["score"].to_numpy().astype(np.float64)
    with open(out, "wb") as f:
        y.tofile(f)
        s.tofile(f)
    for _ in range(3):
        t0 = time.perf_counter()
        auc = roc_auc_score(y, s)
        ap = average_precision_score(y, s)
        elapsed = time.perf_counter() - t0
        assert 0 <= auc <= 1 and 0 <= ap <= 1
        print(f"{elapsed:.3f}", flush=True)


def e2e(csv):
    import pandas as pd
    from sklearn.metrics import roc_auc_score, roc_curve

    t0 = time.perf_counter()
    df = pd.read_csv(csv)
    y = df["label"].to_numpy()
    s = df["score"].to_numpy()
    fpr, tpr, thresholds = roc_curve(y, s)
    auc = roc_auc_score(y, s)
    elapsed = time.perf_counter() - t0
    assert len(fpr) == len(tpr) == len(thresholds) and 0 <= auc <= 1
    print(f"{elapsed:.3f} {len(fpr)}")


if __name__ == "__main__":
    if sys.argv[1] == "arrays":
        arrays(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "e2e":
        e2e(sys.argv[2])
    else:
        sys.exit(f"usage: {sys.argv[0]} arrays CSV BIN | e2e CSV")
