#!/usr/bin/python3
"""Writes the scikit-learn reference splits that tests/validation/splitters_test.cpp replays.

Run from the repository root:  /usr/bin/python3 tests/validation/generate_sklearn.py
Output: tests/validation/sklearn_splits.json (committed). Only deterministic splitters are compared
(no shuffling): KFold, StratifiedKFold, LeaveOneOut, LeavePOut, GroupKFold (distinct group sizes,
where its greedy order is well defined), LeaveOneGroupOut, LeavePGroupsOut, TimeSeriesSplit.
"""
import json
import os

import numpy as np
import sklearn
from sklearn import model_selection as ms

HERE = os.path.dirname(os.path.abspath(__file__))


def splits(cv, n, y=None, groups=None):
    X = np.zeros((n, 1))
    return [{"train": [int(i) for i in tr], "test": [int(i) for i in te]} for tr, te in cv.split(X, y, groups)]


def main():
    rng = np.random.RandomState(20261126)
    cases = []
    for n, k in [(10, 2), (10, 3), (11, 5), (23, 4), (7, 7)]:
        cases.append({"method": "kfold", "n": n, "k": k, "splits": splits(ms.KFold(k), n)})
    for n, k, classes in [(20, 3, 2), (31, 4, 3), (50, 5, 4), (17, 2, 3)]:
        y = rng.randint(0, classes, size=n)
        y[:classes] = np.arange(classes)[::-1]  # every class present; first-seen order differs from code order
        while np.bincount(y).max() < k:
            y = rng.randint(0, classes, size=n)
        cases.append({"method": "stratified_kfold", "n": n, "k": k, "y": [int(v) for v in y],
                      "splits": splits(ms.StratifiedKFold(k), n, y)})
    for n in [2, 5, 9]:
        cases.append({"method": "loo", "n": n, "splits": splits(ms.LeaveOneOut(), n)})
    for n, p in [(5, 2), (6, 3), (7, 1)]:
        cases.append({"method": "lpo", "n": n, "p": p, "splits": splits(ms.LeavePOut(p), n)})
    counts = [{"n": n, "p": p, "count": int(ms.LeavePOut(p).get_n_splits(np.zeros((n, 1))))}
              for n, p in [(10, 3), (30, 5), (100, 2), (60, 10)]]
    # Groups: codes 0..G-1 with distinct sizes, listed in a shuffled order.
    for sizes, k in [([5, 1, 3, 7, 2, 4], 3), ([9, 8, 2, 1, 6], 2), ([1, 2, 3, 4, 5, 6, 7, 8], 4)]:
        g = np.repeat(np.arange(len(sizes)), sizes)
        rng.shuffle(g)
        cases.append({"method": "group_kfold", "n": int(len(g)), "k": k, "groups": [int(v) for v in g],
                      "splits": splits(ms.GroupKFold(k), len(g), groups=g)})
        cases.append({"method": "logo", "n": int(len(g)), "groups": [int(v) for v in g],
                      "splits": splits(ms.LeaveOneGroupOut(), len(g), groups=g)})
        cases.append({"method": "lpgo", "n": int(len(g)), "p": 2, "groups": [int(v) for v in g],
                      "splits": splits(ms.LeavePGroupsOut(2), len(g), groups=g)})
    for n, k, test_size, gap, max_train in [(10, 3, 0, 0, 0), (20, 4, 0, 1, 0), (20, 4, 3, 0, 5), (13, 5, 0, 0, 0)]:
        cv = ms.TimeSeriesSplit(k, test_size=test_size or None, gap=gap, max_train_size=max_train or None)
        cases.append({"method": "timeseries", "n": n, "k": k, "test_size": test_size, "gap": gap,
                      "max_train": max_train, "splits": splits(cv, n)})
    out = {"generator": "tests/validation/generate_sklearn.py", "sklearn": sklearn.__version__,
           "numpy": np.__version__, "cases": cases, "lpo_counts": counts}
    with open(os.path.join(HERE, "sklearn_splits.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
