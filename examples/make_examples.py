#!/usr/bin/python3
"""Writes the bundled prediction files in examples/ from the data in examples/data/.

Out-of-fold predictions (5-fold, fixed seed) of simple scikit-learn models, so that the examples
look like what a user would evaluate. Run with Debian's /usr/bin/python3 (python3-sklearn).
"""
import csv
import os

import numpy as np
import sklearn
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))


def read(name):
    with open(os.path.join(HERE, "data", name)) as f:
        rows = list(csv.DictReader(f))
    return rows


def write(name, header, rows):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def main():
    # Binary: breast cancer, positive class "malignant".
    rows = read("breast_cancer.csv")
    features = [k for k in rows[0] if k != "diagnosis"]
    X = np.array([[float(r[k]) for k in features] for r in rows])
    y = np.array([r["diagnosis"] for r in rows])
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=1000))
    cv = StratifiedKFold(5, shuffle=True, random_state=1)
    p = cross_val_predict(model, X, (y == "malignant").astype(int), cv=cv, method="predict_proba")[:, 1]
    write("breast_cancer_predictions.csv", ["id", "diagnosis", "p_malignant", "predicted"],
          [[i + 1, y[i], repr(float(p[i])), "malignant" if p[i] >= 0.5 else "benign"] for i in range(len(y))])

    # Multiclass: iris, probabilities named after the classes.
    rows = read("iris.csv")
    features = [k for k in rows[0] if k != "species"]
    X = np.array([[float(r[k]) for k in features] for r in rows])
    y = np.array([r["species"] for r in rows])
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=1000))
    P = cross_val_predict(model, X, y, cv=cv, method="predict_proba")
    classes = sorted(set(y))
    write("iris_predictions.csv", ["species", "predicted"] + classes,
          [[y[i], classes[int(np.argmax(P[i]))]] + [repr(float(v)) for v in P[i]] for i in range(len(y))])

    # Regression: diabetes progression.
    rows = read("diabetes.csv")
    features = [k for k in rows[0] if k != "progression"]
    X = np.array([[float(r[k]) for k in features] for r in rows])
    y = np.array([float(r["progression"]) for r in rows])
    pred = cross_val_predict(LinearRegression(), X, y, cv=KFold(5, shuffle=True, random_state=1))
    write("diabetes_predictions.csv", ["progression", "predicted"],
          [[repr(float(y[i])), repr(float(pred[i]))] for i in range(len(y))])
    print("wrote examples with scikit-learn", sklearn.__version__)


if __name__ == "__main__":
    main()
