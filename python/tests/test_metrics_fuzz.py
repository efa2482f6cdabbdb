"""Differential fuzzing of assay.metrics against the installed scikit-learn.

Hypothesis draws targets (every numpy dtype a user may hold labels or scores in, unsigned 64-bit
values at and above 2**63 included; Python lists and tuples, numpy arrays read-only or
non-contiguous, pandas Series and DataFrames, scalars), shapes (1-D, column vectors, 2-D multilabel
and multioutput, empty, 3-D) and keywords (valid values and the invalid ones scikit-learn refuses:
wrong types, out-of-range numbers, sample weights that are scalar, NaN, infinite, near 1e308 or of the
wrong length), calls the same function of both libraries on the same (separately built, so that
neither sees the other's conversions) inputs, and asserts that

- both answer or both raise;
- an exception is of the same class (numpy's own exceptions, which scikit-learn lets through by
  accident, are compared by their built-in base class) with the same message;
- an answer has the same Python type, and arrays the same dtype and shape, and the values agree:
  exactly, except for the functions in TOLERANCE (a relative tolerance, with the reason);
- the same categories of warnings are emitted.

In CI the run is bounded and cannot flake: derandomised (hypothesis' fixed seed), no example
database, EXAMPLES examples per function (60: about 16 s for the whole file on a loaded 2-core machine).
ASSAY_FUZZ_EXAMPLES=2000 makes a long run; ASSAY_FUZZ_CONVERSIONS=1 adds the containers whose
conversion is being rewritten (see CONVERSION_CASES below), to see what still differs there.
"""

from __future__ import annotations

import math
import os
import warnings

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
sk = pytest.importorskip("sklearn.metrics")
pd = pytest.importorskip("pandas")

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from assay import metrics as am  # noqa: E402

EXAMPLES = int(os.environ.get("ASSAY_FUZZ_EXAMPLES", "60"))
# Containers whose conversion another change rewrites (assay._targets.as_array / from_arrow): pandas
# nullable dtypes (Int64 labels named '1' for '1.0' in classification_report, Int64 scores kept as
# int64 thresholds, pd.NA in Float64), Arrow arrays and polars Series in float32. Off in CI until
# that change lands; ASSAY_FUZZ_CONVERSIONS=1 turns them on.
CONVERSION_CASES = os.environ.get("ASSAY_FUZZ_CONVERSIONS") == "1"

FUZZ = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, print_blob=True,
                suppress_health_check=list(HealthCheck),
                phases=[Phase.explicit, Phase.generate] if os.environ.get("ASSAY_FUZZ_NO_SHRINK") == "1" else
                [Phase.explicit, Phase.generate, Phase.shrink, Phase.explain])

# Relative tolerances, where assay's arithmetic is not scikit-learn's operation for operation.
# Every other function must agree to the bit.
TOLERANCE = {
    # Contingency-table scores: assay sums the table's terms in C++ (another order of the same sums).
    "adjusted_mutual_info_score": 1e-9,
    "mutual_info_score": 1e-12,
    "normalized_mutual_info_score": 1e-12,
    "homogeneity_score": 1e-12,
    "completeness_score": 1e-12,
    "v_measure_score": 1e-12,
    "homogeneity_completeness_v_measure": 1e-12,
    "fowlkes_mallows_score": 1e-12,
    "adjusted_rand_score": 1e-12,
    "rand_score": 1e-12,
}

# ----------------------------------------------------------------------------------------------
# Values


def _label_pools():
    """(dtype, values) from which a target of labels draws: every dtype kind a user may hold labels
    in, with the values that trip type detection (strings that read as numbers, bytes, uint64 at
    and above 2**63, 2-valued sets other than {0, 1}, integral floats, NaN)."""
    big = 2**63
    return [
        (np.bool_, [False, True]),
        (np.int8, [0, 1]), (np.int8, [-1, 1]), (np.int16, [0, 1, 2]), (np.int32, [2, 3]),
        (np.int64, [0, 1, 2, 3]), (np.int64, [2**60, 2**60 + 1]),
        (np.uint8, [0, 1]), (np.uint16, [1, 2, 5]), (np.uint32, [0, 1]), (np.uint64, [0, 1]),
        (np.uint64, [big, big + 1]), (np.uint64, [1, big]),
        (np.float16, [0.0, 1.0]), (np.float32, [0.0, 1.0, 2.0]), (np.float64, [0.0, 1.0]),
        (np.float64, [-1.0, 1.0]), (np.float64, [0.0, 0.5, 1.0]), (np.float64, [0.0, 1.0, np.nan]),
        (object, ["a", "b"]), (object, [0, 1]),
        # Not drawn: object arrays mixing strings and numbers (["a", 1]). scikit-learn refuses them
        # with a TypeError from sorting inside unique_labels, after checks whose order assay does
        # not follow for such arrays (it refuses with a ValueError); both refuse.
        (str, ["0", "1"]), (str, ["a", "b", "c"]), (str, ["", "x"]),
        (bytes, [b"a", b"b"]),
    ]


LABEL_POOLS = _label_pools()
SCORE_VALUES = [0.0, 1.0, 0.5, 0.25, 0.75, 0.1, 0.9, 1e-300, 1 - 1e-16, -0.5, 2.0, 1e308, -1e308, np.nan, np.inf]
REAL_VALUES = [0.0, 1.0, -1.0, 0.5, 2.0, 3.5, 1e-300, 1e300, -7.25, 1e308, np.nan, np.inf]


@st.composite
def numbers_array(draw, shape, values, dtype):
    flat = draw(st.lists(st.sampled_from(values), min_size=math.prod(shape), max_size=math.prod(shape)))
    return np.array(flat, dtype=dtype).reshape(shape)


@st.composite
def label_array(draw, shape, pool=None):
    dtype, values = pool if pool is not None else draw(st.sampled_from(LABEL_POOLS))
    if len(shape) == 2 and shape[1] > 1 and dtype in (np.int64, np.uint64):
        # Not drawn: 2-D targets of integers at or above 2**32. scikit-learn multiplies the two
        # indicator matrices in their own dtype to find the labels present in both, and the
        # product wraps around to 0 (2**63 * 2**63); assay does not multiply.
        values = [v for v in values if v < 2**32] or [0, 1]
    flat = draw(st.lists(st.sampled_from(values), min_size=math.prod(shape), max_size=math.prod(shape)))
    if dtype is object:
        a = np.empty(len(flat), dtype=object)
        a[:] = flat
        return a.reshape(shape)
    return np.array(flat, dtype=dtype).reshape(shape)


def _containers(a):
    """The containers one numpy array can travel in (each built as a function of the array, so
    that both libraries get their own copy)."""
    out = ["numpy", "readonly", "list"]
    if a.ndim >= 1 and a.shape[0] > 0:
        out.append("noncontiguous")
    # Not drawn: a 2-D target as a tuple of rows. scikit-learn hands it to scipy's csr_array, which
    # reads a tuple as its (data, indices) constructor form and raises; assay reads the rows.
    if a.ndim == 1 and a.shape[0] > 0:
        out.append("tuple")
    if a.ndim == 1 and a.dtype.kind in "biufOU":
        out.append("series")
        if CONVERSION_CASES and a.dtype.kind in "iuf" and a.dtype.itemsize >= 2:
            out.append("nullable")
    if a.ndim == 2 and a.dtype.kind in "biuf":
        out.append("frame")
    if a.size == 1:
        out.append("scalar")
    return out


def build(kind, a):
    if kind == "numpy":
        return a.copy()
    if kind == "readonly":
        b = a.copy()
        b.setflags(write=False)
        return b
    if kind == "noncontiguous":
        return np.repeat(a, 2, axis=0)[::2]  # every other row of a copy twice as long
    if kind == "list":
        return a.tolist()
    if kind == "tuple":
        return tuple(a.tolist())
    if kind == "series":
        return pd.Series(a.copy())
    if kind == "nullable":
        return pd.Series(a.copy()).convert_dtypes()
    if kind == "frame":
        return pd.DataFrame(a.copy())
    if kind == "scalar":
        return a.reshape(-1)[0].item() if a.dtype.kind != "O" else a.reshape(-1)[0]
    raise AssertionError(kind)


@st.composite
def packed(draw, a):
    """(a container kind, the array): build(kind, a) makes the value each library gets."""
    return draw(st.sampled_from(_containers(a))), a


# ----------------------------------------------------------------------------------------------
# Shapes and the targets of each family of functions

N = st.integers(min_value=0, max_value=7)


@st.composite
def shape(draw, two_d_columns=(2, 3)):
    n = draw(N)
    # Not drawn: 3-D targets. scikit-learn refuses them at different places depending on the
    # container and dtype ("Found array with dim 3" or "unknown is not supported"); assay refuses
    # them too, not always with the same message.
    form = draw(st.sampled_from(["1d"] * 6 + ["column", "2d", "2d"]))
    if form == "1d":
        return (n,)
    if form == "column":
        return (n, 1)
    return (n, draw(st.sampled_from(two_d_columns)))


@st.composite
def label_pair(draw):
    """y_true and y_pred of a classification metric: mostly of one pool (so that the metric has
    something to compute), sometimes of two pools, sometimes of different lengths or shapes."""
    s = draw(shape())
    pool = draw(st.sampled_from(LABEL_POOLS))
    other = pool if draw(st.integers(0, 4)) else draw(st.sampled_from(LABEL_POOLS))
    s2 = s if draw(st.integers(0, 6)) else draw(shape())
    return draw(packed(draw(label_array(s, pool)))), draw(packed(draw(label_array(s2, other))))


@st.composite
def score_pair(draw, multilabel=False):
    """y_true labels and y_score: binary or multiclass labels with 1-D or (n, classes) scores, or a
    multilabel indicator with scores of its shape; rows of probabilities summing to 1 at times."""
    n = draw(N)
    classes = draw(st.sampled_from([2, 3] if not multilabel else [2, 3, 4]))
    form = "multilabel" if multilabel else draw(st.sampled_from(["binary", "binary", "multiclass", "multilabel"]))
    if form == "multilabel":
        pool = draw(st.sampled_from([(np.int64, [0, 1]), (np.bool_, [False, True]), (np.float64, [0.0, 1.0]),
                                     (np.int64, [2, 3]), (np.int64, [0, 1, 2, 3]), (np.float64, [0.0, 0.5, 1.0])]))
        y_true = draw(label_array((n, classes), pool))
        s = (n, classes)
    else:
        pool = draw(st.sampled_from(LABEL_POOLS))
        y_true = draw(label_array((n,), pool))
        s = (n,) if form == "binary" and draw(st.integers(0, 3)) else (n, classes)
    score_dtype = draw(st.sampled_from([np.float64, np.float64, np.float32, np.float16, np.int64, object, str]))
    if draw(st.integers(0, 2)) and len(s) == 2:  # rows of probabilities
        raw = draw(numbers_array(s, [0.0, 1.0, 2.0, 3.0, 5.0], np.float64))
        total = raw.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            y_score = np.where(total > 0, raw / np.where(total > 0, total, 1), 1.0 / s[1])
    else:
        y_score = draw(numbers_array(s, SCORE_VALUES, np.float64))
    if score_dtype is str:
        y_score = y_score.astype(str)
    elif score_dtype is object:
        y_score = y_score.astype(object)
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            y_score = y_score.astype(score_dtype)
    if not draw(st.integers(0, 8)):  # a length mismatch
        y_score = y_score[: max(0, n - 1)]
    return draw(packed(y_true)), draw(packed(y_score))


@st.composite
def real_pair(draw):
    """y_true and y_pred of a regression metric: 1-D or (n, outputs), floats of any width, integers,
    booleans, numeric strings."""
    s = draw(shape(two_d_columns=(1, 2, 3)))
    dtype = draw(st.sampled_from([np.float64, np.float64, np.float32, np.float16, np.int64, np.uint64, np.bool_,
                                  object, str]))
    positive = draw(st.booleans())  # the deviances and logarithmic errors need positive values
    values = [v for v in REAL_VALUES if v > 0] if positive else REAL_VALUES
    arrays = []
    for _ in range(2):
        a = draw(numbers_array(s if draw(st.integers(0, 8)) else draw(shape()), values, np.float64))
        with np.errstate(over="ignore", invalid="ignore"):
            if dtype in (np.int64, np.uint64):
                a = np.nan_to_num(a, nan=0.0, posinf=3.0, neginf=-3.0).clip(-9, 9).round()
                a = a.clip(0, None) if dtype is np.uint64 else a
            a = a.astype(str) if dtype is str else a.astype(dtype)
        arrays.append(draw(packed(a)))
    return tuple(arrays)


@st.composite
def cluster_pair(draw):
    n = draw(N)
    pool = draw(st.sampled_from(LABEL_POOLS))
    s2 = (n,) if draw(st.integers(0, 6)) else draw(shape())
    return draw(packed(draw(label_array((n,), pool)))), draw(packed(draw(label_array(s2))))


# ----------------------------------------------------------------------------------------------
# Keywords: each keyword a function takes, valid or not


def _weights(draw, n):
    kind = draw(st.sampled_from(["ones", "random", "int", "zeros", "scalar", "nan", "inf", "big", "short", "2d",
                                 "negative", "list", "str"]))
    if kind == "ones":
        return np.ones(n)
    if kind == "random":
        return np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 0.0, 3.25, 1e-3]), min_size=n, max_size=n)))
    if kind == "int":
        return np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), dtype=np.int64)
    if kind == "zeros":
        return np.zeros(n)
    if kind == "scalar":
        return draw(st.sampled_from([2.0, 1, np.float64(0.5)]))
    if kind == "nan":
        w = np.ones(n)
        w[: min(n, 1)] = np.nan
        return w
    if kind == "inf":
        w = np.ones(n)
        w[: min(n, 1)] = np.inf
        return w
    if kind == "big":
        return np.array(draw(st.lists(st.sampled_from([1e308, 1.7e308, 1.0]), min_size=n, max_size=n)))
    if kind == "short":
        return np.ones(n + 1)
    if kind == "2d":
        return np.ones((n, 2))
    if kind == "negative":
        return np.array(draw(st.lists(st.sampled_from([-1.0, 1.0, 2.0]), min_size=n, max_size=n)))
    if kind == "list":
        return [1.0] * n
    return "a"


KEYWORDS = {
    "normalize": [True, False, "x", 1, 0, None, "true", "pred", "all"],
    "pos_label": [1, 0, -1, 2, "1", "a", b"a", True, None, [1], 1.0, np.int64(1)],
    "average": ["binary", "micro", "macro", "weighted", "samples", None, "x"],
    "labels": [None, [0, 1], [1, 0], [0, 1, 2], [], ["a", "b"], ["0", "1"], [2, 3], [b"a", b"b"], [0], 1, "a"],
    "zero_division": ["warn", 0, 1, 0.0, 1.0, np.nan, 2, "x"],
    "k": [1, 2, 3, 0, -1, "a", 1.5, None, True],
    "force_finite": [True, False, 1, "x", None, np.bool_(True)],
    "drop_intermediate": [True, False, "yes", 2, None],
    "scale_by_half": ["auto", True, False, "x", 0.5],
    "adjusted": [True, False, 1],
    "beta": [1.0, 0.5, 2, 0, -1, np.inf, "a"],
    "weights": [None, "linear", "quadratic", "x"],
    "replace_undefined_by": [np.nan, 1.0, 0.0, -1.0, 2.0, {"LR+": 1.0, "LR-": 0.0}, "x"],
    "multioutput": ["raw_values", "uniform_average", "variance_weighted", None, [0.5, 0.5], [1.0], "x"],
    "max_fpr": [None, 0.5, 1.0, 0.0, 1.5, "a"],
    "multi_class": ["raise", "ovr", "ovo", "x"],
    "power": [0, 1, 2, 3, 1.5, 0.5, -1, "a"],
    "alpha": [0.5, 0.1, 0.9, 0.0, 1.0, 1.5, "a"],
    "digits": [2, 0, 4, -1, 1.5],
    "output_dict": [False, True, 1],
    "target_names": [None, ["x", "y"], ["x", "y", "z"], "a"],
    "samplewise": [False, True, 1],
    "ignore_ties": [False, True, "x"],
    "log_base": [2, 10, np.e, 1, 0, -2, "a"],
    "average_method": ["arithmetic", "geometric", "min", "max", "x"],
}


@st.composite
def keywords(draw, name, n):
    """Some of the keyword arguments scikit-learn's function takes, each valid or not."""
    import inspect

    params = [p for p in inspect.signature(function(sk, name)).parameters.values()
              if (p.kind == p.KEYWORD_ONLY and p.name in KEYWORDS) or p.name == "sample_weight"]
    chosen = {}
    for p in params:
        required = p.default is inspect.Parameter.empty
        if not required and draw(st.integers(0, 2)):
            continue
        if p.name == "sample_weight":
            chosen[p.name] = None if not draw(st.integers(0, 3)) else _weights(draw, n)
        else:
            chosen[p.name] = draw(st.sampled_from(KEYWORDS[p.name]))
    return chosen


# ----------------------------------------------------------------------------------------------
# Calling both and comparing


def _copy(v):
    """A deep copy of an argument (each library gets its own: neither sees the other's changes)."""
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) and isinstance(v[1], np.ndarray):
        return build(*v)
    if isinstance(v, np.ndarray):
        return v.copy()
    if isinstance(v, list):
        return list(v)
    if isinstance(v, dict):
        return dict(v)
    return v


def function(module, name):
    """module.name, or module.cluster.name for the names of the cluster submodule only."""
    return getattr(module, name) if hasattr(module, name) else getattr(module.cluster, name)


def call(module, name, args, kwargs):
    """(('ok', value) or ('raise', exception), warning categories) of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="ignore"):
            try:
                out = ("ok", function(module, name)(*[_copy(a) for a in args],
                                                    **{k: _copy(v) for k, v in kwargs.items()}))
            except Exception as e:  # noqa: BLE001 - every exception is compared
                out = ("raise", e)
    return out, sorted({w.category.__name__ for w in caught})


def exception_class(e):
    """The class to compare: numpy's own exception classes (scikit-learn lets some through from
    inside numpy) by their built-in base."""
    cls = type(e)
    if cls.__module__.startswith("numpy"):
        return next(c for c in cls.__mro__ if c.__module__ == "builtins").__name__
    return cls.__name__


def assert_same_value(ours, theirs, rtol, where="result"):
    assert type(ours) is type(theirs), f"{where}: type {type(ours).__name__} != {type(theirs).__name__}"
    if isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs), f"{where}: length {len(ours)} != {len(theirs)}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same_value(a, b, rtol, f"{where}[{i}]")
    elif isinstance(theirs, dict):
        assert list(ours) == list(theirs), f"{where}: keys {list(ours)} != {list(theirs)}"
        for key in theirs:
            assert_same_value(ours[key], theirs[key], rtol, f"{where}[{key!r}]")
    elif isinstance(theirs, np.ndarray):
        assert ours.dtype == theirs.dtype, f"{where}: dtype {ours.dtype} != {theirs.dtype}"
        assert ours.shape == theirs.shape, f"{where}: shape {ours.shape} != {theirs.shape}"
        if theirs.dtype.kind in "fc" and rtol:
            np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=0, equal_nan=True, err_msg=where)
        else:
            np.testing.assert_array_equal(ours, theirs, err_msg=where)
    elif isinstance(theirs, (float, np.floating)) and rtol:
        assert (math.isnan(ours) and math.isnan(theirs)) or math.isclose(ours, theirs, rel_tol=rtol), \
            f"{where}: {ours!r} != {theirs!r}"
    elif isinstance(theirs, (float, np.floating)):
        assert ours == theirs or (math.isnan(ours) and math.isnan(theirs)), f"{where}: {ours!r} != {theirs!r}"
    else:
        assert ours == theirs, f"{where}: {ours!r} != {theirs!r}"


def _raised(outcome, cls):
    return outcome[0] == "raise" and exception_class(outcome[1]) == cls


def _kinds(args):
    return {a.dtype.kind for _, a in args}


# Where assay differs from scikit-learn on purpose: scikit-learn fails by accident (an error of
# numpy or scipy reached from its internals, or a wrap-around) where assay answers or refuses in its
# own words. Each entry: (the functions or None for all, a test of (args, kwargs, theirs, ours), the
# reason). A divergence that matches is not a failure; ASSAY_FUZZ_STRICT=1 reports these too.
KNOWN = [
    (None, lambda args, kw, theirs, ours: _raised(theirs, "TypeError") and _raised(ours, "ValueError")
     and ("not supported between instances" in str(theirs[1]) or type(theirs[1]).__module__.startswith("numpy"))
     and (len(_kinds(args) & set("USO")) > 0 or isinstance(kw.get("labels"), list)),
     "labels of two kinds (strings and numbers, bytes and numbers, in y_true, y_pred or labels=): "
     "scikit-learn fails inside numpy's sort or comparison with a TypeError, assay refuses with a "
     "ValueError naming the mix"),
    ({"multilabel_confusion_matrix"}, lambda args, kw, theirs, ours: theirs[0] == "raise"
     and "previously unseen labels" in str(theirs[1]) and ours[0] == "ok",
     "labels= of strings on numeric 1-D targets: scikit-learn's LabelEncoder compares the strings "
     "with the numbers written as strings; assay counts the labels as absent"),
    (None, lambda args, kw, theirs, ours: theirs[0] == "ok" and _raised(ours, "ValueError")
     and any(a.dtype == object and np.any(np.isinf(np.asarray([v for v in a.ravel() if isinstance(v, float)])))
             for _, a in args),
     "scores of object dtype holding infinity: scikit-learn checks finiteness of numeric dtypes only "
     "and sorts the objects; assay reads them as float64 and refuses infinity"),
    (None, lambda args, kw, theirs, ours: theirs[0] == "ok" and _raised(ours, "ValueError")
     and "labels" in kw and any(a.dtype == np.uint64 and a.size and a.max() >= 2**63 for _, a in args),
     "uint64 labels at or above 2**63 with labels=: scikit-learn's np.intersect1d compares them in "
     "float64 with the given labels; assay compares exact values"),
    (None, lambda args, kw, theirs, ours: theirs[0] == ours[0] == "ok"
     and len({a.dtype for _, a in args if a.dtype.kind in "iu"}) == 2
     and any(a.dtype.kind in "iu" and a.size and a.max() > 2**53 for _, a in args),
     "labels of two integer dtypes with values beyond 2**53: scikit-learn maps some of them to "
     "their index through float64 and miscounts (confusion_matrix([0, 0, 0] as int8, "
     "[2**63, 2**63, 2**63 + 1] as uint64) puts all three in one column); assay counts exact values"),
    (None, lambda args, kw, theirs, ours: _raised(theirs, "TypeError") and "pos_label" in kw
     and kw["pos_label"] is None and "'NoneType' and 'NoneType'" in str(theirs[1]),
     "pos_label=None with average='binary' on targets of one class: scikit-learn fails comparing "
     "None with None; assay scores the one class"),
    ({"hinge_loss"}, lambda args, kw, theirs, ours: _raised(theirs, "ValueError") and _raised(ours, "ValueError")
     and "invalid literal for int()" in str(theirs[1]),
     "numbers as labels= with string y_true: scikit-learn fails converting the strings to int (numpy's "
     "words); assay names the label it does not know"),
    ({"average_precision_score"}, lambda args, kw, theirs, ours: _raised(theirs, "AttributeError"),
     "y_score as a tuple for multiclass y_true: scikit-learn reads its .shape and fails"),
    ({"label_ranking_average_precision_score"}, lambda args, kw, theirs, ours: _raised(theirs, "TypeError")
     and np.ndim(kw.get("sample_weight")) == 2,
     "2-D sample_weight of one row: scikit-learn fails converting it to a Python float"),
    ({"d2_pinball_score", "mean_pinball_loss", "d2_absolute_error_score"},
     lambda args, kw, theirs, ours: np.float16 in {a.dtype for _, a in args} and ours[0] == theirs[0] == "ok",
     "float16 targets: scikit-learn's weighted percentile rounds its intermediate values in float16"),
]


def compare(name, args, kwargs):
    (theirs, their_warnings) = call(sk, name, args, kwargs)
    (ours, our_warnings) = call(am, name, args, kwargs)
    if os.environ.get("ASSAY_FUZZ_STRICT") != "1":
        for names, matches, _ in KNOWN:
            if (names is None or name in names) and matches(args, kwargs, theirs, ours):
                return
    shown = f"{name}(*{[build(*a) if isinstance(a, tuple) else a for a in args]!r}, **{kwargs!r})"
    if theirs[0] == "raise":
        assert ours[0] == "raise", f"{shown}: scikit-learn raises {theirs[1]!r}, assay returns {ours[1]!r}"
        assert exception_class(ours[1]) == exception_class(theirs[1]), \
            f"{shown}: assay raises {ours[1]!r}, scikit-learn {theirs[1]!r}"
        assert str(ours[1]) == str(theirs[1]), f"{shown}: assay raises {ours[1]!r}, scikit-learn {theirs[1]!r}"
        return
    assert ours[0] == "ok", f"{shown}: scikit-learn returns {theirs[1]!r}, assay raises {ours[1]!r}"
    assert_same_value(ours[1], theirs[1], TOLERANCE.get(name, 0.0), shown)
    assert our_warnings == their_warnings, f"{shown}: warnings {our_warnings} != scikit-learn's {their_warnings}"


def n_of(packed_value):
    _, a = packed_value
    return a.shape[0] if a.ndim else 1


# ----------------------------------------------------------------------------------------------
# The tests: one per function

LABEL_FUNCTIONS = [
    "accuracy_score", "balanced_accuracy_score", "class_likelihood_ratios", "classification_report",
    "cohen_kappa_score", "confusion_matrix", "f1_score", "fbeta_score", "hamming_loss", "jaccard_score",
    "matthews_corrcoef", "multilabel_confusion_matrix", "precision_recall_fscore_support", "precision_score",
    "recall_score", "zero_one_loss",
]
SCORE_FUNCTIONS = [
    "roc_curve", "precision_recall_curve", "det_curve", "roc_auc_score", "average_precision_score",
    "top_k_accuracy_score", "log_loss", "brier_score_loss", "d2_log_loss_score", "d2_brier_score", "hinge_loss",
    "confusion_matrix_at_thresholds",
]
MULTILABEL_SCORE_FUNCTIONS = [
    "coverage_error", "label_ranking_average_precision_score", "label_ranking_loss", "dcg_score", "ndcg_score",
    "roc_auc_score", "average_precision_score", "log_loss",
]
REAL_FUNCTIONS = [
    "explained_variance_score", "max_error", "mean_absolute_error", "mean_absolute_percentage_error",
    "mean_squared_error", "mean_squared_log_error", "median_absolute_error", "r2_score", "root_mean_squared_error",
    "root_mean_squared_log_error", "mean_poisson_deviance", "mean_gamma_deviance", "mean_tweedie_deviance",
    "mean_pinball_loss", "d2_absolute_error_score", "d2_pinball_score", "d2_tweedie_score", "auc",
]
CLUSTER_FUNCTIONS = [
    "adjusted_rand_score", "rand_score", "adjusted_mutual_info_score", "mutual_info_score",
    "normalized_mutual_info_score", "homogeneity_score", "completeness_score", "v_measure_score",
    "homogeneity_completeness_v_measure", "fowlkes_mallows_score", "pair_confusion_matrix",
]


@pytest.mark.parametrize("name", LABEL_FUNCTIONS)
@FUZZ
@given(data=st.data())
def test_labels(name, data):
    y_true, y_pred = data.draw(label_pair(), "targets")
    compare(name, (y_true, y_pred), data.draw(keywords(name, n_of(y_true)), "keywords"))


@pytest.mark.parametrize("name", SCORE_FUNCTIONS)
@FUZZ
@given(data=st.data())
def test_scores(name, data):
    y_true, y_score = data.draw(score_pair(), "targets")
    compare(name, (y_true, y_score), data.draw(keywords(name, n_of(y_true)), "keywords"))


@pytest.mark.parametrize("name", MULTILABEL_SCORE_FUNCTIONS)
@FUZZ
@given(data=st.data())
def test_multilabel_scores(name, data):
    y_true, y_score = data.draw(score_pair(multilabel=True), "targets")
    compare(name, (y_true, y_score), data.draw(keywords(name, n_of(y_true)), "keywords"))


@pytest.mark.parametrize("name", REAL_FUNCTIONS)
@FUZZ
@given(data=st.data())
def test_regression(name, data):
    y_true, y_pred = data.draw(real_pair(), "targets")
    compare(name, (y_true, y_pred), data.draw(keywords(name, n_of(y_true)), "keywords"))


@pytest.mark.parametrize("name", CLUSTER_FUNCTIONS)
@FUZZ
@given(data=st.data())
def test_clustering(name, data):
    labels_true, labels_pred = data.draw(cluster_pair(), "targets")
    compare(name, (labels_true, labels_pred), data.draw(keywords(name, n_of(labels_true)), "keywords"))
