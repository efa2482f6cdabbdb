"""assay.report and the numbers-with-intervals functions (assay.roc_auc, assay.accuracy, ...):
the report of `assay report`, computed by the core's evaluate() on arrays in memory."""

from __future__ import annotations

import json
import math

import numpy as np

from assay import _core
from assay._estimate import Estimate
from assay._inputs import as_array

_CI_METHODS = ("auto", "wilson", "normal", "agresti_coull", "clopper_pearson", "bootstrap")


class Report:
    """The evaluation report of predictions in memory: ``str()`` is the text report,
    ``to_dict()`` the JSON report (the keys of ``assay report --format json``, docs/report-json.md),
    ``_repr_html_()`` the HTML page (shown inline in Jupyter), ``save_html(path)`` writes it.
    ``report["roc_auc"]`` is the headline number as an :class:`~assay.Estimate` (with its interval
    when the report was asked for intervals, or NaN and the reason when undefined)."""

    def __init__(self, core_report):
        self._r = core_report
        self._dict = None

    def __str__(self):
        return self._r.text()

    def __repr__(self):
        d = self._data()
        return f"<assay.Report {d['task']}, {d['n']} rows>"

    def _data(self):
        if self._dict is None:
            self._dict = json.loads(self._r.json())
        return self._dict

    def to_dict(self):
        return _copy(self._data())

    def to_json(self):
        return self._r.json()

    def _repr_html_(self):
        return self._r.html()

    def save_html(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self._r.html())

    def __getitem__(self, name):
        d = self._data()
        if name not in d or isinstance(d[name], (dict, list, str)):
            raise KeyError(f"report has no headline number {name!r}")
        value = d[name]
        reason = d.get(f"{name}_undefined", "")
        ci = d.get(f"{name}_ci")
        if ci is not None and (ci[0] is None or ci[1] is None):
            ci = None
        return Estimate(math.nan if value is None else value, ci=ci, level=d.get("ci_level") if ci else None,
                        method=d.get(f"{name}_ci_method") if ci else None, reason=reason)

    def keys(self):
        d = self._data()
        return [k for k, v in d.items() if (v is None or isinstance(v, (int, float))) and not isinstance(v, bool)
                and not k.endswith("_ci") and k not in ("n", "ci_level", "threshold")]


class SlicedReport(Report):
    """A sliced report (``assay.report(..., by=...)``): ``to_dict()`` has the keys of
    ``assay report --by COL --format json`` (``by``, ``overall``, ``slices``, ``metrics``; see
    docs/report-json.md), ``str()`` the text and ``_repr_html_()`` the HTML page with a forest plot
    per headline metric. ``report["accuracy"]`` is the overall number; ``slice_table("accuracy")``
    the metric's per-slice rows."""

    def __repr__(self):
        d = self._data()
        return f"<assay.Report {d['overall']['task']}, {d['overall']['n']} rows, {len(d['slices'])} slices>"

    def __getitem__(self, name):
        overall = Report.__new__(Report)
        overall._r = None
        overall._dict = self._data()["overall"]
        return Report.__getitem__(overall, name)

    def keys(self):
        overall = Report.__new__(Report)
        overall._r = None
        overall._dict = self._data()["overall"]
        return Report.keys(overall)

    def slice_table(self, name):
        for m in self._data()["metrics"]:
            if m["name"] == name:
                return _copy(m["slices"])
        raise KeyError(f"sliced report has no headline table {name!r}")


def _copy(d):
    return json.loads(json.dumps(d))


def _labels(y, name):
    """(numbers, text): numeric labels as float64, anything else as a list of str."""
    a = as_array(y, name)
    if a.ndim != 1:
        raise ValueError(f"report: {name} must be 1-D; got an array of shape {a.shape}")
    if a.dtype.kind in "biuf":
        return np.ascontiguousarray(a, dtype=np.float64), None
    return None, [str(v) for v in a.tolist()]


def _numbers(x, name, ndim=1):
    a = np.ascontiguousarray(as_array(x, name), dtype=np.float64)
    if a.ndim != ndim:
        raise ValueError(f"report: {name} must be {ndim}-D; got an array of shape {a.shape}")
    return a


def report(y_true, *, y_score=None, y_pred=None, y_proba=None, sample_weight=None, pos_label=None,
           threshold=0.5, ci=None, method="auto", replicates=2000, random_state=0, task="auto", beta=None,
           top_k=2, zero_division=0, classes=None, keep_curves=None, by=None, label=None, drop_missing=False,
           max_fpr=None, min_tpr=None, min_precision=None, min_recall=None, confidence=0.95, _rows=()):
    """The full evaluation report of predictions (``assay report`` on arrays).

    Give the true labels and exactly one of: ``y_score`` (binary: the score of the positive class,
    positive when score >= threshold), ``y_pred`` (predicted classes; with ``task='regression'``,
    predicted values) or ``y_proba`` (n x K class probabilities, columns in sorted class order or
    named by ``classes``). ``ci`` is a confidence level (e.g. 0.95) for intervals on every number
    (``method``: 'auto' = Wilson for proportions, DeLong for ROC AUC, the normal interval for mean
    losses (log loss, Brier, MAE, MSE), the logit interval for average precision, the bootstrap for
    the rest;
    'wilson', 'normal', 'agresti_coull', 'clopper_pearson' or 'bootstrap'); ``random_state`` seeds
    the bootstrap (the same seed gives the same intervals whatever the thread count). Undefined
    numbers (0/0, one class present) are NaN with the reason, never a silent 0; ``zero_division``
    (0, 1 or nan) only says how undefined per-class values enter the macro and weighted averages.

    ``max_fpr``, ``min_tpr``, ``min_precision``, ``min_recall`` (binary ``y_score`` only) add the
    operating points under a constraint (``assay report --max-fpr``): the threshold of highest TPR
    with FPR <= max_fpr (Neyman-Pearson), of highest specificity with TPR >= min_tpr, of highest
    recall with precision >= min_precision, of highest precision with recall >= min_recall, each with
    its counts; with ``max_fpr`` also the Neyman-Pearson umbrella threshold, whose population FPR
    exceeds max_fpr with probability at most 1 - ``confidence``. They are in
    ``to_dict()["operating_points"]`` (from an Arrow source too).

    ``by`` slices the report (``assay report --by COL``): one array of slice keys (numbers or
    strings, one per row; a pandas Series lends its name) or a list of two (every observed pair).
    The result is a :class:`SlicedReport`: the overall report, every slice's report, and for each
    headline metric the slices' values and intervals with a test of each slice against the rest
    (two-proportion z for rates, unpaired DeLong for ROC AUC), Holm-adjusted over the slices.

    Arrow and Parquet: the first argument may instead be a pyarrow ``Table``, ``RecordBatch``,
    ``RecordBatchReader`` (e.g. ``pyarrow.parquet.ParquetFile(path).iter_batches()`` wrapped by
    ``pyarrow.RecordBatchReader.from_batches``) or anything with ``__arrow_c_stream__``; then
    ``label``, ``y_score`` or ``y_pred``, and ``sample_weight`` are column names (``y_proba`` a list of
    column names, one per class: named after the classes, or in sorted class order), and the rows stream
    batch by batch into one mergeable state (constant memory: the state holds one entry per distinct
    (score, class) pair). Rows with a missing value (null, NaN) are refused, or skipped and counted
    (``report.missing``, and ``to_dict()["missing"]`` as ``assay report --drop-missing``) with
    ``drop_missing=True``. Intervals (``ci``) are those of the rows in
    stream order (with weights or ``method='bootstrap'`` the state then keeps every row: about 20-28
    bytes a row). The kept curves (``keep_curves``, for the HTML page) come from the state too. Every interval
    of class probabilities and of regression keeps the rows too (their normal intervals read each row's
    loss, the rest is the Poisson bootstrap). With an Arrow source, ``by`` names one or two slice
    columns: the sliced report of the rows, exactly (one state per slice key; a null key is a missing
    row).
    """
    from assay import _scale

    if _scale.is_arrow(y_true, label):
        if label is None:
            raise ValueError("report: with an Arrow source, label= names the label column")
        if y_proba is not None and classes is not None:
            raise ValueError("report: with an Arrow source, y_proba names the probability columns, whose names are "
                             "the classes (or in sorted class order): leave classes out")
        spec = _scale.Spec("report", label=label, score=y_score, pred=y_pred, proba=y_proba, weight=sample_weight,
                           pos_label=pos_label, threshold=threshold, task=task, drop_missing=drop_missing, ci=ci,
                           method=method, replicates=replicates, random_state=random_state, beta=beta, top_k=top_k,
                           zero_division=zero_division, keep_curves=True if keep_curves is None else keep_curves,
                           by=by, max_fpr=max_fpr, min_tpr=min_tpr, min_precision=min_precision, min_recall=min_recall,
                           confidence=confidence)
        return _scale.evaluate_arrow(y_true, spec)
    if label is not None or drop_missing:
        raise ValueError("report: label= and drop_missing= apply to an Arrow source (a table or batch stream)")
    keep_curves = True if keep_curves is None else keep_curves
    by_names, by_keys = _slice_keys(by, y_true)
    given = [n for n, v in (("y_score", y_score), ("y_pred", y_pred), ("y_proba", y_proba)) if v is not None]
    if len(given) != 1:
        raise ValueError(f"report: give exactly one of y_score, y_pred or y_proba; got {given or 'none'}")
    if ci is not None and not (isinstance(ci, (int, float)) and 0 < ci < 1):
        raise ValueError(f"report: ci is {ci!r}; it must be a confidence level in (0, 1)")
    if method not in _CI_METHODS:
        raise ValueError(f"report: method is {method!r}; it must be one of {', '.join(_CI_METHODS)}")
    zd = {0: "0", 1: "1"}.get(zero_division, "nan" if isinstance(zero_division, float) and
                                 math.isnan(zero_division) else None)
    if zd is None:
        raise ValueError(f"report: zero_division is {zero_division!r}; it must be 0, 1 or nan")
    seed = int(random_state) if random_state is not None else int(np.random.randint(0, 2**31 - 1))
    kw = dict(y_num=None, y_text=None, score=None, pred_num=None, pred_text=None, proba=None, proba_classes=[],
              values=None, weight=None if sample_weight is None else _numbers(sample_weight, "sample_weight"),
              pos_label=None if pos_label is None else _label_text(pos_label), task=str(task),
              threshold=float(threshold), beta=None if beta is None else float(beta), top_k=int(top_k),
              zero_division=zd, ci_level=None if ci is None else float(ci), ci_method=method,
              replicates=int(replicates), seed=seed, keep_curves=bool(keep_curves) and not by_keys,
              by_names=by_names, by_keys=by_keys,
              max_fpr=None if max_fpr is None else float(max_fpr),
              min_tpr=None if min_tpr is None else float(min_tpr),
              min_precision=None if min_precision is None else float(min_precision),
              min_recall=None if min_recall is None else float(min_recall), confidence=float(confidence),
              metrics=[] if by_keys else list(_rows))
    if task == "regression":
        if y_pred is None:
            raise ValueError("report: a regression report needs y_pred (the predicted values)")
        kw["y_num"] = _numbers(y_true, "y_true")
        kw["values"] = _numbers(y_pred, "y_pred")
    else:
        kw["y_num"], kw["y_text"] = _labels(y_true, "y_true")
        if y_score is not None:
            kw["score"] = _numbers(y_score, "y_score")
        elif y_pred is not None:
            kw["pred_num"], kw["pred_text"] = _labels(y_pred, "y_pred")
            if (kw["pred_num"] is None) != (kw["y_num"] is None):  # one side text: compare as text
                kw["y_num"], kw["y_text"] = None, [_label_text(v) for v in as_array(y_true, "y_true").tolist()]
                kw["pred_num"], kw["pred_text"] = None, [_label_text(v) for v in as_array(y_pred, "y_pred").tolist()]
        else:
            p = _numbers(y_proba, "y_proba", ndim=2)
            kw["proba"] = np.ascontiguousarray(p.ravel())
            kw["proba_classes"] = [] if classes is None else [_label_text(c) for c in classes]
    core = _core.evaluate(**kw)
    return SlicedReport(core) if by_keys else Report(core)


def _slice_keys(by, y_true):
    """(names, keys): one or two arrays of slice keys (numbers or strings) as label text."""
    if by is None:
        return [], []
    columns = list(by) if isinstance(by, (list, tuple)) and len(by) > 0 and not np.isscalar(by[0]) else [by]
    if not 1 <= len(columns) <= 2:
        raise ValueError(f"report: by has {len(columns)} arrays of slice keys; give 1 or 2")
    n = len(as_array(y_true, "y_true"))
    names, keys = [], []
    for i, col in enumerate(columns):
        name = getattr(col, "name", None)
        names.append(str(name) if name is not None else ("by" if len(columns) == 1 else f"by[{i}]"))
        a = as_array(col, "by")
        if a.ndim != 1 or len(a) != n:
            raise ValueError(f"report: by[{i}] must be 1-D with one key per row ({n}); got shape {a.shape}")
        keys.append([_label_text(v) for v in a.tolist()])
    if len(names) == 2 and names[0] == names[1]:
        names = ["by[0]", "by[1]"]
    return names, keys


def _label_text(v):
    """A label as the core spells it: numbers by value (1.0 -> '1'), anything else as str."""
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v)) if not float(v).is_integer() else str(int(v))
    return str(v)


def _estimate_function(name, doc, kind):
    def f(y_true, y_other, *, ci=None, method="auto", sample_weight=None, pos_label=None, threshold=0.5,
          replicates=2000, random_state=0, **options):
        args = {kind: y_other}
        if kind == "regression":
            args = {"y_pred": y_other, "task": "regression"}
        # Only this row is computed (and its interval): its number is the whole report's.
        r = report(y_true, **args, sample_weight=sample_weight, pos_label=pos_label, threshold=threshold, ci=ci,
                   method=method, replicates=replicates, random_state=random_state, keep_curves=False,
                   _rows=(name,), **options)
        try:
            return r[name]
        except KeyError:
            raise ValueError(f"{name}: not computed for this input (task {r.to_dict()['task']})") from None

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"{doc}, with its confidence interval when ``ci`` (a level) is given: an "
                 f":class:`~assay.Estimate`. The number of ``assay report``; see :func:`assay.report` for the "
                 "arguments.")
    return f


_ESTIMATES = {
    # name: (what, second argument)
    "accuracy": ("Accuracy (share of right predictions)", "y_pred"),
    "error_rate": ("Error rate (1 - accuracy)", "y_pred"),
    "balanced_accuracy": ("Balanced accuracy (mean recall over classes)", "y_pred"),
    "precision": ("Precision of the positive class (binary)", "y_pred"),
    "recall": ("Recall (sensitivity, TPR) of the positive class (binary)", "y_pred"),
    "specificity": ("Specificity (TNR) (binary)", "y_pred"),
    "npv": ("Negative predictive value (binary)", "y_pred"),
    "f1": ("F1 of the positive class (binary)", "y_pred"),
    "matthews_corrcoef": ("Matthews correlation coefficient", "y_pred"),
    "cohen_kappa": ("Cohen's kappa", "y_pred"),
    "roc_auc": ("ROC AUC of a binary score (DeLong interval by default)", "y_score"),
    "average_precision": ("Average precision of a binary score", "y_score"),
    "log_loss": ("Log loss of class probabilities", "y_proba"),
    "brier_score_loss": ("Brier score of class probabilities", "y_proba"),
    "mean_absolute_error": ("Mean absolute error", "regression"),
    "mean_squared_error": ("Mean squared error", "regression"),
    "root_mean_squared_error": ("Root mean squared error", "regression"),
    "r2": ("Coefficient of determination R^2", "regression"),
}

# Every regression metric of the registry is a function here too (a metric added to the registry
# appears without code of its own); the titles are the report's.
for _name, _title in _core.regression_metrics():
    _ESTIMATES.setdefault(_name, (_title[0].upper() + _title[1:], "regression"))

ESTIMATE_FUNCTIONS = {name: _estimate_function(name, doc, kind) for name, (doc, kind) in _ESTIMATES.items()}
