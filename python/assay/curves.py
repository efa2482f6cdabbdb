"""Curves of a binary classifier's scores as objects holding NumPy arrays.

Each function computes its curve in the C++ core, with the same numbers as ``assay curve KIND`` on a
file with the same data, and returns an object whose arrays are attributes (``RocCurve.fpr``, ...).
In a notebook the object shows itself as the core's SVG chart (``_repr_svg_``); ``.plot(ax=None)``
draws it with matplotlib when that is installed (``pip install assay[plot]``).

Every function takes ``name=None``: the model's name in the chart's legend (``assay curve`` uses
the score column's name, so ``name="s"`` gives the very chart of ``assay curve KIND ... --score s
--plot``).

Thresholds follow one rule everywhere: a case is predicted positive when ``score >= threshold``.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np

from assay import _core
from assay._inputs import as_numpy
from assay._report import _label_text

__all__ = [
    "CalibrationCurve",
    "CostCurve",
    "PrCurve",
    "RejectionCurve",
    "RocCurve",
    "ThresholdCurve",
    "calibration",
    "costs",
    "pr",
    "rejection",
    "roc",
    "thresholds",
]


# ---- input checking (every message names the parameter) -----------------------------------------


def _vector(a, name, func):
    try:
        arr = as_numpy(a, name)
    except Exception as e:  # ragged lists and the like
        raise ValueError(f"{func}: {name} must be a 1-D array-like: {e}") from None
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(f"{func}: {name} must be 1-D, got an array of shape {arr.shape}")
    return arr


def _numbers(a, name, func):
    arr = _vector(a, name, func)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{func}: {name} must hold numbers, got dtype {arr.dtype}")
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if not np.isfinite(arr).all():
        i = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"{func}: {name}[{i}] is {arr[i]}: every value must be finite")
    return arr


def _labels(y_true, pos_label, func, n):
    y = _vector(y_true, "y_true", func)
    if y.shape[0] != n:
        raise ValueError(f"{func}: y_true has {y.shape[0]} values but y_score has {n}")
    if y.shape[0] == 0:
        raise ValueError(f"{func}: y_true is empty")
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise ValueError(f"{func}: y_true contains NaN")
    classes = np.unique(y)
    # The positive class by the class rules every front end shares (data/classes.hpp): scores make a
    # binary task, so more than two classes are refused, with or without pos_label.
    if classes.dtype.kind in "biuf":
        numbers, text = np.ascontiguousarray(classes, dtype=np.float64), None
    else:
        numbers, text = None, [str(v) for v in classes.tolist()]
    label = None if pos_label is None else _label_text(pos_label)
    flags = np.asarray(_core.positive_flags(numbers, text, label, func), dtype=bool)
    return np.ascontiguousarray(np.isin(y, classes[flags]), dtype=np.int32)


def _weights(sample_weight, n, func):
    if sample_weight is None:
        return None
    w = _numbers(sample_weight, "sample_weight", func)
    if w.shape[0] != n:
        raise ValueError(f"{func}: sample_weight has {w.shape[0]} values but y_score has {n}")
    if (w < 0).any():
        i = int(np.flatnonzero(w < 0)[0])
        raise ValueError(f"{func}: sample_weight[{i}] is {w[i]}: weights must be >= 0")
    return w


def _binary(y_true, y_score, pos_label, sample_weight, func, score_name="y_score"):
    score = _numbers(y_score, score_name, func)
    y = _labels(y_true, pos_label, func, score.shape[0])
    return y, score, _weights(sample_weight, score.shape[0], func)


def _real(x, name, func, lo=None):
    if isinstance(x, bool) or not isinstance(x, Real) or not math.isfinite(x) or (lo is not None and x < lo):
        need = "a finite number" + (f" >= {lo}" if lo is not None else "")
        raise ValueError(f"{func}: {name} must be {need}, got {x!r}")
    return float(x)


def _fmt(v):
    return "undefined" if v is None or not math.isfinite(v) else f"{v:.3f}"


# ---- the objects ---------------------------------------------------------------------------------


class _Curve:
    """Shared parts: the chart (the core's SVG writer, or matplotlib) and a short repr."""

    _arrays: tuple = ()
    name = None  # the legend's model name (as `assay curve` uses the score column's)

    def _legend(self, summary):
        return f"{self.name} ({summary})" if self.name else summary

    def _chart(self):  # -> dict of render_svg's arguments
        raise NotImplementedError

    def _repr_svg_(self):
        c = self._chart()
        lines = [
            (name, np.ascontiguousarray(x, dtype=np.float64), np.ascontiguousarray(y, dtype=np.float64), dashed, markers)
            for name, x, y, dashed, markers in c["lines"]
        ]
        return _core.render_svg(
            c["title"], c["x_label"], c["y_label"], c["x_min"], c["x_max"], c["y_min"], c["y_max"], c["square"],
            lines, c.get("markers", []),
        )

    def to_svg(self):
        """The chart as a standalone SVG document (the same as ``_repr_svg_``)."""
        return self._repr_svg_()

    def plot(self, ax=None):
        """Draws the curve on a matplotlib Axes (a new figure's when ``ax`` is None); returns the Axes."""
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            raise ImportError(
                f"{type(self).__name__}.plot needs matplotlib, which is not installed: pip install matplotlib "
                "(or assay[plot]); the SVG chart (_repr_svg_) needs nothing"
            ) from None
        c = self._chart()
        if ax is None:
            _, ax = plt.subplots()
        for name, x, y, dashed, markers in c["lines"]:
            ax.plot(x, y, linestyle="--" if dashed else "-", marker="o" if markers else None,
                    color="grey" if dashed else None, label=name or None)
        for x, y, label in c.get("markers", []):
            ax.plot([x], [y], marker="o", markerfacecolor="none", color="black")
            ax.annotate(label, (x, y), textcoords="offset points", xytext=(6, 6))
        ax.set_xlim(c["x_min"], c["x_max"])
        ax.set_ylim(c["y_min"], c["y_max"])
        ax.set_xlabel(c["x_label"])
        ax.set_ylabel(c["y_label"])
        ax.set_title(c["title"])
        if c["square"]:
            ax.set_aspect("equal", adjustable="box")
        ax.legend(loc="lower right")
        return ax

    def __repr__(self):
        n = len(getattr(self, self._arrays[0]))
        return f"{type(self).__name__}({n} points; {', '.join(self._arrays)})"


def _chart(title, x_label, y_label, lines, x=(0.0, 1.0), y=(0.0, 1.0), square=True, markers=()):
    return {"title": title, "x_label": x_label, "y_label": y_label, "x_min": float(x[0]), "x_max": float(x[1]),
            "y_min": float(y[0]), "y_max": float(y[1]), "square": square, "lines": lines, "markers": list(markers)}


class RocCurve(_Curve):
    """A ROC curve: point k is "positive when score >= thresholds[k]"; point 0 is (0, 0) at +inf.

    ``fps``/``tps`` are the (weighted) counts; ``auc`` is NaN when a class is missing, and then
    ``undefined`` says why (fpr or tpr is NaN throughout).
    """

    _arrays = ("fpr", "tpr", "thresholds", "fps", "tps")

    def __init__(self, d):
        self.fpr, self.tpr, self.thresholds = d["fpr"], d["tpr"], d["thresholds"]
        self.fps, self.tps = d["fps"], d["tps"]
        self.auc = d["auc"]
        self.undefined = d["undefined"] or d["auc_undefined"]

    def _chart(self):
        return _chart("ROC curve", "false-positive rate (1 - specificity)", "true-positive rate (recall)", [
            ("chance", [0.0, 1.0], [0.0, 1.0], True, False),
            (self._legend(f"AUC {_fmt(self.auc)}"), self.fpr, self.tpr, False, False),
        ])


class PrCurve(_Curve):
    """A precision-recall curve in scikit-learn's layout: thresholds increasing, and a last point
    (recall 0, precision 1) without a threshold, so precision and recall have one more entry."""

    _arrays = ("precision", "recall", "thresholds")

    def __init__(self, d):
        self.precision, self.recall, self.thresholds = d["precision"], d["recall"], d["thresholds"]
        self.average_precision = d["average_precision"]
        self.break_even_point = d["break_even_point"]
        self.prevalence = d["prevalence"]
        self.undefined = d["undefined"] or d["average_precision_undefined"]

    def _chart(self):
        p = self.prevalence
        lines = [(self._legend(f"AP {_fmt(self.average_precision)}"), self.recall, self.precision, False, False)]
        if math.isfinite(p):
            lines.append((f"prevalence {p:.3f}", [0.0, 1.0], [p, p], True, False))
        return _chart("Precision-recall curve", "recall", "precision", lines)


class ThresholdCurve(_Curve):
    """Confusion counts and binary metrics at every threshold, highest first: entry 0 (threshold
    +inf) predicts nothing positive. ``metrics`` maps each metric's name to its array (NaN where
    undefined); precision, recall, f1 and accuracy are attributes too. ``best`` holds the operating
    points by Youden's J, closeness to (0, 1) and F-beta."""

    _arrays = ("thresholds", "tp", "fp", "fn", "tn")

    def __init__(self, d, beta):
        self.thresholds, self.tp, self.fp, self.fn, self.tn = (d[k] for k in self._arrays)
        self.metrics = dict(d["metrics"])
        self.precision, self.recall = self.metrics["precision"], self.metrics["recall"]
        self.f1, self.accuracy = self.metrics["f1"], self.metrics["accuracy"]
        self.beta = beta
        self.best = {k: _point(v) for k, v in d["best"].items()}

    def _chart(self):
        x = self.thresholds[1:]
        lines = [(name, x, self.metrics[key][1:], False, False)
                 for name, key in (("F1", "f1"), ("precision", "precision"), ("recall", "recall"),
                                   ("accuracy", "accuracy"))]
        markers = []
        if self.beta == 1 and math.isfinite(self.best["max_fbeta"]["value"]):
            b = self.best["max_fbeta"]
            markers.append((b["threshold"], b["value"], f"max F1 at {b['threshold']:.4g}"))
        lo, hi = (float(x.min()), float(x.max())) if x.size else (0.0, 1.0)
        if lo >= 0 and hi <= 1:
            lo, hi = 0.0, 1.0
        elif lo == hi:
            lo, hi = lo - 0.5, lo + 0.5
        return _chart("Metrics vs threshold", "threshold (positive when score >= threshold)", "value", lines,
                      x=(lo, hi), square=False, markers=markers)


class CostCurve(_Curve):
    """Drummond & Holte's cost curve: the lower envelope (``pc``, ``normalized_cost``) of the lines
    NE(pc) = (1 - TPR) pc + FPR (1 - pc) of every ROC point (``line_fpr``, ``line_tpr``,
    ``line_thresholds``). ``min_expected_cost`` is the threshold of least expected cost per case
    under the given costs (a dict: threshold, value, fpr, tpr, tp, fp, fn, tn, pc)."""

    _arrays = ("pc", "normalized_cost", "line_fpr", "line_tpr", "line_thresholds")

    def __init__(self, d, cost_fp, cost_fn):
        self.pc, self.normalized_cost = d["pc"], d["normalized_cost"]
        self.line_fpr, self.line_tpr, self.line_thresholds = d["line_fpr"], d["line_tpr"], d["line_thresholds"]
        self.cost_fp, self.cost_fn = cost_fp, cost_fn
        self.min_expected_cost = _point(d["min_expected_cost"])
        self.undefined = d["undefined"]

    def _chart(self):
        return _chart("Cost curve (Drummond & Holte)", "probability cost PC(+)", "normalised expected cost", [
            ("trivial classifiers", [0.0, 0.5, 1.0], [0.0, 0.5, 0.0], True, False),
            (self.name or "lower envelope", self.pc, self.normalized_cost, False, False),
        ], y=(0.0, 0.5))


class RejectionCurve(_Curve):
    """Accuracy-rejection curve: point k rejects every case whose confidence |score - threshold| is
    below ``confidence[k]`` (point 0 rejects none); ``rejected`` is the rejected share of the weight
    and ``accuracy`` that of the accepted cases."""

    _arrays = ("rejected", "accuracy", "confidence")

    def __init__(self, d, threshold):
        self.rejected, self.accuracy, self.confidence = d["rejected"], d["accuracy"], d["confidence"]
        self.threshold = threshold

    def _chart(self):
        lowest = min(1.0, float(self.accuracy.min())) if self.accuracy.size else 1.0
        y_min = math.floor(lowest * 10) / 10
        if y_min >= 1:
            y_min = 0.9
        return _chart("Accuracy-rejection curve", "fraction rejected", "accuracy of the accepted cases",
                      [(self.name or "accuracy", self.rejected, self.accuracy, False, False)], y=(y_min, 1.0))


class CalibrationCurve(_Curve):
    """A reliability curve: for each non-empty bin, the observed frequency of positives
    (``prob_true``) against the mean predicted probability (``prob_pred``), both weighted; ``counts``
    is each bin's total weight and ``edges`` all ``n_bins + 1`` edges. ``ece`` is the expected
    calibration error; ``brier_score`` and Murphy's ``brier_reliability``, ``brier_resolution`` and
    ``brier_uncertainty`` come with it."""

    _arrays = ("prob_pred", "prob_true", "counts")

    def __init__(self, d, n_bins, strategy):
        self.prob_true, self.prob_pred, self.counts, self.edges = d["prob_true"], d["prob_pred"], d["weight"], d["edges"]
        self.ece = d["ece"]
        self.brier_score, self.brier_reliability = d["brier_score"], d["brier_reliability"]
        self.brier_resolution, self.brier_uncertainty = d["brier_resolution"], d["brier_uncertainty"]
        self.n_bins, self.strategy = n_bins, strategy

    def _chart(self):
        return _chart("Reliability diagram", "mean predicted probability", "observed frequency of positives", [
            ("perfectly calibrated", [0.0, 1.0], [0.0, 1.0], True, False),
            (self._legend(f"ECE {_fmt(self.ece)}"), self.prob_pred, self.prob_true, False, True),
        ])


def _point(d):
    if d is None:
        return None
    return {k: v for k, v in d.items() if not (k.endswith("_undefined") and not v)}


def _named(curve, name, func):
    if name is not None and not isinstance(name, str):
        raise ValueError(f"{func}: name must be a str or None, got {name!r}")
    curve.name = name
    return curve


# ---- the functions -------------------------------------------------------------------------------


def roc(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False, name=None):
    """ROC curve of a binary score (one point per distinct score plus the origin; with
    ``drop_intermediate`` collinear points are dropped as scikit-learn does). Returns a RocCurve."""
    func = "assay.curves.roc"
    y, s, w = _binary(y_true, y_score, pos_label, sample_weight, func)
    return _named(RocCurve(_core.curve_roc(y, s, w, bool(drop_intermediate))), name, func)


def pr(y_true, y_score, *, pos_label=None, sample_weight=None, name=None):
    """Precision-recall curve and average precision of a binary score. Returns a PrCurve."""
    func = "assay.curves.pr"
    y, s, w = _binary(y_true, y_score, pos_label, sample_weight, func)
    return _named(PrCurve(_core.curve_pr(y, s, w)), name, func)


def thresholds(y_true, y_score, *, pos_label=None, sample_weight=None, beta=1.0, name=None):
    """Confusion counts and binary metrics (accuracy, precision, recall, F1, MCC, ...) at every
    threshold, with the best thresholds by several criteria. Returns a ThresholdCurve."""
    func = "assay.curves.thresholds"
    beta = _real(beta, "beta", func, lo=0)
    y, s, w = _binary(y_true, y_score, pos_label, sample_weight, func)
    return _named(ThresholdCurve(_core.curve_thresholds(y, s, w, beta), beta), name, func)


def costs(y_true, y_score, *, cost_fp, cost_fn, cost_tp=0.0, cost_tn=0.0, prior=None, pos_label=None,
          sample_weight=None, name=None):
    """Drummond & Holte's cost curve of a binary score and its threshold of least expected cost per
    case under these costs (``prior``: P(positive) in deployment; None = the data's). Returns a
    CostCurve."""
    func = "assay.curves.costs"
    cost_fp = _real(cost_fp, "cost_fp", func, lo=0)
    cost_fn = _real(cost_fn, "cost_fn", func, lo=0)
    cost_tp = _real(cost_tp, "cost_tp", func)
    cost_tn = _real(cost_tn, "cost_tn", func)
    if prior is not None:
        prior = _real(prior, "prior", func, lo=0)
        if prior > 1:
            raise ValueError(f"{func}: prior must be in [0, 1], got {prior!r}")
    y, s, w = _binary(y_true, y_score, pos_label, sample_weight, func)
    d = _core.curve_cost(y, s, w, (cost_fp, cost_fn, cost_tp, cost_tn), prior)
    return _named(CostCurve(d, cost_fp, cost_fn), name, func)


def rejection(y_true, y_score, *, threshold=0.5, pos_label=None, sample_weight=None, name=None):
    """Accuracy-rejection curve of a binary score: the prediction is "positive when score >=
    threshold" and the cases of lowest confidence |score - threshold| are rejected first. Returns a
    RejectionCurve."""
    func = "assay.curves.rejection"
    threshold = _real(threshold, "threshold", func)
    y, s, w = _binary(y_true, y_score, pos_label, sample_weight, func)
    return _named(RejectionCurve(_core.curve_rejection(y, s, w, threshold), threshold), name, func)


def calibration(y_true, y_prob, n_bins=10, strategy="uniform", *, pos_label=None, sample_weight=None, name=None):
    """Reliability curve of predicted probabilities with ``n_bins`` bins, ``strategy`` "uniform"
    (equal widths) or "quantile" (equal weights), as scikit-learn's calibration_curve, with the
    expected calibration error. Returns a CalibrationCurve."""
    func = "assay.curves.calibration"
    if isinstance(n_bins, bool) or not isinstance(n_bins, Integral) or n_bins < 1:
        raise ValueError(f"{func}: n_bins must be an integer >= 1, got {n_bins!r}")
    if strategy not in ("uniform", "quantile"):
        raise ValueError(f"{func}: strategy must be 'uniform' or 'quantile', got {strategy!r}")
    y, p, w = _binary(y_true, y_prob, pos_label, sample_weight, func, score_name="y_prob")
    bad = (p < 0) | (p > 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{func}: y_prob[{i}] is {p[i]}: probabilities must be in [0, 1]")
    d = _core.curve_calibration(y, p, w, int(n_bins), strategy == "quantile")
    return _named(CalibrationCurve(d, int(n_bins), strategy), name, func)
