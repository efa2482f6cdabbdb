#!/usr/bin/python3
"""Writes the reference for the pointwise ROC and PR bands of `assay report --ci --html`
(tests/html/curve_bands_test.cpp): a small scored file with ties (data/bands.csv) and, at every
point of its ROC and PR curves, the counts and statsmodels' proportion_confint interval
(Wilson at 0.95, Clopper-Pearson "beta" at 0.90) of TPR = TP/P and precision = TP/(TP+FP).

The curve points are enumerated here from the rows, independently of assay: ROC point 0 is the
origin (nothing positive), then one point per distinct score, highest first ("positive when
score >= s"); PR points run over the distinct scores lowest first and end with (recall 0,
precision 1), which has no counts (scikit-learn's layout). Run: /usr/bin/python3 generate_bands.py
"""
import json
import os

import numpy as np
import statsmodels
from statsmodels.stats.proportion import proportion_confint

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261126)
n = 300
y = rng.integers(0, 2, n)
score = np.round(np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1), 2)  # 2 decimals: many ties

with open(os.path.join(here, "data", "bands.csv"), "w") as f:
    f.write("y,s\n")
    for a, b in zip(y, score):
        f.write(f"{int(a)},{repr(float(b))}\n")

P = int(y.sum())
levels = {"wilson": 0.95, "beta": 0.90}


def interval(x, m, method):
    lo, hi = proportion_confint(x, m, alpha=1 - levels[method], method=method)
    return [float(lo), float(hi)]


desc = sorted(set(score.tolist()), reverse=True)
roc = [{"tp": 0, "p": P, **{m: interval(0, P, m) for m in levels}}]
for t in desc:
    tp = int(((score >= t) & (y == 1)).sum())
    roc.append({"tp": tp, "p": P, **{m: interval(tp, P, m) for m in levels}})
pr = []
for t in reversed(desc):
    tp = int(((score >= t) & (y == 1)).sum())
    pp = int((score >= t).sum())
    pr.append({"tp": tp, "pp": pp, **{m: interval(tp, pp, m) for m in levels}})
pr.append(None)  # the closing point (recall 0, precision 1): no counts, no band

with open(os.path.join(here, "data", "bands_statsmodels.json"), "w") as f:
    json.dump({"generator": "tests/html/generate_bands.py", "statsmodels": statsmodels.__version__,
               "levels": {"wilson": 0.95, "clopper_pearson": 0.90}, "roc": roc, "pr": pr}, f, indent=0)
    f.write("\n")
