#!/usr/bin/python3
"""Reference values for tests/validation/compare_test.cpp, from scipy.

Run from the repository root:  /usr/bin/python3 tests/validation/generate_scipy_compare.py
Output: tests/validation/scipy_compare.json (committed). Per case: scores a and b (repr), the paired
t-test of scipy.stats.ttest_rel, the corrected resampled t statistic of Nadeau & Bengio (2003) and
the 5x2cv statistic of Dietterich (1998) with p-values from scipy.stats.t.
"""
import json
import os

import numpy as np
import scipy
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    rng = np.random.RandomState(7)
    cases = []
    for j, shift, n_train, n_test in [(10, 0.02, 455.0, 114.0), (30, 0.0, 90.0, 10.0), (10, -0.05, 50.0, 50.0)]:
        a = 0.9 + 0.03 * rng.randn(j)
        b = a - shift + 0.02 * rng.randn(j)
        d = a - b
        paired = stats.ttest_rel(a, b)
        sd = d.std(ddof=1)
        t_c = d.mean() / (sd * np.sqrt(1 / j + n_test / n_train))
        case = {"a": [repr(float(v)) for v in a], "b": [repr(float(v)) for v in b], "n_train": n_train,
                "n_test": n_test, "paired_t": repr(float(paired.statistic)), "paired_p": repr(float(paired.pvalue)),
                "corrected_t": repr(float(t_c)), "corrected_p": repr(float(2 * stats.t.sf(abs(t_c), j - 1)))}
        if j == 10:
            pairs = d.reshape(5, 2)
            s2 = ((pairs - pairs.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
            t5 = d[0] / np.sqrt(s2.mean())
            case["five_by_two_t"] = repr(float(t5))
            case["five_by_two_p"] = repr(float(2 * stats.t.sf(abs(t5), 5)))
        cases.append(case)
    out = {"generator": "tests/validation/generate_scipy_compare.py", "scipy": scipy.__version__,
           "numpy": np.__version__, "cases": cases}
    with open(os.path.join(HERE, "scipy_compare.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
