"""assay.metrics' label metrics against the installed scikit-learn: the same numbers (bit for bit),
the same types and dtypes, the same warnings and the same exceptions."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

from assay import metrics as am


def run(module, name, args, kwargs):
    """(outcome, warnings): outcome is ('ok', value) or ('raised', type, message)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            outcome = ("ok", getattr(module, name)(*args, **kwargs))
        except Exception as e:  # noqa: BLE001 - any exception must be the same
            outcome = ("raised", type(e), str(e))
    return outcome, [(w.category, str(w.message)) for w in caught]


def assert_identical(ours, theirs, where=""):
    assert type(ours) is type(theirs), f"{where}: {type(ours)} != {type(theirs)}"
    if isinstance(theirs, np.ndarray):
        assert ours.dtype == theirs.dtype, f"{where}: {ours.dtype} != {theirs.dtype}"
        assert ours.shape == theirs.shape, where
        np.testing.assert_array_equal(ours, theirs, err_msg=where)
    elif isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_identical(a, b, f"{where}[{i}]")
    elif isinstance(theirs, dict):
        assert list(ours) == list(theirs), where
        for key in theirs:
            assert_identical(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, (float, np.floating)) and np.isnan(theirs):
        assert np.isnan(ours), where
    else:
        assert ours == theirs, f"{where}: {ours!r} != {theirs!r}"


def check(name, *args, **kwargs):
    """assay.metrics.<name> and sklearn.metrics.<name> agree on this call in every respect."""
    ours, our_warnings = run(am, name, args, kwargs)
    theirs, their_warnings = run(sk, name, args, kwargs)
    where = f"{name}(**{sorted(kwargs)})"
    assert ours[0] == theirs[0], f"{where}: ours {ours} theirs {theirs}"
    if theirs[0] == "ok":
        assert_identical(ours[1], theirs[1], where)
    else:
        assert ours[1:] == theirs[1:], where
    assert our_warnings == their_warnings, where
    return theirs


SCORES = ["precision_score", "recall_score", "f1_score", "jaccard_score"]
AVERAGES = [None, "binary", "micro", "macro", "weighted", "samples"]


def label_cases(rng, n=120):
    """(name, y_true, y_pred) with ties, string, bool and float labels, absent classes."""
    yield "binary", rng.integers(0, 2, n), rng.integers(0, 2, n)
    yield "multiclass", rng.integers(0, 4, n), rng.integers(0, 4, n)
    yield "signed", rng.integers(-1, 2, n) * 2, rng.integers(-1, 2, n) * 2
    yield "float-int32", rng.integers(0, 3, n).astype(float), rng.integers(0, 3, n).astype(np.int32)
    yield "int32-only-in-pred-float", rng.integers(0, 2, n).astype(np.int32), rng.integers(0, 3, n).astype(float)
    yield "strings", np.array(["no", "yes"])[rng.integers(0, 2, n)], np.array(["no", "yes"])[rng.integers(0, 2, n)]
    yield ("strings3", np.array(["a", "b", "c"])[rng.integers(0, 3, n)],
           np.array(["a", "b", "dd"])[rng.integers(0, 3, n)])
    yield "bool", rng.integers(0, 2, n).astype(bool), rng.integers(0, 2, n).astype(bool)
    yield "lists", list(rng.integers(0, 3, 20)), list(rng.integers(0, 3, 20))
    yield "never-predicted", rng.integers(0, 3, n), rng.integers(0, 2, n)
    yield "pred-only-class", rng.integers(0, 2, n), rng.integers(0, 3, n)
    yield "one-class", np.ones(10, dtype=int), np.ones(10, dtype=int)
    yield "one-class-strings", np.array(["x"] * 5), np.array(["x"] * 5)
    yield "nothing-right", np.zeros(6, dtype=int), np.ones(6, dtype=int)
    yield "big-ints", rng.integers(10**9, 10**9 + 3, n), rng.integers(10**9, 10**9 + 3, n)
    yield "wide-ints", rng.choice([-(2**40), 0, 2**40], n), rng.choice([-(2**40), 0, 2**40], n)
    yield "uint8", rng.integers(0, 3, n).astype(np.uint8), rng.integers(0, 3, n).astype(np.uint8)
    yield "column", rng.integers(0, 3, (n, 1)), rng.integers(0, 3, n)


def weight_cases(rng, n):
    yield "none", None
    yield "float", rng.random(n)
    yield "int", rng.integers(0, 4, n)
    yield "float32", rng.random(n).astype(np.float32)
    yield "list", [1.5] * n


def each_case(rng):
    for name, y_true, y_pred in label_cases(rng):
        for wname, w in weight_cases(rng, len(y_true)):
            yield f"{name}/{wname}", y_true, y_pred, w


@pytest.mark.parametrize("name", SCORES)
def test_scores(rng, name):
    for case, y_true, y_pred, w in each_case(rng):
        for average in AVERAGES:
            for zero_division in ("warn", 0.0, 1.0, np.nan):
                if name == "jaccard_score" and zero_division is np.nan:
                    continue
                check(name, y_true, y_pred, average=average, sample_weight=w, zero_division=zero_division)


def test_scores_labels_and_pos_label(rng):
    for case, y_true, y_pred, w in each_case(rng):
        present = np.unique(np.concatenate([np.ravel(y_true), np.ravel(y_pred)]))
        labels_options = [list(present[:1]), list(present[::-1]), list(present) + list(present[:1])]
        if present.dtype.kind in "iuf":
            labels_options.append(list(present) + [99])
        for name in SCORES:
            for labels in labels_options:
                for average in (None, "macro", "micro", "weighted"):
                    check(name, y_true, y_pred, labels=labels, average=average, sample_weight=w)
            for pos_label in (present[0], present[-1], 1, "nope"):
                check(name, y_true, y_pred, pos_label=pos_label, sample_weight=w)
                check(name, y_true, y_pred, pos_label=pos_label, average="macro", sample_weight=w)


def test_fbeta_and_prfs(rng):
    for case, y_true, y_pred, w in each_case(rng):
        for beta in (0, 0.5, 1, 2.0, np.inf):
            for average in AVERAGES:
                check("fbeta_score", y_true, y_pred, beta=beta, average=average, sample_weight=w)
                check("precision_recall_fscore_support", y_true, y_pred, beta=beta, average=average, sample_weight=w)
        check("precision_recall_fscore_support", y_true, y_pred, warn_for=("recall",), sample_weight=w)
        check("precision_recall_fscore_support", y_true, y_pred, zero_division=np.nan, sample_weight=w)


def test_classification_report(rng):
    for case, y_true, y_pred, w in each_case(rng):
        present = np.unique(np.concatenate([np.ravel(y_true), np.ravel(y_pred)]))
        for output_dict in (False, True):
            for digits in (0, 2, 5):
                check("classification_report", y_true, y_pred, sample_weight=w, digits=digits, output_dict=output_dict)
            check("classification_report", y_true, y_pred, sample_weight=w, output_dict=output_dict,
                  zero_division=1.0)
            check("classification_report", y_true, y_pred, labels=list(present[:2]), output_dict=output_dict)
            check("classification_report", y_true, y_pred, labels=list(present[::-1]), output_dict=output_dict,
                  target_names=[f"class {i}" for i in range(len(present))])
            check("classification_report", y_true, y_pred, target_names=["just one name"], output_dict=output_dict)
            check("classification_report", y_true, y_pred, labels=list(present[:1]),
                  target_names=["a", "b", "c"], output_dict=output_dict)


def test_confusion_matrix(rng):
    for case, y_true, y_pred, w in each_case(rng):
        present = np.unique(np.concatenate([np.ravel(y_true), np.ravel(y_pred)]))
        for normalize in (None, "true", "pred", "all"):
            check("confusion_matrix", y_true, y_pred, sample_weight=w, normalize=normalize)
        for labels in (list(present[::-1]), list(present[:1]), list(present) * 2, []):
            check("confusion_matrix", y_true, y_pred, sample_weight=w, labels=labels)
        check("multilabel_confusion_matrix", y_true, y_pred, sample_weight=w)
        check("multilabel_confusion_matrix", y_true, y_pred, sample_weight=w, labels=list(present[::-1]))
        check("multilabel_confusion_matrix", y_true, y_pred, samplewise=True)


def test_other_scores(rng):
    for case, y_true, y_pred, w in each_case(rng):
        present = np.unique(np.concatenate([np.ravel(y_true), np.ravel(y_pred)]))
        for normalize in (True, False):
            check("accuracy_score", y_true, y_pred, sample_weight=w, normalize=normalize)
            check("zero_one_loss", y_true, y_pred, sample_weight=w, normalize=normalize)
        check("hamming_loss", y_true, y_pred, sample_weight=w)
        for adjusted in (False, True):
            check("balanced_accuracy_score", y_true, y_pred, sample_weight=w, adjusted=adjusted)
        check("matthews_corrcoef", y_true, y_pred, sample_weight=w)
        for weights in (None, "linear", "quadratic"):
            check("cohen_kappa_score", y_true, y_pred, weights=weights, sample_weight=w)
            check("cohen_kappa_score", y_true, y_pred, weights=weights, labels=list(present[:2]))
            check("cohen_kappa_score", y_true, y_pred, weights=weights, labels=list(present[:1]),
                  replace_undefined_by=0.5)
        check("class_likelihood_ratios", y_true, y_pred, sample_weight=w)
        check("class_likelihood_ratios", y_true, y_pred, sample_weight=w, replace_undefined_by=1.0)
        check("class_likelihood_ratios", y_true, y_pred, replace_undefined_by={"LR+": 2.0, "LR-": 0.5})


ALL = ["accuracy_score", "balanced_accuracy_score", "class_likelihood_ratios", "classification_report",
       "cohen_kappa_score", "confusion_matrix", "f1_score", "hamming_loss", "jaccard_score", "matthews_corrcoef",
       "multilabel_confusion_matrix", "precision_recall_fscore_support", "precision_score", "recall_score",
       "zero_one_loss"]


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("args", [
    ([0, 1], [0, 1, 1]),
    ([0, 1, 2], [0.5, 1.5, 2]),
    ([0.5, 1.5], [0, 1]),
    ([0, 1, np.nan], [0, 1, 1]),
    ([0, 1, np.inf], [0, 1, 1]),
    ([], []),
    (["a", "b"], [0, 1]),
    ([0, 1, 2], [0, 1, 2], [1, 1]),
    ([0, 1, 2], [0, 1, 2], [0, 0, 0]),
    ([0, 1, 2], [0, 1, 2], [1, np.nan, 1]),
    ([0, 1, 2], [0, 1, 2], [[1, 1, 1]]),
    ([[0, 1], [1, 2]], [[0, 1], [1, 2]]),
    (3, [0]),
    ([0, 1], "ab"),
])
def test_bad_input_raises_the_same(name, args):
    y_true, y_pred = args[0], args[1]
    kwargs = {"sample_weight": args[2]} if len(args) > 2 else {}
    check(name, y_true, y_pred, **kwargs)


@pytest.mark.parametrize("name,kwargs", [
    ("f1_score", {"average": "foo"}),
    ("f1_score", {"zero_division": 2}),
    ("f1_score", {"zero_division": "x"}),
    ("f1_score", {"pos_label": [1]}),
    ("f1_score", {"labels": 3}),
    ("precision_score", {"average": "samples"}),
    ("recall_score", {"average": "binary"}),
    ("jaccard_score", {"zero_division": np.nan}),
    ("cohen_kappa_score", {"weights": "x"}),
    ("cohen_kappa_score", {"replace_undefined_by": 3}),
    ("cohen_kappa_score", {"labels": [7]}),
    ("classification_report", {"digits": -1}),
    ("classification_report", {"output_dict": 3}),
    ("classification_report", {"target_names": ["a"]}),
    ("confusion_matrix", {"normalize": "x"}),
    ("confusion_matrix", {"labels": [7, 8]}),
    ("confusion_matrix", {"sample_weight": 2}),
    ("accuracy_score", {"normalize": "x"}),
    ("balanced_accuracy_score", {"adjusted": 3}),
    ("multilabel_confusion_matrix", {"samplewise": True}),
    ("precision_recall_fscore_support", {"warn_for": 3}),
    ("class_likelihood_ratios", {"replace_undefined_by": 3}),
    ("class_likelihood_ratios", {"replace_undefined_by": {"LR+": 0.5, "LR-": 0.5}}),
])
def test_bad_parameters_raise_the_same(name, kwargs):
    check(name, [0, 1, 2, 2], [0, 2, 2, 1], **kwargs)


def test_bad_fbeta_parameters_raise_the_same():
    for beta in (-1, np.nan, "a"):
        check("fbeta_score", [0, 1], [0, 1], beta=beta)
    check("class_likelihood_ratios", [0, 1, 2], [0, 1, 2])


# --- properties --------------------------------------------------------------------------------

small_labels = st.lists(st.integers(0, 3), min_size=1, max_size=30)


@st.composite
def label_pairs(draw, weighted=None):
    y_true = draw(small_labels)
    n = len(y_true)
    y_pred = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    if weighted is None:
        weighted = draw(st.booleans())
    w = None
    if weighted:
        w = draw(st.one_of(
            st.lists(st.integers(0, 5), min_size=n, max_size=n),
            st.lists(st.floats(0, 10, allow_nan=False, allow_infinity=False, width=32), min_size=n, max_size=n),
        ))
    return np.array(y_true), np.array(y_pred), w


CALLS = [
    ("accuracy_score", {}),
    ("zero_one_loss", {"normalize": False}),
    ("hamming_loss", {}),
    ("balanced_accuracy_score", {"adjusted": True}),
    ("matthews_corrcoef", {}),
    ("cohen_kappa_score", {"weights": "quadratic"}),
    ("confusion_matrix", {}),
    ("multilabel_confusion_matrix", {}),
    ("f1_score", {"average": "macro"}),
    ("f1_score", {}),
    ("precision_score", {"average": "weighted", "zero_division": np.nan}),
    ("recall_score", {"average": None}),
    ("jaccard_score", {"average": "micro"}),
    ("precision_recall_fscore_support", {"beta": 0.5}),
    ("classification_report", {"output_dict": True}),
    ("classification_report", {}),
    ("class_likelihood_ratios", {}),
]


@settings(max_examples=150, deadline=None)
@given(label_pairs(), st.sampled_from([np.int64, np.int32, np.uint8, np.float64, np.float32]),
       st.sampled_from([np.int64, np.float64]), st.integers(-3, 70))
def test_property_same_as_sklearn(pair, true_dtype, pred_dtype, shift):
    y_true, y_pred, w = pair
    if np.dtype(true_dtype).kind == "u":
        shift = abs(shift)
    y_true, y_pred = (y_true + shift).astype(true_dtype), (y_pred + shift).astype(pred_dtype)
    for name, kwargs in CALLS:
        check(name, y_true, y_pred, sample_weight=w, **kwargs)


def _quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


@settings(max_examples=100, deadline=None)
@given(label_pairs(weighted=False), st.randoms(use_true_random=False))
def test_property_permutation_invariance(pair, random):
    y_true, y_pred, _ = pair
    order = list(range(len(y_true)))
    random.shuffle(order)
    for name, kwargs in CALLS:
        if name == "classification_report":
            continue
        try:
            a = _quiet(getattr(am, name), y_true, y_pred, **kwargs)
        except ValueError:
            continue
        b = _quiet(getattr(am, name), y_true[order], y_pred[order], **kwargs)
        assert_identical(a, b, name)  # unweighted: exact counts, so no rounding difference either


@settings(max_examples=100, deadline=None)
@given(label_pairs(weighted=False), st.data())
def test_property_integer_weights_repeat_rows(pair, data):
    y_true, y_pred, _ = pair
    w = np.array(data.draw(st.lists(st.integers(1, 3), min_size=len(y_true), max_size=len(y_true))))
    if not w.any():
        return
    rt, rp = np.repeat(y_true, w), np.repeat(y_pred, w)
    for name, kwargs in CALLS:
        if name in ("classification_report",):
            continue
        try:
            weighted = _quiet(getattr(am, name), y_true, y_pred, sample_weight=w, **kwargs)
        except ValueError:
            continue
        repeated = _quiet(getattr(am, name), rt, rp, **kwargs)
        if name == "multilabel_confusion_matrix":  # weighted counts are float64, repeated ones int64
            weighted = weighted.astype(repeated.dtype)
        if isinstance(repeated, tuple):
            for a, b in zip(weighted, repeated):
                if a is not None:
                    np.testing.assert_allclose(a, b, rtol=1e-12, err_msg=name)
        else:
            np.testing.assert_allclose(weighted, repeated, rtol=1e-12, err_msg=name)


@settings(max_examples=100, deadline=None)
@given(label_pairs(), st.sampled_from([("", "a", "a ", "B"), ("yes", "no", "maybe", "n")]))
def test_property_string_labels_same_as_sklearn(pair, names):
    y_true, y_pred, w = pair
    names = np.array(names)
    for name, kwargs in CALLS:
        check(name, names[y_true], names[y_pred], sample_weight=w, **kwargs)
