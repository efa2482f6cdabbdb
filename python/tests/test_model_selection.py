"""assay.model_selection: scikit-learn's folds where the schemes agree, `assay split`'s folds for
the same seed, and use inside scikit-learn's cross_validate and GridSearchCV."""

import csv
import io
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from sklearn import model_selection as skms
from sklearn.linear_model import LogisticRegression

from assay import model_selection as ms


def folds(splitter, X, y=None, groups=None):
    return [(list(tr), list(te)) for tr, te in splitter.split(X, y, groups)]


@pytest.mark.parametrize("ours,theirs,needs", [
    (ms.KFold(5), skms.KFold(5), ""),
    (ms.KFold(3), skms.KFold(3), ""),
    (ms.StratifiedKFold(4), skms.StratifiedKFold(4), "y"),
    (ms.LeaveOneOut(), skms.LeaveOneOut(), ""),
    (ms.LeavePOut(2), skms.LeavePOut(2), ""),
    (ms.LeaveOneGroupOut(), skms.LeaveOneGroupOut(), "g"),
    (ms.LeavePGroupsOut(2), skms.LeavePGroupsOut(2), "g"),
    (ms.TimeSeriesSplit(4), skms.TimeSeriesSplit(4), ""),
    (ms.TimeSeriesSplit(3, gap=2, test_size=5), skms.TimeSeriesSplit(3, gap=2, test_size=5), ""),
    (ms.TimeSeriesSplit(3, max_train_size=10), skms.TimeSeriesSplit(3, max_train_size=10), ""),
])
@pytest.mark.filterwarnings("ignore:The groups parameter is ignored")
def test_same_folds_as_scikit_learn(rng, ours, theirs, needs):
    n = 40 if not isinstance(ours, ms.LeavePOut) else 12
    X = rng.random((n, 2))
    y = np.array(["a", "b", "c"])[rng.integers(0, 3, n)]
    groups = rng.integers(0, 6, n)
    assert folds(ours, X, y, groups) == folds(theirs, X, y, groups)
    assert ours.get_n_splits(X, y, groups) == theirs.get_n_splits(X, y, groups)


def assay_cli():
    here = os.path.dirname(sys.executable)
    path = os.path.join(here, "assay")
    return path if os.path.exists(path) else shutil.which("assay")


@pytest.mark.parametrize("splitter,args", [
    (ms.KFold(5, shuffle=True, random_state=7), ["--method", "kfold", "--folds", "5", "--shuffle", "--seed", "7"]),
    (ms.StratifiedKFold(3, shuffle=True, random_state=3),
     ["--method", "stratified-kfold", "--folds", "3", "--shuffle", "--seed", "3", "--target", "y"]),
    (ms.RepeatedKFold(n_splits=3, n_repeats=2, random_state=5),
     ["--method", "repeated-kfold", "--folds", "3", "--repeats", "2", "--seed", "5"]),
    (ms.GroupKFold(3), ["--method", "group-kfold", "--folds", "3", "--group", "g"]),
])
def test_same_folds_as_assay_split(tmp_path, rng, splitter, args):
    n = 30
    y = np.array(["a", "b"])[rng.integers(0, 2, n)]
    g = rng.integers(0, 7, n)
    data = tmp_path / "data.csv"
    data.write_text("y,g,x\n" + "".join(f"{a},{b},{i}\n" for i, (a, b) in enumerate(zip(y, g))))
    out = subprocess.run([assay_cli(), "split", str(data), *args], capture_output=True, text=True, check=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    fold_columns = [c for c in rows[0] if c.startswith("fold")]
    expected = []
    for col in fold_columns:
        for f in sorted({int(r[col]) for r in rows}):
            test = [int(r["row"]) for r in rows if int(r[col]) == f]
            expected.append(([i for i in range(n) if i not in test], test))
    assert folds(splitter, np.zeros((n, 1)), y, g) == expected


def test_regression_target_is_stratified_on_quantiles(rng):
    y = rng.normal(size=100)
    X = np.zeros((100, 1))
    # The strata are 5 equal-count quantile bins of y (rank * 5 // 100, computed here independently of
    # assay); stratification puts exactly 4 of each bin's 20 values in every test fold.
    quantile_bin = np.empty(100, dtype=int)
    quantile_bin[np.argsort(y, kind="stable")] = np.arange(100) * 5 // 100
    folds_seen = 0
    for _, te in ms.StratifiedKFold(5).split(X, y):
        assert len(te) == 20
        assert np.bincount(quantile_bin[te], minlength=5).tolist() == [4, 4, 4, 4, 4]
        folds_seen += 1
    assert folds_seen == 5


def test_inside_cross_validate_and_grid_search(rng):
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + rng.normal(0, 0.5, 120) > 0).astype(int)
    cv = ms.StratifiedKFold(4, shuffle=True, random_state=0)
    res = skms.cross_validate(LogisticRegression(), X, y, cv=cv, scoring="accuracy")
    assert len(res["test_score"]) == 4 and np.all(res["test_score"] > 0.6)
    gs = skms.GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=ms.KFold(3)).fit(X, y)
    assert gs.n_splits_ == 3


def test_same_seed_same_folds_and_none_varies(rng):
    X = np.zeros((50, 1))
    a = folds(ms.KFold(5, shuffle=True, random_state=11), X)
    assert a == folds(ms.KFold(5, shuffle=True, random_state=11), X)
    np.random.seed(1)
    b = folds(ms.KFold(5, shuffle=True), X)
    np.random.seed(1)
    assert b == folds(ms.KFold(5, shuffle=True), X)


def test_bootstrap_out_of_bag(rng):
    for train, test in ms.Bootstrap(20, random_state=1).split(np.zeros((60, 1))):
        assert len(train) == 60
        assert set(test) == set(range(60)) - set(train)


def test_bad_input():
    with pytest.raises(ValueError, match="n_splits is 1; it must be a whole number >= 2"):
        ms.KFold(1)
    with pytest.raises(ValueError, match="y is None"):
        list(ms.StratifiedKFold(3).split(np.zeros((9, 1))))
    with pytest.raises(ValueError, match="groups has 3 entries but X has 9 rows"):
        list(ms.GroupKFold(3).split(np.zeros((9, 1)), groups=[1, 2, 3]))
    with pytest.raises(ValueError):
        list(ms.KFold(10).split(np.zeros((5, 1))))
