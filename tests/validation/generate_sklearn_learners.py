#!/usr/bin/python3
"""Writes scikit-learn reference predictions that tests/validation/learners_test.cpp replays.

Run from the repository root:  /usr/bin/python3 tests/validation/generate_sklearn_learners.py
Output: tests/validation/sklearn_learners.json (committed). Every case trains on the rows whose
0-based index i has i % 3 != 0 and predicts the rows with i % 3 == 0, with the data read from
examples/data/*.csv. Learners with a standardize step get a StandardScaler fitted on the training
rows first (assay's default for logistic and knn). Numbers are written with repr() (shortest round
trip). Logistic regression uses solver="newton-cg" with tol=1e-10: the default lbfgs stops with
gradient entries near 1e-4, too far from the optimum to test against. For k-NN the test rows whose k-th and (k+1)-th nearest training distances tie are flagged:
which neighbour scikit-learn keeps there depends on its partition order, so they are not compared.
"""
import json
import os

import numpy as np
import pandas as pd
import sklearn
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "examples", "data")
TARGETS = {"iris": "species", "wine": "cultivar", "breast_cancer": "diagnosis", "diabetes": "progression"}


def load(name):
    df = pd.read_csv(os.path.join(DATA, name + ".csv"))
    y = df.pop(TARGETS[name]).to_numpy()
    X = df.to_numpy(dtype=float)
    idx = np.arange(len(y))
    return X, y, idx[idx % 3 != 0], idx[idx % 3 == 0]


def knn_ties(X, tr, te, k, scale):
    if scale:
        s = StandardScaler().fit(X[tr])
        A, B = s.transform(X[tr]), s.transform(X[te])
    else:
        A, B = X[tr], X[te]
    flags = []
    for b in B:
        d = np.sort(((A - b) ** 2).sum(axis=1))
        flags.append(bool(abs(d[k] - d[k - 1]) <= 1e-9 * max(1.0, d[k])))
    return flags


def case(name, spec, est, scale=False, k=None):
    X, y, tr, te = load(name)
    model = make_pipeline(StandardScaler(), est) if scale else est
    model.fit(X[tr], y[tr])
    out = {"data": name, "target": TARGETS[name], "learner": spec}
    if name == "diabetes":
        out["value"] = [repr(float(v)) for v in model.predict(X[te])]
    else:
        out["classes"] = [str(c) for c in model.classes_]
        out["pred"] = [str(c) for c in model.predict(X[te])]
        out["proba"] = [[repr(float(v)) for v in row] for row in model.predict_proba(X[te])]
    if k is not None:
        out["tie"] = knn_ties(X, tr, te, k, scale)
    return out


def cross_validation():
    """Per-fold scores of cross_val_score with the default folds: StratifiedKFold(5) for classes,
    KFold(5) for the regression target (no shuffling, so assay's folds are the same rows)."""
    from sklearn.model_selection import cross_val_score, KFold, StratifiedKFold
    runs = []
    specs = [("iris", "gaussian_nb", GaussianNB(), "accuracy"),
             ("wine", "gaussian_nb", GaussianNB(), "accuracy"),
             ("iris", "knn", make_pipeline(StandardScaler(), KNeighborsClassifier(5)), "accuracy"),
             ("breast_cancer", "logistic",
              make_pipeline(StandardScaler(), LogisticRegression(solver="newton-cg", tol=1e-10, max_iter=1000)),
              "accuracy"),
             ("wine", "logistic",
              make_pipeline(StandardScaler(), LogisticRegression(solver="newton-cg", tol=1e-10, max_iter=1000)),
              "balanced_accuracy"),
             ("diabetes", "ridge", Ridge(alpha=1.0), "r2"),
             ("diabetes", "linear", LinearRegression(), "neg_mean_absolute_error")]
    for name, learner, est, metric in specs:
        X, y, _, _ = load(name)
        cv = KFold(5) if name == "diabetes" else StratifiedKFold(5)
        scores = cross_val_score(est, X, y, cv=cv, scoring=metric)
        if metric.startswith("neg_"):
            scores, metric = -scores, metric[4:]
        runs.append({"data": name, "target": TARGETS[name], "learner": learner, "metric": metric,
                     "folds": [repr(float(v)) for v in scores]})
    return runs


def main():
    cases = []
    for name in ["iris", "wine", "breast_cancer"]:
        cases.append(case(name, "majority", DummyClassifier(strategy="prior")))
        cases.append(case(name, "gaussian_nb", GaussianNB()))
        cases.append(case(name, "knn", KNeighborsClassifier(5), scale=True, k=5))
        cases.append(case(name, "knn:k=3,weights=distance,standardize=false",
                          KNeighborsClassifier(3, weights="distance"), k=3))
        cases.append(case(name, "logistic", LogisticRegression(C=1.0, solver="newton-cg", tol=1e-10, max_iter=1000), scale=True))
        cases.append(case(name, "logistic:C=0.05", LogisticRegression(C=0.05, solver="newton-cg", tol=1e-10, max_iter=1000), scale=True))
    cases.append(case("diabetes", "majority", DummyRegressor()))
    cases.append(case("diabetes", "linear", LinearRegression()))
    cases.append(case("diabetes", "ridge", Ridge(alpha=1.0)))
    cases.append(case("diabetes", "ridge:alpha=10,standardize=true", Ridge(alpha=10.0), scale=True))
    cases.append(case("diabetes", "knn", KNeighborsRegressor(5), scale=True, k=5))
    cases.append(case("diabetes", "knn:k=7,weights=distance", KNeighborsRegressor(7, weights="distance"),
                      scale=True, k=7))
    out = {"generator": "tests/validation/generate_sklearn_learners.py", "sklearn": sklearn.__version__,
           "numpy": np.__version__, "split": "train i % 3 != 0, test i % 3 == 0", "cases": cases,
           "cv": cross_validation()}
    with open(os.path.join(HERE, "sklearn_learners.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
