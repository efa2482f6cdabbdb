#!/usr/bin/python3
"""Writes tests/stats/compare_multiclass.json: what `assay compare --pred` must report for
multiclass labels, from scikit-learn and statsmodels (tests/stats/compare_multiclass_test.cpp and
tests/cli/compare_multiclass_cli_test.cpp replay it; CI never runs this script).

Run from the repository root:  /usr/bin/python3 tests/stats/generate_compare_multiclass.py
Data: ../shared/data/wine.csv (178 wines, 3 cultivars). Three simple classifiers predict every wine
out of fold (5-fold stratified cross_val_predict, fixed seed); their hard predictions, the peer's
numbers on them, and the versions are written. A second case replaces some of one model's
predictions by a class the label does not have ("unsure"): they count as wrong, and the
scikit-learn metrics take the classes present in the truth or the predictions (its default).
Numbers are written with repr() (shortest round trip), so C++ reads the exact same doubles.
"""
import json
import os
import sys

import numpy as np
import pandas as pd
import sklearn
import statsmodels
from sklearn import metrics as skm
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from statsmodels.stats.contingency_tables import cochrans_q, mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from generate_scipy import f  # a float for JSON (repr round trip; inf/nan as strings)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "compare_multiclass.json")
DATA = os.path.join(HERE, "..", "..", "..", "shared", "data", "wine.csv")


def metric_values(y, p):
    """scikit-learn's multiclass metrics (classes: those in y or p, its default; zero_division 0)."""
    out = {"accuracy": skm.accuracy_score(y, p), "error_rate": 1 - skm.accuracy_score(y, p),
           "balanced_accuracy": skm.balanced_accuracy_score(y, p), "cohen_kappa": skm.cohen_kappa_score(y, p),
           "matthews_corrcoef": skm.matthews_corrcoef(y, p)}
    for avg in ["micro", "macro", "weighted"]:
        out["precision_" + avg] = skm.precision_score(y, p, average=avg, zero_division=0)
        out["recall_" + avg] = skm.recall_score(y, p, average=avg, zero_division=0)
        out["f1_" + avg] = skm.f1_score(y, p, average=avg, zero_division=0)
    return {k: f(v) for k, v in out.items()}


def case(y, preds):
    names = list(preds)
    n = len(y)
    correct = np.column_stack([(np.asarray(preds[k]) == y).astype(int) for k in names])
    pairs = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            a, b = correct[:, i], correct[:, j]
            table = [[int(np.sum(a & b)), int(np.sum(a & (1 - b)))],
                     [int(np.sum((1 - a) & b)), int(np.sum((1 - a) & (1 - b)))]]
            r = mcnemar(table, exact=True)
            pairs.append({"a": names[i], "b": names[j], "n11": table[0][0], "n01": table[0][1], "n10": table[1][0],
                          "n00": table[1][1], "statistic": f(r.statistic), "pvalue": f(r.pvalue)})
    _, holm, _, _ = multipletests([p["pvalue"] for p in pairs], method="holm")
    for p, h in zip(pairs, holm):
        p["pvalue_holm"] = f(h)
    models = []
    for k in names:
        x = int(np.sum(np.asarray(preds[k]) == y))
        lo, hi = proportion_confint(x, n, alpha=0.05, method="wilson")
        models.append({"name": k, "correct": x, "lower": f(lo), "upper": f(hi),
                       "unknown": int(np.sum(~np.isin(preds[k], np.unique(y)))),
                       "metrics": metric_values(y, np.asarray(preds[k]))})
    out = {"y": list(y), "preds": {k: list(v) for k, v in preds.items()}, "names": names, "pairs": pairs,
           "models": models}
    if len(names) > 2:
        q = cochrans_q(correct, return_object=True)
        out["cochrans_q"] = {"statistic": f(q.statistic), "df": f(q.df), "pvalue": f(q.pvalue)}
    return out


def main():
    d = pd.read_csv(DATA)
    y = d["cultivar"].to_numpy()
    x = d.drop(columns=["cultivar"]).to_numpy()
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=7)
    preds = {}
    for name, model in [("tree", DecisionTreeClassifier(max_depth=1, random_state=0)), ("bayes", GaussianNB()),
                        ("knn", KNeighborsClassifier(n_neighbors=5))]:
        preds[name] = cross_val_predict(model, x, y, cv=folds)
    unsure = preds["knn"].astype(object).copy()
    rng = np.random.default_rng(20261126)
    idx = rng.choice(len(y), size=9, replace=False)
    unsure[idx] = "unsure"
    doc = {
        "generator": "tests/stats/generate_compare_multiclass.py",
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "sklearn": sklearn.__version__,
        "statsmodels": statsmodels.__version__,
        "data": "wine.csv (../shared/data), label 'cultivar'",
        "three": case(y, preds),
        "unsure": case(y, {"bayes": preds["bayes"], "knn_unsure": unsure}),
    }
    with open(OUT, "w") as fh:
        json.dump(doc, fh, indent=1, default=lambda o: o.item() if hasattr(o, "item") else str(o))
        fh.write("\n")
    print("wrote", OUT)
    for c in ["three", "unsure"]:
        for m in doc[c]["models"]:
            print(c, m["name"], m["correct"], m["unknown"], m["metrics"]["f1_macro"])
        for p in doc[c]["pairs"]:
            print(c, p["a"], p["b"], p["n01"], p["n10"], p["pvalue"], p["pvalue_holm"])
        if "cochrans_q" in doc[c]:
            print(doc[c]["cochrans_q"])


if __name__ == "__main__":
    main()
