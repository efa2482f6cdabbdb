"""assay.metrics: the displays (ROC, precision-recall and DET curves, confusion matrix, prediction
error).

Each is a subclass of scikit-learn's display of the same name (the same constructor, attributes,
plot, from_estimator, from_predictions and from_cv_results, plotting with matplotlib), whose
from_predictions and from_cv_results compute the curve, the area or the matrix with assay's
functions; from_estimator goes through from_predictions as in scikit-learn.
PredictionErrorDisplay computes no metric: it is scikit-learn's, under assay's name. These need
scikit-learn and matplotlib (an ImportError says so without scikit-learn).
"""

from __future__ import annotations

import numpy as np

__all__ = ["ConfusionMatrixDisplay", "DetCurveDisplay", "PrecisionRecallDisplay", "PredictionErrorDisplay",
           "RocCurveDisplay"]

_WHY = ("assay.metrics.{name} is a subclass of scikit-learn's display (plotting with matplotlib): install "
        "scikit-learn and matplotlib to use it")

try:
    from sklearn import metrics as _sk
    from sklearn.utils import _safe_indexing, check_array
    from sklearn.utils._optional_dependencies import check_matplotlib_support
    from sklearn.utils._plotting import _deprecate_y_pred_parameter
    from sklearn.utils._response import _get_response_values_binary
    from sklearn.utils.multiclass import unique_labels
except ImportError:  # pragma: no cover - exercised only without scikit-learn
    _sk = None


def _assay():
    from assay import metrics

    return metrics


def _folds(cv_results, X, y, sample_weight, response_method, pos_label):
    """(y_true, scores, positive label, weights) of each fold's test part, as scikit-learn takes them."""
    for estimator, test in zip(cv_results["estimator"], cv_results["indices"]["test"]):
        y_true = _safe_indexing(y, test)
        y_score, positive = _get_response_values_binary(estimator, _safe_indexing(X, test),
                                                        response_method=response_method, pos_label=pos_label)
        weight = None if sample_weight is None else _safe_indexing(sample_weight, test)
        yield y_true, y_score, positive, weight


if _sk is not None:

    class RocCurveDisplay(_sk.RocCurveDisplay):
        """ROC curve display: scikit-learn's RocCurveDisplay computing with assay.metrics' roc_curve
        and auc."""

        @classmethod
        def from_predictions(cls, y_true, y_score=None, *, sample_weight=None, drop_intermediate=True,
                             pos_label=None, name=None, ax=None, curve_kwargs=None, plot_chance_level=False,
                             chance_level_kw=None, despine=False):
            m = _assay()
            positive, name = cls._validate_from_predictions_params(y_true, y_score, sample_weight=sample_weight,
                                                                    pos_label=pos_label, name=name)
            fpr, tpr, _ = m.roc_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                                      drop_intermediate=drop_intermediate)
            display = cls(fpr=fpr, tpr=tpr, roc_auc=m.auc(fpr, tpr), name=name, pos_label=positive)
            return display.plot(ax=ax, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level,
                                chance_level_kw=chance_level_kw, despine=despine)

        @classmethod
        def from_cv_results(cls, cv_results, X, y, *, sample_weight=None, drop_intermediate=True,
                            response_method="auto", pos_label=None, ax=None, name=None, curve_kwargs=None,
                            plot_chance_level=False, chance_level_kwargs=None, despine=False):
            m = _assay()
            cls._validate_from_cv_results_params(cv_results, X, y, sample_weight=sample_weight)
            fprs, tprs, areas = [], [], []
            positive = pos_label
            for y_true, y_score, positive, weight in _folds(cv_results, X, y, sample_weight, response_method,
                                                             pos_label):
                fpr, tpr, _ = m.roc_curve(y_true, y_score, pos_label=positive, sample_weight=weight,
                                          drop_intermediate=drop_intermediate)
                fprs.append(fpr)
                tprs.append(tpr)
                areas.append(m.auc(fpr, tpr))
            display = cls(fpr=fprs, tpr=tprs, roc_auc=areas, name=name, pos_label=positive)
            return display.plot(ax=ax, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level,
                                chance_level_kw=chance_level_kwargs, despine=despine)

    class PrecisionRecallDisplay(_sk.PrecisionRecallDisplay):
        """Precision-recall display: scikit-learn's PrecisionRecallDisplay computing with
        assay.metrics' precision_recall_curve and average_precision_score."""

        @classmethod
        def from_predictions(cls, y_true, y_score=None, *, sample_weight=None, drop_intermediate=False,
                             pos_label=None, name=None, ax=None, curve_kwargs=None, plot_chance_level=False,
                             chance_level_kw=None, despine=False, y_pred="deprecated", **kwargs):
            m = _assay()
            y_true = check_array(y_true, ensure_2d=False, dtype=None)
            y_score = _deprecate_y_pred_parameter(y_score, y_pred, "1.8")
            pos_label, name = cls._validate_from_predictions_params(y_true, y_score, sample_weight=sample_weight,
                                                                     pos_label=pos_label, name=name)
            precision, recall, _ = m.precision_recall_curve(y_true, y_score, pos_label=pos_label,
                                                            sample_weight=sample_weight,
                                                            drop_intermediate=drop_intermediate)
            ap = m.average_precision_score(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
            prevalence = (y_true == pos_label).sum() / len(y_true)
            display = cls(precision=precision, recall=recall, average_precision=ap, name=name, pos_label=pos_label,
                          prevalence_pos_label=prevalence)
            return display.plot(ax=ax, name=name, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level,
                                chance_level_kw=chance_level_kw, despine=despine, **kwargs)

        @classmethod
        def from_cv_results(cls, cv_results, X, y, *, sample_weight=None, drop_intermediate=True,
                            response_method="auto", pos_label=None, name=None, ax=None, curve_kwargs=None,
                            plot_chance_level=False, chance_level_kwargs=None, despine=False):
            m = _assay()
            cls._validate_from_cv_results_params(cv_results, X, y, sample_weight=sample_weight)
            precisions, recalls, aps, prevalences = [], [], [], []
            positive = pos_label
            for y_true, y_score, positive, weight in _folds(cv_results, X, y, sample_weight, response_method,
                                                             pos_label):
                precision, recall, _ = m.precision_recall_curve(y_true, y_score, pos_label=positive,
                                                                sample_weight=weight,
                                                                drop_intermediate=drop_intermediate)
                precisions.append(precision)
                recalls.append(recall)
                aps.append(m.average_precision_score(y_true, y_score, pos_label=positive, sample_weight=weight))
                prevalences.append(np.count_nonzero(y_true == positive) / y_true.shape[0])
            display = cls(precision=precisions, recall=recalls, average_precision=aps, name=name,
                          pos_label=positive, prevalence_pos_label=prevalences)
            return display.plot(ax=ax, curve_kwargs=curve_kwargs, plot_chance_level=plot_chance_level,
                                chance_level_kw=chance_level_kwargs, despine=despine)

    class DetCurveDisplay(_sk.DetCurveDisplay):
        """DET curve display: scikit-learn's DetCurveDisplay computing with assay.metrics' det_curve."""

        @classmethod
        def from_predictions(cls, y_true, y_score=None, *, sample_weight=None, drop_intermediate=True,
                             pos_label=None, name=None, ax=None, y_pred="deprecated", **kwargs):
            m = _assay()
            y_score = _deprecate_y_pred_parameter(y_score, y_pred, "1.8")
            positive, name = cls._validate_from_predictions_params(y_true, y_score, sample_weight=sample_weight,
                                                                    pos_label=pos_label, name=name)
            fpr, fnr, _ = m.det_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                                      drop_intermediate=drop_intermediate)
            display = cls(fpr=fpr, fnr=fnr, estimator_name=name, pos_label=positive)
            return display.plot(ax=ax, name=name, **kwargs)

    class ConfusionMatrixDisplay(_sk.ConfusionMatrixDisplay):
        """Confusion matrix display: scikit-learn's ConfusionMatrixDisplay computing with
        assay.metrics' confusion_matrix."""

        @classmethod
        def from_predictions(cls, y_true, y_pred, *, labels=None, sample_weight=None, normalize=None,
                             display_labels=None, include_values=True, xticks_rotation="horizontal",
                             values_format=None, cmap="viridis", ax=None, colorbar=True, im_kw=None, text_kw=None):
            check_matplotlib_support(f"{cls.__name__}.from_predictions")
            if display_labels is None:
                display_labels = unique_labels(y_true, y_pred) if labels is None else labels
            matrix = _assay().confusion_matrix(y_true, y_pred, sample_weight=sample_weight, labels=labels,
                                               normalize=normalize)
            display = cls(confusion_matrix=matrix, display_labels=display_labels)
            return display.plot(include_values=include_values, cmap=cmap, ax=ax, xticks_rotation=xticks_rotation,
                                values_format=values_format, colorbar=colorbar, im_kw=im_kw, text_kw=text_kw)

    class PredictionErrorDisplay(_sk.PredictionErrorDisplay):
        """Prediction error display (scikit-learn's: it plots predictions, it computes no metric)."""

    for _cls in (RocCurveDisplay, PrecisionRecallDisplay, DetCurveDisplay, ConfusionMatrixDisplay,
                 PredictionErrorDisplay):
        _cls.__module__ = "assay.metrics"

else:  # pragma: no cover - exercised only without scikit-learn

    def _missing(name):
        class Missing:
            def __init__(self, *args, **kwargs):
                raise ImportError(_WHY.format(name=name))

            @classmethod
            def from_predictions(cls, *args, **kwargs):
                raise ImportError(_WHY.format(name=name))

            from_estimator = from_cv_results = from_predictions

        Missing.__name__ = Missing.__qualname__ = name
        return Missing

    RocCurveDisplay = _missing("RocCurveDisplay")
    PrecisionRecallDisplay = _missing("PrecisionRecallDisplay")
    DetCurveDisplay = _missing("DetCurveDisplay")
    ConfusionMatrixDisplay = _missing("ConfusionMatrixDisplay")
    PredictionErrorDisplay = _missing("PredictionErrorDisplay")
