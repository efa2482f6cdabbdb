"""assay.report and assay.<metric>: the report of the CLI on arrays in memory."""

import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from sklearn import metrics as sk

import assay


def assay_cli():
    path = os.path.join(os.path.dirname(sys.executable), "assay")
    return path if os.path.exists(path) else shutil.which("assay")


def cli_json(tmp_path, header, rows, *args):
    f = tmp_path / "p.csv"
    def cell(v):
        return repr(float(v)) if isinstance(v, (float, np.floating)) else str(v)

    f.write_text(",".join(header) + "\n" + "".join(",".join(cell(v) for v in r) + "\n" for r in rows))
    out = subprocess.run([assay_cli(), "report", str(f), *args, "--format", "json"], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def same_report(ours, theirs):
    ours, theirs = dict(ours), dict(theirs)
    for d in (ours, theirs):
        d.pop("source", None)
    assert ours == theirs


def test_binary_scores_equal_the_cli(tmp_path, rng):
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 2)
    w = np.round(rng.random(300), 3)
    r = assay.report(y, y_score=s, sample_weight=w, ci=0.9, threshold=0.4)
    theirs = cli_json(tmp_path, ["y", "s", "w"], zip(y, s, w), "--label", "y", "--score", "s", "--weight", "w",
                      "--ci", "0.9", "--threshold", "0.4")
    same_report(r.to_dict(), theirs)
    assert r["roc_auc"] == pytest.approx(sk.roc_auc_score(y, s, sample_weight=w), rel=1e-12)


def test_multiclass_labels_and_strings(tmp_path, rng):
    names = np.array(["cat", "dog", "emu"])
    y, p = names[rng.integers(0, 3, 200)], names[rng.integers(0, 3, 200)]
    r = assay.report(y, y_pred=p)
    theirs = cli_json(tmp_path, ["y", "p"], zip(y, p), "--label", "y", "--pred", "p")
    same_report(r.to_dict(), theirs)
    assert "cat" in str(r) and r["accuracy"] == sk.accuracy_score(y, p)


def test_numeric_spellings_are_one_class(rng):
    y = rng.integers(0, 2, 100)
    s = rng.random(100)
    a = assay.report(y, y_score=s).to_dict()
    b = assay.report(y.astype(float), y_score=s).to_dict()
    assert a == b and a["positive_label"] == "1"


def test_regression(tmp_path, rng):
    y = rng.normal(size=150)
    p = y + rng.normal(0, 0.3, 150)
    r = assay.report(y, y_pred=p, task="regression")
    theirs = cli_json(tmp_path, ["y", "p"], zip(y, p), "--label", "y", "--pred", "p", "--task", "regression")
    same_report(r.to_dict(), theirs)


def test_estimates_carry_intervals(rng):
    y = rng.integers(0, 2, 400)
    s = y * 0.5 + rng.random(400)
    auc = assay.roc_auc(y, s, ci=0.95)
    assert isinstance(auc, float) and auc.method == "delong" and auc.ci[0] < auc < auc.ci[1]
    assert auc == pytest.approx(sk.roc_auc_score(y, s), rel=1e-12)
    acc = assay.accuracy(y, (s >= 0.75).astype(int), ci=0.95)
    assert acc.method == "wilson" and acc.ci[0] < acc < acc.ci[1]
    assert assay.accuracy(y, (s >= 0.75).astype(int)).ci is None


@pytest.mark.parametrize("ci", [None, 0.9])
def test_each_estimate_function_is_the_whole_reports_row(rng, ci):
    """assay.<name> computes only its row (and its interval); the number, interval and reason are those
    of the whole report, to the bit, for every function on the input it takes."""
    y = rng.integers(0, 2, 300)
    s = np.round(y * 0.4 + rng.random(300), 2)  # ties
    w = rng.integers(0, 4, 300) / 2.0
    yp = (s >= 0.7).astype(int)
    y3 = rng.integers(0, 3, 300)
    p3 = rng.random((300, 3)) + np.eye(3)[y3]
    p3 /= p3.sum(axis=1, keepdims=True)
    yr = rng.gamma(2.0, 1.0, 300) + 0.1
    pr = yr * rng.uniform(0.7, 1.3, 300)
    inputs = {"y_pred": (y, yp), "y_score": (y, s), "y_proba": (y3, p3), "regression": (yr, pr)}
    checked = 0
    for name, (_, kind) in assay._report._ESTIMATES.items():
        truth, other = inputs[kind]
        args = {"y_pred": other, "task": "regression"} if kind == "regression" else {kind: other}
        for weight in (None, w):
            whole = assay.report(truth, **args, sample_weight=weight, ci=ci, keep_curves=False,
                                 replicates=200, random_state=3)
            got = getattr(assay, name)(truth, other, sample_weight=weight, ci=ci, replicates=200, random_state=3)
            want = whole[name]
            assert (math.isnan(got) and math.isnan(want)) or float(got) == float(want), (name, weight is None)
            assert got.reason == want.reason and got.ci == want.ci and got.method == want.method, name
            checked += 1
    assert checked == 2 * len(assay._report._ESTIMATES)


def test_undefined_is_nan_with_the_reason():
    auc = assay.roc_auc([0, 0, 0], [0.1, 0.2, 0.3])
    assert math.isnan(auc) and "no positive" in auc.reason and not auc.defined


def test_html_repr(rng):
    y = rng.integers(0, 2, 50)
    html = assay.report(y, y_score=rng.random(50), ci=0.95)._repr_html_()
    assert html.lstrip().lower().startswith("<!doctype html") and "</html>" in html


@pytest.mark.parametrize("kwargs,message", [
    (dict(y_true=[0, 1, 1], y_score=[0.1, 0.2]), "y_score"),
    (dict(y_true=[0, 1, 1], y_score=[0.1, float("nan"), 0.3]), r"y_score\[1\] is nan"),
    (dict(y_true=[0, 1], y_score=[0.1, 0.2], sample_weight=[1, -1]), "sample_weight"),
    (dict(y_true=[0, 1], y_score=[0.1, 0.2], pos_label=7), "7"),
    (dict(y_true=[0, 1]), "exactly one of"),
    (dict(y_true=[0, 1], y_score=[0.1, 0.2], ci=1.5), "ci is 1.5"),
    (dict(y_true=[0, 1, 2], y_proba=[[0.5, 0.5, 0.1]] * 3), "sum"),
])
def test_bad_input_names_the_parameter(kwargs, message):
    y = kwargs.pop("y_true")
    with pytest.raises(ValueError, match=message):
        assay.report(y, **kwargs)


def test_same_intervals_whatever_the_thread_count(rng):
    y = rng.integers(0, 3, 3000)
    p = np.where(rng.random(3000) < 0.7, y, rng.integers(0, 3, 3000))
    kw = dict(y_pred=p, ci=0.95, method="bootstrap", replicates=300, random_state=4)
    default = assay.report(y, **kw).to_dict()
    with assay.limit_threads(1):
        assert assay.get_num_threads() == 1
        one = assay.report(y, **kw).to_dict()
    assert assay.get_num_threads() >= 1
    assay.set_num_threads(2)
    try:
        assert assay.get_num_threads() <= 2
        two = assay.report(y, **kw).to_dict()
    finally:
        assay.set_num_threads(None)
    assert one == default == two
    with pytest.raises(ValueError, match="n is 0"):
        with assay.limit_threads(0):
            pass


def test_per_class_areas_and_caret_statistics_in_to_dict(rng):
    # Three classes with tied probabilities: per-class ROC AUC and average precision (one class
    # against the rest) equal scikit-learn's, their macro / weighted averages too, and the multiclass
    # AUCs of roc_auc_score(multi_class=..., average=...) are headline numbers.
    n, classes = 200, ["a", "b", "c"]
    y = rng.choice(classes, size=n, p=[0.5, 0.3, 0.2])
    P = rng.dirichlet(np.ones(3), size=n)
    P[np.arange(n), np.searchsorted(classes, y)] += 0.4
    P = np.round(10 * P / P.sum(axis=1, keepdims=True)) / 10
    P[:, 2] = 1 - P[:, 0] - P[:, 1]
    P = np.clip(P, 0, 1)
    P /= P.sum(axis=1, keepdims=True)
    d = assay.report(y, y_proba=P).to_dict()
    Y = np.stack([(y == c).astype(int) for c in classes], axis=1)
    for k, c in enumerate(classes):
        e = d["per_class"][c]
        assert e["roc_auc"] == pytest.approx(sk.roc_auc_score(Y[:, k], P[:, k]), rel=1e-12)
        assert e["average_precision"] == pytest.approx(sk.average_precision_score(Y[:, k], P[:, k]), rel=1e-12)
        for key in ["sensitivity", "specificity", "ppv", "npv", "prevalence", "detection_rate",
                    "detection_prevalence", "balanced_accuracy"]:
            assert key in e
        assert e["detection_rate"] == pytest.approx(np.mean((y == c) & (np.array(classes)[P.argmax(1)] == c)))
    for avg in ["macro", "weighted"]:
        assert d[f"{avg}_avg"]["roc_auc"] == pytest.approx(sk.roc_auc_score(Y, P, average=avg), rel=1e-12)
        assert d[f"{avg}_avg"]["average_precision"] == pytest.approx(
            sk.average_precision_score(Y, P, average=avg), rel=1e-12)
        for mc in ["ovr", "ovo"]:
            assert d[f"roc_auc_{mc}_{avg}"] == pytest.approx(
                sk.roc_auc_score(y, P, multi_class=mc, average=avg, labels=classes), rel=1e-12)
    assert d["no_information_rate"] == pytest.approx(np.max(np.mean(Y, axis=0)))
    assert 0 <= d["accuracy_p_value"] <= 1 and "mcnemar_p_value" in d


def test_binary_score_ranks_the_other_class_by_minus_score(rng):
    n = 150
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1), 2)
    d = assay.report(y, y_score=s).to_dict()
    assert d["per_class"]["1"]["roc_auc"] == pytest.approx(sk.roc_auc_score(y, s), rel=1e-12)
    assert d["per_class"]["0"]["roc_auc"] == pytest.approx(sk.roc_auc_score(1 - y, -s), rel=1e-12)
    assert d["per_class"]["0"]["average_precision"] == pytest.approx(sk.average_precision_score(1 - y, -s), rel=1e-12)
    assert d["per_class"]["1"]["average_precision"] == pytest.approx(sk.average_precision_score(y, s), rel=1e-12)
    # Hard predictions alone: undefined, with the reason.
    h = assay.report(y, y_pred=(s >= 0.5).astype(int)).to_dict()
    assert h["per_class"]["1"]["roc_auc"] is None
    assert "no ranking" in h["per_class"]["1"]["roc_auc_undefined"]


def test_per_class_area_intervals_in_to_dict(rng, tmp_path):
    # The per-class areas' intervals mirror the CLI's JSON (per_class.<c>.roc_auc_ci, ...): for a binary
    # score the positive class's are the headline's (and the other class's ROC interval too); with
    # probabilities every class has its own, DeLong and logit by default; the averages have none.
    n = 300
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1), 2)
    d = assay.report(y, y_score=s, ci=0.9).to_dict()
    for c in ("0", "1"):
        assert d["per_class"][c]["roc_auc_ci"] == d["roc_auc_ci"]
        assert d["per_class"][c]["roc_auc_ci_method"] == "delong"
    assert d["per_class"]["1"]["average_precision_ci"] == d["average_precision_ci"]
    lo, hi = d["per_class"]["0"]["average_precision_ci"]
    assert lo < d["per_class"]["0"]["average_precision"] < hi
    same_report(d, cli_json(tmp_path, ["y", "s"], zip(y, s), "--label", "y", "--score", "s", "--ci", "0.9"))
    classes = ["a", "b", "c"]
    yc = rng.choice(classes, size=n, p=[0.5, 0.3, 0.2])
    P = rng.dirichlet(np.ones(3), size=n)
    P[np.arange(n), np.searchsorted(classes, yc)] += 0.5
    P /= P.sum(axis=1, keepdims=True)
    m = assay.report(yc, y_proba=P, ci=0.95, replicates=50).to_dict()
    for c in classes:
        e = m["per_class"][c]
        assert e["roc_auc_ci_method"] == "delong" and e["average_precision_ci_method"] == "logit (Boyd et al. 2013)"
        assert e["roc_auc_ci"][0] < e["roc_auc"] < e["roc_auc_ci"][1]
    assert "roc_auc_ci" not in m["macro_avg"] and "roc_auc_ci" not in m["weighted_avg"]


def test_operating_points_match_a_brute_force_scan():
    """report(max_fpr=..., min_recall=...) against every threshold scanned by hand in NumPy."""
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 400)
    s = np.round(rng.random(400) * 0.8 + 0.2 * y, 2)  # ties
    d = assay.report(y, y_score=s, max_fpr=0.1, min_recall=0.8).to_dict()["operating_points"]
    thresholds = np.append(np.unique(s), np.inf)
    tp = np.array([np.sum((s >= t) & (y == 1)) for t in thresholds])
    fp = np.array([np.sum((s >= t) & (y == 0)) for t in thresholds])
    ok = fp / np.sum(y == 0) <= 0.1
    best_tpr = tp[ok].max()
    # the best TPR, then the lowest FPR, then the highest threshold
    i = max((k for k in np.flatnonzero(ok) if tp[k] == best_tpr), key=lambda k: (-fp[k], thresholds[k]))
    assert d["max_fpr"]["threshold"] == thresholds[i]
    assert (d["max_fpr"]["tp"], d["max_fpr"]["fp"]) == (tp[i], fp[i])
    assert d["max_fpr"]["value"] == tp[i] / np.sum(y == 1)
    precision = np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1), np.nan)
    ok = (tp / np.sum(y == 1) >= 0.8) & (tp + fp > 0)
    best = np.nanmax(precision[ok])
    i = max((k for k in np.flatnonzero(ok) if precision[k] == best), key=lambda k: (tp[k], thresholds[k]))
    assert d["min_recall"]["threshold"] == thresholds[i]
    assert d["min_recall"]["value"] == best
    assert d["np_umbrella"]["confidence"] == 0.95
    assert d["np_umbrella"]["negatives"] == np.sum(y == 0)


def test_operating_points_bad_input():
    y, s = [0, 1, 0, 1], [0.1, 0.9, 0.4, 0.6]
    with pytest.raises(ValueError, match=r"evaluate: max_fpr: 1.5 must be in \(0, 1\)"):
        assay.report(y, y_score=s, max_fpr=1.5)
    with pytest.raises(ValueError, match="min_tpr: operating points under a constraint need a binary score; "
                                         "the predictions are predicted classes"):
        assay.report(y, y_pred=y, min_tpr=0.5)
    assert "operating_points" not in assay.report(y, y_score=s).to_dict()
