"""Resampling splitters usable wherever scikit-learn takes a ``cv``: ``cross_validate``,
``cross_val_score``, ``GridSearchCV``, ...

Each has ``split(X, y=None, groups=None)`` yielding (train, test) index arrays and
``get_n_splits``. The splits are those of ``assay split`` for the same scheme and seed (one C++
function makes both). Without shuffling, KFold, StratifiedKFold, LeaveOneOut, LeavePOut,
GroupKFold, LeaveOneGroupOut, LeavePGroupsOut and TimeSeriesSplit give scikit-learn's folds;
with shuffling, assay's own portable generator decides (the same seed gives the same folds on every
platform). Beyond scikit-learn: StratifiedKFold of a regression target (stratified on quantile
bins), HoldOut, TrainValidationTest and Bootstrap (out-of-bag test sets).

Comparisons of the user's own estimators (fit in Python, statistics in assay's core):
``compare_learners`` (corrected resampled / paired / 5x2cv t and F tests), ``bias_variance``,
``learning_curve`` with intervals and ``lesion``.

``random_state``: an int is the seed; None draws one from NumPy's global generator (as
scikit-learn's None: a different split each call unless ``np.random.seed`` was set); a
``np.random.RandomState`` draws one from it.
"""

from __future__ import annotations

import numbers

import numpy as np

from assay import _core
from assay._learners import BiasVariance, LearningCurve, Lesion, bias_variance, compare_learners, learning_curve, lesion
from assay._inputs import as_array

__all__ = [
    "BiasVariance",
    "LearningCurve",
    "Lesion",
    "bias_variance",
    "compare_learners",
    "learning_curve",
    "lesion",
    "Bootstrap",
    "GroupKFold",
    "HoldOut",
    "KFold",
    "LeaveOneGroupOut",
    "LeaveOneOut",
    "LeavePGroupsOut",
    "LeavePOut",
    "RepeatedKFold",
    "RepeatedStratifiedKFold",
    "ShuffleSplit",
    "StratifiedGroupKFold",
    "StratifiedKFold",
    "StratifiedShuffleSplit",
    "TimeSeriesSplit",
]


def _seed(random_state):
    if random_state is None:
        return int(np.random.randint(0, 2**31 - 1))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**31 - 1))
    if isinstance(random_state, numbers.Integral) and random_state >= 0:
        return int(random_state)
    raise ValueError(f"random_state is {random_state!r}; it must be None, an int >= 0 or a numpy RandomState")


def _whole(name, value, minimum):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"{name} is {value!r}; it must be a whole number >= {minimum}")
    return int(value)


def _codes(values, name):
    a = as_array(values, name)
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got an array of shape {a.shape}")
    _, inverse = np.unique(a, return_inverse=True)
    return np.ascontiguousarray(inverse, dtype=np.int32)


def _target(y, task):
    """(class codes, regression values): classes sorted as `assay split` sorts them; a target is a
    regression target when task says so or, with task='auto', when it is numeric and not made of
    at most 10 whole numbers (the rule of the CLI's --task auto)."""
    a = as_array(y, "y")
    if a.ndim != 1:
        raise ValueError(f"y must be 1-D; got an array of shape {a.shape}")
    numeric = a.dtype.kind in "biuf"
    if task == "auto":
        integral = numeric and bool(np.all(np.isfinite(a))) and bool(np.all(a == np.floor(a)))
        task = "classification" if not numeric or (integral and np.unique(a).size <= 10) else "regression"
    if task == "regression":
        values = np.ascontiguousarray(a, dtype=np.float64)
        if not np.all(np.isfinite(values)):
            raise ValueError("y holds a value that is not finite; a regression target must be finite")
        return None, values
    if task != "classification":
        raise ValueError(f"task is {task!r}; it must be 'auto', 'classification' or 'regression'")
    return _codes(a, "y"), None


class _Splitter:
    """One resampling scheme by its `assay split` name and parameters."""

    _method = ""
    _needs_y = False
    _needs_groups = False
    _fixed_seed = None

    def _request(self):
        return {}

    def _all(self, X, y=None, groups=None):
        n = len(X) if not hasattr(X, "shape") else X.shape[0]
        classes = values = group_codes = None
        if self._needs_y or getattr(self, "stratify", False):
            if y is None:
                raise ValueError(f"{type(self).__name__}.split: y is None; this scheme stratifies on y")
            if len(y) != n:
                raise ValueError(f"{type(self).__name__}.split: y has {len(y)} entries but X has {n} rows")
            classes, values = _target(y, getattr(self, "task", "auto"))
        if self._needs_groups:
            if groups is None:
                raise ValueError(f"{type(self).__name__}.split: groups is None; this scheme keeps groups whole")
            if len(groups) != n:
                raise ValueError(f"{type(self).__name__}.split: groups has {len(groups)} entries but X has {n} rows")
            group_codes = _codes(groups, "groups")
        q = dict(folds=5, repeats=1, seed=0, shuffle=False, stratify=False, train_fraction=2.0 / 3.0,
                 validation_fraction=1.0 / 6.0, p=2, max_splits=100000, test_size=0, gap=0, max_train=0, bins=0)
        q.update(self._request())
        return _core.make_splits(self._method, n, classes=classes, values=values, groups=group_codes, **q)

    def split(self, X, y=None, groups=None):
        """Yields (train, test) arrays of row indices (int64) for every split."""
        for train, _, test, _ in self._all(X, y, groups):
            yield train, test

    def get_n_splits(self, X=None, y=None, groups=None):
        return len(self._all(X, y, groups))

    def __repr__(self):
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({params})"


class KFold(_Splitter):
    """k consecutive folds (shuffled first with ``shuffle=True``); scikit-learn's KFold."""

    _method = "kfold"

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        self.n_splits = _whole("n_splits", n_splits, 2)
        self.shuffle = bool(shuffle)
        self.random_state = random_state

    def _request(self):
        return dict(folds=self.n_splits, shuffle=self.shuffle, seed=_seed(self.random_state) if self.shuffle else 0)

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits


class StratifiedKFold(KFold):
    """k folds holding each class in the same proportion; scikit-learn's StratifiedKFold. A
    regression target (``task='regression'``, or 'auto' for a numeric target that is not at most 10
    whole numbers) is stratified on ``bins`` quantile bins (default: ``n_splits``)."""

    _method = "stratified-kfold"
    _needs_y = True

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None, task="auto", bins=None):
        super().__init__(n_splits, shuffle=shuffle, random_state=random_state)
        self.task = task
        self.bins = bins

    def _request(self):
        return {**super()._request(), "bins": 0 if self.bins is None else _whole("bins", self.bins, 2)}


class RepeatedKFold(_Splitter):
    """``n_repeats`` shuffled k-fold runs (repeat r uses a seed derived from (random_state, r))."""

    _method = "repeated-kfold"

    def __init__(self, *, n_splits=5, n_repeats=10, random_state=None):
        self.n_splits = _whole("n_splits", n_splits, 2)
        self.n_repeats = _whole("n_repeats", n_repeats, 1)
        self.random_state = random_state

    def _request(self):
        return dict(folds=self.n_splits, repeats=self.n_repeats, seed=_seed(self.random_state))

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits * self.n_repeats


class RepeatedStratifiedKFold(RepeatedKFold):
    _method = "repeated-stratified-kfold"
    _needs_y = True
    task = "auto"


class ShuffleSplit(_Splitter):
    """``n_splits`` independent random train/test splits (Monte Carlo cross-validation). The
    training share is ``train_size``, or 1 - ``test_size`` (default test_size 0.1, as
    scikit-learn)."""

    _method = "shuffle"

    def __init__(self, n_splits=10, *, test_size=None, train_size=None, random_state=None):
        self.n_splits = _whole("n_splits", n_splits, 1)
        self.test_size = test_size
        self.train_size = train_size
        self.random_state = random_state

    def _fraction(self):
        if self.train_size is not None:
            f = float(self.train_size)
        else:
            f = 1.0 - (0.1 if self.test_size is None else float(self.test_size))
        if not 0 < f < 1:
            raise ValueError(f"train share is {f!r}; train_size / test_size must leave both parts non-empty")
        return f

    def _request(self):
        return dict(repeats=self.n_splits, train_fraction=self._fraction(), seed=_seed(self.random_state))

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits


class StratifiedShuffleSplit(ShuffleSplit):
    _method = "stratified-shuffle"
    _needs_y = True
    task = "auto"


class HoldOut(_Splitter):
    """One random train/test split, ``train_size`` for training (default 2/3), stratified on y
    with ``stratify=True``."""

    _method = "holdout"

    def __init__(self, train_size=2.0 / 3.0, *, stratify=False, random_state=None, task="auto"):
        self.train_size = float(train_size)
        self.stratify = bool(stratify)
        self.random_state = random_state
        self.task = task

    def _request(self):
        return dict(train_fraction=self.train_size, stratify=self.stratify, seed=_seed(self.random_state))

    def get_n_splits(self, X=None, y=None, groups=None):
        return 1


class LeaveOneOut(_Splitter):
    _method = "loo"


class LeavePOut(_Splitter):
    """One split per p-subset of the rows, in lexicographic order (refused beyond max_splits)."""

    _method = "lpo"

    def __init__(self, p, *, max_splits=100000):
        self.p = _whole("p", p, 1)
        self.max_splits = _whole("max_splits", max_splits, 1)

    def _request(self):
        return dict(p=self.p, max_splits=self.max_splits)


class GroupKFold(_Splitter):
    """k folds that never split a group (largest groups first, each to the smallest fold)."""

    _method = "group-kfold"
    _needs_groups = True

    def __init__(self, n_splits=5):
        self.n_splits = _whole("n_splits", n_splits, 2)

    def _request(self):
        return dict(folds=self.n_splits)

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits


class StratifiedGroupKFold(_Splitter):
    _method = "stratified-group-kfold"
    _needs_y = True
    _needs_groups = True

    def __init__(self, n_splits=5, shuffle=False, random_state=None):
        self.n_splits = _whole("n_splits", n_splits, 2)
        self.shuffle = bool(shuffle)
        self.random_state = random_state
        self.task = "classification"

    def _request(self):
        return dict(folds=self.n_splits, shuffle=self.shuffle, seed=_seed(self.random_state) if self.shuffle else 0)


class LeaveOneGroupOut(_Splitter):
    _method = "logo"
    _needs_groups = True


class LeavePGroupsOut(_Splitter):
    _method = "lpgo"
    _needs_groups = True

    def __init__(self, n_groups, *, max_splits=100000):
        self.n_groups = _whole("n_groups", n_groups, 1)
        self.max_splits = _whole("max_splits", max_splits, 1)

    def _request(self):
        return dict(p=self.n_groups, max_splits=self.max_splits)


class TimeSeriesSplit(_Splitter):
    """Forward chaining: each test block follows all of its training rows (minus ``gap``)."""

    _method = "timeseries"

    def __init__(self, n_splits=5, *, max_train_size=None, test_size=None, gap=0):
        self.n_splits = _whole("n_splits", n_splits, 2)
        self.max_train_size = max_train_size
        self.test_size = test_size
        self.gap = _whole("gap", gap, 0)

    def _request(self):
        return dict(folds=self.n_splits, gap=self.gap,
                    test_size=0 if self.test_size is None else _whole("test_size", self.test_size, 1),
                    max_train=0 if self.max_train_size is None else _whole("max_train_size", self.max_train_size, 1))

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits


class Bootstrap(_Splitter):
    """``n_repeats`` samples of n rows drawn with replacement (train, with repeats) and their
    out-of-bag rows (test), Efron (1979)."""

    _method = "bootstrap"

    def __init__(self, n_repeats=100, *, random_state=None):
        self.n_repeats = _whole("n_repeats", n_repeats, 1)
        self.random_state = random_state

    def _request(self):
        return dict(repeats=self.n_repeats, seed=_seed(self.random_state))

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_repeats
