#!/usr/bin/python3
"""An external learner for `assay cv --external-command` (protocol: docs/validation.md).

    assay cv iris.csv --target species \
      --external-command '/usr/bin/python3 examples/external/sklearn_learner.py {train} {test} {predictions} {classes} gaussian_nb'

Reads the training part (columns x0.., y) and the test part (x0..), trains a scikit-learn model and
writes `pred` (class index or value) and, for classifiers, p0..p{K-1}.
"""
import sys

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

MODELS = {
    "gaussian_nb": lambda: GaussianNB(),
    "logistic": lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "ridge": lambda: Ridge(alpha=1.0),
}


def main():
    train_path, test_path, out_path, classes, name = sys.argv[1:6]
    classes = int(classes)
    train = pd.read_csv(train_path)
    test = pd.read_csv(test_path)
    y = train.pop("y").to_numpy()
    model = MODELS[name]().fit(train.to_numpy(float), y)
    X = test.to_numpy(float)
    out = pd.DataFrame({"pred": model.predict(X)})
    if classes > 0:
        proba = model.predict_proba(X)
        for k in range(classes):
            # Classes absent from this training part get probability 0.
            hit = np.where(model.classes_ == k)[0]
            out[f"p{k}"] = proba[:, hit[0]] if len(hit) else 0.0
    out.to_csv(out_path, index=False, float_format="%.17g")


if __name__ == "__main__":
    main()
