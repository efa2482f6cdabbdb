"""Which names of the installed sklearn.metrics.__all__ assay.metrics still lacks: exactly the set
below. The test fails when a name is lost, and when one is added without taking it off this list
(and so without its parity tests)."""

import inspect

import pytest
import sklearn
from sklearn import metrics as sk

from assay import metrics as am

STILL_MISSING = set()

CLUSTER_STILL_MISSING = {"entropy"}  # deprecated in scikit-learn 1.8


def test_scikit_learn_is_the_pinned_one():
    assert sklearn.__version__ == "1.9.1"


def test_missing_names():
    assert set(sk.__all__) - set(am.__all__) == STILL_MISSING
    assert set(am.__all__) <= set(sk.__all__)
    assert len(am.__all__) == len(set(am.__all__))
    for name in am.__all__:
        assert hasattr(am, name), name


def test_cluster_submodule():
    import assay.metrics.cluster as by_import
    from sklearn.metrics import cluster as skc

    assert by_import is am.cluster
    assert set(skc.__all__) - set(am.cluster.__all__) == CLUSTER_STILL_MISSING
    assert set(am.cluster.__all__) <= set(skc.__all__)


@pytest.mark.parametrize("name", sorted(set(sk.__all__) - STILL_MISSING - {"cluster"}))
def test_same_signature(name):
    ours, theirs = getattr(am, name), getattr(sk, name)
    if inspect.isclass(theirs):
        if name == "DistanceMetric":
            assert ours is theirs  # forwarded
            return
        assert issubclass(ours, theirs)  # the displays
        for method in ("__init__", "plot", "from_estimator", "from_predictions", "from_cv_results"):
            if hasattr(theirs, method):
                assert str(inspect.signature(getattr(ours, method))) == \
                    str(inspect.signature(getattr(theirs, method))), (name, method)
        return
    assert str(inspect.signature(ours)) == str(inspect.signature(theirs)), name  # nan != nan


@pytest.mark.parametrize("name", sorted(set(am.cluster.__all__)))
def test_same_signature_cluster(name):
    from sklearn.metrics import cluster as skc

    assert str(inspect.signature(getattr(am.cluster, name))) == str(inspect.signature(getattr(skc, name))), name


def test_pairwise_is_forwarded():
    for name in ("pairwise_distances", "pairwise_kernels", "euclidean_distances", "DistanceMetric",
                 "nan_euclidean_distances", "pairwise_distances_argmin", "pairwise_distances_argmin_min",
                 "pairwise_distances_chunked"):
        assert getattr(am, name) is getattr(sk, name)


def test_pairwise_without_scikit_learn():
    from assay import _pairwise

    for name in _pairwise.__all__:
        stub = _pairwise._missing(name)
        with pytest.raises(ImportError, match=f"assay.metrics.{name} is scikit-learn's.*install scikit-learn"):
            stub([[0.0]])
    with pytest.raises(ImportError, match="install scikit-learn"):
        _pairwise._MissingDistanceMetric.get_metric("euclidean")
    with pytest.raises(ImportError, match="install scikit-learn"):
        _pairwise._MissingDistanceMetric()
