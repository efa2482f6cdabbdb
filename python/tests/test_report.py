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
