"""assay.metrics: the scorer API (make_scorer, get_scorer, get_scorer_names, check_scoring).

A scorer is what scikit-learn's cross_validate, cross_val_score and GridSearchCV call with a fitted
estimator; they expect scikit-learn's scorer objects (response method, sign, metadata routing), so
assay's scorers are scikit-learn's, with the metric function replaced by assay's where assay.metrics
has it (every scorer string of scikit-learn 1.9.1 but the likelihood-ratio ones, whose functions
live in scikit-learn's scorer module). make_scorer is scikit-learn's own: give it assay's function.
Without scikit-learn these names raise an ImportError that says so.
"""

from __future__ import annotations

import copy

__all__ = ["check_scoring", "get_scorer", "get_scorer_names", "make_scorer"]

_WHY = ("assay.metrics.{name} builds on scikit-learn's scorer objects (which cross_validate and GridSearchCV "
        "expect): install scikit-learn to use it")

try:
    from sklearn.metrics import _scorer as _sk
    from sklearn.metrics import make_scorer  # noqa: F401 - scikit-learn's own, given assay's functions
except ImportError:  # pragma: no cover - exercised only without scikit-learn
    _sk = None

_REGISTRY = None

# assay's modules of metric functions (a function of these is a metric, not a scorer)
_METRIC_MODULES = ("assay._classification", "assay._probabilistic", "assay._ranking", "assay._regression",
                   "assay._scores_more", "assay._deviance", "assay._rank_lists", "assay._cluster",
                   "assay._cluster_distances", "assay._thresholds")


def _registry():
    """Every scorer of scikit-learn by name, calling assay's function of the same name where
    assay.metrics has one."""
    global _REGISTRY
    if _REGISTRY is None:
        from assay import metrics as ours

        registry = {}
        for name, scorer in _sk._SCORERS.items():
            scorer = copy.deepcopy(scorer)
            func = scorer._score_func
            own = getattr(ours, getattr(func, "__name__", ""), None)
            if own is not None and getattr(func, "__module__", "").startswith("sklearn.metrics."):
                scorer._score_func = own
            registry[name] = scorer
        _REGISTRY = registry
    return _REGISTRY


def _needs_scikit_learn(name):
    if _sk is None:
        raise ImportError(_WHY.format(name=name))


if _sk is None:  # pragma: no cover - exercised only without scikit-learn
    def make_scorer(score_func, *, response_method="predict", greater_is_better=True, **kwargs):
        """Needs scikit-learn (assay.metrics.make_scorer is sklearn.metrics.make_scorer)."""
        _needs_scikit_learn("make_scorer")


def get_scorer_names():
    """The names of all the scorers get_scorer knows. Same as sklearn.metrics.get_scorer_names."""
    _needs_scikit_learn("get_scorer_names")
    return sorted(_registry())


def get_scorer(scoring):
    """The scorer of a name (a copy, calling assay's metric function), or scoring itself when it is
    not a string. Same as sklearn.metrics.get_scorer."""
    _needs_scikit_learn("get_scorer")
    if not isinstance(scoring, str):
        return _sk.get_scorer(scoring)
    registry = _registry()
    if scoring not in registry:
        raise ValueError(f"{scoring!r} is not a valid scoring value. Use sklearn.metrics.get_scorer_names() to get "
                         "valid options.")
    return copy.deepcopy(registry[scoring])


def _refuse_metric_function(scoring):
    module = getattr(scoring, "__module__", None)
    if callable(scoring) and isinstance(module, str) and module in _METRIC_MODULES:
        raise ValueError(f"scoring value {scoring!r} looks like it is a metric function rather than a scorer. A "
                         "scorer should require an estimator as its first parameter. Please use `make_scorer` to "
                         "convert a metric to a scorer.")


def check_scoring(estimator=None, scoring=None, *, allow_none=False, raise_exc=True):
    """The scorer of an estimator for a scoring value (a name, a scorer, several of them, or None
    for the estimator's own score method). Same as sklearn.metrics.check_scoring, with assay's
    metric functions behind the names."""
    _needs_scikit_learn("check_scoring")
    _refuse_metric_function(scoring)
    if isinstance(scoring, dict):
        for value in scoring.values():
            _refuse_metric_function(value)
    checked = _sk.check_scoring(estimator, scoring, allow_none=allow_none, raise_exc=raise_exc)
    if isinstance(scoring, str):
        return get_scorer(scoring)
    if isinstance(checked, _sk._MultimetricScorer):
        for key in checked._scorers:
            name = scoring[key] if isinstance(scoring, dict) else key
            if isinstance(name, str):
                checked._scorers[key] = get_scorer(name)
    return checked
