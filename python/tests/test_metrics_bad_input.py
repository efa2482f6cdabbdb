"""The odd inputs of issue 28 that assay.metrics once answered differently from scikit-learn, each
called on both libraries (the comparison of test_metrics_fuzz: same answer, type, dtype, bits,
warning categories; or the same exception class and message). The fuzzer may not draw each of
them in its bounded CI run; these always run."""

import numpy as np
import pytest

from test_metrics_fuzz import compare

BIG = 2**63


def a(*values, dtype=None):
    return ("numpy", np.array(values, dtype=dtype))


def lst(*values):
    return ("list", np.array(values))


YT, YS = lst(0, 1, 1, 0), lst(0.1, 0.8, 0.3, 0.6)
ML_T = ("numpy", np.array([[0, 1], [1, 0]]))
ML_P = ("numpy", np.array([[0, 1], [1, 1]]))
TWO_T = ("numpy", np.array([[2, 3], [3, 2], [3, 3]]))
TWO_P = ("numpy", np.array([[2, 3], [3, 3], [2, 2]]))

CASES = [
    # uint64 labels at and above 2**63 are two classes, not one
    ("confusion_matrix", (a(BIG, BIG + 1, dtype=np.uint64), a(BIG, BIG + 1, dtype=np.uint64)), {}),
    ("matthews_corrcoef", (a(BIG, BIG + 1, BIG, dtype=np.uint64), a(BIG, BIG + 1, BIG + 1, dtype=np.uint64)), {}),
    ("precision_recall_fscore_support", (a(0, 0, 0, dtype=np.int8), a(BIG, BIG, BIG + 1, dtype=np.uint64)), {}),
    # '0'/'1' strings against integer pos_label / labels=
    ("f1_score", (lst("0", "1", "1"), lst("0", "1", "0")), {}),
    ("precision_recall_fscore_support", (a(["0"], ["0"]), a(["1"], ["0"])), {"labels": [0, 1]}),
    ("confusion_matrix", (lst("0", "1", "1"), lst("0", "1", "0")), {"labels": [0, 1]}),
    ("cohen_kappa_score", (a(1, 1, 2, 2), a(1, 2, 2, 1)), {"labels": ["0", "1"]}),
    # weights near 1e308
    ("accuracy_score", (lst(0, 1, 1), lst(0, 1, 0)), {"sample_weight": np.array([1e308] * 3)}),
    ("f1_score", (lst(0, 1, 1), lst(0, 1, 0)), {"sample_weight": np.array([1e308] * 3)}),
    ("roc_auc_score", (lst(0, 1, 1), lst(0.1, 0.8, 0.3)), {"sample_weight": np.array([1e308] * 3)}),
    # raises where scikit-learn answers
    ("average_precision_score",
     (("list", np.array([[0, 1], [1, 0]])), ("list", np.array([[0.2, 0.8], [0.7, 0.1]]))), {}),
    ("f1_score", (ML_T, ML_P), {"labels": [], "average": "macro"}),
    ("multilabel_confusion_matrix", (ML_T, ML_P), {"labels": []}),
    ("log_loss", (ML_T, ("numpy", np.array([[0.2, 0.8], [0.7, 0.3]]))), {}),
    ("brier_score_loss", (ML_T, ("numpy", np.array([[0.2, 0.8], [0.7, 0.3]]))), {}),
    ("f1_score", (TWO_T, TWO_P), {"average": "macro"}),
    ("accuracy_score", (TWO_T, TWO_P), {}),
    ("hamming_loss", (TWO_T, TWO_P), {"sample_weight": [1.0, 2.0, 3.0]}),
    ("classification_report", (TWO_T, TWO_P), {}),
    ("label_ranking_average_precision_score", (TWO_T, ("numpy", np.array([[0.2, 0.3], [0.3, 0.1], [0.5, 0.5]]))),
     {}),
    # answers where scikit-learn raises
    ("roc_curve", (YT, YS), {"drop_intermediate": "yes"}),
    ("r2_score", (lst(1.0, 2, 3), lst(1, 2, 2.5)), {"force_finite": "x"}),
    ("explained_variance_score", (lst(1.0, 2, 3), lst(1, 2, 2.5)), {"force_finite": 1}),
    ("accuracy_score", (lst(0, 1), lst(0, 1)), {"normalize": "x"}),
    ("top_k_accuracy_score", (lst(0, 1, 2), ("numpy", np.eye(3))), {"k": 0}),
    ("top_k_accuracy_score", (lst(0, 1, 2), ("numpy", np.eye(3))), {"k": "a"}),
    ("brier_score_loss", (YT, YS), {"scale_by_half": "x"}),
    ("roc_curve", (YT, YS), {"pos_label": [1]}),
    ("roc_auc_score", (YT, YS), {"sample_weight": 2.0}),
    ("log_loss", (YT, YS), {"sample_weight": 2.0}),
    ("mean_absolute_error", (lst(1.0, 2.0), lst(1.0, 3.0)), {"sample_weight": np.float64(0.5)}),
    ("log_loss", (YT, YS), {"sample_weight": np.array([1, np.nan, 1, 1])}),
    ("brier_score_loss", (YT, YS), {"sample_weight": np.array([1, np.inf, 1, 1])}),
    ("accuracy_score", (lst(b"a", b"b"), lst(b"a", b"a")), {}),
    ("log_loss", (lst(1, 0), lst(0.2, 0.7)), {"labels": [b"a", b"b"]}),
    ("log_loss", (("list", np.array([0, "a", 1], dtype=object)), lst(0.1, 0.2, 0.3)), {}),
    ("log_loss", (lst(0.5, 0.2, 1.0), lst(0.1, 0.2, 0.3)), {}),
    ("max_error", (lst("1", "2"), lst("1", "3")), {}),
    ("median_absolute_error", (lst("1", "2"), lst("1", "3")), {}),
    ("roc_curve", (lst(0, 1), lst("0.1", "0.3")), {}),
    ("precision_recall_curve", (lst(0, 1), lst("0.1", "0.3")), {}),
    ("roc_auc_score", (lst(0, 1), lst("0.1", "0.3")), {}),
    ("average_precision_score", (lst(0, 1), ("numpy", np.array([0.1, np.nan], dtype=object))), {}),
    ("v_measure_score", (lst(0, 1, 1), lst(0, 1, 0)), {"beta": np.inf}),
    # messages and their order
    ("mean_squared_error", (("scalar", np.array([1.0])), lst(1.0)), {}),
    ("roc_auc_score", (YT, YS), {"max_fpr": "a", "multi_class": "x"}),
    ("top_k_accuracy_score", (a(dtype=bool), ("numpy", np.zeros((0, 2)))), {}),
]


@pytest.mark.parametrize("name, args, kwargs", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_same_as_scikit_learn(name, args, kwargs):
    compare(name, args, kwargs)
