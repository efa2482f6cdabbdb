#!/usr/bin/python3
"""Writes tests/cli/expected/*.json: what `assay report --format json` must print for the bundled
examples, computed independently with scikit-learn (and numpy where scikit-learn 1.2 has no such
metric). The C++ golden tests (report_golden_test.cpp) run assay and compare every key: numbers
within 1e-12 relative, everything else exactly.

Run from anywhere: /usr/bin/python3 tests/cli/make_expected.py
"""
import json
import os
import sys

import numpy as np
import pandas as pd
import scipy
import scipy.stats
import sklearn
from sklearn import metrics as skm

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read(name):
    # keep_default_na=False: a label such as "NA" stays a label, as in assay.
    # float_precision="round_trip": pandas' default parser returns a neighbouring double for many
    # 17-digit values; the expected numbers must be computed from the exact doubles in the file.
    return pd.read_csv(os.path.join(ROOT, "examples", name), keep_default_na=False, float_precision="round_trip")


def per_class_block(y, yhat, labels, w=None):
    """per_class, micro_avg, macro_avg, weighted_avg as assay names them (no undefined cases here)."""
    p, r, f, _ = skm.precision_recall_fscore_support(y, yhat, labels=labels, zero_division=0, sample_weight=w)
    # [[tn, fp], [fn, tp]] per class; the (weighted) support is fn + tp.
    mcm = skm.multilabel_confusion_matrix(y, yhat, labels=labels, sample_weight=w).astype(float)
    tn, fp, s = mcm[:, 0, 0], mcm[:, 0, 1], mcm[:, 1, 0] + mcm[:, 1, 1]
    fpr = fp / (fp + tn)
    per_class = {}
    for k, lab in enumerate(labels):
        ovr_mcc = skm.matthews_corrcoef(np.asarray(y) == lab, np.asarray(yhat) == lab, sample_weight=w)
        per_class[lab] = {"precision": p[k], "recall": r[k], "f1": f[k], "tp_rate": r[k], "fp_rate": fpr[k],
                          "matthews_corrcoef": ovr_mcc, "support": float(s[k])}
    n = float(len(y)) if w is None else float(np.sum(w))
    avg = {}
    for name, how in (("micro_avg", "micro"), ("macro_avg", "macro"), ("weighted_avg", "weighted")):
        ap, ar, af, _ = skm.precision_recall_fscore_support(y, yhat, labels=labels, average=how, zero_division=0,
                                                            sample_weight=w)
        if how == "micro":
            afpr = fp.sum() / (fp.sum() + tn.sum())
        elif how == "macro":
            afpr = fpr.mean()
        else:
            afpr = float(np.average(fpr, weights=s))
        avg[name] = {"precision": ap, "recall": ar, "f1": af, "fp_rate": afpr, "support": n}
    return per_class, avg


def confusion(y, yhat, labels, w=None):
    cm = skm.confusion_matrix(y, yhat, labels=labels, sample_weight=w)  # rows = true class (sklearn's convention)
    return {"labels": labels, "rows": "actual", "columns": "predicted",
            "matrix": cm.astype(float).tolist(),
            "normalized": skm.confusion_matrix(y, yhat, labels=labels, normalize="true", sample_weight=w).tolist()}


NO_RANKING = "hard predictions give no ranking: ROC and PR areas need scores or class probabilities"


def caret_overall(y, yhat, labels, w=None):
    """What R's caret prints beside accuracy: the no-information rate (largest actual class share),
    the one-sided exact binomial p-value of accuracy > NIR (scipy's binomtest; whole-number weights
    as counts) and R's mcnemar.test of the matrix (McNemar with R's continuity correction for 2 x 2,
    dropped when the off-diagonal cells are equal; Bowker for K x K; chi2.sf)."""
    cm = skm.confusion_matrix(y, yhat, labels=labels, sample_weight=w).astype(float)
    n = cm.sum()
    nir = cm.sum(axis=1).max() / n
    out = {"no_information_rate": nir,
           "accuracy_p_value": scipy.stats.binomtest(int(round(np.trace(cm))), int(round(n)), nir,
                                                     alternative="greater").pvalue}
    K, stat, undefined = len(labels), 0.0, False
    for i in range(K):
        for j in range(i + 1, K):
            a, b = cm[i, j], cm[j, i]
            if a + b == 0:
                undefined = True
                continue
            d = abs(a - b) - (1.0 if K == 2 and a != b else 0.0)
            stat += d * d / (a + b)
    if undefined:
        out["mcnemar_p_value"] = None
        out["mcnemar_p_value_undefined"] = "a pair of classes is never confused either way: its term is 0/0"
    else:
        out["mcnemar_p_value"] = scipy.stats.chi2.sf(stat, K * (K - 1) // 2)
    return out


def caret_by_class(y, yhat, labels, w=None):
    """caret's byClass statistics of each class against the rest, from scikit-learn's functions."""
    yt, yp = np.asarray(y), np.asarray(yhat)
    out = {}
    for c in labels:
        sens = skm.recall_score(yt == c, yp == c, sample_weight=w)
        spec = skm.recall_score(yt != c, yp != c, sample_weight=w)
        out[c] = {"sensitivity": sens, "specificity": spec,
                  "ppv": skm.precision_score(yt == c, yp == c, sample_weight=w),
                  "npv": skm.precision_score(yt != c, yp != c, sample_weight=w),
                  "prevalence": np.average(yt == c, weights=w),
                  "detection_rate": np.average((yt == c) & (yp == c), weights=w),
                  "detection_prevalence": np.average(yp == c, weights=w),
                  "balanced_accuracy": (sens + spec) / 2}
    return out


def class_areas(y, scores, labels):
    """Per-class ROC AUC and average precision of each class against the rest (scores: n x K in
    label order), and their macro / support-weighted means; None (with assay's reason) without
    scores."""
    yt = np.asarray(y)
    if scores is None:
        none = {"roc_auc": None, "roc_auc_undefined": NO_RANKING, "average_precision": None,
                "average_precision_undefined": NO_RANKING}
        first = f'class "{labels[0]}": {NO_RANKING}'
        avg = {"roc_auc": None, "roc_auc_undefined": first, "average_precision": None,
               "average_precision_undefined": first}
        return {c: dict(none) for c in labels}, avg, dict(avg)
    Y = np.stack([(yt == c).astype(int) for c in labels], axis=1)
    per = {c: {"roc_auc": skm.roc_auc_score(Y[:, k], scores[:, k]),
               "average_precision": skm.average_precision_score(Y[:, k], scores[:, k])}
           for k, c in enumerate(labels)}
    macro = {"roc_auc": skm.roc_auc_score(Y, scores, average="macro"),
             "average_precision": skm.average_precision_score(Y, scores, average="macro")}
    weighted = {"roc_auc": skm.roc_auc_score(Y, scores, average="weighted"),
                "average_precision": skm.average_precision_score(Y, scores, average="weighted")}
    return per, macro, weighted


def best_thresholds(yb, score):
    """Youden's J and max-F1 thresholds from scikit-learn's own sweep (roc_curve with every point):
    the first maximum in order of decreasing threshold, i.e. ties go to the highest threshold."""
    fpr, tpr, thr = skm.roc_curve(yb, score, drop_intermediate=False)
    P, N = yb.sum(), (~yb).sum()
    tps, fps = np.rint(tpr * P), np.rint(fpr * N)
    j = tps / P - fps / N
    f1 = 2 * tps / (2 * tps + fps + (P - tps))
    return {"best_threshold_youden": float(thr[np.argmax(j)]), "best_threshold_f1": float(thr[np.argmax(f1)])}


def classification(y, yhat, labels, extra, w=None, scores=None):
    e = {"confusion_matrix": confusion(y, yhat, labels, w)}
    e.update(extra)
    e.update(caret_overall(y, yhat, labels, w))
    pc, avg = per_class_block(y, yhat, labels, w)
    areas, macro, weighted = class_areas(y, scores, labels)
    for c, d in caret_by_class(y, yhat, labels, w).items():
        pc[c].update(d)
        pc[c].update(areas[c])
        pc[c]["support"] = pc[c].pop("support")  # last, as assay writes it
    avg["macro_avg"].update(macro)
    avg["weighted_avg"].update(weighted)
    for name in ["macro_avg", "weighted_avg"]:
        avg[name]["support"] = avg[name].pop("support")
    e["per_class"] = pc
    e.update(avg)
    e["zero_division"] = "0"
    return e


def multiclass_brier(y, proba, labels):
    # Not in scikit-learn 1.2 (binary only): the mean over rows of sum_k (p_k - [y = k])^2, Brier (1950).
    onehot = (np.asarray(y)[:, None] == np.asarray(labels)[None, :]).astype(float)
    return float(np.mean(np.sum((proba - onehot) ** 2, axis=1)))


def breast_binary():
    df = read("breast_cancer_predictions.csv")
    y = df["diagnosis"].astype(str).tolist()
    score = df["p_malignant"].to_numpy()
    pos, neg = "malignant", "benign"
    yhat = [pos if s >= 0.5 else neg for s in score]
    labels = [neg, pos]
    tn, fp, fn, tp = skm.confusion_matrix(y, yhat, labels=labels).ravel().astype(float)
    yb = np.asarray(y) == pos
    extra = {
        "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "accuracy": skm.accuracy_score(y, yhat),
        "error_rate": 1 - skm.accuracy_score(y, yhat),
        "precision": skm.precision_score(y, yhat, pos_label=pos),
        "recall": skm.recall_score(y, yhat, pos_label=pos),
        "specificity": skm.recall_score(y, yhat, pos_label=neg),
        "npv": skm.precision_score(y, yhat, pos_label=neg),
        "fpr": 1 - skm.recall_score(y, yhat, pos_label=neg),
        "fnr": 1 - skm.recall_score(y, yhat, pos_label=pos),
        "f1": skm.f1_score(y, yhat, pos_label=pos),
        "balanced_accuracy": skm.balanced_accuracy_score(y, yhat),
        "matthews_corrcoef": skm.matthews_corrcoef(y, yhat),
        "cohen_kappa": skm.cohen_kappa_score(y, yhat),
        "prevalence": float(np.mean(yb)),
        "log_loss": skm.log_loss(yb, score),
        "brier_score_loss": skm.brier_score_loss(yb, score),
        "roc_auc": skm.roc_auc_score(yb, score),
        "average_precision": skm.average_precision_score(yb, score),
    }
    extra.update(best_thresholds(yb, np.asarray(score)))
    e = {"task": "binary", "n": len(y), "weighted": False, "positive_label": pos, "threshold": 0.5}
    # The per-class areas: "malignant" ranked by the score, "benign" by -score (assay's rule).
    e.update(classification(y, yhat, labels, extra, scores=np.stack([-score, score], axis=1)))
    return ["examples/breast_cancer_predictions.csv", "--label", "diagnosis", "--score", "p_malignant",
            "--pos-label", "malignant"], e


def breast_weighted():
    """Binary from the predicted-class column, every case weighted by its `id` (1..569)."""
    df = read("breast_cancer_predictions.csv")
    y, yhat = df["diagnosis"].astype(str).tolist(), df["predicted"].astype(str).tolist()
    w = df["id"].to_numpy().astype(float)
    pos, neg = "malignant", "benign"
    labels = [neg, pos]
    tn, fp, fn, tp = skm.confusion_matrix(y, yhat, labels=labels, sample_weight=w).ravel().astype(float)
    acc = skm.accuracy_score(y, yhat, sample_weight=w)
    extra = {
        "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "accuracy": acc,
        "error_rate": 1 - acc,
        "precision": skm.precision_score(y, yhat, pos_label=pos, sample_weight=w),
        "recall": skm.recall_score(y, yhat, pos_label=pos, sample_weight=w),
        "specificity": skm.recall_score(y, yhat, pos_label=neg, sample_weight=w),
        "npv": skm.precision_score(y, yhat, pos_label=neg, sample_weight=w),
        "fpr": 1 - skm.recall_score(y, yhat, pos_label=neg, sample_weight=w),
        "fnr": 1 - skm.recall_score(y, yhat, pos_label=pos, sample_weight=w),
        "f1": skm.f1_score(y, yhat, pos_label=pos, sample_weight=w),
        "balanced_accuracy": skm.balanced_accuracy_score(y, yhat, sample_weight=w),
        "matthews_corrcoef": skm.matthews_corrcoef(y, yhat, sample_weight=w),
        "cohen_kappa": skm.cohen_kappa_score(y, yhat, sample_weight=w),
        "prevalence": float(np.average(np.asarray(y) == pos, weights=w)),
    }
    e = {"task": "binary", "n": len(y), "weighted": True, "total_weight": float(np.sum(w)), "positive_label": pos}
    e.update(classification(y, yhat, labels, extra, w))
    return ["examples/breast_cancer_predictions.csv", "--label", "diagnosis", "--pred", "predicted",
            "--pos-label", "malignant", "--weight", "id"], e


def iris_common(y, yhat, labels):
    return {
        "accuracy": skm.accuracy_score(y, yhat),
        "error_rate": 1 - skm.accuracy_score(y, yhat),
        "balanced_accuracy": skm.balanced_accuracy_score(y, yhat),
        "matthews_corrcoef": skm.matthews_corrcoef(y, yhat),
        "cohen_kappa": skm.cohen_kappa_score(y, yhat),
    }


def iris_pred():
    df = read("iris_predictions.csv")
    y, yhat = df["species"].tolist(), df["predicted"].tolist()
    labels = sorted(set(y) | set(yhat))
    e = {"task": "multiclass", "n": len(y), "weighted": False}
    e.update(classification(y, yhat, labels, iris_common(y, yhat, labels)))
    return ["examples/iris_predictions.csv", "--label", "species", "--pred", "predicted"], e


def iris_proba():
    df = read("iris_predictions.csv")
    labels = ["setosa", "versicolor", "virginica"]
    y = df["species"].tolist()
    proba = df[labels].to_numpy()
    yhat = [labels[k] for k in np.argmax(proba, axis=1)]  # first of equal maxima
    extra = iris_common(y, yhat, labels)
    extra["log_loss"] = skm.log_loss(y, proba, labels=labels)
    extra["brier_score_loss"] = multiclass_brier(y, proba, labels)
    extra["top_k_accuracy"] = skm.top_k_accuracy_score(y, proba, k=2, labels=labels)
    for mc in ["ovr", "ovo"]:
        for how in ["macro", "weighted"]:
            extra[f"roc_auc_{mc}_{how}"] = skm.roc_auc_score(y, proba, multi_class=mc, average=how, labels=labels)
    e = {"task": "multiclass", "n": len(y), "weighted": False}
    e.update(classification(y, yhat, labels, extra, scores=proba))
    return ["examples/iris_predictions.csv", "--label", "species", "--proba", "setosa", "versicolor", "virginica"], e


def diabetes_regression():
    df = read("diabetes_predictions.csv")
    y, yhat = df["progression"].to_numpy(), df["predicted"].to_numpy()
    # MSPE and RMSPE are not in scikit-learn: mean(((y - yhat) / y)^2) and its square root (no zero targets here).
    mspe = float(np.mean(((y - yhat) / y) ** 2))
    e = {
        "task": "regression", "n": len(y), "weighted": False,
        "mean_absolute_error": skm.mean_absolute_error(y, yhat),
        "mean_squared_error": skm.mean_squared_error(y, yhat),
        "root_mean_squared_error": skm.mean_squared_error(y, yhat, squared=False),
        "mean_absolute_percentage_error": skm.mean_absolute_percentage_error(y, yhat),
        "mean_squared_percentage_error": mspe,
        "root_mean_squared_percentage_error": float(np.sqrt(mspe)),
        "r2": skm.r2_score(y, yhat),
        "explained_variance": skm.explained_variance_score(y, yhat),
        "median_absolute_error": skm.median_absolute_error(y, yhat),
        "max_error": float(skm.max_error(y, yhat)),
        "mean_poisson_deviance": skm.mean_poisson_deviance(y, yhat),
        "mean_gamma_deviance": skm.mean_gamma_deviance(y, yhat),
    }
    return ["examples/diabetes_predictions.csv", "--task", "regression", "--label", "progression", "--pred",
            "predicted"], e


def plain(x):
    """numpy scalars and arrays to JSON types; floats keep every digit (json uses repr)."""
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, (np.floating, float)):
        return float(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.bool_,)):
        return bool(x)
    return x


def main():
    cases = {"breast_binary": breast_binary, "breast_weighted": breast_weighted, "iris_pred": iris_pred, "iris_proba": iris_proba,
             "diabetes_regression": diabetes_regression}
    out_dir = os.path.join(HERE, "expected")
    os.makedirs(out_dir, exist_ok=True)
    for name, make in cases.items():
        args, expected = make()
        doc = {"generator": "tests/cli/make_expected.py", "sklearn_version": sklearn.__version__,
               "numpy_version": np.__version__, "pandas_version": pd.__version__, "scipy_version": scipy.__version__,
               "args": ["report"] + args + ["--format", "json"], "expected": plain(expected)}
        with open(os.path.join(out_dir, name + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print(f"wrote expected/{name}.json", file=sys.stderr)


if __name__ == "__main__":
    main()
