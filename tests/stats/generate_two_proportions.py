#!/usr/bin/python3
"""Writes tests/stats/two_proportions.json: reference values from statsmodels and SciPy for the
difference of two independent proportions (assay::stats two_proportions_ci, two_proportions_z_test,
fisher_exact_test; replayed by tests/stats/two_proportions_test.cpp; CI never runs this script).

Run from the repository root:  /usr/bin/python3 tests/stats/generate_two_proportions.py
Needs Debian's python3-scipy and python3-statsmodels (scripts/install-deps.sh installs both).
Peers: statsmodels.stats.proportion.confint_proportions_2indep (method 'wald' and 'newcomb'),
statsmodels.stats.proportion.proportions_ztest (pooled variance), scipy.stats.fisher_exact.
"""
import json
import math
import os
import warnings

import numpy as np
import scipy
import scipy.stats as st
import statsmodels
from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "two_proportions.json")
rng = np.random.default_rng(20261126)


def f(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


SM_ALT = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}

cases = [(30, 200, 45, 210), (0, 50, 0, 60), (50, 50, 60, 60), (0, 20, 5, 20), (20, 20, 3, 25), (1, 3, 2, 3),
         (7, 1000, 19, 900), (12, 40, 8, 40), (500, 1000, 480, 1000), (3, 10, 0, 12), (1, 1, 0, 1)]
for _ in range(40):
    n1, n2 = int(rng.integers(1, 400)), int(rng.integers(1, 400))
    cases.append((int(rng.integers(0, n1 + 1)), n1, int(rng.integers(0, n2 + 1)), n2))
# weighted (non-integer) counts: intervals and z test only
weighted = [(12.5, 40.25, 8.75, 39.5), (0.5, 10.0, 3.25, 7.5)]

out = {"peers": {"statsmodels": statsmodels.__version__, "scipy": scipy.__version__, "numpy": np.__version__},
       "cases": []}
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for k, (x1, n1, x2, n2) in enumerate(cases + weighted):
        level = [0.95, 0.9, 0.99][k % 3]
        c = {"x1": x1, "n1": n1, "x2": x2, "n2": n2, "level": level}
        for m, name in [("wald", "wald"), ("newcomb", "newcombe")]:
            lo, hi = confint_proportions_2indep(x1, n1, x2, n2, method=m, compare="diff", alpha=1 - level)
            c[name] = [f(lo), f(hi)]
        for alt in ["two-sided", "greater", "less"]:
            z, p = proportions_ztest(np.array([x1, x2], dtype=float), np.array([n1, n2], dtype=float),
                                     alternative=SM_ALT[alt])
            c["z_" + alt] = [f(z), f(p)]
            if float(x1).is_integer() and float(x2).is_integer():
                orr, pf = st.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]], alternative=alt)
                c["fisher_" + alt] = [f(orr), f(pf)]
        out["cases"].append(c)

with open(OUT, "w") as fh:
    json.dump(out, fh, indent=1)
    fh.write("\n")
print("wrote", OUT, len(out["cases"]), "cases")
