#!/usr/bin/python3
"""Writes tests/curves/sklearn_curves.json: scikit-learn's ROC, PR, AUC, AP, multiclass AUC and
calibration-curve outputs on inputs with many ties, some with sample weights (including zeros).
Floats are written by json (repr, shortest round trip), so the C++ side reads the same doubles.
Run: /usr/bin/python3 tests/curves/generate_sklearn.py  (from the repository root)."""
import json
import os

import numpy as np
import sklearn
from sklearn.calibration import calibration_curve
from sklearn.metrics import (average_precision_score, precision_recall_curve, roc_auc_score, roc_curve)

rng = np.random.default_rng(20261126)


def fl(a):
    return [float(x) for x in a]


def binary_case(name, y, s, w=None):
    kw = {} if w is None else {"sample_weight": w}
    c = {"name": name, "y": [int(v) for v in y], "score": fl(s)}
    if w is not None:
        c["weight"] = fl(w)
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False, **kw)
    c["roc_full"] = {"fpr": fl(fpr), "tpr": fl(tpr), "thresholds": fl(thr)}
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=True, **kw)
    c["roc_drop"] = {"fpr": fl(fpr), "tpr": fl(tpr), "thresholds": fl(thr)}
    c["roc_auc"] = float(roc_auc_score(y, s, **kw))
    c["partial_auc"] = [[m, float(roc_auc_score(y, s, max_fpr=m, **kw))] for m in (0.1, 0.25, 0.5, 0.8)]
    p, r, t = precision_recall_curve(y, s, **kw)
    c["pr"] = {"precision": fl(p), "recall": fl(r), "thresholds": fl(t)}
    c["average_precision"] = float(average_precision_score(y, s, **kw))
    return c


cases = []
for i, n in enumerate([2, 5, 10, 30, 100, 400]):
    for ties in (3, 11, None):
        y = rng.integers(0, 2, n)
        y[0], y[-1] = 0, 1  # both classes present
        s = rng.normal(size=n) + 0.8 * y
        if ties is not None:
            s = np.round(s * ties / 4) / (ties / 4)  # few distinct values
        cases.append(binary_case(f"n{n}_ties{ties}", y, s))
        w = rng.uniform(0, 3, n)
        w[rng.uniform(size=n) < 0.15] = 0.0
        w[0] = w[-1] = 1.5
        cases.append(binary_case(f"n{n}_ties{ties}_weighted", y, s, w))
        wi = rng.integers(0, 4, n).astype(float)
        wi[0] = wi[-1] = 1.0
        cases.append(binary_case(f"n{n}_ties{ties}_intweights", y, s, wi))
# Scores that are all equal, and perfectly separated ones.
cases.append(binary_case("all_tied", np.array([0, 1, 0, 1, 1]), np.array([0.5] * 5)))
cases.append(binary_case("separated", np.array([0, 0, 1, 1]), np.array([0.1, 0.2, 0.3, 0.4])))
cases.append(binary_case("reversed", np.array([1, 1, 0, 0]), np.array([0.1, 0.2, 0.3, 0.4])))

multiclass = []
for K, n in ((3, 40), (4, 120), (5, 300)):
    y = np.concatenate([np.arange(K), rng.integers(0, K, n - K)])
    counts = rng.multinomial(10, [1 / K] * K, size=n)  # probabilities k/10: many ties, rows sum to 1
    p = counts / 10.0
    w = rng.uniform(0.1, 2, n)
    m = {"name": f"K{K}_n{n}", "k": K, "y": [int(v) for v in y], "proba": [fl(r) for r in p], "weight": fl(w)}
    for avg in ("macro", "weighted"):
        m[f"ovr_{avg}"] = float(roc_auc_score(y, p, multi_class="ovr", average=avg))
        m[f"ovr_{avg}_w"] = float(roc_auc_score(y, p, multi_class="ovr", average=avg, sample_weight=w))
        m[f"ovo_{avg}"] = float(roc_auc_score(y, p, multi_class="ovo", average=avg))
    multiclass.append(m)

calibration = []
for n, digits in ((50, 1), (200, 2), (1000, None)):
    prob = rng.uniform(size=n)
    if digits is not None:
        prob = np.round(prob, digits)  # values on the bin edges
    y = (rng.uniform(size=n) < prob).astype(int)
    y[0], y[1] = 0, 1
    c = {"name": f"n{n}_digits{digits}", "y": [int(v) for v in y], "prob": fl(prob), "curves": []}
    for strategy in ("uniform", "quantile"):
        for bins in (3, 5, 10):
            pt, pp = calibration_curve(y, prob, n_bins=bins, strategy=strategy)
            c["curves"].append({"strategy": strategy, "n_bins": bins, "prob_true": fl(pt), "prob_pred": fl(pp)})
    calibration.append(c)

# Weighted quantile bins (assay reads weights as frequencies): scikit-learn 1.2's calibration_curve
# has no sample_weight, so the peer's answer is calibration_curve on the rows repeated w_i times
# (integer weights, zeros included). A separate generator keeps the cases above unchanged.
rng2 = np.random.default_rng(20261127)
calibration_weighted = []
for n, digits in ((40, 1), (150, 2), (500, None)):
    prob = rng2.uniform(size=n)
    if digits is not None:
        prob = np.round(prob, digits)
    y = (rng2.uniform(size=n) < prob).astype(int)
    y[0], y[1] = 0, 1
    w = rng2.integers(0, 5, n)
    w[0] = w[1] = 1
    c = {"name": f"n{n}_digits{digits}", "y": [int(v) for v in y], "prob": fl(prob), "weight": fl(w), "curves": []}
    for bins in (3, 5, 10):
        pt, pp = calibration_curve(np.repeat(y, w), np.repeat(prob, w), n_bins=bins, strategy="quantile")
        c["curves"].append({"strategy": "quantile", "n_bins": bins, "prob_true": fl(pt), "prob_pred": fl(pp)})
    calibration_weighted.append(c)

# Multiclass calibration: per class, calibration_curve(y == k, p[:, k]); top-label (Guo et al. 2017),
# calibration_curve(argmax == y, max p) with numpy.argmax (first of equal maxima).
calibration_multiclass = []
for K, n, digits in ((3, 60, 1), (4, 300, 2)):
    logits = rng2.normal(size=(n, K)) * 2
    soft = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    p = np.array([rng2.multinomial(10**digits, row) for row in soft]) / 10**digits  # k / 10^d: ties, sums 1
    y = np.array([rng2.choice(K, p=row / row.sum()) for row in p])
    y[:K] = np.arange(K)
    m = {"name": f"K{K}_n{n}", "k": K, "y": [int(v) for v in y], "proba": [fl(r) for r in p], "curves": []}
    pred = p.argmax(axis=1)
    conf = p.max(axis=1)
    for strategy in ("uniform", "quantile"):
        for bins in (5, 10):
            entry = {"strategy": strategy, "n_bins": bins, "per_class": []}
            for k in range(K):
                pt, pp = calibration_curve((y == k).astype(int), p[:, k], n_bins=bins, strategy=strategy)
                entry["per_class"].append({"prob_true": fl(pt), "prob_pred": fl(pp)})
            pt, pp = calibration_curve((pred == y).astype(int), conf, n_bins=bins, strategy=strategy)
            entry["top_label"] = {"prob_true": fl(pt), "prob_pred": fl(pp)}
            m["curves"].append(entry)
    calibration_multiclass.append(m)

# The example prediction file, as `assay report` and `assay curve` read it.
import pandas as pd  # noqa: E402

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
bc = pd.read_csv(os.path.join(root, "examples", "breast_cancer_predictions.csv"))
bc_y = (bc["diagnosis"] == "malignant").astype(int).to_numpy()
bc_s = bc["p_malignant"].to_numpy()
example = {"file": "examples/breast_cancer_predictions.csv", "label": "diagnosis", "score": "p_malignant",
           "positive": "malignant", "roc_auc": float(roc_auc_score(bc_y, bc_s)),
           "average_precision": float(average_precision_score(bc_y, bc_s))}

iris = pd.read_csv(os.path.join(root, "examples", "iris_predictions.csv"))
iris_classes = ["setosa", "versicolor", "virginica"]
iris_p = iris[iris_classes].to_numpy()
example_multiclass = {"file": "examples/iris_predictions.csv", "label": "species", "proba": iris_classes}
for mc in ("ovr", "ovo"):
    for avg in ("macro", "weighted"):
        example_multiclass[f"roc_auc_{mc}_{avg}"] = float(roc_auc_score(iris["species"], iris_p, multi_class=mc,
                                                                        average=avg, labels=iris_classes))

# `assay curve calibration --proba` on the iris example: per-class and top-label curves (10 uniform
# bins) and the top-label ECE, sum_b (n_b / n) |acc_b - conf_b| with the bins calibration_curve uses.
iris_y = np.array([iris_classes.index(v) for v in iris["species"]])
iris_conf, iris_pred = iris_p.max(axis=1), iris_p.argmax(axis=1)
iris_correct = (iris_pred == iris_y).astype(int)
pt, pp = calibration_curve(iris_correct, iris_conf, n_bins=10, strategy="uniform")
edges = np.linspace(0.0, 1.0, 11)
counts = np.bincount(np.searchsorted(edges[1:-1], iris_conf), minlength=10)
counts = counts[counts != 0]
example_multiclass["calibration"] = {
    "n_bins": 10,
    "per_class": [dict(zip(("prob_true", "prob_pred"), map(fl, calibration_curve(
        (iris_y == k).astype(int), iris_p[:, k], n_bins=10, strategy="uniform")))) for k in range(3)],
    "top_label": {"prob_true": fl(pt), "prob_pred": fl(pp),
                  "ece": float(np.sum(counts / len(iris_y) * np.abs(pt - pp)))},
}

out = {
    "generator": "tests/curves/generate_sklearn.py",
    "sklearn_version": sklearn.__version__,
    "numpy_version": np.__version__,
    "note": "roc thresholds[0] is scikit-learn 1.2's max score + 1",
    "binary": cases,
    "multiclass": multiclass,
    "calibration": calibration,
    "calibration_weighted": calibration_weighted,
    "calibration_multiclass": calibration_multiclass,
    "example_file": example,
    "example_multiclass": example_multiclass,
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sklearn_curves.json")
with open(path, "w") as f:
    json.dump(out, f, separators=(",", ":"))
    f.write("\n")
print(f"wrote {path}: {len(cases)} binary, {len(multiclass)} multiclass, {len(calibration)} calibration cases")
