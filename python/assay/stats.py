"""Tests and intervals of assay's core, for arrays in memory.

Every test returns a :class:`~assay._estimate.TestResult` (``statistic``, ``pvalue``, ``df``,
``method`` and, where the test has one, ``ci``), every interval an
:class:`~assay._estimate.Estimate`. The numbers are those of the ``assay compare`` and
``assay stats`` commands (the same C++ functions), checked against statsmodels and pROC.
"""

from __future__ import annotations

import numpy as np

from assay import _core
from assay._estimate import Estimate, TestResult, check_bootstrap_args
from assay._inputs import as_array
from assay._targets import binary_codes, check_consistent_length

__all__ = [
    "adjust_pvalues",
    "cochrans_q",
    "corrected_resampled_ttest",
    "delong_test",
    "friedman",
    "ftest_5x2cv",
    "paired_bootstrap",
    "mcnemar",
    "mcnemar_counts",
    "paired_ttest",
    "permutation_test",
    "proportion_ci",
    "ttest_5x2cv",
    "two_proportions",
    "wilcoxon",
]


def _level(level, name="level"):
    level = float(level)
    if not 0 < level < 1:
        raise ValueError(f"{name} is {level!r}; it must be in (0, 1)")
    return level


def proportion_ci(count, nobs, level=0.95, method="wilson"):
    """The proportion count / nobs with its two-sided confidence interval.

    method: 'wilson' (default), 'normal' (Wald, clipped to [0, 1]), 'agresti_coull' or
    'clopper_pearson' (also 'beta', 'exact'); the same numbers as statsmodels'
    ``proportion_confint``. Counts may be weighted (non-integer).
    """
    estimate, low, high, name = _core.proportion_ci(float(count), float(nobs), _level(level), str(method))
    return Estimate(estimate, ci=(low, high), level=level, method=name)


def two_proportions(count1, nobs1, count2, nobs2, *, level=0.95, alternative="two-sided", ci_method="newcombe"):
    """The difference of two independent proportions count1 / nobs1 - count2 / nobs2 (e.g. the error
    rates of two hypotheses, each on its own test set), with the pooled two-proportion z test.

    Returns a TestResult: ``statistic`` z and ``pvalue`` of the pooled z test (statsmodels'
    ``proportions_ztest``; NaN with the reason in ``z_test_undefined`` when the pooled proportion is
    0 or 1), ``ci`` the interval of the difference by ``ci_method``: 'newcombe' (Newcombe 1998's
    hybrid score interval, the default) or 'wald' (d -+ z sqrt(p1 (1 - p1) / n1 + p2 (1 - p2) / n2));
    statsmodels' ``confint_proportions_2indep(method='newcomb' | 'wald')``. Also ``difference``,
    ``p1``, ``p2``, ``wald_ci``, ``newcombe_ci``, ``wald_std_error`` and, for integer counts, Fisher's
    exact test (``fisher_odds_ratio``, ``fisher_pvalue``; NaN otherwise). alternative 'greater' means
    p1 > p2. Counts may be weighted (non-integer).
    """
    level = _level(level)
    if ci_method not in ("newcombe", "wald"):
        raise ValueError(f"two_proportions: ci_method is {ci_method!r}; it must be 'newcombe' or 'wald'")
    d = _core.two_proportions(float(count1), float(nobs1), float(count2), float(nobs2), level, str(alternative))
    ci = d["newcombe_ci"] if ci_method == "newcombe" else d["wald_ci"]
    return TestResult(**d, ci=ci, level=level)


def mcnemar_counts(n01, n10, method="exact"):
    """McNemar's test from the discordant counts: n01 cases model A got right and B wrong, n10 the
    reverse. method: 'exact' (binomial), 'chi2_corrected' (Edwards' continuity correction) or
    'chi2'. Equals statsmodels' ``mcnemar`` except that n01 = n10 = 0 gives statistic 0 and p = 1."""
    for name, v in (("n01", n01), ("n10", n10)):
        if int(v) != v or v < 0:
            raise ValueError(f"mcnemar_counts: {name} is {v!r}; it must be a whole number >= 0")
    return TestResult(**_core.mcnemar(int(n01), int(n10), str(method)))


def mcnemar(y_true, y_pred_a, y_pred_b, *, method="exact"):
    """McNemar's test of H0: models A and B, predicting the same cases, have the same error rate."""
    y_true, a, b = (as_array(v, name) for v, name in ((y_true, "y_true"), (y_pred_a, "y_pred_a"),
                                                       (y_pred_b, "y_pred_b")))
    check_consistent_length(y_true, a, b)
    right_a, right_b = a == y_true, b == y_true
    n01 = int(np.count_nonzero(right_a & ~right_b))
    n10 = int(np.count_nonzero(~right_a & right_b))
    result = mcnemar_counts(n01, n10, method)
    result.n01, result.n10 = n01, n10
    result._extra += ("n01", "n10")
    return result


def cochrans_q(y_true, *y_preds):
    """Cochran's Q test of H0: k >= 2 models predicting the same cases are right equally often
    (statsmodels' ``cochrans_q``; all-constant rows give Q = 0 and p = 1)."""
    if len(y_preds) < 2:
        raise ValueError(f"cochrans_q: {len(y_preds)} prediction arrays given; it needs at least 2")
    y_true = as_array(y_true, "y_true")
    preds = [as_array(p, f"y_preds[{i}]") for i, p in enumerate(y_preds)]
    check_consistent_length(y_true, *preds)
    success = np.ascontiguousarray(np.stack([p == y_true for p in preds], axis=1), dtype=np.int32).ravel()
    return TestResult(**_core.cochrans_q(success, y_true.shape[0], len(preds)))


def delong_test(y_true, y_score_a, y_score_b, *, pos_label=None, alternative="two-sided", level=0.95,
                y_true_b=None):
    """DeLong's test of two ROC AUCs.

    Paired (the default: both models scored the same cases, DeLong et al. 1988) gives a z statistic
    and ``ci``, the interval of AUC_a - AUC_b; with ``y_true_b`` the samples are independent and the
    statistic is Welch's t (pROC's ``roc.test(paired = FALSE)``). ``auc_a``, ``auc_b``,
    ``difference`` and ``std_error`` are attributes of the result.
    """
    level = _level(level)
    y_a = binary_codes(y_true, pos_label, "y_true")
    s_a = np.ascontiguousarray(as_array(y_score_a, "y_score_a"), dtype=np.float64)
    s_b = np.ascontiguousarray(as_array(y_score_b, "y_score_b"), dtype=np.float64)
    y_b = None if y_true_b is None else binary_codes(y_true_b, pos_label, "y_true_b")
    d = _core.delong_test(y_a, s_a, y_b, s_b, str(alternative), level)
    (lo, _), (hi, _) = d.pop("ci")
    ci = None if y_b is not None else (lo, hi)
    return TestResult(**d, ci=ci, level=level if ci else None)


def adjust_pvalues(pvalues, method="holm"):
    """Adjusted p-values in input order: 'holm' (default), 'bonferroni', 'fdr_bh' or 'none'
    (statsmodels' ``multipletests`` names and numbers)."""
    p = np.ascontiguousarray(as_array(pvalues, "pvalues"), dtype=np.float64)
    return _core.adjust_p_values(p, str(method))


# ---- tests between learners: per-fold or per-data-set scores -----------------------------------


def _scores(fn, name, values):
    """values as a 1-D contiguous float64 array of finite numbers."""
    a = as_array(values, name)
    if a.dtype.kind not in "biuf":
        raise ValueError(f"{fn}: {name} has dtype {a.dtype}; it must hold numbers")
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.ndim != 1:
        raise ValueError(f"{fn}: {name} has shape {a.shape}; it must be 1-D")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{fn}: {name} has non-finite values (NaN or inf)")
    return a


def _pair(fn, a, b, min_len):
    a, b = _scores(fn, "a", a), _scores(fn, "b", b)
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"{fn}: a has {a.shape[0]} values but b has {b.shape[0]}; they must be paired")
    if a.shape[0] < min_len:
        raise ValueError(f"{fn}: a has {a.shape[0]} values; it needs at least {min_len}")
    return a, b


def _level_of(fn, level):
    if isinstance(level, bool) or not isinstance(level, (int, float, np.floating)) or not 0 < float(level) < 1:
        raise ValueError(f"{fn}: level is {level!r}; it must be in (0, 1)")
    return float(level)


def _alternative(fn, alternative):
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"{fn}: alternative is {alternative!r}; it must be 'two-sided', 'less' or 'greater'")
    return alternative


def _size(fn, name, value, allow_zero=False):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{fn}: {name} is {value!r}; it must be a number of cases")
    v = float(value)
    if not np.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        raise ValueError(f"{fn}: {name} is {value!r}; it must be finite and > 0")
    return v


def _t_result(d, level):
    ci = d.pop("ci")
    return TestResult(**d, ci=ci, level=level)


def paired_ttest(a, b, *, alternative="two-sided", level=0.95):
    """Paired t test of H0: mean(a - b) = 0 over k >= 2 paired per-fold scores (Dietterich 1998):
    t = mean(d) / (s / sqrt(k)), df = k - 1. ``statistic`` and ``pvalue`` equal
    ``scipy.stats.ttest_rel(a, b)``; ``ci`` is the t interval of mean(a - b) at ``level``, and ``mean``
    and ``std_error`` are attributes. When every difference is equal (s = 0) the result is t = 0,
    p = 1 if they are all 0, else t = +-inf and p = 0 (two-sided), where SciPy gives NaN.

    The folds of k-fold cross-validation share training cases, so this test is too liberal on them;
    prefer :func:`corrected_resampled_ttest` or :func:`ttest_5x2cv`.
    """
    fn = "paired_ttest"
    a, b = _pair(fn, a, b, 2)
    level = _level_of(fn, level)
    return _t_result(_core.paired_t_test(a, b, _alternative(fn, alternative), level), level)


def corrected_resampled_ttest(a, b, n_train, n_test, *, alternative="two-sided", level=0.95):
    """Nadeau & Bengio's corrected resampled t test (Machine Learning 52:239-281, 2003) over k >= 2
    train/test splits with ``n_train`` and ``n_test`` cases each: the variance of mean(a - b) is
    (1/k + n_test/n_train) s^2 instead of s^2 / k, t = mean(d) / sqrt((1/k + n_test/n_train) s^2),
    df = k - 1. ``ci`` is the corrected interval of mean(a - b) at ``level`` (it excludes 0 exactly
    when the two-sided p-value is below 1 - level)."""
    fn = "corrected_resampled_ttest"
    a, b = _pair(fn, a, b, 2)
    n_train, n_test = _size(fn, "n_train", n_train), _size(fn, "n_test", n_test)
    level = _level_of(fn, level)
    return _t_result(_core.corrected_resampled_t_test(a, b, n_train, n_test, _alternative(fn, alternative), level),
                     level)


def _diffs_5x2(fn, diffs):
    p = as_array(diffs, "diffs")
    if p.dtype.kind not in "biuf":
        raise ValueError(f"{fn}: diffs has dtype {p.dtype}; it must hold numbers")
    if p.shape != (5, 2):
        raise ValueError(f"{fn}: diffs has shape {p.shape}; it must be (5, 2): replication i, fold j")
    p = np.ascontiguousarray(p, dtype=np.float64).ravel()
    if not np.all(np.isfinite(p)):
        raise ValueError(f"{fn}: diffs has non-finite values (NaN or inf)")
    return p


def ttest_5x2cv(diffs, *, alternative="two-sided"):
    """Dietterich's 5x2cv paired t test (Neural Computation 10(7), 1998). ``diffs`` is 5 x 2: the
    score difference of A - B on fold j of replication i. With pbar_i the mean and
    s_i^2 = sum_j (p_ij - pbar_i)^2 of row i: t = p_11 / sqrt(sum_i s_i^2 / 5), df = 5.
    Only the first fold's difference is in the numerator, as Dietterich defines it (mlxtend's
    ``paired_ttest_5x2cv`` is the same)."""
    fn = "ttest_5x2cv"
    return TestResult(**_core.cv52_t_test(_diffs_5x2(fn, diffs), _alternative(fn, alternative)))


def ftest_5x2cv(diffs):
    """Alpaydin's combined 5x2cv F test (Neural Computation 11(8), 1999), same ``diffs`` as
    :func:`ttest_5x2cv`: F = sum_ij p_ij^2 / (2 sum_i s_i^2), referred to F(10, 5) (``df`` = 10,
    ``df2`` = 5), p = P(F > f). When every s_i^2 is 0: F = 0 and p = 1 if every difference is 0, else
    F = inf and p = 0."""
    return TestResult(**_core.cv52_f_test(_diffs_5x2("ftest_5x2cv", diffs)))


def wilcoxon(a, b, *, zero_method="wilcox", method="auto", correction=False, alternative="two-sided"):
    """Wilcoxon signed-rank test of H0: the differences a - b are symmetric about 0, as
    ``scipy.stats.wilcoxon(a, b, ...)`` with the same parameter names. ``statistic`` is
    min(R+, R-) two-sided, R+ one-sided. method 'auto' is exact for n <= 50 without zeros or ties,
    else the normal approximation (with the tie correction). Where it differs from SciPy: with ties
    or zeros the exact distribution is never used, even when ``method='exact'`` (assay switches to
    the normal approximation; ``result.method`` says which was used: 'wilcoxon_exact' or
    'wilcoxon_approx'). Every difference zero (zero_method 'wilcox' or 'pratt') raises ValueError."""
    fn = "wilcoxon"
    a, b = _pair(fn, a, b, 1)
    if zero_method not in ("wilcox", "pratt", "zsplit"):
        raise ValueError(f"{fn}: zero_method is {zero_method!r}; it must be 'wilcox', 'pratt' or 'zsplit'")
    if method not in ("auto", "exact", "approx"):
        raise ValueError(f"{fn}: method is {method!r}; it must be 'auto', 'exact' or 'approx'")
    if not isinstance(correction, (bool, np.bool_)):
        raise ValueError(f"{fn}: correction is {correction!r}; it must be True or False")
    d = _core.wilcoxon(a, b, zero_method, method, bool(correction), _alternative(fn, alternative))
    return TestResult(**d)


def friedman(scores, *, alpha=0.05):
    """Friedman's test (Friedman 1937; Demsar, JMLR 7, 2006) of H0: k >= 3 learners (columns of
    ``scores``, n_datasets x k_learners, n >= 2) perform equally, with the Nemenyi post-hoc
    comparison. ``statistic`` is the tie-corrected chi-square of ``scipy.stats.friedmanchisquare(*
    scores.T)``, df = k - 1; every row entirely tied gives 0 and p = 1 (SciPy: NaN).

    Attributes of the result: ``mean_ranks`` (per learner; rank 1 = the smallest score in a row, so
    with accuracies the best learner has the largest mean rank), ``nemenyi_q`` (q_alpha, the
    studentized-range quantile / sqrt(2)), ``critical_difference`` (CD = q_alpha sqrt(k (k+1) / (6 n)))
    ``nemenyi_significant`` (k x k booleans: |mean rank difference| >= CD) and ``nemenyi_pvalues``
    (k x k, diagonal 1): the pairwise Nemenyi p-values P(W >= |R_i - R_j| sqrt(2) / sqrt(k (k+1) / (6 n)))
    under the studentized range W of k normals with infinite degrees of freedom, as scikit-posthocs'
    ``posthoc_nemenyi_friedman`` (``scipy.stats.studentized_range.sf(q, k, inf)``); not adjusted further
    (the range distribution already covers the k (k-1) / 2 comparisons).
    """
    fn = "friedman"
    s = as_array(scores, "scores")
    if s.dtype.kind not in "biuf":
        raise ValueError(f"{fn}: scores has dtype {s.dtype}; it must hold numbers")
    if s.ndim != 2:
        raise ValueError(f"{fn}: scores has shape {s.shape}; it must be 2-D (n_datasets x k_learners)")
    n, k = s.shape
    if k < 3:
        raise ValueError(f"{fn}: scores has {k} columns (learners); it needs at least 3")
    if n < 2:
        raise ValueError(f"{fn}: scores has {n} rows (data sets); it needs at least 2")
    if not np.all(np.isfinite(s)):
        raise ValueError(f"{fn}: scores has non-finite values (NaN or inf)")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating)) or not 0 < float(alpha) < 1:
        raise ValueError(f"{fn}: alpha is {alpha!r}; it must be in (0, 1)")
    d = _core.friedman(np.ascontiguousarray(s, dtype=np.float64).ravel(), n, k, float(alpha))
    ranks = d["mean_ranks"]
    d["nemenyi_significant"] = np.abs(ranks[:, None] - ranks[None, :]) >= d["critical_difference"]
    d["alpha"] = float(alpha)
    return TestResult(**d)


# ---- a registered metric between two models on the same cases ----------------------------------


def _compare(fn, y_true, pred_a, pred_b, metric, pos_label, threshold, level, n_boot, n_perm, seed):
    """(bootstrap dict, permutation dict) of the core's two-model comparison (compare_models)."""
    y = binary_codes(y_true, pos_label, "y_true")
    a, b = as_array(pred_a, "pred_a"), as_array(pred_b, "pred_b")
    for name, v in (("pred_a", a), ("pred_b", b)):
        if v.ndim != 1:
            raise ValueError(f"{fn}: {name} has shape {v.shape}; it must be 1-D")
    check_consistent_length(y, a, b)
    if not isinstance(metric, str):
        raise ValueError(f"{fn}: metric is {metric!r}; it must be the name of a registered metric")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.floating)) \
            or not np.isfinite(threshold):
        raise ValueError(f"{fn}: threshold is {threshold!r}; it must be a finite number")
    if isinstance(n_perm, bool) or not isinstance(n_perm, (int, np.integer)) or not 1 <= n_perm <= 1_000_000:
        raise ValueError(f"{fn}: n_permutations is {n_perm!r}; it must be a whole number in [1, 1000000]")
    level, n_boot, seed = check_bootstrap_args(fn, level, n_boot, seed)
    scores = a.dtype.kind == "f"
    if scores != (b.dtype.kind == "f"):
        raise ValueError(f"{fn}: pred_a has dtype {a.dtype} and pred_b {b.dtype}; give two score arrays "
                         "(floats) or two arrays of predicted labels")
    if scores:
        sa, sb = (np.ascontiguousarray(v, dtype=np.float64) for v in (a, b))
        for name, v in (("pred_a", sa), ("pred_b", sb)):
            if not np.all(np.isfinite(v)):
                raise ValueError(f"{fn}: {name} has non-finite scores (NaN or inf)")
        args = (sa, sb, None, None)
    else:
        classes = np.unique(as_array(y_true, "y_true"))
        positive = 1 if pos_label is None else pos_label
        codes = []
        for name, v in (("pred_a", a), ("pred_b", b)):
            unknown = np.setdiff1d(np.unique(v), classes)
            if unknown.size:
                raise ValueError(f"{fn}: {name} predicts {unknown.tolist()!r}, not classes of y_true "
                                 f"{classes.tolist()!r}")
            codes.append(np.ascontiguousarray(v == positive, dtype=np.int32))
        args = (None, None, *codes)
    try:
        return _core.compare_metric(y, *args, metric, float(threshold), level, n_boot, n_perm, seed)
    except ValueError as e:  # the core names its own function (compare_models)
        msg = str(e)
        raise ValueError(f"{fn}: {msg.removeprefix('compare_models: ')}") from None


def paired_bootstrap(y_true, pred_a, pred_b, metric="roc_auc", *, pos_label=None, level=0.95, n_boot=2000,
                     seed=0, threshold=0.5):
    """The paired bootstrap of metric(A) - metric(B) for two models on the same binary cases, as
    ``assay compare --metric``: each replicate resamples the cases (stratified by class: the number of
    positives and negatives stays fixed) and computes the registered ``metric`` of both models on it.

    ``pred_a``/``pred_b`` are scores (float arrays: ranking and probabilistic metrics use them, binary
    metrics ``score >= threshold``) or predicted labels (then binary metrics only). The result's
    ``ci`` is the percentile interval of the difference at ``level``; ``statistic`` and ``pvalue`` are
    the z test z = difference / sd(replicate differences) (pROC's ``roc.test(method="bootstrap")``);
    ``difference``, ``estimate_a``, ``estimate_b``, ``std_error``, ``replicates`` and
    ``undefined_replicates`` are attributes. Seeded: the same numbers for any thread count.
    """
    fn = "paired_bootstrap"
    boot, _ = _compare(fn, y_true, pred_a, pred_b, metric, pos_label, threshold, level, n_boot, 1, seed)
    (lo, _), (hi, _) = boot.pop("ci")
    boot["metric"] = metric
    return TestResult(**boot, ci=(lo, hi), level=level)


def permutation_test(y_true, pred_a, pred_b, metric="roc_auc", *, pos_label=None, n_permutations=10000, seed=0,
                     threshold=0.5):
    """The paired permutation test of H0: models A and B are exchangeable, for a registered
    ``metric``, as ``assay compare --metric``: each permutation swaps A's and B's prediction on every
    case with probability 1/2 and recomputes the difference; p = (E + 1) / (R + 1), E of the R
    permutations at least as extreme (two-sided) as the observed difference. ``statistic`` is the
    observed metric(A) - metric(B); ``extreme`` and ``permutations`` are attributes. Inputs as
    :func:`paired_bootstrap`."""
    fn = "permutation_test"
    _, perm = _compare(fn, y_true, pred_a, pred_b, metric, pos_label, threshold, 0.95, 1, n_permutations, seed)
    perm["metric"] = metric
    return TestResult(**perm)
