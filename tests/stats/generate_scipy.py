#!/usr/bin/python3
"""Writes tests/stats/scipy_stats.json: reference values from SciPy and statsmodels for the
assay::stats differential tests (tests/stats/*_test.cpp replay it; CI never runs this script).

Run from the repository root:  /usr/bin/python3 tests/stats/generate_scipy.py
Needs Debian's python3-scipy and python3-statsmodels (scripts/install-deps.sh installs both).
Numbers are written with repr() (shortest round trip), so C++ reads the exact same doubles.
"""
import json
import math
import os
import sys

import numpy as np
import scipy
import scipy.stats as st
import statsmodels
from statsmodels.stats.contingency_tables import cochrans_q, mcnemar
from statsmodels.stats.proportion import proportion_confint

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scipy_stats.json")
rng = np.random.default_rng(20240601)


def f(x):
    """A float for JSON: repr round trip; inf/nan as strings."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def distributions():
    out = {"normal": [], "t": [], "chi2": [], "f": [], "binom": [], "z_critical": [], "binomtest": []}
    for x in [-40.0, -8.5, -3.0, -1.959963984540054, -0.5, 0.0, 0.3, 1.0, 2.5, 6.0, 9.0, 38.0]:
        out["normal"].append({"x": f(x), "cdf": f(st.norm.cdf(x)), "sf": f(st.norm.sf(x))})
    for p in [1e-12, 0.001, 0.025, 0.3, 0.5, 0.9, 0.975, 0.999999]:
        out["normal"].append({"p": f(p), "ppf": f(st.norm.ppf(p))})
    for x, df in [(-3.2, 1), (0.0, 2), (1.5, 3.5), (2.2281388519649385, 10), (4.0, 4), (12.0, 7), (-25.0, 30),
                  (60.0, 5)]:
        out["t"].append({"x": f(x), "df": f(df), "cdf": f(st.t.cdf(x, df)), "sf": f(st.t.sf(x, df))})
    for p, df in [(0.975, 4), (0.025, 9), (0.999, 2.5), (0.6, 50)]:
        out["t"].append({"p": f(p), "df": f(df), "ppf": f(st.t.ppf(p, df))})
    for x, df in [(3.841458820694124, 1), (0.0001, 1), (0.5, 2), (10.0, 3), (25.0, 4), (80.0, 1), (300.0, 10),
                  (2.7, 0.5)]:
        out["chi2"].append({"x": f(x), "df": f(df), "cdf": f(st.chi2.cdf(x, df)), "sf": f(st.chi2.sf(x, df))})
    for p, df in [(0.95, 1), (0.99, 5), (0.05, 3)]:
        out["chi2"].append({"p": f(p), "df": f(df), "ppf": f(st.chi2.ppf(p, df))})
    for x, d1, d2 in [(1.0, 10, 5), (4.735063069693675, 10, 5), (30.0, 10, 5), (0.2, 3, 7), (200.0, 2, 40)]:
        out["f"].append({"x": f(x), "df1": f(d1), "df2": f(d2), "sf": f(st.f.sf(x, d1, d2))})
    for k, n, p in [(15, 20, 0.5), (0, 10, 0.3), (3, 10, 0.3), (10, 10, 0.3), (50, 1000, 0.1), (130, 1000, 0.1),
                    (2, 500, 0.5), (7, 7, 0.99)]:
        out["binom"].append({"k": k, "n": n, "p": f(p), "pmf": f(st.binom.pmf(k, n, p)),
                             "cdf": f(st.binom.cdf(k, n, p)), "sf_k_minus_1": f(st.binom.sf(k - 1, n, p))})
    for level in [0.5, 0.68, 0.8, 0.9, 0.95, 0.98, 0.99, 0.999, 1 - 1e-10]:
        out["z_critical"].append({"level": f(level), "z": f(st.norm.isf((1 - level) / 2))})
    cases = [(15, 20, 0.5), (5, 20, 0.5), (10, 20, 0.5), (3, 17, 0.3), (9, 17, 0.3), (0, 12, 0.2), (12, 12, 0.2),
             (1, 40, 0.01), (40, 200, 0.25), (60, 200, 0.25), (7, 9, 0.75), (480, 1000, 0.5), (5, 1000, 0.002),
             (1, 3, 1 / 3), (6, 30, 0.2)]
    for k, n, p in cases:
        for alt in ["two-sided", "greater", "less"]:
            out["binomtest"].append({"k": k, "n": n, "p": f(p), "alternative": alt,
                                     "pvalue": f(st.binomtest(k, n, p, alternative=alt).pvalue)})
    return out


def proportions():
    out = []
    cases = [(0, 10), (1, 10), (5, 10), (9, 10), (10, 10), (17, 50), (3, 120), (118, 120), (45, 45),
             (812, 1000), (1, 1), (0, 1), (12.5, 40.25), (0.75, 3.5), (250, 100000)]
    methods = {"normal": "normal", "wilson": "wilson", "agresti_coull": "agresti_coull", "beta": "clopper_pearson"}
    for x, n in cases:
        for level in [0.5, 0.68, 0.9, 0.95, 0.99]:
            for sm_name, our_name in methods.items():
                lo, hi = proportion_confint(x, n, alpha=1 - level, method=sm_name)
                out.append({"x": f(x), "n": f(n), "level": f(level), "method": our_name, "lower": f(lo),
                            "upper": f(hi)})
    return out


def mcnemar_cases():
    out = []
    for b, c in [(10, 5), (5, 10), (1, 0), (0, 7), (3, 3), (25, 11), (120, 90), (1000, 1100), (40, 1), (12, 13)]:
        table = [[50, b], [c, 30]]
        for name, kw in [("exact", dict(exact=True)), ("chi2_corrected", dict(exact=False, correction=True)),
                         ("chi2", dict(exact=False, correction=False))]:
            r = mcnemar(table, **kw)
            out.append({"n01": b, "n10": c, "method": name, "statistic": f(r.statistic), "pvalue": f(r.pvalue)})
    return out


def cochran_cases():
    out = []
    for n, k, probs in [(30, 2, [0.6, 0.8]), (40, 3, [0.5, 0.6, 0.7]), (100, 4, [0.7, 0.7, 0.72, 0.9]),
                        (12, 5, [0.5, 0.5, 0.5, 0.5, 0.5])]:
        x = (rng.random((n, k)) < np.array(probs)).astype(int)
        r = cochrans_q(x, return_object=True)
        out.append({"n": n, "k": k, "x": x.flatten().tolist(), "statistic": f(r.statistic), "df": f(r.df),
                    "pvalue": f(r.pvalue)})
    return out


def resampling():
    """Tests over folds. ttest_1samp is SciPy's; the corrected and 5x2cv tests have no SciPy function,
    so the published formulas are evaluated here with numpy and SciPy's t / F survival functions."""
    out = {"paired_t": [], "corrected_t": [], "cv52_t": [], "cv52_f": []}
    for k in [3, 5, 10, 30]:
        d = np.round(rng.normal(-0.01, 0.03, size=k), 4)
        for alt in ["two-sided", "greater", "less"]:
            r = st.ttest_1samp(d, 0.0, alternative=alt)
            out["paired_t"].append({"deltas": [f(v) for v in d], "alternative": alt, "statistic": f(r.statistic),
                                    "df": f(k - 1), "pvalue": f(r.pvalue)})
        n_train, n_test = 900, 100
        m = d.mean()
        s2 = d.var(ddof=1)
        t = m / math.sqrt((1 / k + n_test / n_train) * s2)
        out["corrected_t"].append({"deltas": [f(v) for v in d], "n_train": n_train, "n_test": n_test,
                                   "statistic": f(t), "df": f(k - 1), "pvalue": f(2 * st.t.sf(abs(t), k - 1))})
    for _ in range(4):
        p = np.round(rng.normal(0.02, 0.03, size=(5, 2)), 4)  # p[i][j]: difference in replication i, fold j
        pbar = p.mean(axis=1)
        s2 = ((p - pbar[:, None]) ** 2).sum(axis=1)
        t = p[0, 0] / math.sqrt(s2.mean())
        fstat = (p ** 2).sum() / (2 * s2.sum())
        out["cv52_t"].append({"p": [[f(v) for v in row] for row in p], "statistic": f(t), "df": 5.0,
                              "pvalue": f(2 * st.t.sf(abs(t), 5))})
        out["cv52_f"].append({"p": [[f(v) for v in row] for row in p], "statistic": f(fstat), "df1": 10.0,
                              "df2": 5.0, "pvalue": f(st.f.sf(fstat, 10, 5))})
    return out


def wilcoxon_cases():
    out = []

    def add(x, y, zero_method, alt, method, correction=False):
        r = st.wilcoxon(x, y, zero_method=zero_method, alternative=alt, method=method, correction=correction)
        out.append({"x": [f(v) for v in x], "y": [f(v) for v in y], "zero_method": zero_method,
                    "alternative": alt, "method": method, "correction": correction, "statistic": f(r.statistic),
                    "pvalue": f(r.pvalue)})

    # No ties, no zeros: exact distribution (n <= 50) and the normal approximation.
    for n in [6, 12, 25, 49]:
        x = rng.normal(0.3, 1, n)
        y = rng.normal(0, 1, n)
        for alt in ["two-sided", "greater", "less"]:
            add(x, y, "wilcox", alt, "exact")
            add(x, y, "wilcox", alt, "approx")
    # Ties and zeros: normal approximation with the tie correction, each zero method.
    for n in [15, 40, 80]:
        x = np.round(rng.normal(0.2, 1, n), 1)
        y = np.round(rng.normal(0, 1, n), 1)
        x[:3] = y[:3]  # three zero differences
        for zm in ["wilcox", "pratt", "zsplit"]:
            for alt in ["two-sided", "greater", "less"]:
                add(x, y, zm, alt, "approx")
            add(x, y, zm, "two-sided", "approx", correction=True)
    return out


def friedman_cases():
    out = []
    for n, k, dec in [(10, 3, 3), (14, 4, 1), (30, 5, 2), (8, 6, 0)]:
        data = np.round(rng.normal(0, 1, (n, k)) + np.linspace(0, 0.8, k), dec)
        r = st.friedmanchisquare(*[data[:, j] for j in range(k)])
        out.append({"n": n, "k": k, "data": [f(v) for v in data.flatten()], "statistic": f(r.statistic),
                    "df": f(k - 1), "pvalue": f(r.pvalue)})
    return out


def nemenyi_q():
    """q_alpha of the Nemenyi test (Demsar 2006): studentized range quantile with infinite df / sqrt(2)."""
    out = []
    for alpha in [0.05, 0.10]:
        for k in range(2, 11):
            q = st.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
            out.append({"alpha": alpha, "k": k, "q": f(q)})
    return out


def bootstrap_rules():
    """Percentile and BCa intervals on given replicates: np.percentile (linear) and SciPy's own BCa
    rule (scipy.stats._resampling._bca_interval, the code behind scipy.stats.bootstrap(method='BCa')),
    fed with replicates drawn here, so C++ can replay the very same replicate values."""
    from scipy.stats._resampling import _bca_interval
    out = []
    stats = {"mean": lambda x, axis=-1: np.mean(x, axis=axis),
             "var": lambda x, axis=-1: np.var(x, axis=axis, ddof=1)}
    for name, n, B, level in [("mean", 30, 999, 0.95), ("var", 25, 2000, 0.95), ("mean", 12, 500, 0.9),
                              ("var", 40, 1500, 0.99)]:
        x = np.round(rng.exponential(1.0, n), 3)
        stat = stats[name]
        idx = rng.integers(0, n, size=(B, n))
        reps = stat(x[idx], axis=-1)
        alpha = (1 - level) / 2
        a1, a2, a_hat = _bca_interval((x,), stat, axis=-1, alpha=alpha, theta_hat_b=reps, batch=None)
        out.append({"statistic": name, "x": [f(v) for v in x], "level": f(level), "replicates": [f(v) for v in reps],
                    "estimate": f(stat(x)), "percentile": [f(np.percentile(reps, alpha * 100)),
                                                           f(np.percentile(reps, (1 - alpha) * 100))],
                    "bca": [f(np.percentile(reps, a1 * 100)), f(np.percentile(reps, a2 * 100))],
                    "acceleration": f(a_hat)})
    return out


def multipletests_cases():
    """statsmodels.stats.multitest.multipletests on fixed and random p-values, with ties."""
    from statsmodels.stats.multitest import multipletests
    out = []
    families = [[0.01, 0.04, 0.03, 0.005], [0.2, 0.2, 0.01, 1.0, 0.049], [0.5], [0.0, 1.0, 0.3],
                [0.012, 0.012, 0.012], list(np.round(rng.random(12) ** 3, 4)), list(rng.random(7))]
    for p in families:
        for method in ["holm", "bonferroni", "fdr_bh"]:
            _, adj, _, _ = multipletests(p, alpha=0.05, method=method)
            out.append({"p": [f(v) for v in p], "method": method, "adjusted": [f(v) for v in adj]})
    return out


def compare_preds_case():
    """One data set with three classifiers' hard predictions: what `assay compare --pred` must report.
    Cochran's Q (statsmodels cochrans_q on the correctness matrix), McNemar's exact test of each pair
    (statsmodels mcnemar on the 2 x 2 agreement table), Holm over the three McNemar p-values
    (multipletests), and each accuracy's 95% Wilson interval (proportion_confint)."""
    from statsmodels.stats.multitest import multipletests
    n = 150
    y = (rng.random(n) < 0.4).astype(int)
    preds = {}
    for name, p_right in [("tree", 0.72), ("forest", 0.84), ("knn", 0.8)]:
        right = rng.random(n) < p_right
        preds[name] = np.where(right, y, 1 - y)
    names = list(preds)
    correct = np.column_stack([(preds[k] == y).astype(int) for k in names])
    q = cochrans_q(correct, return_object=True)
    pairs = []
    for i in range(3):
        for j in range(i + 1, 3):
            a, b = correct[:, i], correct[:, j]
            table = [[int(np.sum(a & b)), int(np.sum(a & (1 - b)))], [int(np.sum((1 - a) & b)), int(np.sum((1 - a) & (1 - b)))]]
            r = mcnemar(table, exact=True)
            pairs.append({"a": names[i], "b": names[j], "n01": table[0][1], "n10": table[1][0],
                          "statistic": f(r.statistic), "pvalue": f(r.pvalue)})
    _, holm, _, _ = multipletests([p["pvalue"] for p in pairs], method="holm")
    for p, h in zip(pairs, holm):
        p["pvalue_holm"] = f(h)
    acc = []
    for k in names:
        x = int(np.sum(preds[k] == y))
        lo, hi = proportion_confint(x, n, alpha=0.05, method="wilson")
        acc.append({"name": k, "correct": x, "lower": f(lo), "upper": f(hi)})
    return {"y": y.tolist(), "preds": {k: v.tolist() for k, v in preds.items()}, "names": names,
            "cochrans_q": {"statistic": f(q.statistic), "df": f(q.df), "pvalue": f(q.pvalue)}, "pairs": pairs,
            "accuracy": acc}


def main():
    doc = {
        "generator": "tests/stats/generate_scipy.py",
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "statsmodels": statsmodels.__version__,
        "distributions": distributions(),
        "proportion_confint": proportions(),
        "mcnemar": mcnemar_cases(),
        "cochrans_q": cochran_cases(),
        "resampling": resampling(),
        "wilcoxon": wilcoxon_cases(),
        "friedman": friedman_cases(),
        "nemenyi_q": nemenyi_q(),
        "bootstrap_rules": bootstrap_rules(),
        "multipletests": multipletests_cases(),
        "compare_preds": compare_preds_case(),
    }
    with open(OUT, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
