"""assay.stats against statsmodels, and DeLong against a brute-force reference."""

import math

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import cochrans_q as sm_cochrans_q
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

import assay
from assay import stats


@pytest.mark.parametrize("method,theirs", [("wilson", "wilson"), ("normal", "normal"),
                                           ("agresti_coull", "agresti_coull"), ("clopper_pearson", "beta")])
@pytest.mark.parametrize("count,nobs", [(0, 10), (3, 10), (10, 10), (412, 569), (7.5, 20.25)])
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_proportion_ci_matches_statsmodels(method, theirs, count, nobs, level):
    est = stats.proportion_ci(count, nobs, level=level, method=method)
    lo, hi = proportion_confint(count, nobs, alpha=1 - level, method=theirs)
    assert float(est) == pytest.approx(count / nobs, rel=1e-15)
    assert est.ci == pytest.approx((lo, hi), rel=1e-12, abs=1e-15)
    assert est.level == level
    assert isinstance(est, float) and f"{est:.3f}" == f"{count / nobs:.3f}"


@pytest.mark.parametrize("n01,n10", [(10, 3), (0, 5), (25, 25), (1, 0), (120, 95)])
def test_mcnemar_matches_statsmodels(n01, n10):
    table = [[50, n01], [n10, 40]]
    for method, kw in (("exact", dict(exact=True)), ("chi2_corrected", dict(exact=False, correction=True)),
                       ("chi2", dict(exact=False, correction=False))):
        ours = stats.mcnemar_counts(n01, n10, method=method)
        theirs = sm_mcnemar(table, **kw)
        assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-10)


def test_mcnemar_from_predictions(rng):
    y = rng.integers(0, 3, 300)
    a = np.where(rng.random(300) < 0.7, y, (y + 1) % 3)
    b = np.where(rng.random(300) < 0.6, y, (y + 2) % 3)
    r = stats.mcnemar(y, a, b)
    n01 = int(np.sum((a == y) & (b != y)))
    n10 = int(np.sum((a != y) & (b == y)))
    assert (r.n01, r.n10) == (n01, n10)
    theirs = sm_mcnemar([[0, n01], [n10, 0]], exact=True)
    assert r.pvalue == pytest.approx(theirs.pvalue, rel=1e-10)
    stat, p = r
    assert (stat, p) == (r.statistic, r.pvalue)


def test_cochrans_q_matches_statsmodels(rng):
    y = rng.integers(0, 2, 150)
    preds = [np.where(rng.random(150) < acc, y, 1 - y) for acc in (0.6, 0.7, 0.8)]
    ours = stats.cochrans_q(y, *preds)
    theirs = sm_cochrans_q(np.stack([p == y for p in preds], axis=1).astype(int))
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-10)
    assert ours.df == 2


@pytest.mark.parametrize("method", ["holm", "bonferroni", "fdr_bh"])
def test_adjust_pvalues_matches_statsmodels(rng, method):
    p = np.round(rng.random(12) ** 3, 3)
    np.testing.assert_allclose(stats.adjust_pvalues(p, method), multipletests(p, method=method)[1], rtol=1e-14)


def naive_auc_and_placements(y, s):
    pos, neg = s[y == 1], s[y == 0]
    h = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return h.mean(), h.mean(axis=1), h.mean(axis=0)


def naive_delong(y, a, b):
    """DeLong et al. (1988) by brute force over every positive-negative pair."""
    auc_a, v10a, v01a = naive_auc_and_placements(y, a)
    auc_b, v10b, v01b = naive_auc_and_placements(y, b)
    s10 = np.cov(np.stack([v10a, v10b]))
    s01 = np.cov(np.stack([v01a, v01b]))
    s = s10 / len(v10a) + s01 / len(v01a)
    var = s[0, 0] + s[1, 1] - 2 * s[0, 1]
    return auc_a, auc_b, (auc_a - auc_b) / math.sqrt(var)


def test_delong_paired_against_brute_force(rng):
    for _ in range(5):
        n = 120
        y = rng.integers(0, 2, n)
        a = np.round(y + rng.normal(0, 1, n), 1)  # ties
        b = np.round(y + rng.normal(0, 1.3, n), 1)
        r = stats.delong_test(y, a, b)
        auc_a, auc_b, z = naive_delong(y, a, b)
        assert r.auc_a == pytest.approx(auc_a, rel=1e-12)
        assert r.auc_b == pytest.approx(auc_b, rel=1e-12)
        assert r.statistic == pytest.approx(z, rel=1e-9)
        assert r.ci[0] < r.difference < r.ci[1]


def test_delong_string_labels_need_pos_label():
    with pytest.raises(ValueError, match="pos_label"):
        stats.delong_test(["a", "b", "a", "b"], [0.1, 0.2, 0.3, 0.4], [0.2, 0.1, 0.4, 0.3])
    r = stats.delong_test(["a", "b", "a", "b", "b", "a"], [0.1, 0.7, 0.3, 0.4, 0.8, 0.5],
                          [0.2, 0.5, 0.4, 0.3, 0.6, 0.1], pos_label="b")
    assert r.auc_a == pytest.approx(8 / 9)


def test_bad_input_names_parameter():
    with pytest.raises(ValueError, match=r"level is 1.5; it must be in \(0, 1\)"):
        stats.proportion_ci(3, 10, level=1.5)
    with pytest.raises(ValueError, match="n10 is -1"):
        stats.mcnemar_counts(3, -1)
    with pytest.raises(ValueError, match="method"):
        stats.proportion_ci(3, 10, method="jeffreys-ish")
    with pytest.raises(ValueError):
        stats.proportion_ci(11, 10)


def test_estimate_is_a_float():
    e = stats.proportion_ci(1, 4)
    assert e == 0.25 and e + 1 == 1.25 and round(e, 1) == 0.2
    assert assay._estimate.Estimate(0.0, reason="one class").defined is False
