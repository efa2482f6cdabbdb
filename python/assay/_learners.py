"""Comparisons of the user's own scikit-learn estimators: the estimators are fit in Python
(``sklearn.base.clone`` of the estimator given, one clone per split), the statistics are computed by
assay's core (the t and F tests of :mod:`assay.stats`, the bias-variance kernel of
``assay bias-variance``, the corrected resampled interval of ``assay lesion``).

Splits come from assay's splitters (the folds of ``assay split`` for the same seed) or any
scikit-learn CV object or iterable of (train, test) pairs. ``n_jobs`` fits in parallel with joblib;
the splits and bootstrap samples are drawn before any fit, so the results do not depend on
``n_jobs`` (as long as the estimators themselves are deterministic: give them a ``random_state``).
"""

from __future__ import annotations

import numbers

import numpy as np

from assay import _core


def _sklearn():
    try:
        from joblib import Parallel, delayed
        from sklearn.base import clone, is_classifier
        from sklearn.metrics import check_scoring
        from sklearn.utils import _safe_indexing
    except ImportError as e:  # pragma: no cover - scikit-learn is a dependency of these functions
        raise ImportError("assay.model_selection's learner comparisons need scikit-learn (pip install scikit-learn)") \
            from e
    return Parallel, delayed, clone, is_classifier, check_scoring, _safe_indexing


def _n_rows(fn, X, y):
    n = X.shape[0] if hasattr(X, "shape") else len(X)
    if y is not None and len(y) != n:
        raise ValueError(f"{fn}: y has {len(y)} entries but X has {n} rows")
    return n


def _is_classification(estimator, y):
    _, _, _, is_classifier, _, _ = _sklearn()
    if not is_classifier(estimator):
        return False
    a = np.asarray(y)
    return a.ndim == 1


def _splits(fn, cv, estimator, X, y, groups, default_folds=5):
    """The list of (train, test) index arrays of cv, materialised once before any fit.

    cv: None (``default_folds`` folds), an int (k folds: assay's StratifiedKFold for a classifier,
    else KFold, unshuffled: scikit-learn's ``check_cv``), a splitter with ``split`` (assay's or
    scikit-learn's), or an iterable of (train, test) pairs."""
    from assay import model_selection as ms

    if cv is None:
        cv = default_folds
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        if cv < 2:
            raise ValueError(f"{fn}: cv is {cv!r}; a number of folds must be >= 2")
        cv = ms.StratifiedKFold(int(cv)) if _is_classification(estimator, y) else ms.KFold(int(cv))
    if hasattr(cv, "split"):
        splits = list(cv.split(X, y, groups))
    else:
        try:
            splits = list(cv)
        except TypeError:
            raise ValueError(f"{fn}: cv is {cv!r}; it must be None, an int, a splitter with split() or an "
                             "iterable of (train, test) index arrays") from None
    out = []
    for i, s in enumerate(splits):
        try:
            train, test = s
        except (TypeError, ValueError):
            raise ValueError(f"{fn}: split {i} of cv is not a (train, test) pair") from None
        out.append((np.asarray(train), np.asarray(test)))
    if not out:
        raise ValueError(f"{fn}: cv gave no split")
    return out


def _random_seed(fn, random_state):
    if random_state is None:
        return int(np.random.randint(0, 2**31 - 1))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**31 - 1))
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool) and random_state >= 0:
        return int(random_state)
    raise ValueError(f"{fn}: random_state is {random_state!r}; it must be None, an int >= 0 or a numpy RandomState")


def _fit_score(estimator, X, y, train, test, scorer, fit_params, train_score=False):
    _, _, clone, _, _, take = _sklearn()
    est = clone(estimator)
    Xtr, ytr = take(X, train), take(y, train)
    est.fit(Xtr, ytr, **(fit_params or {}))
    test_score = float(scorer(est, take(X, test), take(y, test)))
    return (test_score, float(scorer(est, Xtr, ytr))) if train_score else test_score


def _parallel(n_jobs, tasks):
    Parallel, delayed, *_ = _sklearn()
    return Parallel(n_jobs=n_jobs)(delayed(f)(*args) for f, *args in tasks)


def _scorer(estimator, scoring):
    *_, check_scoring, _ = _sklearn()
    return check_scoring(estimator, scoring=scoring)


def _mean_sizes(splits):
    return (float(np.mean([len(tr) for tr, _ in splits])), float(np.mean([len(te) for _, te in splits])))


_TESTS = ("corrected_t", "paired_t", "5x2cv_t", "5x2cv_f")


def compare_learners(estimator_a, estimator_b, X, y, *, cv=None, scoring=None, test="corrected_t", groups=None,
                     alternative="two-sided", level=0.95, random_state=None, n_jobs=None, fit_params=None):
    """Tests H0: two estimators score the same, from their scores on the same resampling splits.

    Both estimators are cloned and fit on every training part and scored on its test part with
    ``scoring`` (scikit-learn's names or callables, higher is better; None: the estimator's
    ``score``). ``test``:

    - ``'corrected_t'`` (default): Nadeau & Bengio's corrected resampled t test (Machine Learning
      52:239-281, 2003) on the per-split differences, n_train and n_test the mean part sizes
      (:func:`assay.stats.corrected_resampled_ttest`); ``cv`` as in scikit-learn (default 10 folds;
      Bouckaert & Frank, PAKDD 2004, recommend ``RepeatedKFold(n_splits=10, n_repeats=10)``).
    - ``'paired_t'``: the plain paired t test (:func:`assay.stats.paired_ttest`); too liberal on
      overlapping training sets (Dietterich 1998), given for comparison.
    - ``'5x2cv_t'`` / ``'5x2cv_f'``: Dietterich's 5x2cv paired t test and Alpaydin's combined 5x2cv F
      test on 5 repetitions of 2-fold cross-validation made by assay's RepeatedStratifiedKFold (a
      classifier) or RepeatedKFold with seed ``random_state``; ``cv`` must be None.

    Returns a :class:`~assay._estimate.TestResult` (``statistic``, ``pvalue``, ``df``, ``ci`` for the
    t tests: the interval of mean(score_a - score_b)) with ``scores_a``, ``scores_b`` (per split;
    5 x 2 for 5x2cv), ``difference`` (mean of score_a - score_b) and ``test``. Two estimators that
    score the same on every split give statistic 0 and p-value 1 (every test; SciPy's ttest_rel
    gives NaN there). ``random_state`` seeds only the splits assay draws (the 5x2cv repetitions);
    give the estimators their own ``random_state`` for reproducible fits.
    """
    fn = "compare_learners"
    if test not in _TESTS:
        raise ValueError(f"{fn}: test is {test!r}; it must be one of {', '.join(map(repr, _TESTS))}")
    _n_rows(fn, X, y)
    from assay import model_selection as ms
    from assay import stats

    scorer_a, scorer_b = _scorer(estimator_a, scoring), _scorer(estimator_b, scoring)
    if test.startswith("5x2cv"):
        if cv is not None:
            raise ValueError(f"{fn}: cv is {cv!r}; the 5x2cv tests make their own 5 x 2 folds, leave cv=None")
        seed = _random_seed(fn, random_state)
        splitter = (ms.RepeatedStratifiedKFold if _is_classification(estimator_a, y) else ms.RepeatedKFold)(
            n_splits=2, n_repeats=5, random_state=seed)
        splits = _splits(fn, splitter, estimator_a, X, y, groups)
    else:
        splits = _splits(fn, cv, estimator_a, X, y, groups, default_folds=10)
    if len(splits) < 2:
        raise ValueError(f"{fn}: cv gave {len(splits)} split; a test over splits needs at least 2")
    tasks = [(_fit_score, est, X, y, tr, te, sc, fit_params)
             for tr, te in splits for est, sc in ((estimator_a, scorer_a), (estimator_b, scorer_b))]
    scores = np.asarray(_parallel(n_jobs, tasks), dtype=np.float64).reshape(len(splits), 2)
    a, b = np.ascontiguousarray(scores[:, 0]), np.ascontiguousarray(scores[:, 1])
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise ValueError(f"{fn}: a score is not finite (NaN or inf) on some split; check scoring={scoring!r}")
    n_train, n_test = _mean_sizes(splits)
    if test == "corrected_t":
        r = stats.corrected_resampled_ttest(a, b, n_train, n_test, alternative=alternative, level=level)
    elif test == "paired_t":
        r = stats.paired_ttest(a, b, alternative=alternative, level=level)
    else:
        diffs = (a - b).reshape(5, 2)
        r = stats.ttest_5x2cv(diffs, alternative=alternative) if test == "5x2cv_t" else stats.ftest_5x2cv(diffs)
        a, b = a.reshape(5, 2), b.reshape(5, 2)
    extra = dict(scores_a=a, scores_b=b, difference=float(np.mean(a - b)), test=test, n_train=n_train,
                 n_test=n_test)
    for name, value in extra.items():
        setattr(r, name, value)
    r._extra = tuple(dict.fromkeys(r._extra + tuple(extra)))
    return r


class BiasVariance:
    """The bias-variance decomposition of :func:`bias_variance` (means over the test cases).

    ``expected_loss``, ``bias`` (0-1 loss: share of cases whose main prediction is wrong; squared
    loss: mean bias^2), ``variance``, ``net_variance`` (0-1 loss: expected_loss - bias, Domingos
    2000; squared loss: = variance), ``loss`` ('0-1' or 'mse'), ``n_rounds``. Unpacks as
    ``loss, bias, var = result``, the order of mlxtend's ``bias_variance_decomp``.
    """

    def __init__(self, loss, expected_loss, bias, variance, net_variance, n_rounds, predictions):
        self.loss, self.expected_loss, self.bias = loss, expected_loss, bias
        self.variance, self.net_variance, self.n_rounds = variance, net_variance, n_rounds
        self.predictions = predictions

    def __iter__(self):
        return iter((self.expected_loss, self.bias, self.variance))

    def __repr__(self):
        return (f"BiasVariance(loss={self.loss!r}, expected_loss={self.expected_loss!r}, bias={self.bias!r}, "
                f"variance={self.variance!r}, net_variance={self.net_variance!r}, n_rounds={self.n_rounds})")


def _fit_predict(estimator, X, y, rows, X_test, fit_params):
    _, _, clone, _, _, take = _sklearn()
    est = clone(estimator)
    est.fit(take(X, rows), take(y, rows), **(fit_params or {}))
    return np.asarray(est.predict(X_test))


def bias_variance(estimator, X, y, X_test, y_test, *, loss=None, n_rounds=200, random_state=None, n_jobs=None,
                  fit_params=None):
    """The bias-variance decomposition of an estimator's loss on (X_test, y_test) over ``n_rounds``
    training sets, each a bootstrap sample of (X, y) of its size, as mlxtend's
    ``bias_variance_decomp`` defines it (its argument order: training part, then test part).

    ``loss``: ``'0-1'`` (classification; the main prediction of a case is its most frequent
    predicted label, ties to the smallest label) or ``'mse'`` (regression; the main prediction is
    the mean); None: '0-1' for a classifier, else 'mse'. Expected loss = mean over cases and rounds
    of the loss; bias = loss of the main prediction (squared: (main - y)^2); variance = mean loss of
    the predictions against the main prediction. With squared loss expected loss = bias + variance
    exactly; with 0-1 loss, expected loss = bias + net variance (Domingos, ICML 2000).

    The bootstrap samples are those of ``assay bias-variance`` for the seed ``random_state`` (drawn
    by assay's portable generator before any fit), so the numbers do not depend on ``n_jobs``; the
    decomposition is the same C++ kernel. Returns a :class:`BiasVariance` (``predictions``: the
    n_rounds x n_test predicted labels or values).
    """
    fn = "bias_variance"
    n = _n_rows(fn, X, y)
    _n_rows(fn, X_test, y_test)
    if isinstance(n_rounds, bool) or not isinstance(n_rounds, numbers.Integral) or n_rounds < 2:
        raise ValueError(f"{fn}: n_rounds is {n_rounds!r}; it must be a whole number >= 2")
    if n < 2:
        raise ValueError(f"{fn}: X has {n} rows; the training part needs at least 2")
    if loss is None:
        _, _, _, is_classifier, _, _ = _sklearn()
        loss = "0-1" if is_classifier(estimator) else "mse"
    if loss not in ("0-1", "mse"):
        raise ValueError(f"{fn}: loss is {loss!r}; it must be '0-1' or 'mse'")
    seed = _random_seed(fn, random_state)
    samples = _core.bias_variance_samples(n, int(n_rounds), seed)
    preds = _parallel(n_jobs, [(_fit_predict, estimator, X, y, rows, X_test, fit_params) for rows in samples])
    preds = np.stack([np.ravel(p) for p in preds])
    target = np.asarray(y_test).ravel()
    if preds.shape[1] != target.shape[0]:
        raise ValueError(f"{fn}: predict gave {preds.shape[1]} values for {target.shape[0]} test rows")
    if loss == "mse":
        p = np.ascontiguousarray(preds, dtype=np.float64).ravel()
        t = np.ascontiguousarray(target, dtype=np.float64)
        k = 0
    else:
        labels, codes = np.unique(np.concatenate([target, preds.ravel()]), return_inverse=True)
        k = max(int(labels.shape[0]), 2)
        t = np.ascontiguousarray(codes[: target.shape[0]], dtype=np.float64)
        p = np.ascontiguousarray(codes[target.shape[0]:], dtype=np.float64)
    d = _core.bias_variance_decompose(p, int(n_rounds), t, k)
    return BiasVariance(loss, d["expected_loss"], d["bias"], d["variance"], d["net_variance"], int(n_rounds), preds)


def _interval(scores, n_train, n_test, level):
    """The corrected resampled (Nadeau & Bengio) interval of the mean of per-split scores."""
    from assay import stats

    scores = np.ascontiguousarray(scores, dtype=np.float64)
    if scores.shape[0] < 2 or not np.all(np.isfinite(scores)):
        return (np.nan, np.nan)
    r = stats.corrected_resampled_ttest(scores, np.zeros_like(scores), n_train, n_test, level=level)
    return r.ci


class LearningCurve:
    """The result of :func:`learning_curve`: ``train_sizes`` (absolute, as scikit-learn's),
    ``train_scores`` and ``test_scores`` (n_sizes x n_splits), their means ``train_mean`` /
    ``test_mean``, and ``train_ci`` / ``test_ci`` (n_sizes x 2: low, high) at ``level``."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __iter__(self):  # as scikit-learn's learning_curve: sizes, train scores, test scores
        return iter((self.train_sizes, self.train_scores, self.test_scores))

    def __repr__(self):
        return (f"LearningCurve(train_sizes={self.train_sizes!r}, test_mean={self.test_mean!r}, "
                f"test_ci={self.test_ci.tolist()!r}, level={self.level!r})")


def learning_curve(estimator, X, y, *, groups=None, train_sizes=np.linspace(0.1, 1.0, 5), cv=None, scoring=None,
                   level=0.95, n_jobs=None, fit_params=None):
    """scikit-learn's ``learning_curve`` (the same training subsets: the first ``size`` rows of each
    split's training part, sizes as it translates them; the same scores) with confidence
    intervals: for every size, the corrected resampled interval (Nadeau & Bengio 2003) of the mean
    score over the splits, n_train the size and n_test the mean test part; the plain t interval
    would be too narrow because the training parts overlap. Needs at least 2 splits.
    Returns a :class:`LearningCurve`, which unpacks as (train_sizes, train_scores, test_scores).
    """
    fn = "learning_curve"
    _n_rows(fn, X, y)
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ValueError(f"{fn}: level is {level!r}; it must be in (0, 1)")
    splits = _splits(fn, cv, estimator, X, y, groups)
    if len(splits) < 2:
        raise ValueError(f"{fn}: cv gave {len(splits)} split; the intervals need at least 2")
    n_max = len(splits[0][0])  # scikit-learn's: the first split's training part
    sizes = np.asarray(train_sizes)
    if sizes.ndim != 1 or sizes.size == 0 or sizes.dtype.kind not in "iuf":
        raise ValueError(f"{fn}: train_sizes is {train_sizes!r}; it must be a 1-D array of numbers")
    if sizes.dtype.kind == "f" and np.all((sizes > 0) & (sizes <= 1)):
        abs_sizes = np.clip((sizes * n_max).astype(int), 1, n_max)
    elif np.all((sizes >= 1) & (sizes <= n_max) & (sizes == np.floor(sizes))):
        abs_sizes = sizes.astype(int)
    else:
        raise ValueError(f"{fn}: train_sizes is {sizes.tolist()!r}; shares must be in (0, 1] and counts in "
                         f"[1, {n_max}] (the first split's training part)")
    abs_sizes = np.unique(abs_sizes)
    scorer = _scorer(estimator, scoring)
    tasks = [(_fit_score, estimator, X, y, tr[:m], te, scorer, fit_params, True) for m in abs_sizes
             for tr, te in splits]
    out = np.asarray(_parallel(n_jobs, tasks), dtype=np.float64).reshape(len(abs_sizes), len(splits), 2)
    test_scores, train_scores = out[:, :, 0], out[:, :, 1]
    n_test = float(np.mean([len(te) for _, te in splits]))
    test_ci = np.array([_interval(s, m, n_test, level) for s, m in zip(test_scores, abs_sizes)])
    train_ci = np.array([_interval(s, m, n_test, level) for s, m in zip(train_scores, abs_sizes)])
    return LearningCurve(train_sizes=abs_sizes, train_scores=train_scores, test_scores=test_scores,
                         train_mean=train_scores.mean(axis=1), test_mean=test_scores.mean(axis=1),
                         train_ci=train_ci, test_ci=test_ci, level=float(level))


class Lesion:
    """The result of :func:`lesion`: ``full`` (mean score with every feature), ``full_scores`` (per
    split) and ``groups``, a dict from group name to a :class:`~assay._estimate.TestResult` of the
    corrected resampled t test of full - lesioned (``statistic``, ``pvalue``, ``ci`` of the mean drop)
    with ``drop`` (mean of full - lesioned; > 0: the group helped), ``lesioned`` (mean score
    without the group), ``scores`` (per split) and ``columns``."""

    def __init__(self, full, full_scores, groups, level):
        self.full, self.full_scores, self.groups, self.level = full, full_scores, groups, level

    def __repr__(self):
        rows = ", ".join(f"{k!r}: drop={v.drop:.6g} ci=({v.ci[0]:.6g}, {v.ci[1]:.6g}) p={v.pvalue:.4g}"
                         for k, v in self.groups.items())
        return f"Lesion(full={self.full:.6g}, {{{rows}}})"


def _drop_columns(fn, X, columns):
    if hasattr(X, "columns") and hasattr(X, "drop"):  # a DataFrame: names, or positions if given as ints
        names = list(X.columns)
        if all(isinstance(c, numbers.Integral) and not isinstance(c, bool) for c in columns) \
                and not all(c in names for c in columns):
            columns = [names[c] for c in columns]
        missing = [c for c in columns if c not in names]
        if missing:
            raise ValueError(f"{fn}: column {missing[0]!r} is not a column of X")
        return X.drop(columns=list(columns))
    a = np.asarray(X)
    if a.ndim != 2:
        raise ValueError(f"{fn}: X has shape {a.shape}; it must be 2-D")
    for c in columns:
        if isinstance(c, bool) or not isinstance(c, numbers.Integral) or not -a.shape[1] <= c < a.shape[1]:
            raise ValueError(f"{fn}: column {c!r} is not a column index of X (it has {a.shape[1]} columns)")
    keep = np.setdiff1d(np.arange(a.shape[1]), np.asarray(columns, dtype=int) % a.shape[1])
    if keep.size == 0:
        raise ValueError(f"{fn}: removing columns {list(columns)!r} leaves X without a column")
    return a[:, keep]


def lesion(estimator, X, y, groups_of_features, *, cv=None, scoring=None, groups=None, level=0.95, n_jobs=None,
           fit_params=None):
    """A lesion study, as ``assay lesion``: cross-validate the estimator with every feature, then once
    per named group of features with the group's columns removed, on the same splits, and test how
    much the score drops. ``groups_of_features`` maps a name to a list of columns (names for a
    DataFrame, else column indices). The drop on split j is full_j - lesioned_j (scores higher is
    better, so > 0 means the group helped); its mean gets the corrected resampled t test and
    interval (Nadeau & Bengio 2003) with the mean part sizes. ``groups`` are the CV groups (for
    group splitters), not the feature groups. Returns a :class:`Lesion`.
    """
    fn = "lesion"
    _n_rows(fn, X, y)
    if not isinstance(groups_of_features, dict) or not groups_of_features:
        raise ValueError(f"{fn}: groups_of_features is {groups_of_features!r}; it must be a non-empty dict "
                         "from a name to a list of columns")
    from assay import stats

    variants = {}
    for name, columns in groups_of_features.items():
        cols = [columns] if isinstance(columns, (str, numbers.Integral)) else list(columns)
        if not cols:
            raise ValueError(f"{fn}: feature group {name!r} has no column")
        variants[name] = (cols, _drop_columns(fn, X, cols))
    splits = _splits(fn, cv, estimator, X, y, groups)
    if len(splits) < 2:
        raise ValueError(f"{fn}: cv gave {len(splits)} split; the test needs at least 2")
    scorer = _scorer(estimator, scoring)
    datasets = [X] + [Xg for _, Xg in variants.values()]
    tasks = [(_fit_score, estimator, Xd, y, tr, te, scorer, fit_params) for Xd in datasets for tr, te in splits]
    scores = np.asarray(_parallel(n_jobs, tasks), dtype=np.float64).reshape(len(datasets), len(splits))
    n_train, n_test = _mean_sizes(splits)
    full = np.ascontiguousarray(scores[0])
    out = {}
    for (name, (cols, _)), s in zip(variants.items(), scores[1:]):
        s = np.ascontiguousarray(s)
        r = stats.corrected_resampled_ttest(full, s, n_train, n_test, level=level)
        for k, v in dict(drop=float(np.mean(full - s)), lesioned=float(np.mean(s)), scores=s, columns=cols).items():
            setattr(r, k, v)
        r._extra = tuple(dict.fromkeys(r._extra + ("drop", "lesioned", "scores", "columns")))
        out[name] = r
    return Lesion(float(np.mean(full)), full, out, float(level))
