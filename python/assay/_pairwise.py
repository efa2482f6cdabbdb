"""assay.metrics: pairwise distances and kernels, forwarded to scikit-learn.

Distances and kernels between the rows of feature matrices are not metrics of predictions, so
assay does not implement them: these names are scikit-learn's own objects when scikit-learn is
installed (the same functions and class, nothing changed), and without it each raises an
ImportError that says so.
"""

from __future__ import annotations

__all__ = [
    "DistanceMetric",
    "euclidean_distances",
    "nan_euclidean_distances",
    "pairwise_distances",
    "pairwise_distances_argmin",
    "pairwise_distances_argmin_min",
    "pairwise_distances_chunked",
    "pairwise_kernels",
]

_WHY = ("assay.metrics.{name} is scikit-learn's sklearn.metrics.{name} (pairwise distances and kernels are "
        "not evaluation metrics; assay forwards them): install scikit-learn to use it")


def _missing(name):
    def unavailable(*args, **kwargs):
        raise ImportError(_WHY.format(name=name))

    unavailable.__name__ = unavailable.__qualname__ = name
    unavailable.__doc__ = f"Needs scikit-learn: {_WHY.format(name=name)}."
    return unavailable


class _MissingDistanceMetric:
    """Needs scikit-learn (assay.metrics.DistanceMetric is sklearn.metrics.DistanceMetric)."""

    def __new__(cls, *args, **kwargs):
        raise ImportError(_WHY.format(name="DistanceMetric"))

    @classmethod
    def get_metric(cls, *args, **kwargs):
        raise ImportError(_WHY.format(name="DistanceMetric"))


try:
    from sklearn.metrics import (  # noqa: F401
        DistanceMetric,
        euclidean_distances,
        nan_euclidean_distances,
        pairwise_distances,
        pairwise_distances_argmin,
        pairwise_distances_argmin_min,
        pairwise_distances_chunked,
        pairwise_kernels,
    )
except ImportError:
    DistanceMetric = _MissingDistanceMetric
    DistanceMetric.__name__ = DistanceMetric.__qualname__ = "DistanceMetric"
    euclidean_distances = _missing("euclidean_distances")
    nan_euclidean_distances = _missing("nan_euclidean_distances")
    pairwise_distances = _missing("pairwise_distances")
    pairwise_distances_argmin = _missing("pairwise_distances_argmin")
    pairwise_distances_argmin_min = _missing("pairwise_distances_argmin_min")
    pairwise_distances_chunked = _missing("pairwise_distances_chunked")
    pairwise_kernels = _missing("pairwise_kernels")
