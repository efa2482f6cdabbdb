"""assay.stats tests between learners (paired t, Nadeau-Bengio, 5x2cv t and F, Wilcoxon, Friedman
+ Nemenyi) against SciPy, and against their formulas written out in NumPy where SciPy has none."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from assay import stats
from assay._estimate import TestResult


def _paired(rng, k, shift=0.01):
    a = rng.normal(0.8, 0.03, k)
    b = a - shift + rng.normal(0, 0.02, k)
    return a, b


# ---- paired t -------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 5, 10, 30])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_paired_ttest_matches_scipy(rng, k, alternative):
    a, b = _paired(rng, k)
    ours = stats.paired_ttest(a, b, alternative=alternative, level=0.9)
    theirs = sps.ttest_rel(a, b, alternative=alternative)
    assert isinstance(ours, TestResult)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-9, abs=1e-15)
    assert ours.df == k - 1 == theirs.df
    assert ours.method == "paired_t"
    assert ours.mean == pytest.approx(np.mean(a - b), rel=1e-12)
    # ci: the two-sided t interval of mean(a - b) at `level` (SciPy's confidence_interval of the
    # two-sided test; assay's ci is two-sided whatever the alternative).
    lo, hi = sps.ttest_rel(a, b).confidence_interval(0.9)
    assert ours.ci == pytest.approx((lo, hi), rel=1e-10)
    assert ours.level == 0.9


def test_paired_ttest_zero_variance_convention():
    # s = 0: SciPy gives NaN; assay's documented convention is t = 0, p = 1 when every difference is
    # 0, else t = +-inf and p = 0.
    r = stats.paired_ttest([0.8, 0.7, 0.9], [0.8, 0.7, 0.9])
    assert (r.statistic, r.pvalue) == (0.0, 1.0)
    r = stats.paired_ttest([3.0, 2.0, 4.0], [2.0, 1.0, 3.0])  # differences exactly 1
    assert r.statistic == math.inf and r.pvalue == 0.0
    r = stats.paired_ttest([2.0, 1.0, 3.0], [3.0, 2.0, 4.0], alternative="greater")
    assert r.statistic == -math.inf and r.pvalue == 1.0
    with np.errstate(all="ignore"):
        assert math.isnan(sps.ttest_rel([0.8, 0.7, 0.9], [0.8, 0.7, 0.9]).statistic)


# ---- Nadeau & Bengio ------------------------------------------------------------------------


def naive_corrected(d, n_train, n_test, level):
    k = d.size
    mean = d.mean()
    se = math.sqrt((1 / k + n_test / n_train) * d.var(ddof=1))
    t = mean / se
    p = 2 * sps.t.sf(abs(t), k - 1)
    half = sps.t.ppf((1 + level) / 2, k - 1) * se
    return t, p, se, (mean - half, mean + half)


@pytest.mark.parametrize("k,n_train,n_test", [(10, 900, 100), (30, 120, 30), (3, 50, 50), (15, 2000.5, 10)])
def test_corrected_resampled_ttest_matches_formula(rng, k, n_train, n_test):
    a, b = _paired(rng, k)
    ours = stats.corrected_resampled_ttest(a, b, n_train, n_test, level=0.95)
    t, p, se, ci = naive_corrected(a - b, n_train, n_test, 0.95)
    assert ours.statistic == pytest.approx(t, rel=1e-12)
    assert ours.pvalue == pytest.approx(p, rel=1e-9)
    assert ours.std_error == pytest.approx(se, rel=1e-12)
    assert ours.df == k - 1
    assert ours.ci == pytest.approx(ci, rel=1e-10)
    assert ours.method == "corrected_resampled_t"
    # The correction only widens: |t| below the uncorrected paired t.
    assert abs(ours.statistic) < abs(sps.ttest_rel(a, b).statistic)
    # The interval inverts the test.
    assert (ci[0] > 0 or ci[1] < 0) == (ours.pvalue < 0.05)


def test_corrected_one_sided(rng):
    a, b = _paired(rng, 10)
    two = stats.corrected_resampled_ttest(a, b, 900, 100)
    greater = stats.corrected_resampled_ttest(a, b, 900, 100, alternative="greater")
    less = stats.corrected_resampled_ttest(a, b, 900, 100, alternative="less")
    assert greater.pvalue == pytest.approx(sps.t.sf(two.statistic, 9), rel=1e-9)
    assert less.pvalue == pytest.approx(sps.t.cdf(two.statistic, 9), rel=1e-9)


# ---- 5x2cv ----------------------------------------------------------------------------------


def naive_5x2(p):
    pbar = p.mean(axis=1)
    s2 = ((p - pbar[:, None]) ** 2).sum(axis=1)
    t = p[0, 0] / math.sqrt(s2.sum() / 5)
    f = (p ** 2).sum() / (2 * s2.sum())
    return t, 2 * sps.t.sf(abs(t), 5), f, sps.f.sf(f, 10, 5)


@pytest.mark.parametrize("seed", range(5))
def test_5x2cv_matches_formulas(seed):
    p = np.random.default_rng(seed).normal(0.01 * seed, 0.02, (5, 2))
    t, pt, f, pf = naive_5x2(p)
    rt = stats.ttest_5x2cv(p)
    assert rt.statistic == pytest.approx(t, rel=1e-12)
    assert rt.pvalue == pytest.approx(pt, rel=1e-9)
    assert rt.df == 5
    # SciPy has no 5x2cv test: the reference is the formula above with scipy.stats.t and f.
    rf = stats.ftest_5x2cv(p)
    assert rf.statistic == pytest.approx(f, rel=1e-12)
    assert rf.pvalue == pytest.approx(pf, rel=1e-9)
    assert (rf.df, rf.df2) == (10, 5)
    # Lists of lists work as well as arrays.
    assert stats.ftest_5x2cv(p.tolist()).statistic == rf.statistic


def test_5x2cv_one_sided_and_degenerate():
    p = np.array([[0.02, 0.01], [0.03, 0.0], [0.01, 0.02], [0.0, 0.01], [0.02, 0.03]])
    t = stats.ttest_5x2cv(p).statistic
    assert stats.ttest_5x2cv(p, alternative="greater").pvalue == pytest.approx(sps.t.sf(t, 5), rel=1e-9)
    z = np.zeros((5, 2))
    assert tuple(stats.ftest_5x2cv(z)) == (0.0, 1.0)
    assert tuple(stats.ttest_5x2cv(z)) == (0.0, 1.0)
    const = np.full((5, 2), 0.01)
    r = stats.ftest_5x2cv(const)
    assert r.statistic == math.inf and r.pvalue == 0.0


# ---- Wilcoxon -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [5, 12, 40])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_wilcoxon_exact_matches_scipy(rng, n, alternative):
    a, b = _paired(rng, n, shift=0.005)  # continuous: no ties, no zeros
    ours = stats.wilcoxon(a, b, alternative=alternative)
    theirs = sps.wilcoxon(a, b, alternative=alternative, method="exact")
    assert ours.method == "wilcoxon_exact"
    assert ours.statistic == theirs.statistic
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-10)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("correction", [False, True])
def test_wilcoxon_approx_with_ties_and_zeros_matches_scipy(rng, zero_method, correction):
    # Scores rounded to 2 decimals, as accuracies on small test sets are: ties and zeros.
    a = np.round(rng.normal(0.8, 0.03, 60), 2)
    b = np.round(a - 0.005 + rng.normal(0, 0.02, 60), 2)
    assert np.any(a == b)
    ours = stats.wilcoxon(a, b, zero_method=zero_method, correction=correction)
    theirs = sps.wilcoxon(a, b, zero_method=zero_method, correction=correction, method="approx")
    assert ours.method == "wilcoxon_approx"
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-9)


def test_wilcoxon_ties_convention(rng):
    # assay never uses the exact distribution with ties: method='exact' falls back to the normal
    # approximation and says so (SciPy's exact distribution with ties is not the null distribution).
    a = np.array([0.81, 0.79, 0.85, 0.80, 0.77, 0.83, 0.82, 0.78])
    b = np.array([0.80, 0.78, 0.83, 0.79, 0.78, 0.80, 0.80, 0.75])  # |d| has ties
    ours = stats.wilcoxon(a, b, method="exact")
    theirs = sps.wilcoxon(a, b, method="approx")
    assert ours.method == "wilcoxon_approx"
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-9)
    with pytest.raises(ValueError, match="every difference"):
        stats.wilcoxon(a, a)
    assert stats.wilcoxon(a, a, zero_method="zsplit").pvalue == 1.0


# ---- Friedman + Nemenyi ---------------------------------------------------------------------


@pytest.mark.parametrize("n,k", [(2, 3), (10, 4), (14, 5), (30, 8)])
def test_friedman_matches_scipy(rng, n, k):
    scores = np.round(rng.normal(0.8, 0.05, (n, k)) + np.linspace(0, 0.05, k), 2)  # some ties
    ours = stats.friedman(scores)
    theirs = sps.friedmanchisquare(*scores.T)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-9)
    assert ours.df == k - 1
    ranks = np.apply_along_axis(sps.rankdata, 1, scores).mean(axis=0)
    np.testing.assert_allclose(ours.mean_ranks, ranks, rtol=1e-14)
    # Nemenyi (Demsar 2006): q_alpha = studentized range quantile (k, inf) / sqrt(2).
    q = sps.studentized_range.ppf(0.95, k, np.inf) / math.sqrt(2)
    assert ours.nemenyi_q == pytest.approx(q, rel=1e-6)
    assert ours.critical_difference == pytest.approx(q * math.sqrt(k * (k + 1) / (6 * n)), rel=1e-6)
    sig = np.abs(ranks[:, None] - ranks[None, :]) >= ours.critical_difference
    np.testing.assert_array_equal(ours.nemenyi_significant, sig)


def nemenyi_reference(scores):
    """scikit-posthocs' posthoc_nemenyi_friedman: q = |R_i - R_j| / sqrt(k (k+1) / (6 n)) * sqrt(2),
    p = studentized_range.sf(q, k, inf)."""
    n, k = scores.shape
    ranks = np.apply_along_axis(sps.rankdata, 1, scores).mean(axis=0)
    q = np.abs(ranks[:, None] - ranks[None, :]) / math.sqrt(k * (k + 1) / (6 * n)) * math.sqrt(2)
    return sps.studentized_range.sf(q, k, np.inf)


@pytest.mark.parametrize("n,k", [(2, 3), (5, 3), (10, 4), (14, 5), (30, 8), (60, 12)])
def test_nemenyi_pvalues_match_studentized_range(rng, n, k):
    scores = np.round(rng.normal(0.8, 0.05, (n, k)) + np.linspace(0, 0.08, k), 2)  # some ties
    ours = stats.friedman(scores)
    ref = nemenyi_reference(scores)
    assert ours.nemenyi_pvalues.shape == (k, k)
    np.testing.assert_allclose(ours.nemenyi_pvalues, ref, rtol=1e-6, atol=1e-12)
    np.testing.assert_array_equal(np.diag(ours.nemenyi_pvalues), np.ones(k))
    np.testing.assert_array_equal(ours.nemenyi_pvalues, ours.nemenyi_pvalues.T)
    # p <= alpha exactly where the mean ranks differ by at least the critical difference (away from
    # the boundary, where the two are computed by different routes).
    p, sig = ours.nemenyi_pvalues, ours.nemenyi_significant
    away = np.abs(p - 0.05) > 1e-6
    np.testing.assert_array_equal((p <= 0.05)[away], sig[away])


def test_friedman_demsar_table():
    # Demsar (2006), Table 5a: q_0.05 for k = 2..10, and q_0.10 (Table 5b) for k = 4; the table is
    # truncated to 3 decimals (k = 3: 2.3437 is printed 2.343).
    table = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
    scores = np.arange(30.0).reshape(3, 10)
    for k, q in zip(range(3, 11), table[1:]):
        assert stats.friedman(scores[:, :k]).nemenyi_q == pytest.approx(q, abs=1e-3)
    assert stats.friedman(scores[:, :4], alpha=0.10).nemenyi_q == pytest.approx(2.291, abs=1e-3)


def test_friedman_all_tied_convention():
    # Every row tied: SciPy gives NaN; assay gives statistic 0 and p = 1.
    r = stats.friedman(np.ones((4, 3)))
    assert (r.statistic, r.pvalue) == (0.0, 1.0)


# ---- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("call,match", [
    (lambda: stats.paired_ttest([1.0, 2.0], [1.0]), r"paired_ttest: a has 2 values but b has 1"),
    (lambda: stats.paired_ttest([1.0], [1.0]), r"paired_ttest: a has 1 values; it needs at least 2"),
    (lambda: stats.paired_ttest([1.0, np.nan], [1.0, 2.0]), r"paired_ttest: a has non-finite"),
    (lambda: stats.paired_ttest([[1.0, 2.0]], [[1.0, 2.0]]), r"paired_ttest: a has shape \(1, 2\)"),
    (lambda: stats.paired_ttest(["x", "y"], [1.0, 2.0]), r"paired_ttest: a has dtype"),
    (lambda: stats.paired_ttest([1.0, 2.0], [1.0, 3.0], level=1), r"paired_ttest: level is 1"),
    (lambda: stats.paired_ttest([1.0, 2.0], [1.0, 3.0], alternative="both"), r"paired_ttest: alternative"),
    (lambda: stats.corrected_resampled_ttest([1.0, 2.0], [1.0, 3.0], 0, 10),
     r"corrected_resampled_ttest: n_train is 0"),
    (lambda: stats.corrected_resampled_ttest([1.0, 2.0], [1.0, 3.0], 90, -1),
     r"corrected_resampled_ttest: n_test is -1"),
    (lambda: stats.corrected_resampled_ttest([1.0, 2.0], [1.0, 3.0], 90, "10"),
     r"corrected_resampled_ttest: n_test is '10'"),
    (lambda: stats.corrected_resampled_ttest([1.0, 2.0], [3.0], 90, 10), r"corrected_resampled_ttest: a has 2"),
    (lambda: stats.ttest_5x2cv(np.zeros(10)), r"ttest_5x2cv: diffs has shape \(10,\); it must be \(5, 2\)"),
    (lambda: stats.ftest_5x2cv(np.zeros((2, 5))), r"ftest_5x2cv: diffs has shape \(2, 5\)"),
    (lambda: stats.ftest_5x2cv(np.full((5, 2), np.inf)), r"ftest_5x2cv: diffs has non-finite"),
    (lambda: stats.ttest_5x2cv(np.zeros((5, 2)), alternative="x"), r"ttest_5x2cv: alternative"),
    (lambda: stats.wilcoxon([1.0, 2.0], [1.0]), r"wilcoxon: a has 2 values but b has 1"),
    (lambda: stats.wilcoxon([], []), r"wilcoxon: a has 0 values"),
    (lambda: stats.wilcoxon([1.0], [2.0], zero_method="x"), r"wilcoxon: zero_method is 'x'"),
    (lambda: stats.wilcoxon([1.0], [2.0], method="asymptotic"), r"wilcoxon: method is 'asymptotic'"),
    (lambda: stats.wilcoxon([1.0], [2.0], correction="yes"), r"wilcoxon: correction"),
    (lambda: stats.friedman(np.zeros((5, 2))), r"friedman: scores has 2 columns"),
    (lambda: stats.friedman(np.zeros((1, 4))), r"friedman: scores has 1 rows"),
    (lambda: stats.friedman(np.zeros(5)), r"friedman: scores has shape \(5,\); it must be 2-D"),
    (lambda: stats.friedman([[1, 2, np.nan], [1, 2, 3]]), r"friedman: scores has non-finite"),
    (lambda: stats.friedman(np.zeros((3, 3)), alpha=0), r"friedman: alpha is 0"),
])
def test_bad_input_names_function_and_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_all_exported():
    for name in ("paired_ttest", "corrected_resampled_ttest", "ttest_5x2cv", "ftest_5x2cv", "wilcoxon",
                 "friedman", "paired_bootstrap", "permutation_test"):
        assert name in stats.__all__ and callable(getattr(stats, name))


# ---- paired bootstrap and permutation test of a registered metric ---------------------------


@pytest.fixture
def two_models(rng):
    y = rng.integers(0, 2, 300)
    return y, y + rng.normal(0, 0.8, 300), y + rng.normal(0, 1.0, 300)


def rank_auc(y, s):
    """ROC AUC from midranks (Mann-Whitney), faster than roc_auc_score for the NumPy references."""
    r = sps.rankdata(s)
    n1 = np.count_nonzero(y)
    return (r[y == 1].sum() - n1 * (n1 + 1) / 2) / (n1 * (y.size - n1))


def numpy_paired_bootstrap_sd(y, a, b, metric, reps, rng):
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    out = []
    for _ in range(reps):
        i = np.concatenate([rng.choice(neg, neg.size), rng.choice(pos, pos.size)])  # stratified
        out.append(metric(y[i], a[i]) - metric(y[i], b[i]))
    return np.std(out, ddof=1)


def numpy_permutation_p(y, a, b, metric, reps, rng):
    d = metric(y, a) - metric(y, b)
    extreme = 0
    for _ in range(reps):
        swap = rng.random(y.size) < 0.5
        pa, pb = np.where(swap, b, a), np.where(swap, a, b)
        extreme += abs(metric(y, pa) - metric(y, pb)) >= abs(d) * (1 - 1e-12)
    return (extreme + 1) / (reps + 1)


def test_paired_bootstrap_roc_auc(two_models):
    from sklearn.metrics import roc_auc_score
    y, a, b = two_models
    r = stats.paired_bootstrap(y, a, b, metric="roc_auc", n_boot=1000, seed=3)
    assert r.estimate_a == pytest.approx(roc_auc_score(y, a), rel=1e-12)
    assert r.estimate_b == pytest.approx(roc_auc_score(y, b), rel=1e-12)
    assert r.difference == pytest.approx(r.estimate_a - r.estimate_b, rel=1e-12)
    assert r.ci[0] < r.difference < r.ci[1] and r.level == 0.95
    assert r.method == "bootstrap_z" and r.replicates == 1000 and r.undefined_replicates == 0
    assert r.statistic == pytest.approx(r.difference / r.std_error, rel=1e-12)
    assert r.pvalue == pytest.approx(2 * sps.norm.sf(abs(r.statistic)), rel=1e-9)
    # The spread of the replicates agrees with a stratified paired bootstrap written in NumPy.
    sd = numpy_paired_bootstrap_sd(y, a, b, rank_auc, 400, np.random.default_rng(1))
    assert r.std_error == pytest.approx(sd, rel=0.15)
    # Seeded; swapping the models negates the difference.
    again = stats.paired_bootstrap(y, a, b, metric="roc_auc", n_boot=1000, seed=3)
    assert (again.ci, again.pvalue) == (r.ci, r.pvalue)
    swapped = stats.paired_bootstrap(y, b, a, metric="roc_auc", n_boot=1000, seed=3)
    assert swapped.difference == pytest.approx(-r.difference, rel=1e-12)


def test_paired_bootstrap_hard_predictions_and_labels(two_models):
    from sklearn.metrics import accuracy_score
    y, a, b = two_models
    pa, pb = (a >= 0.5).astype(int), (b >= 0.5).astype(int)
    r = stats.paired_bootstrap(y, pa, pb, metric="accuracy", n_boot=500)
    assert r.difference == pytest.approx(accuracy_score(y, pa) - accuracy_score(y, pb), rel=1e-12)
    # Scores with a binary metric use score >= threshold: the same numbers.
    s = stats.paired_bootstrap(y, a, b, metric="accuracy", n_boot=500)
    assert (s.difference, *s.ci) == pytest.approx((r.difference, *r.ci), rel=1e-12)
    # Text labels with pos_label.
    names = np.array(["ham", "spam"])
    t = stats.paired_bootstrap(names[y], names[pa], names[pb], metric="accuracy", pos_label="spam", n_boot=500)
    assert (t.difference, t.ci, t.pvalue) == (r.difference, r.ci, r.pvalue)


def test_permutation_test(two_models):
    from sklearn.metrics import f1_score, roc_auc_score
    y, a, b = two_models
    r = stats.permutation_test(y, a, b, metric="roc_auc", n_permutations=999, seed=7)
    assert r.statistic == pytest.approx(roc_auc_score(y, a) - roc_auc_score(y, b), rel=1e-12)
    assert r.pvalue == pytest.approx((r.extreme + 1) / 1000, rel=1e-12) and r.permutations == 999
    p = numpy_permutation_p(y, a, b, rank_auc, 999, np.random.default_rng(2))
    assert r.pvalue == pytest.approx(p, abs=0.06)  # two Monte Carlo estimates of one p-value
    assert stats.permutation_test(y, a, b, n_permutations=999, seed=7).pvalue == r.pvalue
    # Identical models: every permutation is as extreme as the observed 0, p = 1.
    same = stats.permutation_test(y, a, a, n_permutations=99)
    assert (same.statistic, same.pvalue) == (0.0, 1.0)
    pa, pb = (a >= 0.5).astype(int), (b >= 0.5).astype(int)
    f = stats.permutation_test(y, pa, pb, metric="f1", n_permutations=499)
    assert f.statistic == pytest.approx(f1_score(y, pa) - f1_score(y, pb), rel=1e-12)


@pytest.mark.parametrize("call,match", [
    (lambda y, a, b: stats.paired_bootstrap(y, (a > 0.5).astype(int), (b > 0.5).astype(int)),
     r'paired_bootstrap: metric "roc_auc" cannot compare hard predictions'),
    (lambda y, a, b: stats.paired_bootstrap(y, a, b, metric="no_such"), r'paired_bootstrap: metric "no_such"'),
    (lambda y, a, b: stats.paired_bootstrap(y, a, (b > 0.5).astype(int)), r"paired_bootstrap: pred_a has dtype"),
    (lambda y, a, b: stats.paired_bootstrap(y, a, b, n_boot=0), r"paired_bootstrap: n_boot is 0"),
    (lambda y, a, b: stats.paired_bootstrap(y, a, b, level=2), r"paired_bootstrap: ci is 2"),
    (lambda y, a, b: stats.paired_bootstrap(y, a, b, seed=-1), r"paired_bootstrap: seed is -1"),
    (lambda y, a, b: stats.permutation_test(y, a, b, n_permutations=0), r"permutation_test: n_permutations is 0"),
    (lambda y, a, b: stats.permutation_test(y, a, np.where(b > 0, np.nan, b)), r"permutation_test: pred_b has non-finite"),
    (lambda y, a, b: stats.permutation_test(y, (a > 0.5) * 2, (b > 0.5) * 1, metric="f1"),
     r"permutation_test: pred_a predicts \[2\]"),
    (lambda y, a, b: stats.permutation_test(y, a[:-1], b), r"inconsistent numbers of samples"),
])
def test_compare_bad_input(two_models, call, match):
    with pytest.raises(ValueError, match=match):
        call(*two_models)


def test_paired_bootstrap_and_permutation_equal_assay_compare(tmp_path, two_models):
    # The same core function as `assay compare --metric`: the same numbers for the same seed.
    import json
    import os
    import shutil
    import subprocess
    import sys
    cli = os.path.join(os.path.dirname(sys.executable), "assay")  # installed with the wheel
    cli = cli if os.path.exists(cli) else shutil.which("assay")
    if cli is None:
        pytest.skip("the assay CLI is not built")
    y, a, b = two_models
    path = tmp_path / "p.csv"
    np.savetxt(path, np.column_stack([y, a, b]), delimiter=",", header="y,a,b", comments="", fmt="%.17g")
    out = subprocess.run([cli, "compare", str(path), "-l", "y", "-s", "a", "-s", "b", "-m", "average_precision",
                          "--replicates", "300", "--permutations", "300", "--seed", "11", "-f", "json"],
                         capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    boot, perm = j["paired_bootstrap"][0], j["permutation"][0]
    r = stats.paired_bootstrap(y, a, b, metric="average_precision", n_boot=300, seed=11)
    p = stats.permutation_test(y, a, b, metric="average_precision", n_permutations=300, seed=11)
    assert r.difference == pytest.approx(boot["diff"], rel=1e-12)
    assert r.ci == pytest.approx(tuple(boot["diff_ci"]), rel=1e-12)
    assert r.pvalue == pytest.approx(boot["p_value"], rel=1e-9)
    assert p.pvalue == pytest.approx(perm["p_value"], rel=1e-12)
