"""Tests and intervals of assay's core, for arrays in memory.

Every test returns a :class:`~assay._estimate.TestResult` (``statistic``, ``pvalue``, ``df``,
``method`` and, where the test has one, ``ci``), every interval an
:class:`~assay._estimate.Estimate`. The numbers are those of the ``assay compare`` and
``assay stats`` commands (the same C++ functions), checked against statsmodels and pROC.
"""

from __future__ import annotations

import numpy as np

from assay import _core
from assay._estimate import Estimate, TestResult
from assay._targets import as_array, binary_codes, check_consistent_length

__all__ = [
    "adjust_pvalues",
    "cochrans_q",
    "delong_test",
    "mcnemar",
    "mcnemar_counts",
    "proportion_ci",
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
