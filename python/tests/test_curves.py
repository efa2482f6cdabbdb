"""assay.curves: the same arrays as `assay curve KIND` on a file, scikit-learn where definitions agree,
SVG charts from the core's writer, matplotlib drawing, and checked arguments."""

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from assay import curves

SVG = "{http://www.w3.org/2000/svg}"


def assay_cli():
    path = os.path.join(os.path.dirname(sys.executable), "assay")
    return path if os.path.exists(path) else shutil.which("assay")


def data(rng, n=60, weighted=False, ties=True):
    y = rng.integers(0, 2, n)
    s = rng.random(n)
    if ties:
        s = np.round(s * 12) / 12
    w = rng.integers(0, 4, n) * 0.5 if weighted else None
    return y, s, w


def cli_json(tmp_path, kind, y, s, w=None, *args):
    f = tmp_path / "preds.csv"
    rows = ["y,s" + (",w" if w is not None else "")]
    for i in range(len(y)):
        rows.append(f"{y[i]},{float(s[i])!r}" + (f",{float(w[i])!r}" if w is not None else ""))
    f.write_text("\n".join(rows) + "\n")
    cmd = [assay_cli(), "curve", kind, str(f), "--label", "y", "--score", "s", "--format", "json", *args]
    if w is not None:
        cmd += ["--weight", "w"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["models"][0]


def arr(values, none=np.nan):
    return np.array([none if v is None else v for v in values], dtype=float)


def same(ours, theirs):
    """Exactly equal, NaN equal to NaN."""
    np.testing.assert_array_equal(np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float))


needs_cli = pytest.mark.skipif(assay_cli() is None, reason="the assay CLI is not installed")


# ---- the same numbers as the CLI -------------------------------------------------------------------


@needs_cli
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("drop", [False, True])
def test_roc_matches_cli(tmp_path, rng, weighted, drop):
    y, s, w = data(rng, weighted=weighted)
    c = curves.roc(y, s, sample_weight=w, drop_intermediate=drop)
    j = cli_json(tmp_path, "roc", y, s, w, *(["--drop-intermediate"] if drop else []))
    same(c.fpr, arr(j["fpr"]))
    same(c.tpr, arr(j["tpr"]))
    same(c.thresholds, arr(j["thresholds"], none=np.inf))
    assert c.auc == j["roc_auc"]
    assert c.thresholds[0] == np.inf and c.fpr[0] == 0 and c.tpr[-1] == 1


@needs_cli
@pytest.mark.parametrize("weighted", [False, True])
def test_pr_matches_cli(tmp_path, rng, weighted):
    y, s, w = data(rng, weighted=weighted)
    c = curves.pr(y, s, sample_weight=w)
    j = cli_json(tmp_path, "pr", y, s, w)
    same(c.precision, arr(j["precision"]))
    same(c.recall, arr(j["recall"]))
    same(c.thresholds, arr(j["thresholds"]))
    assert c.average_precision == j["average_precision"]
    assert c.break_even_point == j["break_even_point"]
    assert len(c.precision) == len(c.thresholds) + 1


@needs_cli
@pytest.mark.parametrize("weighted", [False, True])
def test_thresholds_match_cli(tmp_path, rng, weighted):
    y, s, w = data(rng, weighted=weighted)
    c = curves.thresholds(y, s, sample_weight=w)
    j = cli_json(tmp_path, "threshold", y, s, w)
    same(c.thresholds, arr(j["thresholds"], none=np.inf))
    for k in ("tp", "fp", "fn", "tn"):
        same(getattr(c, k), arr(j[k]))
    for name in ("accuracy", "precision", "recall", "f1", "matthews_corrcoef", "specificity"):
        same(c.metrics[name], arr(j[name]))
    same(c.f1, c.metrics["f1"])
    for crit in ("youden", "closest_to_corner", "max_fbeta"):
        assert c.best[crit]["threshold"] == j["best"][crit]["threshold"]
        assert c.best[crit]["value"] == j["best"][crit]["value"]


@needs_cli
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("more", [{}, {"cost_tp": -0.5, "cost_tn": 0.25, "prior": 0.1}])
def test_costs_match_cli(tmp_path, rng, weighted, more):
    y, s, w = data(rng, weighted=weighted)
    c = curves.costs(y, s, cost_fp=1.0, cost_fn=5.0, sample_weight=w, **more)
    args = [a for k, v in more.items() for a in (f"--{k.replace('_', '-')}", repr(v))]
    j = cli_json(tmp_path, "cost", y, s, w, "--cost-fp", "1", "--cost-fn", "5", *args)
    same(c.pc, arr(j["pc"]))
    same(c.normalized_cost, arr(j["normalized_cost"]))
    same(c.line_fpr, arr(j["lines"]["fpr"]))
    same(c.line_tpr, arr(j["lines"]["tpr"]))
    same(c.line_thresholds, arr(j["lines"]["thresholds"], none=np.inf))
    m = j["min_expected_cost"]
    for k in ("value", "threshold", "fpr", "tpr", "tp", "fp", "fn", "tn", "pc"):
        assert c.min_expected_cost[k] == m[k], k


@needs_cli
@pytest.mark.parametrize("weighted", [False, True])
def test_rejection_matches_cli(tmp_path, rng, weighted):
    y, s, w = data(rng, weighted=weighted)
    c = curves.rejection(y, s, threshold=0.4, sample_weight=w)
    j = cli_json(tmp_path, "rejection", y, s, w, "--threshold", "0.4")
    same(c.rejected, arr(j["rejected"]))
    same(c.accuracy, arr(j["accuracy"]))
    same(c.confidence, arr(j["confidence"]))
    assert c.rejected[0] == 0


@needs_cli
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("weighted", [False, True])
def test_calibration_matches_cli(tmp_path, rng, strategy, weighted):
    y, s, w = data(rng, n=200, weighted=weighted, ties=False)
    c = curves.calibration(y, s, n_bins=7, strategy=strategy, sample_weight=w)
    j = cli_json(tmp_path, "calibration", y, s, w, "--bins", "7", "--strategy", strategy)
    same(c.prob_pred, arr(j["prob_pred"]))
    same(c.prob_true, arr(j["prob_true"]))
    same(c.counts, arr(j["weight"]))
    same(c.edges, arr(j["edges"]))
    assert c.ece == j["expected_calibration_error"]
    assert c.brier_score == j["brier_score"]


# ---- scikit-learn where the definitions agree ------------------------------------------------------

@pytest.fixture
def sk():
    return pytest.importorskip("sklearn.metrics")


@pytest.fixture
def skcal():
    return pytest.importorskip("sklearn.calibration")


@pytest.mark.parametrize("drop", [False, True])
def test_roc_matches_scikit_learn(sk, rng, drop):
    y, s, _ = data(rng, n=300)
    c = curves.roc(y, s, drop_intermediate=drop)
    fpr, tpr, thr = sk.roc_curve(y, s, drop_intermediate=drop)
    same(c.fpr, fpr)
    same(c.tpr, tpr)
    same(c.thresholds, thr)
    assert c.auc == pytest.approx(sk.roc_auc_score(y, s), abs=1e-15)


def test_roc_string_labels_and_weights_match_scikit_learn(sk, rng):
    y, s, w = data(rng, n=200, weighted=True)
    labels = np.array(["neg", "pos"])[y]
    c = curves.roc(labels, s, pos_label="pos", sample_weight=w)
    fpr, tpr, thr = sk.roc_curve(labels, s, pos_label="pos", sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(c.fpr, fpr, rtol=1e-14)
    np.testing.assert_allclose(c.tpr, tpr, rtol=1e-14)
    same(c.thresholds, thr)


def test_pr_matches_scikit_learn(sk, rng):
    y, s, _ = data(rng, n=300)
    c = curves.pr(y, s)
    p, r, t = sk.precision_recall_curve(y, s)
    same(c.precision, p)
    same(c.recall, r)
    same(c.thresholds, t)
    assert c.average_precision == pytest.approx(sk.average_precision_score(y, s), abs=1e-15)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_calibration_matches_scikit_learn(skcal, rng, strategy):
    y, s, _ = data(rng, n=500, ties=False)
    c = curves.calibration(y, s, n_bins=8, strategy=strategy)
    prob_true, prob_pred = skcal.calibration_curve(y, s, n_bins=8, strategy=strategy)
    np.testing.assert_allclose(c.prob_true, prob_true, rtol=1e-14)
    np.testing.assert_allclose(c.prob_pred, prob_pred, rtol=1e-14)
    assert c.counts.sum() == len(y)
    # ECE: the bins' weighted mean gap.
    assert c.ece == pytest.approx(np.sum(c.counts / c.counts.sum() * np.abs(c.prob_true - c.prob_pred)))


def test_threshold_metrics_match_scikit_learn_at_each_threshold(sk, rng):
    y, s, _ = data(rng, n=80)
    c = curves.thresholds(y, s)
    for k in range(1, len(c.thresholds), 3):
        pred = (s >= c.thresholds[k]).astype(int)
        assert c.f1[k] == pytest.approx(sk.f1_score(y, pred))
        assert c.precision[k] == pytest.approx(sk.precision_score(y, pred))
        assert c.accuracy[k] == pytest.approx(sk.accuracy_score(y, pred))


# ---- charts -----------------------------------------------------------------------------------------


def polylines(svg):
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return [p.get("points").split() for p in root.iter(SVG + "polyline")]


def test_svg_is_xml_with_every_point(rng):
    y, s, _ = data(rng)
    c = curves.roc(y, s)
    lines = polylines(c._repr_svg_())
    assert sorted(len(p) for p in lines) == sorted([2, len(c.fpr)])  # the chance diagonal and the curve
    assert c.to_svg() == c._repr_svg_()


@pytest.mark.parametrize("make, points", [
    (lambda y, s: curves.pr(y, s), lambda c: len(c.recall)),
    (lambda y, s: curves.thresholds(y, s), lambda c: len(c.thresholds) - 1),
    (lambda y, s: curves.costs(y, s, cost_fp=1, cost_fn=2), lambda c: len(c.pc)),
    (lambda y, s: curves.rejection(y, s), lambda c: len(c.rejected)),
    (lambda y, s: curves.calibration(y, s, n_bins=5), lambda c: len(c.prob_pred)),
])
def test_every_kind_renders(rng, make, points):
    y, s, _ = data(rng, n=100)
    c = make(y, s)
    lines = polylines(c._repr_svg_())
    assert points(c) in [len(p) for p in lines]
    assert type(c).__name__ in repr(c)


@needs_cli
@pytest.mark.parametrize("kind, make", [
    ("roc", lambda y, s: curves.roc(y, s, name="s")),
    ("pr", lambda y, s: curves.pr(y, s, name="s")),
    ("threshold", lambda y, s: curves.thresholds(y, s, name="s")),
    ("cost", lambda y, s: curves.costs(y, s, cost_fp=1, cost_fn=1, name="s")),
    ("rejection", lambda y, s: curves.rejection(y, s, name="s")),
    ("calibration", lambda y, s: curves.calibration(y, s, name="s")),
])
def test_svg_is_the_cli_chart(tmp_path, rng, kind, make):
    y, s, _ = data(rng, n=80)
    f = tmp_path / "preds.csv"
    f.write_text("y,s\n" + "".join(f"{a},{float(b)!r}\n" for a, b in zip(y, s)))
    svg = tmp_path / "chart.svg"
    subprocess.run([assay_cli(), "curve", kind, str(f), "--label", "y", "--score", "s", "--plot", str(svg),
                    "--output", str(tmp_path / "out.csv")], check=True, capture_output=True)
    assert make(y, s)._repr_svg_() == svg.read_text()


def test_calibration_svg_marks_each_bin(rng):
    y, s, _ = data(rng, n=200, ties=False)
    c = curves.calibration(y, s, n_bins=6)
    root = ET.fromstring(c._repr_svg_())
    assert len(c.prob_pred) == 6
    assert len(list(root.iter(SVG + "circle"))) >= 6


def test_svg_escapes_nothing_unsafe(rng):
    # Titles and legends come from the core's writer, which escapes XML; the document must parse.
    y, s, _ = data(rng)
    ET.fromstring(curves.pr(y, s).to_svg())


@pytest.mark.parametrize("kind", ["roc", "pr", "thresholds", "costs", "rejection", "calibration"])
def test_plot_with_matplotlib(rng, kind):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, s, _ = data(rng)
    extra = {"cost_fp": 1, "cost_fn": 3} if kind == "costs" else {}
    c = getattr(curves, kind)(y, s, **extra)
    ax = c.plot()
    assert ax.get_title()
    assert len(ax.lines) >= 1
    fig, ax2 = plt.subplots()
    assert c.plot(ax=ax2) is ax2
    plt.close("all")


def test_plot_without_matplotlib_says_what_to_install(rng, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    y, s, _ = data(rng)
    with pytest.raises(ImportError, match="matplotlib"):
        curves.roc(y, s).plot()


# ---- arguments ----------------------------------------------------------------------------------


@pytest.mark.parametrize("call, param", [
    (lambda: curves.roc([0, 1, 1], [0.1, np.nan, 0.3]), "y_score"),
    (lambda: curves.roc([0, 1, 1], [0.1, 0.2]), "y_true"),
    (lambda: curves.roc([0, 1, 2], [0.1, 0.2, 0.3]), "y_true has 3 classes"),
    (lambda: curves.roc([0, 1, 2], [0.1, 0.2, 0.3], pos_label=1), "y_true has 3 classes"),
    (lambda: curves.roc(["a", "b"], [0.1, 0.2]), "pos_label"),
    (lambda: curves.roc([0, 1], [[0.1, 0.2], [0.3, 0.4]]), "y_score"),
    (lambda: curves.roc([0, 1], ["x", "y"]), "y_score"),
    (lambda: curves.roc([0, 1], [0.1, 0.2], sample_weight=[1, -1]), "sample_weight"),
    (lambda: curves.roc([0, 1], [0.1, 0.2], sample_weight=[1, 1, 1]), "sample_weight"),
    (lambda: curves.pr([], []), "y_true"),
    (lambda: curves.thresholds([0, 1], [0.1, 0.2], beta=-1), "beta"),
    (lambda: curves.costs([0, 1], [0.1, 0.2], cost_fp=-1, cost_fn=1), "cost_fp"),
    (lambda: curves.costs([0, 1], [0.1, 0.2], cost_fp=1, cost_fn=float("inf")), "cost_fn"),
    (lambda: curves.costs([0, 1], [0.1, 0.2], cost_fp=1, cost_fn=1, prior=2), "prior"),
    (lambda: curves.rejection([0, 1], [0.1, 0.2], threshold="x"), "threshold"),
    (lambda: curves.calibration([0, 1], [0.1, 1.2]), "y_prob"),
    (lambda: curves.calibration([0, 1], [0.1, 0.2], n_bins=0), "n_bins"),
    (lambda: curves.calibration([0, 1], [0.1, 0.2], strategy="kmeans"), "strategy"),
    (lambda: curves.pr([0, 1], [0.1, 0.2], name=3), "name"),
])
def test_bad_input_names_the_parameter(call, param):
    with pytest.raises(ValueError, match=param):
        call()


def test_costs_needs_both_costs(rng):
    y, s, _ = data(rng)
    with pytest.raises(TypeError):
        curves.costs(y, s)


def test_one_class_gives_nan_with_a_reason():
    c = curves.roc([1, 1, 1], [0.2, 0.5, 0.9])
    assert np.isnan(c.auc) and np.isnan(c.fpr).all()
    assert c.undefined
    assert c._repr_svg_().startswith("<")


def test_labels_and_pos_label(rng):
    y, s, _ = data(rng)
    a = curves.roc(y, s)
    b = curves.roc(np.where(y == 1, 1, -1), s)
    c = curves.roc(np.array(["no", "yes"])[y], s, pos_label="yes")
    d = curves.roc(1 - y, s, pos_label=0)
    e = curves.roc(y.astype(bool), s)
    for other in (b, c, d, e):
        same(a.fpr, other.fpr)
        same(a.tpr, other.tpr)


def test_arrays_are_numpy(rng):
    y, s, _ = data(rng)
    c = curves.calibration(y, s)
    for name in ("prob_pred", "prob_true", "counts", "edges"):
        assert isinstance(getattr(c, name), np.ndarray) and getattr(c, name).dtype == np.float64
    assert len(c.edges) == 11
