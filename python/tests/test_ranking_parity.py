"""assay.metrics' score metrics against the installed scikit-learn: equal values to the bit, equal
dtypes, equal warnings and exceptions."""

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

from assay import _core
from assay import metrics as am
from parity import check

CURVES = ["roc_curve", "precision_recall_curve", "det_curve"]
AREAS = ["roc_auc_score", "average_precision_score"]


def binary_cases(rng):
    """(y_true, y_score, pos_label) with ties (scores rounded) of many label and score types."""
    for n in (1, 2, 7, 50, 300, 2000):
        y = rng.integers(0, 2, n)
        s = np.round(rng.random(n), int(rng.integers(1, 4)))
        yield y, s, None
        yield y * 2 - 1, s, None
        yield y.astype(bool), s, None
        yield y.astype(np.float64), s.astype(np.float32), None
        yield np.array(["neg", "pos"])[y], s, "pos"
        yield np.array(["neg", "pos"])[y], s, "neg"
        yield y, (s * 10).astype(np.int64), None
        yield y, np.full(n, 0.5), None
        yield y + 3, rng.standard_normal(n), 4
        yield list(y), list(s), None


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize("weighted", [False, True])
def test_curves(rng, name, weighted):
    for y, s, pos in binary_cases(rng):
        w = np.round(rng.random(len(y)) * 3, 1) if weighted else None
        for drop in (False, True):
            check(name, y, s, pos_label=pos, sample_weight=w, drop_intermediate=drop)


@pytest.mark.parametrize("weighted", [False, True])
def test_areas_binary(rng, weighted):
    for y, s, pos in binary_cases(rng):
        w = np.round(rng.random(len(y)) * 3, 1) if weighted else None
        check("roc_auc_score", y, s, sample_weight=w)
        for max_fpr in (0.1, 0.5, 1.0):
            check("roc_auc_score", y, s, sample_weight=w, max_fpr=max_fpr)
        check("average_precision_score", y, s, sample_weight=w, pos_label=1 if pos is None else pos)


def test_areas_large_bit_identical(rng):
    # Long curves: numpy's pairwise summation order matters here.
    # 6 x 10^5 distinct scores: more than 2^18 kept points, whose terms are computed on two halves.
    for n in (10**4, 2 * 10**5, 6 * 10**5):
        y = rng.integers(0, 2, n)
        s = rng.random(n)
        w = rng.random(n)
        for args in ((y, s), (y, np.round(s, 3))):
            assert am.roc_auc_score(*args) == sk.roc_auc_score(*args)
            assert am.roc_auc_score(*args, sample_weight=w) == sk.roc_auc_score(*args, sample_weight=w)
            assert am.average_precision_score(*args) == sk.average_precision_score(*args)
            assert am.average_precision_score(*args, sample_weight=w) == sk.average_precision_score(*args, sample_weight=w)


def test_average_precision_two_halves(rng):
    # From 2^19 cases the walk splits the sorted keys at a tie-group boundary near the middle and
    # walks the halves on two threads; the lower half's terms move next to the upper half's when ties
    # leave a gap. Cases: ties across the middle, a tie group holding the middle (no split possible),
    # one score for every case, every case positive, few positives, distinct scores.
    n = 2**19 + 7
    y = rng.integers(0, 2, n)
    few = (rng.random(n) < 0.001).astype(np.int64)
    cases = [
        (y, np.round(rng.random(n), 2)),
        (y, (rng.random(n) < 0.7).astype(np.float64)),
        (y, np.full(n, 0.25)),
        (np.ones(n, dtype=np.int64), np.round(rng.random(n), 3)),
        (few, rng.random(n)),
        (y, rng.random(n)),
        (y, np.concatenate([np.full(n // 2 + 3, 0.5), rng.random(n - n // 2 - 3)])),
    ]
    for yy, s in cases:
        assert am.average_precision_score(yy, s) == sk.average_precision_score(yy, s)


def test_two_class_codes_in_halves(rng):
    # From 2^19 labels the two-class test runs on two halves: a third value or a NaN in either half, and
    # the labels {-1, 1} or {0., 1.} over both, must give scikit-learn's answer or its exception.
    n = 2**19 + 3
    s = rng.random(n)
    y = rng.integers(0, 2, n)
    assert am.average_precision_score(y * 2 - 1, s) == sk.average_precision_score(y * 2 - 1, s)
    assert am.roc_auc_score(y.astype(np.float64), s) == sk.roc_auc_score(y.astype(np.float64), s)
    for at in (3, n - 2):
        y3 = y.copy()
        y3[at] = 2
        with pytest.raises(ValueError) as ours:
            am.average_precision_score(y3, s)
        with pytest.raises(ValueError) as theirs:
            sk.average_precision_score(y3, s)
        assert str(ours.value) == str(theirs.value)
        yf = y.astype(np.float64)
        yf[at] = np.nan
        with pytest.raises(ValueError) as ours:
            am.roc_auc_score(yf, s)
        with pytest.raises(ValueError) as theirs:
            sk.roc_auc_score(yf, s)
        assert str(ours.value) == str(theirs.value)


def test_two_class_codes_one_pass(rng):
    # Integer labels of minimum 0 and maximum 1 keep the codes written by the first pass (labels == 1);
    # any other pair of values takes the second pass. Against numpy: codes = (y == max), greater = (max == 1).
    for n in (5, 2**19 + 3):
        base = rng.integers(0, 2, n)
        base[:2] = (0, 1)
        for y in (base, base.astype(np.int32), base.astype(np.int8), base.astype(np.uint8), base.astype(bool),
                  base * 2 - 1, base + 1, base * 3, base.astype(np.float64)):
            got = _core.two_class_codes(y)
            assert got is not None
            np.testing.assert_array_equal(got[0], (y == y.max()).astype(np.int32), strict=True)
            assert got[1] == (y.max() == 1)
        for y in (np.where(np.arange(n) == n - 1, 2, base), np.where(np.arange(n) == 0, -1, base), np.zeros(n, np.int64),
                  np.ones(n, np.uint8)):
            assert _core.two_class_codes(y) is None


def test_sort_paths(rng):
    # Unweighted, the sweep sorts (score, +-1) records below 2^16 cases (8-bit digits below 4096, else
    # 11-bit) and each class's scores by the core's class sort from 2^16 (bucket sizes change at 2^24);
    # weighted, records by one thread below 2^17 cases and by every core from 2^17.
    for n in (4095, 4096, 2**16 - 1, 2**16, 2**17 + 3, 2**21 - 1, 2**21 + 5):
        y = rng.integers(0, 2, n)
        s = np.round(rng.standard_normal(n), 4)  # ties, both signs, zeros
        assert am.roc_auc_score(y, s) == sk.roc_auc_score(y, s)
        assert am.average_precision_score(y, s) == sk.average_precision_score(y, s)
        if n < 2**18:
            w = np.round(rng.random(n), 2)  # some 0
            assert am.roc_auc_score(y, s, sample_weight=w) == sk.roc_auc_score(y, s, sample_weight=w)
            assert am.average_precision_score(y, s, sample_weight=w) == \
                sk.average_precision_score(y, s, sample_weight=w)
        if n < 2**21:
            for a, b in zip(am.roc_curve(y, s), sk.roc_curve(y, s)):
                np.testing.assert_array_equal(a, b, strict=True)


def test_large_bad_input_same_error(rng):
    # From 2^16 cases the labelled sort checks the input in its first read; a bad value anywhere gives
    # scikit-learn's exception.
    n = 2**17
    y = rng.integers(0, 2, n)
    for bad in (0, n - 1):
        s = rng.random(n)
        s[bad] = np.nan
        with pytest.raises(ValueError) as ours:
            am.roc_auc_score(y, s)
        with pytest.raises(ValueError) as theirs:
            sk.roc_auc_score(y, s)
        assert str(ours.value) == str(theirs.value)
    y3 = y.copy()
    y3[n - 1] = 2
    s = rng.random(n)
    with pytest.raises(ValueError) as ours:
        am.roc_auc_score(y3, s)
    with pytest.raises(ValueError) as theirs:
        sk.roc_auc_score(y3, s)
    assert str(ours.value) == str(theirs.value)


def _ranking_same_as_sklearn(y, s):
    """ROC AUC, AP and the ROC and PR curves of (y, s) equal scikit-learn's, bit for bit."""
    assert am.roc_auc_score(y, s) == sk.roc_auc_score(y, s)
    assert am.average_precision_score(y, s) == sk.average_precision_score(y, s)
    for drop in (True, False):
        for a, b in zip(am.roc_curve(y, s, drop_intermediate=drop), sk.roc_curve(y, s, drop_intermediate=drop)):
            np.testing.assert_array_equal(a, b, strict=True)
    for a, b in zip(am.precision_recall_curve(y, s), sk.precision_recall_curve(y, s)):
        np.testing.assert_array_equal(a, b, strict=True)


def test_labelled_sort_paths(rng):
    # From 2^16 cases, unweighted: scores of one sign, or of both within about +-2, are sorted as one
    # run of keys carrying the class (the keys fit in 63 bits); wider scores of both signs by class.
    for n in (2**16, 2**17 + 3):
        y = rng.integers(0, 2, n)
        for s in (rng.random(n), np.round(rng.random(n), 3), np.round(rng.standard_normal(n) * 0.5, 3).clip(-1.9, 1.9),
                  np.where(rng.random(n) < 0.01, -0.0, np.round(rng.random(n), 2))):
            _ranking_same_as_sklearn(y, s)


def test_grouped_sort_paths(rng):
    # From 2^16 cases, unweighted, scores of few distinct values are counted per distinct score (at most
    # max(1024, share / 32) of them per thread's share of the cases: one thread below 2^19 cases, two
    # from 2^19 on a machine of two cores or more) instead of sorted; more distinct scores (from the
    # start, or only late in the input) make the grouping give up to the sort. Every value occurs, so
    # the counts cross the bound exactly (4096 at 2^17 + 3 cases, 8192 at 2^19 + 7 on two threads).
    for n, distinct in ((2**17 + 3, (4095, 4096, 4097)), (2**19 + 7, (1001, 8192, 8193))):
        y = rng.integers(0, 2, n)
        for d in distinct:
            values = np.unique(np.round(rng.standard_normal(3 * d), 6))[:d]
            assert values.shape[0] == d
            _ranking_same_as_sklearn(y, values[rng.permutation(np.arange(n) % d)])
        # Few distinct scores in the first 90%, all distinct after: the grouping gives up late.
        s = np.round(rng.random(n), 2)
        s[9 * n // 10:] = rng.random(n - 9 * n // 10)
        _ranking_same_as_sklearn(y, s)
        # Both signs, far apart, -0.0 and +0.0: grouped whether or not the keys would leave room for the class.
        s = np.round(rng.standard_normal(n) * 1e3, 0) * 10.0 ** rng.integers(-300, 300, n).clip(-2, 2)
        s[rng.random(n) < 0.01] = -0.0
        _ranking_same_as_sklearn(y, s)
        _ranking_same_as_sklearn(np.zeros(n, dtype=np.int64) + (np.arange(n) == 5), np.round(rng.random(n), 3))  # one positive


def test_numpy_sum_order(rng):
    for n in [*range(300), 1000, 8191, 8192, 8193, 65537, 10**6]:
        a = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)
        assert _core.numpy_sum(a) == a.sum()


def probabilities(rng, n, k):
    p = rng.random((n, k))
    return p / p.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_roc_auc_multiclass(rng, average):
    for n, k in ((30, 3), (200, 4), (500, 5)):
        y = rng.integers(0, k, n)
        p = probabilities(rng, n, k)
        w = rng.random(n)
        for multi_class in ("ovr", "ovo"):
            check("roc_auc_score", y, p, multi_class=multi_class, average=average)
            check("roc_auc_score", y, p, multi_class=multi_class, average=average, sample_weight=w)
        labels = np.array(["a", "b", "c", "d", "e"][:k])
        check("roc_auc_score", labels[y], p, multi_class="ovr", average=average, labels=labels)
    y = rng.integers(0, 3, 50)
    check("roc_auc_score", y, probabilities(rng, 50, 4), multi_class="ovr", labels=[0, 1, 2, 3])
    check("roc_auc_score", y, probabilities(rng, 50, 3))
    check("roc_auc_score", y, probabilities(rng, 50, 3), multi_class="ovr", max_fpr=0.5)
    check("roc_auc_score", y, rng.random((50, 3)), multi_class="ovr")
    check("roc_auc_score", y, probabilities(rng, 50, 4), multi_class="ovr")
    check("roc_auc_score", y, probabilities(rng, 50, 3), multi_class="ovr", labels=[0, 2, 1])


@pytest.mark.parametrize("average", ["macro", "weighted", "micro", "samples", None])
def test_average_precision_multiclass(rng, average):
    for n, k in ((30, 3), (300, 4)):
        y = rng.integers(0, k, n)
        p = np.round(probabilities(rng, n, k), 2)
        check("average_precision_score", y, p, average=average)
        check("average_precision_score", y, p, average=average, sample_weight=rng.random(n))
        check("average_precision_score", y, p, average=average, pos_label=2)


def test_top_k_accuracy(rng):
    for n, k in ((40, 3), (300, 5)):
        y = rng.integers(0, k, n)
        p = np.round(probabilities(rng, n, k), 1)
        w = rng.random(n)
        for top in (1, 2, 3, k):
            for normalize in (True, False):
                check("top_k_accuracy_score", y, p, k=top, normalize=normalize)
                check("top_k_accuracy_score", y, p, k=top, normalize=normalize, sample_weight=w)
        check("top_k_accuracy_score", np.array(list("abcde"))[y], p, k=2)
    y = rng.integers(0, 2, 60)
    s = rng.random(60)
    for top in (1, 2):
        check("top_k_accuracy_score", y, s, k=top)
        check("top_k_accuracy_score", y, s * 4 - 2, k=top)
    check("top_k_accuracy_score", y, probabilities(rng, 60, 3), labels=[0, 1, 2])
    check("top_k_accuracy_score", y, probabilities(rng, 60, 3))
    check("top_k_accuracy_score", y, probabilities(rng, 60, 3), labels=[0, 2, 1])


def test_top_k_accuracy_ties(rng):
    """Scores with many ties (three values, signed zeros among them): the rank of the true class
    among equal scores follows scikit-learn's reversed stable sort (the later column first)."""
    y = np.concatenate([np.arange(5), rng.integers(0, 5, 195)])
    s = rng.integers(-1, 2, (200, 5)).astype(np.float64)
    s[rng.random((200, 5)) < 0.3] = -0.0
    for top in (1, 2, 3, 4):
        check("top_k_accuracy_score", y, s, k=top)
        check("top_k_accuracy_score", y, s.astype(np.float32), k=top, sample_weight=rng.random(200))


EDGE_CASES = [
    ([1, 1, 1], [0.1, 0.2, 0.3]),
    ([0, 0, 0], [0.1, 0.2, 0.3]),
    ([0, 1, 1], [0.1, np.nan, 0.3]),
    ([0, 1, 1], [0.1, np.inf, 0.3]),
    ([0, 2, 2], [0.1, 0.2, 0.3]),
    ([0, 1], [0.1, 0.2, 0.3]),
    ([], []),
    (["a", "b"], [0.1, 0.2]),
    ([0, 1, 0.5], [0.1, 0.2, 0.3]),
    ([0, 1, 1, 0], [3, 3, 3, 3]),
    ([0, 1, 1, 0], [1, 2, 3, 4]),
    ([[0], [1], [1]], [0.3, 0.2, 0.1]),
]


@pytest.mark.parametrize("name", CURVES + AREAS)
@pytest.mark.parametrize("case", range(len(EDGE_CASES)))
def test_edge_cases(name, case):
    y, s = EDGE_CASES[case]
    check(name, y, s)
    check(name, np.asarray(y), np.asarray(s))


def test_bad_parameters():
    y, s = [0, 1, 1], [0.1, 0.2, 0.3]
    check("roc_auc_score", y, s, max_fpr=0)
    check("roc_auc_score", y, s, max_fpr=1.5)
    check("roc_auc_score", y, s, sample_weight=[1, 0, 0])
    check("roc_auc_score", y, s, sample_weight=[1, 2, -1])
    check("roc_curve", y, s, sample_weight=[1, np.nan, 2])
    check("roc_curve", y, s, sample_weight=[1, -1, 2])
    check("average_precision_score", y, s, pos_label=3)


_WRONG_PARAMETERS = [("pos_label", b"b"), ("pos_label", [1]), ("pos_label", None), ("drop_intermediate", "yes"),
                     ("drop_intermediate", None), ("scale_by_half", "half"), ("labels", 3), ("sample_weight", 2.0)]


@pytest.mark.parametrize("name, keyword, value", [
    (name, keyword, value) for name in CURVES + ["average_precision_score", "brier_score_loss"]
    for keyword, value in _WRONG_PARAMETERS if keyword in inspect.signature(getattr(sk, name)).parameters
])
def test_parameters_validated_as_scikit_learn_does(name, keyword, value):
    """A parameter of the wrong type is refused with scikit-learn's InvalidParameterError and
    message (bytes labels as pos_label included)."""
    check(name, [0, 1, 1], [0.1, 0.2, 0.3], **{keyword: value})


scores = st.lists(st.integers(0, 4), min_size=0, max_size=12).map(lambda v: np.array(v, dtype=np.float64) / 4)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_property_same_as_sklearn(data):
    s = data.draw(scores)
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=len(s), max_size=len(s))), dtype=np.int64)
    w = data.draw(st.none() | st.lists(st.integers(0, 3), min_size=len(s), max_size=len(s)).map(np.array))
    for name in CURVES + AREAS:
        check(name, y, s, sample_weight=w)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_property_invariances(data):
    s = data.draw(scores)
    n = len(s)
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int64)
    if n < 2 or y.min() == y.max():
        return
    reps = np.array(data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)))
    for f in (am.roc_auc_score, am.average_precision_score):
        base = f(y, s)
        # Strictly increasing transforms of the scores change nothing.
        assert f(y, np.exp(3 * s) - 7) == pytest.approx(base, abs=1e-15)
        assert f(y, s * 1000 + 5) == pytest.approx(base, abs=1e-15)
        # Integer weights are repeated rows.
        assert f(y, s, sample_weight=reps.astype(float)) == pytest.approx(f(np.repeat(y, reps), np.repeat(s, reps)),
                                                                            abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_property_multiclass_same_as_sklearn(data):
    n = data.draw(st.integers(1, 12))
    k = data.draw(st.integers(3, 4))
    y = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    raw = np.array(data.draw(st.lists(st.integers(1, 4), min_size=n * k, max_size=n * k)), dtype=float).reshape(n, k)
    p = raw / raw.sum(axis=1, keepdims=True)
    for multi_class in ("ovr", "ovo"):
        for average in ("macro", "weighted"):
            check("roc_auc_score", y, p, multi_class=multi_class, average=average)
    check("average_precision_score", y, p)
    check("top_k_accuracy_score", y, p, k=2, labels=list(range(k)))
    check("log_loss", y, p, labels=list(range(k)))
    check("brier_score_loss", y, p, labels=list(range(k)))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_property_string_labels(data):
    s = data.draw(scores)
    y = np.array(data.draw(st.lists(st.sampled_from(["cat", "dog"]), min_size=len(s), max_size=len(s))))
    pos = data.draw(st.sampled_from(["cat", "dog", None]))
    for name in CURVES:
        check(name, y, s, pos_label=pos)
    check("average_precision_score", y, s, pos_label=pos if pos is not None else 1)
    check("roc_auc_score", y, s)
