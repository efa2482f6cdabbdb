#!/usr/bin/python3
"""Reference values for tests/slices/heterogeneity_test.cpp: the tests of the sliced report against
statsmodels and SciPy. Run with Debian's /usr/bin/python3 (python3-statsmodels, python3-scipy):

    /usr/bin/python3 tests/slices/generate_heterogeneity.py > tests/slices/heterogeneity.json

Each case is a binary table given by its per-slice confusion counts (tp, fp, fn, tn). For accuracy
(successes tp + tn of all cases) and recall (tp of tp + fn) it records, per slice, statsmodels'
proportions_ztest of the slice against the rest (count = [x_slice, x_rest], nobs = [n_slice, n_rest],
the pooled default), the Holm adjustment of those p-values (multipletests(method="holm")), and SciPy's
chi2_contingency(correction=False) of the slices x (success, failure) table.
"""
import json
import sys

import numpy as np
import scipy
import scipy.stats
import statsmodels
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportions_ztest

rng = np.random.default_rng(20261126)
cases = []
for case in range(6):
    k = int(rng.integers(2, 7))
    counts = []
    for s in range(k):
        n = int(rng.integers(15, 120))
        p_pos = rng.uniform(0.2, 0.6)
        pos = int(rng.binomial(n, p_pos))
        neg = n - pos
        tpr = rng.uniform(0.5, 0.95)
        tnr = rng.uniform(0.5, 0.95)
        tp = int(rng.binomial(pos, tpr))
        tn = int(rng.binomial(neg, tnr))
        counts.append({"tp": tp, "fn": pos - tp, "tn": tn, "fp": neg - tn})
    expected = {}
    for metric in ("accuracy", "recall"):
        if metric == "accuracy":
            x = [c["tp"] + c["tn"] for c in counts]
            n = [c["tp"] + c["tn"] + c["fp"] + c["fn"] for c in counts]
        else:
            x = [c["tp"] for c in counts]
            n = [c["tp"] + c["fn"] for c in counts]
        X, N = sum(x), sum(n)
        z, p = [], []
        for xi, ni in zip(x, n):
            zi, pi = proportions_ztest([xi, X - xi], [ni, N - ni])
            z.append(float(zi))
            p.append(float(pi))
        holm = multipletests(p, method="holm")[1]
        table = np.array([[xi, ni - xi] for xi, ni in zip(x, n)])
        chi2, chi2_p, dof, _ = scipy.stats.chi2_contingency(table, correction=False)
        expected[metric] = {"z": z, "p": p, "p_holm": [float(v) for v in holm],
                            "chi2": float(chi2), "chi2_p": float(chi2_p), "df": int(dof)}
    cases.append({"counts": counts, "expected": expected})

json.dump({"generator": "tests/slices/generate_heterogeneity.py",
           "python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__,
           "statsmodels": statsmodels.__version__, "cases": cases}, sys.stdout, indent=1)
sys.stdout.write("\n")
