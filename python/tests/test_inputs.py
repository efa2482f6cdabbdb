"""The one input layer (assay/_inputs.py): arrays from NumPy, pandas (nullable dtypes too), polars,
pyarrow, JAX, array-api-strict, and any object with __dlpack__ or __array_namespace__, through
assay.metrics, assay.report, assay.curves and assay.stats.

assay.metrics is compared with scikit-learn called on the same objects (scikit-learn converts them
itself); assay.report, curves and stats with their own answer on the NumPy array of the same values
(the numbers themselves are tested against their peers in test_report.py, test_curves.py and
test_stats.py: here only the container changes)."""

import warnings

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import assay
from assay import _inputs, curves, stats
from assay import metrics as am

sm = pytest.importorskip("sklearn.metrics")
xs = pytest.importorskip("array_api_strict")
jnp = pytest.importorskip("jax.numpy")

Y = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 1])
PRED = np.array([0, 1, 0, 0, 1, 1, 1, 1, 0, 0])
SCORE = np.array([0.1, 0.8, 0.4, 0.3, 0.9, 0.55, 0.7, 0.65, 0.2, 0.35])
SCORE_B = np.array([0.2, 0.6, 0.5, 0.1, 0.7, 0.4, 0.9, 0.3, 0.25, 0.45])

LIBRARIES = {
    "array_api_strict": lambda a: xs.asarray(a),
    "jax": lambda a: jnp.asarray(a),
}


def _same(a, b):
    """Equal values and the same type (and dtype, for arrays), NaN equal to NaN."""
    assert type(a) is type(b), (type(a), type(b))
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
    elif isinstance(a, float) and np.isnan(a):
        assert np.isnan(b)
    else:
        assert a == b


def _both(name, *args, **kw):
    """scikit-learn's and assay's answer on the same arguments (warnings ignored: compared elsewhere)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(sm, name)(*args, **kw), getattr(am, name)(*args, **kw)


# ---- zero copy where the dtype fits ------------------------------------------------------------


def test_array_api_strict_host_array_is_read_without_a_copy():
    x = xs.asarray(SCORE)
    a = _inputs.as_numpy(x, "y_score")
    assert np.shares_memory(a, x._array)  # array-api-strict wraps a NumPy array: the same buffer
    np.testing.assert_array_equal(a, SCORE)


def test_jax_cpu_array_is_read_without_a_copy():
    x = jnp.asarray(SCORE.astype(np.float32))
    a = _inputs.as_numpy(x, "y_score")
    assert a.ctypes.data == x.unsafe_buffer_pointer()
    assert a.dtype == np.float32


def test_bfloat16_is_widened_exactly():
    x = jnp.asarray(SCORE, dtype=jnp.bfloat16)
    a = _inputs.as_numpy(x, "y_score")
    assert a.dtype == np.float32
    np.testing.assert_array_equal(a, np.array(x.astype(jnp.float32)))
    assert repr(curves.roc(Y, x)) == repr(curves.roc(Y, a))
    assert am.roc_auc_score(Y, x) == sm.roc_auc_score(Y, a)


def test_pandas_numpy_backed_column_is_read_without_a_copy():
    base = SCORE.copy()
    a = _inputs.as_numpy(pd.Series(base, copy=False), "y_score")
    assert np.shares_memory(a, base)


# ---- assay.metrics against scikit-learn on the same objects ---------------------------------------

SCORE_FUNCTIONS = ["roc_auc_score", "average_precision_score", "log_loss", "brier_score_loss", "roc_curve",
                   "precision_recall_curve", "det_curve"]
LABEL_FUNCTIONS = ["accuracy_score", "f1_score", "confusion_matrix", "matthews_corrcoef", "balanced_accuracy_score",
                   "precision_recall_fscore_support", "mean_squared_error", "mean_absolute_error", "r2_score"]


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", SCORE_FUNCTIONS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_metrics_of_scores_match_sklearn(lib, name, dtype):
    conv = LIBRARIES[lib]
    sk, ours = _both(name, conv(Y), conv(SCORE.astype(dtype)))
    _same(ours, sk)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", LABEL_FUNCTIONS)
def test_metrics_of_labels_match_sklearn(lib, name):
    conv = LIBRARIES[lib]
    weights = conv(np.linspace(0.5, 2.0, Y.shape[0]))
    sk, ours = _both(name, conv(Y), conv(PRED), sample_weight=weights)
    _same(ours, sk)


@pytest.mark.parametrize("container", ["pyarrow", "polars", "array_api_strict", "pandas_nullable"])
def test_float32_probabilities_without_a_numpy_dtype_are_float64_as_in_sklearn(container):
    conv = {"pyarrow": pa.array, "polars": pl.Series, "array_api_strict": xs.asarray,
            "pandas_nullable": lambda a: pd.Series(a, dtype="Float32")}[container]
    p = SCORE.astype(np.float32)
    for name in ("log_loss", "brier_score_loss"):
        sk, ours = _both(name, Y, conv(p))
        _same(ours, sk)
        assert ours != getattr(am, name)(Y, p)  # NumPy float32 stays float32 (as in scikit-learn)
    frame = pd.DataFrame({"a": 1 - p, "b": p}) if container == "pandas_nullable" else None
    if frame is not None:  # a DataFrame of float32 columns: NumPy's dtype, so float32 as in scikit-learn
        sk, ours = _both("log_loss", Y, frame)
        _same(ours, sk)


def test_pandas_nullable_labels_are_named_as_sklearn_names_them():
    y = pd.array(Y, dtype="Int64")
    p = pd.array(PRED, dtype="Int64")
    sk, ours = _both("classification_report", y, p)
    assert ours == sk and "1.0" in ours
    sk, ours = _both("confusion_matrix", pd.Series(y), pd.Series(p))
    _same(ours, sk)


def test_thresholds_of_nullable_integer_scores_are_float64_as_in_sklearn():
    scores = pd.array([3, 9, 5, 1, 8, 4, 7, 6, 2, 5], dtype="Int64")
    for name in ("precision_recall_curve", "roc_curve"):
        sk, ours = _both(name, Y, scores)
        _same(ours, sk)
        assert ours[2].dtype == np.float64


def test_polars_data_frame_as_multilabel_targets_as_in_sklearn():
    t = pl.DataFrame({"a": [0, 1, 1, 0], "b": [1, 0, 1, 1]})
    p = pl.DataFrame({"a": [0, 1, 0, 0], "b": [1, 1, 1, 0]})
    for name, kw in (("hamming_loss", {}), ("f1_score", {"average": "macro"}), ("accuracy_score", {})):
        sk, ours = _both(name, t, p, **kw)
        _same(ours, sk)
    scores = pl.DataFrame({"a": [0.1, 0.8, 0.4, 0.3], "b": [0.9, 0.2, 0.6, 0.7]})
    sk, ours = _both("average_precision_score", t, scores)
    _same(ours, sk)


def test_pandas_nullable_data_frames_as_in_sklearn():
    t = pd.DataFrame({"a": [0, 1, 1, 0], "b": [1, 0, 1, 1]}, dtype="Int64")
    scores = np.array([[0.1, 0.9], [0.8, 0.3], [0.4, 0.6], [0.2, 0.7]])
    for name in ("average_precision_score", "label_ranking_loss", "coverage_error"):
        sk, ours = _both(name, t, scores)
        _same(ours, sk)
    with pytest.raises(ValueError) as sk_error:
        sm.hamming_loss(t, t)
    with pytest.raises(ValueError) as our_error:
        am.hamming_loss(t, t)
    assert str(our_error.value) == str(sk_error.value)


def test_missing_value_in_a_nullable_float_frame_is_a_value_error_as_in_sklearn():
    t = pd.DataFrame({"a": [0.1, None, 0.3]}, dtype="Float64")
    for name, args in (("mean_absolute_error", (t, t)), ("roc_auc_score", ([0, 1, 1], t))):
        with pytest.raises(ValueError) as sk_error:
            getattr(sm, name)(*args)
        with pytest.raises(ValueError) as our_error:
            getattr(am, name)(*args)
        assert str(our_error.value) == str(sk_error.value)


# ---- assay.report, curves and stats: the same answer from any container ---------------------------


def _host(x):
    """The NumPy array of the same values (JAX without x64 holds float64 input as float32)."""
    return np.array(x)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_report_of_any_array_library_equals_report_of_numpy(lib):
    conv = LIBRARIES[lib]
    y, w = conv(Y), conv(np.linspace(0.5, 2.0, Y.shape[0]))
    for key, value in (("y_score", SCORE), ("y_pred", PRED), ("y_proba", np.column_stack([1 - SCORE, SCORE]))):
        x = conv(value)
        want = assay.report(_host(y), **{key: _host(x)}, sample_weight=_host(w), ci=0.9).to_dict()
        assert assay.report(y, **{key: x}, sample_weight=w, ci=0.9).to_dict() == want
    s = conv(SCORE)
    want = assay.roc_auc(_host(y), _host(s), ci=0.95)
    got = assay.roc_auc(y, s, ci=0.95)
    assert (float(got), got.ci) == (float(want), want.ci)


@pytest.mark.parametrize("lib", LIBRARIES)
def test_curves_of_any_array_library_equal_curves_of_numpy(lib):
    conv = LIBRARIES[lib]
    y, s, w = conv(Y), conv(SCORE), conv(np.linspace(0.5, 2.0, Y.shape[0]))
    for f in (curves.roc, curves.pr, curves.thresholds):
        assert f(y, s, sample_weight=w).to_svg() == f(_host(y), _host(s), sample_weight=_host(w)).to_svg()
    assert curves.calibration(y, s, n_bins=4).to_svg() == curves.calibration(_host(y), _host(s), n_bins=4).to_svg()


@pytest.mark.parametrize("lib", LIBRARIES)
def test_stats_of_any_array_library_equal_stats_of_numpy(lib):
    conv = LIBRARIES[lib]
    y, s, s_b, p, q = (conv(v) for v in (Y, SCORE, SCORE_B, PRED, 1 - PRED))
    h = _host
    assert repr(stats.delong_test(y, s, s_b)) == repr(stats.delong_test(h(y), h(s), h(s_b)))
    assert repr(stats.mcnemar(y, p, q)) == repr(stats.mcnemar(h(y), h(p), h(q)))
    assert repr(stats.paired_ttest(s, s_b)) == repr(stats.paired_ttest(h(s), h(s_b)))
    np.testing.assert_array_equal(stats.adjust_pvalues(s), stats.adjust_pvalues(h(s)))


# ---- device arrays and tensors: stand-ins with the protocols of CuPy and PyTorch -------------------


class _DeviceArray:
    """An array that says it lives on a CUDA device (DLPack device type 2) and, like DLPack 1.0
    producers, copies itself to the CPU when asked (dl_device=(1, 0), copy=True)."""

    def __init__(self, a):
        self._a = a
        self.copies = 0
        self.shape = a.shape

    def __len__(self):
        return self.shape[0]

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if dl_device is None or tuple(dl_device)[0] != 1 or not copy:
            raise BufferError("the array is on a CUDA device")
        self.copies += 1
        return self._a.copy().__dlpack__(max_version=max_version)


class _OldDeviceArray(_DeviceArray):
    """A CuPy-like array whose DLPack export cannot copy to the host: its .get() does."""

    def __dlpack__(self, **kw):
        raise BufferError("the array is on a CUDA device")

    def get(self):
        self.copies += 1
        return self._a.copy()


class _Tensor:
    """A PyTorch-like tensor: its DLPack export refuses a tensor that requires grad."""

    __module__ = "torch"

    def __init__(self, a, requires_grad):
        self._a, self.requires_grad = a, requires_grad
        self.shape = a.shape

    def __len__(self):
        return self.shape[0]

    def detach(self):
        return _Tensor(self._a, False)

    def __dlpack_device__(self):
        return (1, 0)

    def __dlpack__(self, **kw):
        if self.requires_grad:
            raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")
        return self._a.__dlpack__(**kw)


@pytest.mark.parametrize("kind", [_DeviceArray, _OldDeviceArray])
def test_device_arrays_are_copied_to_the_host_once(kind):
    x = kind(SCORE)
    a = _inputs.as_numpy(x, "y_score")
    assert x.copies == 1 and not np.shares_memory(a, SCORE)
    np.testing.assert_array_equal(a, SCORE)
    assert am.roc_auc_score(Y, kind(SCORE)) == sm.roc_auc_score(Y, SCORE)


def test_tensor_that_requires_grad_is_read_detached_without_a_copy():
    base = SCORE.copy()
    a = _inputs.as_numpy(_Tensor(base, requires_grad=True), "y_score")
    assert np.shares_memory(a, base)
    assert am.roc_auc_score(Y, _Tensor(SCORE, True)) == sm.roc_auc_score(Y, SCORE)


def test_unreadable_array_names_the_argument():
    class Broken:
        def __array_namespace__(self):
            return None

        def __len__(self):
            return 3

        def __array__(self, *a, **k):
            raise TypeError("no host copy")

    with pytest.raises(ValueError, match="y_score: assay could not read the Broken array"):
        assay.report(Y[:3], y_score=Broken())


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score", "log_loss", "brier_score_loss",
                                  "precision_recall_curve", "roc_curve"])
def test_tensor_and_device_weights_and_scores_in_metrics(name):
    w = np.linspace(0.5, 2.0, Y.shape[0])
    want = getattr(sm, name)(Y, SCORE, sample_weight=w)
    _same(getattr(am, name)(_Tensor(Y, False), _DeviceArray(SCORE), sample_weight=_Tensor(w, True)), want)
    _same(getattr(am, name)(Y, _OldDeviceArray(SCORE), sample_weight=_DeviceArray(w)), want)


@pytest.mark.parametrize("name", ["accuracy_score", "f1_score", "mean_squared_error", "r2_score", "ndcg_score"])
def test_tensor_and_device_arrays_in_label_and_regression_metrics(name):
    t, p = (Y, PRED) if name != "ndcg_score" else (np.array([Y, 1 - Y]), np.array([SCORE, SCORE_B]))
    w = np.linspace(0.5, 2.0, t.shape[0])
    want = getattr(sm, name)(t, p, sample_weight=w)
    _same(getattr(am, name)(_Tensor(t, True), _DeviceArray(p), sample_weight=_OldDeviceArray(w)), want)


def test_box_iou_of_jax_arrays():
    a = np.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 4.0]])
    b = np.array([[1.0, 0.0, 2.0, 3.0]])
    want = assay.detection.box_iou(a, b)
    np.testing.assert_array_equal(assay.detection.box_iou(jnp.asarray(a), xs.asarray(b)),
                                  assay.detection.box_iou(np.array(jnp.asarray(a)), b))
    assert want.shape == (2, 1)


_W = np.linspace(0.5, 2.0, Y.shape[0])
_ONCE = {
    "roc_auc_score": lambda m: am.roc_auc_score(m(Y), m(SCORE), sample_weight=m(_W)),
    "average_precision_score": lambda m: am.average_precision_score(m(Y), m(SCORE), sample_weight=m(_W)),
    "precision_recall_curve": lambda m: am.precision_recall_curve(m(Y), m(SCORE), sample_weight=m(_W)),
    "det_curve": lambda m: am.det_curve(m(Y), m(SCORE), sample_weight=m(_W)),
    "log_loss": lambda m: am.log_loss(m(Y), m(SCORE), sample_weight=m(_W)),
    "brier_score_loss": lambda m: am.brier_score_loss(m(Y), m(SCORE), sample_weight=m(_W)),
    "d2_log_loss_score": lambda m: am.d2_log_loss_score(m(Y), m(SCORE), sample_weight=m(_W)),
    "hinge_loss": lambda m: am.hinge_loss(m(Y), m(SCORE), sample_weight=m(_W)),
    "top_k_accuracy_score": lambda m: am.top_k_accuracy_score(m(Y), m(SCORE), sample_weight=m(_W)),
    "f1_score": lambda m: am.f1_score(m(Y), m(PRED), sample_weight=m(_W)),
    "classification_report": lambda m: am.classification_report(m(Y), m(PRED), sample_weight=m(_W)),
    "mean_squared_error": lambda m: am.mean_squared_error(m(Y), m(SCORE), sample_weight=m(_W)),
    "mean_poisson_deviance": lambda m: am.mean_poisson_deviance(m(Y + 1.0), m(SCORE), sample_weight=m(_W)),
    "adjusted_rand_score": lambda m: am.adjusted_rand_score(m(Y), m(PRED)),
    "report": lambda m: assay.report(m(Y), y_score=m(SCORE), sample_weight=m(_W)).to_dict(),
    "roc_auc": lambda m: float(assay.roc_auc(m(Y), m(SCORE), ci=0.95)),
    "curves.roc": lambda m: curves.roc(m(Y), m(SCORE), sample_weight=m(_W)).to_svg(),
    "stats.delong_test": lambda m: repr(stats.delong_test(m(Y), m(SCORE), m(SCORE_B))),
    "stats.mcnemar": lambda m: repr(stats.mcnemar(m(Y), m(PRED), m(1 - PRED))),
}


@pytest.mark.parametrize("name", _ONCE)
def test_each_device_argument_is_copied_to_the_host_once(name):
    made = []

    def device(a):
        made.append(_DeviceArray(a))
        return made[-1]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # top_k_accuracy_score's warning of k >= the number of classes
        got = _ONCE[name](device)
        want = _ONCE[name](lambda a: a)
    assert [x.copies for x in made] == [1] * len(made)
    if isinstance(want, dict):
        assert got == want
    else:
        _same(got, want)
