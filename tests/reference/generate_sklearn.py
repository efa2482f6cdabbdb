#!/usr/bin/python3
"""Writes the scikit-learn reference cases that tests/reference/*_test.cpp replay through assay.

Run with Debian's interpreter (python3-sklearn 1.2.1):

    /usr/bin/python3 tests/reference/generate_sklearn.py

Outputs (all committed; re-running rewrites them byte for byte):
  tests/reference/sklearn_cases.json   hard-label, probabilistic and regression cases with the expected
                                       values of the library API (sklearn_replay_test.cpp);
  tests/reference/data/*.csv           prediction files, floats written with repr();
  tests/reference/sklearn_reports.json the expected `assay report` numbers of those files
                                       (report_replay_test.cpp).

Every random input comes from numpy.random.default_rng with a fixed seed. Every float is written with
repr() (Python's shortest round-trip form, also what json.dump uses), so C++ reads the exact doubles.

Expected values are scikit-learn's return values, except:
  * where the value is 0/0 (sklearn emits UndefinedMetricWarning or a numpy "invalid value" warning,
    returns 0 for MCC, or 1/0 for R^2 of a constant target) the expected value is null and assay must
    answer "undefined"; what sklearn returned is kept under "sklearn_raw" for the record. A
    precision/recall/F value is 0/0 exactly when sklearn's zero_division=0 and zero_division=1
    answers differ; MCC and kappa are 0/0 when every (positively weighted) case is in one actual
    class or one predicted class (MCC), or in one and the same class on both sides (kappa);
  * a few keys have no sklearn function; they are computed from sklearn results by the identities
    listed under "derived" in the output (e.g. specificity = recall of the negative class).
"""
import csv
import json
import os
import platform
import sys
import warnings

import numpy as np
import scipy
import scipy.stats
import sklearn
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils.multiclass import unique_labels

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")

TOLERANCE = {"relative": 1e-12, "absolute": 1e-15}

DERIVED = {
    "specificity": "recall_score(pos_label=<the negative class>)",
    "npv": "precision_score(pos_label=<the negative class>)",
    "fpr": "1 - specificity",
    "fnr": "1 - recall",
    "error_rate": "1 - accuracy_score",
    "prevalence": "numpy.average(y_true == pos_label, weights=sample_weight)",
    "tp, fp, fn, tn": "confusion_matrix(labels=[neg, pos]).ravel()",
    "per_class.fp_rate": "fp / (fp + tn) from multilabel_confusion_matrix (null when fp + tn = 0)",
    "per_class.matthews_corrcoef": "matthews_corrcoef(y_true == c, y_pred == c)",
    "per_class.specificity": "recall_score(y_true != c, y_pred != c)",
    "averages.*_skip": "numpy mean (macro) or support-weighted mean (weighted) of sklearn's per-class values, "
                       "over the classes where the value is defined (assay's zero_division::skip)",
    "averages.*.fp_rate": "numpy mean / support-weighted mean of per_class.fp_rate, undefined ones counted as 0",
    "brier_multiclass": "K * mean_squared_error(one_hot(y), P, sample_weight) (Brier 1950; sklearn 1.2's "
                        "brier_score_loss is binary only)",
    "mean_squared_percentage_error": "mean_squared_error(0, (y - yhat) / y, sample_weight)",
    "root_mean_squared_percentage_error": "mean_squared_error(0, (y - yhat) / y, sample_weight, squared=False)",
    "root_mean_squared_error": "mean_squared_error(squared=False)",
}


def f(x):
    """A Python float (json.dump writes it with repr())."""
    return float(x)


def floats(a):
    return [float(x) for x in np.asarray(a, dtype=float).ravel()]


def call(fn, *args, **kwargs):
    """fn(*args, **kwargs) and whether it warned that the value is ill-defined."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="warn"):
            r = fn(*args, **kwargs)
    undefined = any(issubclass(w.category, (UndefinedMetricWarning, RuntimeWarning)) for w in caught)
    return r, undefined


def prf_pair(fn, *args, **kwargs):
    """sklearn value (zero_division=0) and a mask of 0/0 entries: where zero_division 0 and 1 differ."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        v0 = np.asarray(fn(*args, zero_division=0, **kwargs), dtype=float)
        v1 = np.asarray(fn(*args, zero_division=1, **kwargs), dtype=float)
    return v0, v0 != v1


def nullable(v, undefined, raw, key):
    """v, or None (and v kept in raw[key]) when undefined."""
    if undefined:
        raw[key] = f(v) if np.isfinite(v) else repr(f(v))  # JSON has no NaN: written as the string "nan"
        return None
    return f(v)


def nullable_list(v, mask, raw, key):
    out = [None if m else f(x) for x, m in zip(np.ravel(v), np.ravel(mask))]
    if np.any(mask):
        raw[key] = floats(v)
    return out


def positive_classes(y, w):
    """The distinct labels among cases with positive weight."""
    y = np.asarray(y)
    if w is None:
        return set(y.tolist())
    return set(y[np.asarray(w) > 0].tolist())


# ---------------------------------------------------------------------------------------------
# Hard-label classification
# ---------------------------------------------------------------------------------------------


def classification_expected(y_true, y_pred, w, labels, pos_label=None):
    """Expected values for one case; labels = sklearn's class order."""
    raw = {}
    e = {}
    cm = skm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w)
    e["confusion_matrix"] = [floats(row) for row in cm]
    e["accuracy"] = f(skm.accuracy_score(y_true, y_pred, sample_weight=w))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "y_pred contains classes not in y_true": defined, as assay
        e["balanced_accuracy"] = f(skm.balanced_accuracy_score(y_true, y_pred, sample_weight=w))

    truth_classes, pred_classes = positive_classes(y_true, w), positive_classes(y_pred, w)
    mcc, _ = call(skm.matthews_corrcoef, y_true, y_pred, sample_weight=w)
    e["matthews_corrcoef"] = nullable(mcc, len(truth_classes) == 1 or len(pred_classes) == 1, raw, "matthews_corrcoef")
    kappa, kappa_warned = call(skm.cohen_kappa_score, y_true, y_pred, labels=labels, sample_weight=w)
    one_same = len(truth_classes) == 1 and truth_classes == pred_classes
    assert kappa_warned == bool(np.isnan(kappa))
    e["cohen_kappa"] = nullable(kappa, one_same or np.isnan(kappa), raw, "cohen_kappa")

    # Per class, in label order.
    pc = {}
    for key, fn, kw in [("precision", skm.precision_score, {}), ("recall", skm.recall_score, {}),
                        ("f1", skm.f1_score, {}), ("fbeta_0.5", skm.fbeta_score, {"beta": 0.5}),
                        ("fbeta_2", skm.fbeta_score, {"beta": 2.0})]:
        v, mask = prf_pair(fn, y_true, y_pred, labels=labels, average=None, sample_weight=w, **kw)
        pc[key] = nullable_list(v, mask, raw, "per_class." + key)
    _, _, _, support = skm.precision_recall_fscore_support(y_true, y_pred, labels=labels, average=None,
                                                           sample_weight=w, zero_division=0)
    pc["support"] = floats(support)
    mcm = skm.multilabel_confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w)
    fp, tn = mcm[:, 0, 1].astype(float), mcm[:, 0, 0].astype(float)
    pc["fp_rate"] = [None if a + b == 0 else f(a / (a + b)) for a, b in zip(fp, tn)]
    mccs, specs = [], []
    yt, yp = np.asarray(y_true), np.asarray(y_pred)
    for c in labels:
        m, _ = call(skm.matthews_corrcoef, yt == c, yp == c, sample_weight=w)
        ovr_defined = len(positive_classes(yt == c, w)) == 2 and len(positive_classes(yp == c, w)) == 2
        mccs.append(f(m) if ovr_defined else None)
        s, smask = prf_pair(skm.recall_score, yt != c, yp != c, sample_weight=w)
        specs.append(None if smask else f(s))
    pc["matthews_corrcoef"] = mccs
    pc["specificity"] = specs
    e["per_class"] = pc

    # Averages: sklearn's zero_division 0 (assay's default) and 1; "skip" from the defined values.
    av = {}
    for avg in ["micro", "macro", "weighted"]:
        for zd in [0, 1]:
            block = {}
            for key, fn in [("precision", skm.precision_score), ("recall", skm.recall_score), ("f1", skm.f1_score)]:
                block[key] = f(fn(y_true, y_pred, labels=labels, average=avg, sample_weight=w, zero_division=zd))
            av[avg if zd == 0 else avg + "_zd1"] = block
    for avg in ["macro", "weighted"]:
        block = {}
        for key in ["precision", "recall", "f1"]:
            vals = [(x, s) for x, s in zip(pc[key], pc["support"]) if x is not None]
            weights = [1.0 if avg == "macro" else s for _, s in vals]
            block[key] = f(np.average([x for x, _ in vals], weights=weights)) if vals and sum(weights) > 0 else None
        av[avg + "_skip"] = block
    av["macro"]["fp_rate"] = f(np.mean([0.0 if x is None else x for x in pc["fp_rate"]]))
    av["weighted"]["fp_rate"] = f(np.average([0.0 if x is None else x for x in pc["fp_rate"]], weights=pc["support"]))
    e["averages"] = av

    if pos_label is not None:
        b = {}
        neg = [c for c in labels if c != pos_label]
        tn_, fp_, fn_, tp_ = skm.confusion_matrix(y_true, y_pred, labels=neg + [pos_label], sample_weight=w).ravel() \
            if neg else (0, 0, 0, skm.confusion_matrix(y_true, y_pred, sample_weight=w).sum())
        b.update(tp=f(tp_), fp=f(fp_), fn=f(fn_), tn=f(tn_))
        for key, fn, kw in [("precision", skm.precision_score, {}), ("recall", skm.recall_score, {}),
                            ("f1", skm.f1_score, {}), ("fbeta_0.5", skm.fbeta_score, {"beta": 0.5}),
                            ("fbeta_2", skm.fbeta_score, {"beta": 2.0}),
                            ("fbeta_3.7", skm.fbeta_score, {"beta": 3.7})]:
            v, mask = prf_pair(fn, y_true, y_pred, pos_label=pos_label, average="binary", sample_weight=w, **kw)
            b[key] = nullable(v, bool(mask), raw, "binary." + key)
        if neg:
            for key, fn in [("specificity", skm.recall_score), ("npv", skm.precision_score)]:
                v, mask = prf_pair(fn, y_true, y_pred, pos_label=neg[0], average="binary", sample_weight=w)
                b[key] = nullable(v, bool(mask), raw, "binary." + key)
        else:
            b["specificity"] = b["npv"] = None
        e["binary"] = b
    return e, raw


def classification_case(name, y_true, y_pred, w=None, pos_label=None):
    y_true, y_pred = list(y_true), list(y_pred)
    labels = list(unique_labels(y_true, y_pred))
    e, raw = classification_expected(y_true, y_pred, w, labels, pos_label)
    s = lambda v: [str(x) for x in v]  # noqa: E731
    case = {
        "name": name,
        "labels": s(labels),
        "y_true": s(y_true),
        "y_pred": s(y_pred),
        "weight": None if w is None else floats(w),
        "pos_label": None if pos_label is None else str(pos_label),
        "expected": e,
    }
    if raw:
        case["sklearn_raw"] = raw
    return case


def noisy_labels(rng, classes, n, accuracy, p=None):
    """Truth drawn from `classes` (probabilities p), predictions right with probability `accuracy`."""
    classes = list(classes)
    y = rng.choice(len(classes), size=n, p=p)
    right = rng.random(n) < accuracy
    other = rng.integers(0, len(classes), size=n)
    yhat = np.where(right, y, other)
    return [classes[i] for i in y], [classes[i] for i in yhat]


def classification_cases():
    cases = []
    rng = np.random.default_rng(20260101)

    # -- binary, hard predictions --
    y, yhat = noisy_labels(rng, [0, 1], 50, 0.7)
    cases.append(classification_case("binary_01", y, yhat, pos_label=1))
    # The 12 patients of seed 002 (TP 6, FP 1, FN 2, TN 3): many identical rows (ties).
    y = [1] * 8 + [0] * 4
    yhat = [0, 0] + [1] * 6 + [1, 0, 0, 0]
    cases.append(classification_case("binary_twelve_patients_ties", y, yhat, pos_label=1))
    y, yhat = noisy_labels(rng, ["ham", "spam"], 300, 0.8, p=[0.95, 0.05])
    cases.append(classification_case("binary_imbalanced_strings", y, yhat, pos_label="spam"))
    y, _ = noisy_labels(rng, [0, 1], 40, 0.5, p=[0.7, 0.3])
    cases.append(classification_case("binary_positive_never_predicted", y, [0] * 40, pos_label=1))
    y, _ = noisy_labels(rng, [0, 1], 40, 0.5, p=[0.7, 0.3])
    cases.append(classification_case("binary_negative_never_predicted", y, [1] * 40, pos_label=1))
    _, yhat = noisy_labels(rng, [0, 1], 30, 0.5)
    cases.append(classification_case("binary_truth_all_positive", [1] * 30, yhat, pos_label=1))
    y, yhat = noisy_labels(rng, [-1, 1], 60, 0.75)
    cases.append(classification_case("binary_minus1_pos_minus1", y, yhat, pos_label=-1))
    y, _ = noisy_labels(rng, ["no", "yes"], 25, 1.0)
    cases.append(classification_case("binary_perfect", y, y, pos_label="yes"))
    cases.append(classification_case("binary_single_class", ["a"] * 7, ["a"] * 7, pos_label="a"))
    y = [0] * 10 + [1] * 10
    cases.append(classification_case("binary_inverted", y, [1 - v for v in y], pos_label=1))

    # -- multiclass --
    y, yhat = noisy_labels(rng, [0, 1, 2], 60, 0.6)
    cases.append(classification_case("multiclass_k3_numeric", y, yhat))
    y, yhat = noisy_labels(rng, ["cat", "dog", "Zebra", "ant"], 80, 0.55)
    cases.append(classification_case("multiclass_k4_strings_byte_order", y, yhat))
    y, yhat = noisy_labels(rng, ["10", "9", "cat", "\u00e9t\u00e9", "Beta"], 90, 0.5)
    cases.append(classification_case("multiclass_k5_digit_strings_and_utf8", y, yhat))
    y, yhat = noisy_labels(rng, [-3, 1, 2, 10], 70, 0.6)
    cases.append(classification_case("multiclass_k4_numeric_sort", y, yhat))
    y, _ = noisy_labels(rng, [0, 1, 2, 3], 64, 0.6)
    _, yhat = noisy_labels(rng, [0, 1, 2, 3, 4], 64, 0.6)
    yhat = [a if rng.random() < 0.5 else b for a, b in zip(y, yhat)]
    cases.append(classification_case("multiclass_k5_class_absent_from_truth", y, yhat))
    y, yhat = noisy_labels(rng, [0, 1, 2, 3, 4, 5], 100, 0.5)
    yhat = [v if v != 4 else 0 for v in yhat]
    cases.append(classification_case("multiclass_k6_class_never_predicted", y, yhat))
    y, yhat = noisy_labels(rng, ["a", "b", "c"], 30, 0.6)
    cases.append(classification_case("multiclass_k3_all_predicted_one_class", y, ["b"] * 30))
    y, yhat = noisy_labels(rng, [0, 1, 2, 3, 4, 5], 200, 0.3, p=[0.4, 0.3, 0.15, 0.1, 0.04, 0.01])
    cases.append(classification_case("multiclass_k6_skewed", y, yhat))
    y, yhat = noisy_labels(rng, [0, 1, 2], 30, 0.2)
    cases.append(classification_case("multiclass_k3_worse_than_chance", y, yhat))

    # -- weighted --
    y, yhat = noisy_labels(rng, [0, 1], 80, 0.7)
    w = rng.uniform(0.05, 3.0, size=80)
    w[[3, 17]] = 0.0
    cases.append(classification_case("weighted_binary_real_weights", y, yhat, w=w, pos_label=1))
    y, yhat = noisy_labels(rng, ["neg", "pos"], 50, 0.65)
    cases.append(classification_case("weighted_binary_integer_weights", y, yhat, w=rng.integers(1, 6, 50), pos_label="pos"))
    y, yhat = noisy_labels(rng, ["x", "y", "z", "w"], 120, 0.5)
    w = rng.exponential(1.0, size=120)
    cases.append(classification_case("weighted_multiclass_k4_real_weights", y, yhat, w=w))
    y, yhat = noisy_labels(rng, [1, 2, 3, 4, 5], 90, 0.5)
    cases.append(classification_case("weighted_multiclass_k5_integer_weights", y, yhat, w=rng.integers(0, 4, 90)))
    # Class 2 occurs only with weight 0: absent from the weighted truth but in the label list.
    y, yhat = noisy_labels(rng, [0, 1, 2], 40, 0.6)
    w = rng.uniform(0.5, 2.0, size=40)
    w[np.asarray(y) == 2] = 0.0
    cases.append(classification_case("weighted_multiclass_k3_zero_weight_class", y, yhat, w=w))
    # One predicted class carrying all the weight.
    y, _ = noisy_labels(rng, [0, 1, 2], 20, 0.6)
    cases.append(classification_case("weighted_multiclass_one_predicted_class", y, [1] * 20,
                                     w=rng.uniform(0.1, 1.0, size=20)))
    # Every case in one class, with weights whose total s has fl(fl(s * s) / s) != s: chance agreement
    # is exactly 1, so kappa is 0/0 (sklearn: nan), however the margins are rounded.
    while True:
        w = rng.uniform(0.1, 2.0, size=9)
        total = 0.0
        for x in w:  # sequential, as assay's confusion_matrix adds them
            total += float(x)
        if (total * total) / total != total:
            break
    cases.append(classification_case("weighted_single_class_rounding", ["a"] * 9, ["a"] * 9, w=w, pos_label="a"))
    return cases


# ---------------------------------------------------------------------------------------------
# Probabilistic
# ---------------------------------------------------------------------------------------------


def proba_case(name, y, P, w=None, ks=(), score=None):
    """y: class indices 0..K-1; P: n x K (or None with `score`, the probability of class 1)."""
    e = {}
    if score is not None:
        K = 2
        e["log_loss"] = f(skm.log_loss(y, score, labels=[0, 1], sample_weight=w))
        e["brier_score_loss"] = f(skm.brier_score_loss(y, score, pos_label=1, sample_weight=w))
        if 1 in ks:
            e["top_k_accuracy"] = {"1": f(skm.top_k_accuracy_score(y, score, k=1, labels=[0, 1], sample_weight=w))}
    else:
        K = P.shape[1]
        e["log_loss"] = f(skm.log_loss(y, P, labels=list(range(K)), sample_weight=w))
        onehot = np.eye(K)[np.asarray(y)]
        e["brier_multiclass"] = f(K * skm.mean_squared_error(onehot, P, sample_weight=w))
        tk = {}
        for k in ks:
            v, warned = call(skm.top_k_accuracy_score, y, P, k=k, labels=list(range(K)), sample_weight=w)
            assert not warned
            tk[str(k)] = f(v)
        e["top_k_accuracy"] = tk
    return {
        "name": name,
        "classes": K,
        "y": [int(v) for v in y],
        "score": None if score is None else floats(score),
        "proba": None if P is None else [floats(row) for row in P],
        "weight": None if w is None else floats(w),
        "expected": e,
    }


def probabilistic_cases():
    rng = np.random.default_rng(20260102)
    cases = []
    n = 60
    y = rng.integers(0, 2, n)
    s = np.clip(0.25 + 0.5 * y + rng.normal(0, 0.25, n), 0, 1)  # exact 0s and 1s (clipping in log_loss)
    s[:6] = [0.5, 0.5, 0.25, 0.25, 0.75, 0.75]  # ties
    cases.append(proba_case("binary_scores_with_ties_and_clipping", y, None, score=s))
    y = rng.integers(0, 2, n)
    s = rng.uniform(0, 1, n)
    s = np.where(s == 0.5, 0.25, s)
    cases.append(proba_case("binary_scores_weighted_top1", y, None, w=rng.uniform(0.1, 2, n), score=s, ks=(1,)))
    for K, n, seed_alpha, ks in [(3, 50, 1.0, (2,)), (4, 80, 0.7, (2, 3)), (5, 70, 0.5, (2, 3)), (6, 90, 1.5, (2, 3))]:
        y = rng.integers(0, K, n)
        P = rng.dirichlet(np.full(K, seed_alpha), size=n)
        P[np.arange(n), y] += 0.3 * rng.random(n)
        P /= P.sum(axis=1, keepdims=True)
        cases.append(proba_case(f"multiclass_k{K}_dirichlet", y, P, ks=ks))
    # Ties: probabilities on a coarse grid, plus rows of exactly equal values; weighted.
    K, n = 4, 60
    y = rng.integers(0, K, n)
    P = rng.integers(0, 4, size=(n, K)).astype(float)
    P[P.sum(axis=1) == 0] = 1.0
    P /= P.sum(axis=1, keepdims=True)
    P[:4] = 0.25
    cases.append(proba_case("multiclass_k4_ties_weighted", y, P, w=rng.uniform(0.2, 3, n), ks=(2, 3)))
    # Zero probabilities of the true class (clipped to eps) and rows that do not sum to 1.
    K, n = 5, 40
    y = rng.integers(0, K - 1, n)  # class 4 never occurs
    P = np.round(rng.dirichlet(np.ones(K), size=n), 3)
    P[:5, :] = 0.0
    P[np.arange(5), (y[:5] + 1) % K] = 1.0
    cases.append(proba_case("multiclass_k5_zeros_unnormalised_absent_class", y, P, ks=(2, 3)))
    # Integer weights.
    K, n = 3, 45
    y = rng.integers(0, K, n)
    P = rng.dirichlet(np.ones(K) * 2, size=n)
    cases.append(proba_case("multiclass_k3_integer_weights", y, P, w=rng.integers(0, 5, n), ks=(2,)))
    return cases


# ---------------------------------------------------------------------------------------------
# Regression
# ---------------------------------------------------------------------------------------------


def regression_expected(y, yhat, w):
    raw, e = {}, {}
    e["mean_absolute_error"] = f(skm.mean_absolute_error(y, yhat, sample_weight=w))
    e["mean_squared_error"] = f(skm.mean_squared_error(y, yhat, sample_weight=w))
    e["root_mean_squared_error"] = f(skm.mean_squared_error(y, yhat, sample_weight=w, squared=False))
    zero_target = bool(np.any((np.asarray(y) == 0) & (np.ones(len(y), dtype=bool) if w is None else np.asarray(w) > 0)))
    mape = skm.mean_absolute_percentage_error(y, yhat, sample_weight=w)
    e["mean_absolute_percentage_error"] = nullable(mape, zero_target, raw, "mean_absolute_percentage_error")
    if not zero_target:
        rel = (np.asarray(y) - np.asarray(yhat)) / np.asarray(y)
        e["mean_squared_percentage_error"] = f(skm.mean_squared_error(np.zeros(len(y)), rel, sample_weight=w))
        e["root_mean_squared_percentage_error"] = f(
            skm.mean_squared_error(np.zeros(len(y)), rel, sample_weight=w, squared=False))
    else:
        e["mean_squared_percentage_error"] = e["root_mean_squared_percentage_error"] = None
    yy = np.asarray(y) if w is None else np.asarray(y)[np.asarray(w) > 0]
    constant = bool(np.all(yy == yy[0]))
    e["r2"] = nullable(skm.r2_score(y, yhat, sample_weight=w), constant, raw, "r2")
    e["explained_variance"] = nullable(skm.explained_variance_score(y, yhat, sample_weight=w), constant, raw,
                                       "explained_variance")
    if w is None:
        e["max_error"] = f(skm.max_error(y, yhat))
        e["median_absolute_error"] = f(skm.median_absolute_error(y, yhat))
    # Mean Poisson deviance: scikit-learn raises outside y >= 0, yhat > 0, where assay is undefined; on the
    # rows of positive weight (a zero weight adds nothing to the weighted mean).
    keep = np.ones(len(y), dtype=bool) if w is None else np.asarray(w) > 0
    ys, ps = np.asarray(y)[keep], np.asarray(yhat)[keep]
    inside = bool(np.all(ys >= 0) and np.all(ps > 0))
    e["mean_poisson_deviance"] = f(skm.mean_poisson_deviance(
        ys, ps, sample_weight=None if w is None else np.asarray(w)[keep])) if inside else None
    # Mean Gamma deviance: the same, on y > 0 and yhat > 0.
    inside = bool(np.all(ys > 0) and np.all(ps > 0))
    e["mean_gamma_deviance"] = f(skm.mean_gamma_deviance(
        ys, ps, sample_weight=None if w is None else np.asarray(w)[keep])) if inside else None
    return e, raw


def regression_case(name, y, yhat, w=None):
    e, raw = regression_expected(y, yhat, w)
    case = {"name": name, "y": floats(y), "yhat": floats(yhat), "weight": None if w is None else floats(w),
            "expected": e}
    if raw:
        case["sklearn_raw"] = raw
    return case


def regression_cases():
    rng = np.random.default_rng(20260103)
    cases = []
    y = rng.normal(0, 10, 31)  # odd n, negative targets
    cases.append(regression_case("gaussian_odd_n", y, y + rng.normal(0, 3, 31)))
    y = rng.normal(-5, 2, 40)  # even n: the median is the mean of the middle two
    cases.append(regression_case("negative_even_n", y, y + rng.standard_t(3, 40)))
    y = rng.normal(0, 10, 50)
    w = rng.uniform(0.1, 4, 50)
    w[[0, 9]] = 0.0
    cases.append(regression_case("weighted_real_weights", y, y + rng.normal(0, 4, 50), w=w))
    y = rng.normal(100, 15, 40)
    cases.append(regression_case("weighted_integer_weights", y, y + rng.normal(0, 5, 40), w=rng.integers(1, 7, 40)))
    y = rng.normal(1000, 1, 30)
    cases.append(regression_case("offset_1000_small_spread", y, y + rng.normal(0, 0.1, 30)))
    y = rng.normal(0, 1, 20)
    cases.append(regression_case("perfect_prediction", y, y.copy()))
    y = np.full(15, 3.25)
    cases.append(regression_case("constant_target", y, y + rng.normal(0, 1, 15)))
    cases.append(regression_case("constant_target_perfect", y, y.copy()))
    y = rng.normal(0, 5, 25)
    y[7] = 0.0
    cases.append(regression_case("zero_target", y, y + rng.normal(0, 1, 25)))
    y = rng.integers(-5, 6, 40).astype(float)  # many ties among the errors
    y[y == 0] = 1.0
    cases.append(regression_case("integer_targets_tied_errors", y, y + rng.integers(-2, 3, 40)))
    # Counts and positive predictions (the mean Poisson deviance is defined; zeros give 0 log 0 = 0).
    y = rng.poisson(3.0, 45).astype(float)
    cases.append(regression_case("poisson_counts", y, rng.gamma(3.0, 1.0, 45) + 0.01))
    cases.append(regression_case("poisson_counts_weighted", y, y + 0.5, w=rng.uniform(0.0, 3.0, 45)))
    # Positive amounts with a relative error (the mean Gamma deviance is defined), weighted.
    y = rng.gamma(2.0, 50.0, 40)
    cases.append(regression_case("gamma_amounts_weighted", y, y * rng.lognormal(0.0, 0.3, 40),
                                 w=rng.uniform(0.0, 2.0, 40)))
    return cases


# ---------------------------------------------------------------------------------------------
# Prediction files for `assay report`
# ---------------------------------------------------------------------------------------------


def write_csv(name, header, rows):
    os.makedirs(DATA, exist_ok=True)
    with open(os.path.join(DATA, name), "w", newline="", encoding="utf-8") as fh:
        wr = csv.writer(fh, lineterminator="\n")
        wr.writerow(header)
        wr.writerows(rows)


def caret_overall(y_true, y_pred, w, labels):
    """No-information rate, the one-sided binomial p-value of accuracy > NIR (scipy's binomtest) and
    R's mcnemar.test of the matrix (McNemar with R's continuity correction for 2 x 2, Bowker for
    K x K, scipy's chi2.sf): None where assay answers undefined (non-integer weights; a pair of
    classes with n_ij + n_ji = 0, R's NaN)."""
    cm = skm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w).astype(float)
    n = cm.sum()
    nir = cm.sum(axis=1).max() / n
    out = {"no_information_rate": f(nir)}
    if w is not None and np.any(np.asarray(w) != np.floor(w)):
        out["accuracy_p_value"] = out["mcnemar_p_value"] = None
        return out
    out["accuracy_p_value"] = f(scipy.stats.binomtest(int(round(np.trace(cm))), int(round(n)), nir,
                                                      alternative="greater").pvalue)
    K = len(labels)
    stat = 0.0
    for i in range(K):
        for j in range(i + 1, K):
            a, b = cm[i, j], cm[j, i]
            if a + b == 0:
                stat = None
                break
            d = abs(a - b) - (1.0 if K == 2 and a != b else 0.0)
            stat += d * d / (a + b)
        if stat is None:
            break
    out["mcnemar_p_value"] = None if stat is None else f(scipy.stats.chi2.sf(stat, K * (K - 1) // 2))
    return out


def caret_by_class(y_true, y_pred, w, labels):
    """caret's byClass statistics of each class against the rest, from scikit-learn's functions:
    sensitivity = recall_score, specificity = recall_score of the complement, PPV = precision_score,
    NPV = precision_score of the complement, prevalence / detection rate / detection prevalence as
    weighted means of indicators (numpy.average), balanced accuracy = (sens + spec) / 2 (None when
    either is)."""
    yt, yp = np.asarray(y_true), np.asarray(y_pred)
    out = {}
    for c in labels:
        d = {}
        for key, fn, a, b in [("sensitivity", skm.recall_score, yt == c, yp == c),
                              ("specificity", skm.recall_score, yt != c, yp != c),
                              ("ppv", skm.precision_score, yt == c, yp == c),
                              ("npv", skm.precision_score, yt != c, yp != c)]:
            v, mask = prf_pair(fn, a, b, sample_weight=w)
            d[key] = None if mask else f(v)
        d["prevalence"] = f(np.average(yt == c, weights=w))
        d["detection_rate"] = f(np.average((yt == c) & (yp == c), weights=w))
        d["detection_prevalence"] = f(np.average(yp == c, weights=w))
        d["balanced_accuracy"] = (None if d["sensitivity"] is None or d["specificity"] is None
                                  else f((d["sensitivity"] + d["specificity"]) / 2))
        out[str(c)] = d
    return out


def class_areas(y_true, scores, w, labels):
    """Per-class ROC AUC and average precision of each class against the rest (roc_auc_score /
    average_precision_score on the indicator and the class's score column), with their macro and
    support-weighted means (roc_auc_score(label_binarize(y), S, average='macro' / 'weighted'));
    None where sklearn refuses (a class with no cases or all of them) or its AP is 0/0. `scores` is
    an n x K array in label order."""
    yt = np.asarray(y_true)
    per, raw = {}, {}
    for k, c in enumerate(labels):
        ind = (yt == c).astype(int)
        present = positive_classes(ind, w)
        auc = f(skm.roc_auc_score(ind, scores[:, k], sample_weight=w)) if len(present) == 2 else None
        ap = f(skm.average_precision_score(ind, scores[:, k], sample_weight=w)) if 1 in present else None
        per[str(c)] = {"roc_auc": auc, "average_precision": ap}
    Y = np.stack([(yt == c).astype(int) for c in labels], axis=1)
    avg = {}
    for name in ["macro", "weighted"]:
        block = {}
        if all(per[str(c)]["roc_auc"] is not None for c in labels):
            block["roc_auc"] = f(skm.roc_auc_score(Y, scores, average=name, sample_weight=w))
        else:
            block["roc_auc"] = None
        if all(per[str(c)]["average_precision"] is not None for c in labels):
            block["average_precision"] = f(skm.average_precision_score(Y, scores, average=name, sample_weight=w))
        else:
            block["average_precision"] = None
        avg[name] = block
    return per, avg


def report_classification(y_true, y_pred, w, labels, pos_label=None, beta=None, scores=None):
    """The `assay report` JSON numbers for a classification file, from sklearn. `scores`: n x K
    ranking scores in label order (None: hard predictions, the areas are undefined)."""
    e, raw = classification_expected(y_true, y_pred, w, labels, pos_label)
    out = {"labels": [str(c) for c in labels], "confusion_matrix": e["confusion_matrix"]}
    m = {}
    if pos_label is not None:
        b = e["binary"]
        m.update({k: b[k] for k in ["tp", "fp", "fn", "tn"]})
        m["accuracy"] = e["accuracy"]
        m["error_rate"] = f(1 - e["accuracy"])
        for k in ["precision", "recall", "specificity", "npv"]:
            m[k] = b[k]
        m["fpr"] = None if b["specificity"] is None else f(1 - b["specificity"])
        m["fnr"] = None if b["recall"] is None else f(1 - b["recall"])
        m["f1"] = b["f1"]
        if beta is not None:
            v, mask = prf_pair(skm.fbeta_score, y_true, y_pred, beta=beta, pos_label=pos_label, average="binary",
                               sample_weight=w)
            m["fbeta"] = None if mask else f(v)
        m["prevalence"] = f(np.average(np.asarray(y_true) == pos_label, weights=w))
    else:
        m["accuracy"] = e["accuracy"]
        m["error_rate"] = f(1 - e["accuracy"])
    for k in ["balanced_accuracy", "matthews_corrcoef", "cohen_kappa"]:
        m[k] = e[k]
    m.update(caret_overall(y_true, y_pred, w, labels))
    out["metrics"] = m
    pc = e["per_class"]
    out["per_class"] = {
        str(c): {"precision": pc["precision"][i], "recall": pc["recall"][i], "f1": pc["f1"][i],
                 "tp_rate": pc["recall"][i], "fp_rate": pc["fp_rate"][i],
                 "matthews_corrcoef": pc["matthews_corrcoef"][i], "support": pc["support"][i]}
        for i, c in enumerate(labels)}
    for c, d in caret_by_class(y_true, y_pred, w, labels).items():
        out["per_class"][c].update(d)
    if scores is not None:
        areas, area_avg = class_areas(y_true, scores, w, labels)
    else:
        areas = {str(c): {"roc_auc": None, "average_precision": None} for c in labels}
        area_avg = {name: {"roc_auc": None, "average_precision": None} for name in ["macro", "weighted"]}
    for c, d in areas.items():
        out["per_class"][c].update(d)
    av = e["averages"]
    total = f(len(y_true) if w is None else np.sum(w))
    for name in ["micro", "macro", "weighted"]:
        block = dict(av[name])
        block.update(area_avg.get(name, {}))
        block["support"] = total
        out[name + "_avg"] = block
    # The micro fp_rate: pooled FP / (FP + TN) over the one-vs-rest tables.
    mcm = skm.multilabel_confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w)
    out["micro_avg"]["fp_rate"] = f(mcm[:, 0, 1].sum() / (mcm[:, 0, 1].sum() + mcm[:, 0, 0].sum()))
    return out, raw


THRESHOLD_NOT_COMPARED = {
    "best_threshold_youden": "scikit-learn has no best-threshold function; the ROC sweep behind it is replayed "
                             "against roc_curve in tests/curves",
    "best_threshold_f1": "scikit-learn has no best-threshold function; the PR sweep behind it is replayed "
                         "against precision_recall_curve in tests/curves",
}


def report_cases():
    rng = np.random.default_rng(20260104)
    reports = []

    # 1. Binary, string labels, a score column with ties and values right at the threshold.
    n = 120
    y = np.where(rng.random(n) < 0.35, "malignant", "benign")
    s = np.clip(0.3 + 0.4 * (y == "malignant") + rng.normal(0, 0.2, n), 0, 1)
    s[:8] = [0.5, 0.5, 0.49999999999999994, 0.5000000000000001, 0.1, 0.1, 0.9, 0.9]
    rows = [[i + 1, y[i], repr(float(s[i]))] for i in range(n)]
    write_csv("binary_scores.csv", ["id", "diagnosis", "p_malignant"], rows)
    pred = np.where(s >= 0.5, "malignant", "benign")
    labels = ["benign", "malignant"]
    # The per-class areas: "malignant" ranked by the score, "benign" by -score (assay's rule).
    exp, raw = report_classification(list(y), list(pred), None, labels, pos_label="malignant", beta=2.0,
                                     scores=np.stack([-s, s], axis=1))
    exp["metrics"]["log_loss"] = f(skm.log_loss(y, s, labels=labels))
    exp["metrics"]["brier_score_loss"] = f(skm.brier_score_loss(y, s, pos_label="malignant"))
    exp["metrics"]["roc_auc"] = f(skm.roc_auc_score(y == "malignant", s))
    exp["metrics"]["average_precision"] = f(skm.average_precision_score(y == "malignant", s))
    reports.append({"name": "binary_scores", "file": "data/binary_scores.csv",
                    "request": {"label": "diagnosis", "score": "p_malignant", "pos_label": "malignant",
                                "threshold": 0.5, "beta": 2.0},
                    "n": n, "expected": exp, "sklearn_raw": raw, "not_compared": dict(THRESHOLD_NOT_COMPARED)})

    # 2. Multiclass, probability columns named after the classes (not in sorted order); ties in the
    #    argmax go to the first class in sorted order (numpy argmax); class "delta" never occurs.
    classes = ["Beta", "alpha", "delta", "gamma"]  # sorted by bytes
    n, K = 100, 4
    yi = rng.choice([0, 1, 3], size=n, p=[0.3, 0.4, 0.3])
    P = rng.dirichlet(np.ones(K), size=n)
    P[np.arange(n), yi] += 0.5 * rng.random(n)
    P /= P.sum(axis=1, keepdims=True)
    P[:3] = [[0.375, 0.375, 0.125, 0.125], [0.25, 0.25, 0.25, 0.25], [0.1, 0.2, 0.35, 0.35]]
    y = [classes[i] for i in yi]
    order = ["gamma", "Beta", "delta", "alpha"]  # column order in the file
    rows = [[i + 1, y[i]] + [repr(float(P[i, classes.index(c)])) for c in order] for i in range(n)]
    write_csv("multiclass_proba.csv", ["id", "truth"] + order, rows)
    pred = [classes[j] for j in np.argmax(P, axis=1)]
    exp, raw = report_classification(y, pred, None, classes, scores=P)
    for avg in ["ovr", "ovo"]:  # undefined: class "delta" never occurs (sklearn raises)
        for how in ["macro", "weighted"]:
            exp["metrics"][f"roc_auc_{avg}_{how}"] = None
    exp["metrics"]["log_loss"] = f(skm.log_loss(y, P, labels=classes))
    onehot = np.eye(K)[yi]
    exp["metrics"]["brier_score_loss"] = f(K * skm.mean_squared_error(onehot, P))
    exp["metrics"]["top_k_accuracy"] = f(skm.top_k_accuracy_score(y, P, k=2, labels=classes))
    reports.append({"name": "multiclass_proba", "file": "data/multiclass_proba.csv",
                    "request": {"label": "truth", "proba": order, "top_k": 2},
                    "n": n, "expected": exp, "sklearn_raw": raw,
                    "derived_keys": {"brier_score_loss": DERIVED["brier_multiclass"]}})

    # 3. Multiclass, hard predictions, numeric labels (sorted as numbers: -3 < 1 < 2 < 10) and a
    #    column of non-integer weights including zeros.
    n = 150
    lab = [-3, 1, 2, 10]
    yi = rng.integers(0, 4, n)
    right = rng.random(n) < 0.6
    pi = np.where(right, yi, rng.integers(0, 4, n))
    wt = rng.uniform(0.0, 2.5, n)
    wt[[5, 50, 100]] = 0.0
    rows = [[lab[yi[i]], lab[pi[i]], repr(float(wt[i]))] for i in range(n)]
    write_csv("weighted_multiclass.csv", ["actual", "predicted", "weight"], rows)
    y = [lab[i] for i in yi]
    pred = [lab[i] for i in pi]
    exp, raw = report_classification(y, pred, wt, lab)
    reports.append({"name": "weighted_multiclass", "file": "data/weighted_multiclass.csv",
                    "request": {"label": "actual", "pred": "predicted", "weight": "weight"},
                    "n": n, "expected": exp, "sklearn_raw": raw})

    # 5. Binary, weighted, the positive class first in sorted order ("disease" < "healthy"), so the
    #    score is the probability of class 0; threshold 0.3.
    n = 90
    y = np.where(rng.random(n) < 0.4, "disease", "healthy")
    s = np.clip(0.3 + 0.35 * (y == "disease") + rng.normal(0, 0.25, n), 0, 1)
    s[:4] = [0.3, 0.3, 0.29999999999999993, 0.30000000000000004]
    wt = rng.uniform(0.2, 3.0, n)
    wt[[1, 30]] = 0.0
    rows = [[y[i], repr(float(s[i])), repr(float(wt[i]))] for i in range(n)]
    write_csv("binary_weighted_pos_first.csv", ["outcome", "p_disease", "w"], rows)
    pred = np.where(s >= 0.3, "disease", "healthy")
    labels = ["disease", "healthy"]
    exp, raw = report_classification(list(y), list(pred), wt, labels, pos_label="disease",
                                     scores=np.stack([s, -s], axis=1))
    is_pos = (y == "disease").astype(int)
    exp["metrics"]["log_loss"] = f(skm.log_loss(is_pos, s, labels=[0, 1], sample_weight=wt))
    exp["metrics"]["brier_score_loss"] = f(skm.brier_score_loss(y, s, pos_label="disease", sample_weight=wt))
    exp["metrics"]["roc_auc"] = f(skm.roc_auc_score(is_pos, s, sample_weight=wt))
    exp["metrics"]["average_precision"] = f(skm.average_precision_score(is_pos, s, sample_weight=wt))
    reports.append({"name": "binary_weighted_pos_first", "file": "data/binary_weighted_pos_first.csv",
                    "request": {"label": "outcome", "score": "p_disease", "weight": "w", "pos_label": "disease",
                                "threshold": 0.3},
                    "n": n, "expected": exp, "sklearn_raw": raw, "not_compared": dict(THRESHOLD_NOT_COMPARED)})

    # 6. Binary hard predictions 0/1 (positive "1" by default) that never predict 1: precision,
    #    MCC undefined; kappa 0.
    n = 40
    y = (rng.random(n) < 0.3).astype(int)
    rows = [[int(y[i]), 0] for i in range(n)]
    write_csv("binary_never_positive.csv", ["y", "yhat"], rows)
    exp, raw = report_classification(list(y), [0] * n, None, [0, 1], pos_label=1)
    reports.append({"name": "binary_never_positive", "file": "data/binary_never_positive.csv",
                    "request": {"label": "y", "pred": "yhat"},
                    "n": n, "expected": exp, "sklearn_raw": raw})

    # 4. Regression, negative targets, floats at full precision; with and without the weight column.
    n = 80
    y = rng.normal(-2, 20, n)
    yhat = y + rng.normal(0, 6, n)
    wt = rng.uniform(0.1, 3, n)
    wt[[2, 40]] = 0.0
    rows = [[repr(float(y[i])), repr(float(yhat[i])), repr(float(wt[i]))] for i in range(n)]
    write_csv("regression.csv", ["y", "y_hat", "w"], rows)
    e, raw = regression_expected(y, yhat, None)
    reports.append({"name": "regression", "file": "data/regression.csv",
                    "request": {"label": "y", "pred": "y_hat", "task": "regression"},
                    "n": n, "expected": {"metrics": e}, "sklearn_raw": raw})
    e, raw = regression_expected(y, yhat, wt)
    reports.append({"name": "regression_weighted", "file": "data/regression.csv",
                    "request": {"label": "y", "pred": "y_hat", "weight": "w", "task": "regression"},
                    "n": n, "expected": {"metrics": e}, "sklearn_raw": raw,
                    "not_compared": {
                        "median_absolute_error": "assay's weighted median is the midpoint of the lower and upper "
                                                 "weighted medians; sklearn 1.2 returns the lower one",
                        "max_error": "sklearn's max_error takes no sample_weight"}})
    # Weighted max error: sklearn cannot weight it, but cases of weight 0 drop out, so it is the max
    # over the positively weighted rows.
    reports[-1]["expected"]["metrics"]["max_error"] = f(skm.max_error(y[wt > 0], yhat[wt > 0]))
    del reports[-1]["not_compared"]["max_error"]

    # 7. Multiclass, three classes, probabilities rounded to 0.05 (many ties): every class occurs, so
    #    the multiclass AUCs (ovr/ovo, macro/weighted) and the per-class areas are all defined.
    n, K = 90, 3
    classes = ["ant", "bee", "cat"]
    yi = rng.choice(3, size=n, p=[0.5, 0.3, 0.2])
    P = rng.dirichlet(np.ones(K), size=n)
    P[np.arange(n), yi] += 0.6 * rng.random(n)
    P = np.round(20 * P / P.sum(axis=1, keepdims=True))
    P[:, 2] = 20 - P[:, 0] - P[:, 1]
    P = P / 20
    P[:, 2] = 1 - P[:, 0] - P[:, 1]
    P = np.clip(P, 0, 1)
    y = [classes[i] for i in yi]
    rows = [[y[i]] + [repr(float(P[i, k])) for k in range(K)] for i in range(n)]
    write_csv("multiclass_proba_ties.csv", ["truth"] + classes, rows)
    pred = [classes[j] for j in np.argmax(P, axis=1)]
    exp, raw = report_classification(y, pred, None, classes, scores=P)
    for mc in ["ovr", "ovo"]:
        for how in ["macro", "weighted"]:
            exp["metrics"][f"roc_auc_{mc}_{how}"] = f(skm.roc_auc_score(y, P, multi_class=mc, average=how,
                                                                        labels=classes))
    exp["metrics"]["log_loss"] = f(skm.log_loss(y, P, labels=classes))
    exp["metrics"]["brier_score_loss"] = f(K * skm.mean_squared_error(np.eye(K)[yi], P))
    exp["metrics"]["top_k_accuracy"] = f(skm.top_k_accuracy_score(y, P, k=2, labels=classes))
    reports.append({"name": "multiclass_proba_ties", "file": "data/multiclass_proba_ties.csv",
                    "request": {"label": "truth", "proba": classes, "top_k": 2},
                    "n": n, "expected": exp, "sklearn_raw": raw,
                    "derived_keys": {"brier_score_loss": DERIVED["brier_multiclass"]}})
    return reports


def exact_columns():
    """float.hex() of every number in the data files, keyed by file and column: the C++ reader must
    give these doubles bit for bit."""
    out = {}
    for name, cols in [("binary_scores.csv", ["p_malignant"]),
                       ("binary_weighted_pos_first.csv", ["p_disease", "w"]),
                       ("multiclass_proba.csv", ["gamma", "Beta", "delta", "alpha"]),
                       ("weighted_multiclass.csv", ["weight"]), ("regression.csv", ["y", "y_hat", "w"]),
                       ("multiclass_proba_ties.csv", ["ant", "bee", "cat"])]:
        with open(os.path.join(DATA, name), newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        out["data/" + name] = {c: [float(r[c]).hex() for r in rows] for c in cols}
    return out


# ---------------------------------------------------------------------------------------------


def dump(path, obj):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=1, ensure_ascii=False, allow_nan=False)
        fh.write("\n")


def main():
    versions = {"sklearn": sklearn.__version__, "numpy": np.__version__, "scipy": scipy.__version__,
                "python": platform.python_version()}
    if sklearn.__version__ != "1.2.1":
        print(f"warning: scikit-learn {sklearn.__version__}, the committed cases come from 1.2.1", file=sys.stderr)
    header = {
        "generator": "tests/reference/generate_sklearn.py",
        "versions": versions,
        "tolerance": TOLERANCE,
        "null": "the value is 0/0: assay must answer undefined; sklearn's own answer is under sklearn_raw",
        "derived": DERIVED,
    }
    cases = dict(header)
    cases["classification"] = classification_cases()
    cases["probabilistic"] = probabilistic_cases()
    cases["regression"] = regression_cases()
    dump(os.path.join(HERE, "sklearn_cases.json"), cases)
    reports = dict(header)
    reports["reports"] = report_cases()
    reports["exact_columns"] = exact_columns()
    dump(os.path.join(HERE, "sklearn_reports.json"), reports)
    print(f"{len(cases['classification'])} classification, {len(cases['probabilistic'])} probabilistic, "
          f"{len(cases['regression'])} regression cases; {len(reports['reports'])} report files")


if __name__ == "__main__":
    main()
