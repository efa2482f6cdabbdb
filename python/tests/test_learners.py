"""assay.model_selection's comparisons of scikit-learn estimators: compare_learners, bias_variance,
learning_curve and lesion, against naive references of the published formulas (Nadeau & Bengio
2003, Dietterich 1998, Alpaydin 1999, mlxtend's bias_variance_decomp), SciPy's distributions and
scikit-learn's own cross_val_score / learning_curve on the same splits."""

import numpy as np
import pytest
from scipy import stats as sps
from sklearn import model_selection as skms
from sklearn.datasets import make_classification, make_regression
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from assay import _core
from assay import model_selection as ms


@pytest.fixture
def clf_data():
    return make_classification(n_samples=120, n_features=6, n_informative=3, random_state=0)


def corrected_t_reference(a, b, n_train, n_test, level=0.95):
    """Nadeau & Bengio (2003): t = mean(d) / sqrt((1/k + n_test/n_train) s^2), df = k - 1."""
    d = np.asarray(a) - np.asarray(b)
    k = d.size
    se = np.sqrt((1 / k + n_test / n_train) * np.var(d, ddof=1))
    t = d.mean() / se
    q = sps.t.ppf(0.5 + level / 2, k - 1)
    return t, 2 * sps.t.sf(abs(t), k - 1), (d.mean() - q * se, d.mean() + q * se)


def test_corrected_t_equals_the_formula_on_scikit_learn_scores(clf_data):
    X, y = clf_data
    a, b = LogisticRegression(), DecisionTreeClassifier(random_state=0, max_depth=2)
    cv = skms.KFold(6, shuffle=True, random_state=1)
    r = ms.compare_learners(a, b, X, y, cv=cv)
    splits = list(cv.split(X, y))
    sa = skms.cross_val_score(a, X, y, cv=splits)
    sb = skms.cross_val_score(b, X, y, cv=splits)
    np.testing.assert_array_equal(r.scores_a, sa)
    np.testing.assert_array_equal(r.scores_b, sb)
    t, p, ci = corrected_t_reference(sa, sb, 100, 20)
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.pvalue == pytest.approx(p, rel=1e-10)
    assert r.ci == pytest.approx(ci, rel=1e-10)
    assert r.df == 5 and r.n_train == 100 and r.n_test == 20
    assert r.difference == pytest.approx(np.mean(sa - sb))


def test_paired_t_equals_scipy(clf_data):
    X, y = clf_data
    a, b = LogisticRegression(C=0.01), DecisionTreeClassifier(random_state=0)
    r = ms.compare_learners(a, b, X, y, cv=ms.StratifiedKFold(5), test="paired_t", scoring="balanced_accuracy")
    ref = sps.ttest_rel(r.scores_a, r.scores_b)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    splits = list(ms.StratifiedKFold(5).split(X, y))
    np.testing.assert_array_equal(r.scores_a, skms.cross_val_score(a, X, y, cv=splits, scoring="balanced_accuracy"))


@pytest.mark.parametrize("test", ["5x2cv_t", "5x2cv_f"])
def test_5x2cv_equals_dietterich_and_alpaydin(clf_data, test):
    X, y = clf_data
    a, b = LogisticRegression(), DecisionTreeClassifier(random_state=0)
    r = ms.compare_learners(a, b, X, y, test=test, random_state=4)
    # The folds are assay's RepeatedStratifiedKFold(2 x 5) for the seed.
    splits = list(ms.RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=4).split(X, y))
    np.testing.assert_array_equal(r.scores_a.ravel(), skms.cross_val_score(a, X, y, cv=splits))
    p = r.scores_a - r.scores_b
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    if test == "5x2cv_t":  # Dietterich (1998), eq. as in mlxtend's paired_ttest_5x2cv
        t = p[0, 0] / np.sqrt(s2.sum() / 5)
        assert r.statistic == pytest.approx(t, rel=1e-12)
        assert r.pvalue == pytest.approx(2 * sps.t.sf(abs(t), 5), rel=1e-10)
    else:  # Alpaydin (1999), as mlxtend's combined_ftest_5x2cv
        f = (p**2).sum() / (2 * s2.sum())
        assert r.statistic == pytest.approx(f, rel=1e-12)
        assert r.pvalue == pytest.approx(sps.f.sf(f, 10, 5), rel=1e-10)
    assert r.scores_a.shape == (5, 2)


@pytest.mark.parametrize("test", ["corrected_t", "paired_t", "5x2cv_t", "5x2cv_f"])
def test_obvious_winner_and_identical_estimators(test):
    X, y = make_classification(n_samples=400, n_features=5, n_informative=4, n_redundant=0, class_sep=2.0,
                               random_state=3)
    cv = None if test.startswith("5x2") else ms.RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    good, dummy = LogisticRegression(), DummyClassifier(strategy="most_frequent")
    r = ms.compare_learners(good, dummy, X, y, cv=cv, test=test, random_state=0)
    assert r.difference > 0.3
    assert r.pvalue < 0.01
    same = ms.compare_learners(good, LogisticRegression(), X, y, cv=cv, test=test, random_state=0)
    assert same.statistic == 0 and same.pvalue == 1  # documented: identical scores give p = 1


def test_results_do_not_depend_on_n_jobs(clf_data):
    X, y = clf_data
    a, b = LogisticRegression(), DecisionTreeClassifier(random_state=0)
    r1 = ms.compare_learners(a, b, X, y, test="5x2cv_f", random_state=9, n_jobs=1)
    r2 = ms.compare_learners(a, b, X, y, test="5x2cv_f", random_state=9, n_jobs=2)
    assert (r1.statistic, r1.pvalue) == (r2.statistic, r2.pvalue)
    bv1 = ms.bias_variance(DecisionTreeClassifier(random_state=0), X[:80], y[:80], X[80:], y[80:], n_rounds=10,
                           random_state=3, n_jobs=1)
    bv2 = ms.bias_variance(DecisionTreeClassifier(random_state=0), X[:80], y[:80], X[80:], y[80:], n_rounds=10,
                           random_state=3, n_jobs=2)
    assert tuple(bv1) == tuple(bv2)


def test_compare_learners_bad_input(clf_data):
    X, y = clf_data
    a = LogisticRegression()
    with pytest.raises(ValueError, match="test is 'wilcoxon'"):
        ms.compare_learners(a, a, X, y, test="wilcoxon")
    with pytest.raises(ValueError, match="y has 119 entries but X has 120 rows"):
        ms.compare_learners(a, a, X, y[1:])
    with pytest.raises(ValueError, match="5x2cv tests make their own"):
        ms.compare_learners(a, a, X, y, test="5x2cv_t", cv=5)
    with pytest.raises(ValueError, match="cv is 1"):
        ms.compare_learners(a, a, X, y, cv=1)
    with pytest.raises(ValueError, match="random_state is -1"):
        ms.compare_learners(a, a, X, y, test="5x2cv_t", random_state=-1)


# ---- bias-variance -------------------------------------------------------------------------------


def mlxtend_decomposition(preds, y, loss):
    """mlxtend's bias_variance_decomp formulas on rounds x n predictions (main prediction: mean for
    mse; the most frequent label for 0-1, ties to the smallest label as np.argmax(np.bincount))."""
    preds, y = np.asarray(preds), np.asarray(y)
    if loss == "mse":
        main = preds.mean(axis=0)
        return (((preds - y) ** 2).mean(), ((main - y) ** 2).mean(), ((main - preds) ** 2).mean())
    main = np.array([np.argmax(np.bincount(col)) for col in preds.T])
    return ((preds != y).mean(), (main != y).mean(), (main != preds).mean())


@pytest.mark.parametrize("k", [0, 2, 3, 7])
def test_decomposition_kernel_equals_the_formulas(rng, k):
    for rounds, n in ((2, 1), (4, 9), (25, 40)):
        if k:
            preds = rng.integers(0, k, (rounds, n))  # small k and even rounds: many ties for the mode
            y = rng.integers(0, k, n)
        else:
            preds = np.round(rng.normal(size=(rounds, n)), 1)
            y = np.round(rng.normal(size=n), 1)
        d = _core.bias_variance_decompose(np.ascontiguousarray(preds, dtype=np.float64).ravel(), rounds,
                                          np.ascontiguousarray(y, dtype=np.float64), k)
        ref = mlxtend_decomposition(preds, y, "0-1" if k else "mse")
        assert (d["expected_loss"], d["bias"], d["variance"]) == pytest.approx(ref, rel=1e-12, abs=1e-15)
        assert d["net_variance"] == pytest.approx(d["expected_loss"] - d["bias"] if k else d["variance"], abs=1e-12)


def test_decomposition_kernel_bad_input():
    with pytest.raises(ValueError, match=r"predictions\[1\] is 3; a class index"):
        _core.bias_variance_decompose(np.array([0.0, 3.0, 1.0, 0.0]), 2, np.array([0.0, 1.0]), 2)
    with pytest.raises(ValueError, match="rounds is 1"):
        _core.bias_variance_decompose(np.array([0.0, 1.0]), 1, np.array([0.0, 1.0]), 2)
    with pytest.raises(ValueError, match="predictions has 3 values"):
        _core.bias_variance_decompose(np.array([0.0, 1.0, 1.0]), 2, np.array([0.0, 1.0]), 0)


@pytest.mark.parametrize("loss", ["0-1", "mse"])
def test_bias_variance_with_scikit_learn_estimators(loss):
    if loss == "0-1":
        X, y = make_classification(n_samples=150, n_features=5, random_state=2)
        y = np.array(["no", "yes"])[y]  # string labels
        est = DecisionTreeClassifier(random_state=0)
    else:
        X, y = make_regression(n_samples=150, n_features=5, noise=10, random_state=2)
        est = DecisionTreeRegressor(random_state=0, max_depth=4)
    Xtr, ytr, Xte, yte = X[:100], y[:100], X[100:], y[100:]
    r = ms.bias_variance(est, Xtr, ytr, Xte, yte, n_rounds=30, random_state=5)
    assert r.loss == loss and r.predictions.shape == (30, 50)
    # Each round's predictions are those of a clone fit on assay's bootstrap sample for the seed.
    samples = _core.bias_variance_samples(100, 30, 5)
    for i in (0, 29):
        assert samples[i].shape == (100,) and len(np.unique(samples[i])) < 100
        np.testing.assert_array_equal(r.predictions[i], est.fit(Xtr[samples[i]], ytr[samples[i]]).predict(Xte))
    if loss == "0-1":
        labels, codes = np.unique(np.concatenate([yte, r.predictions.ravel()]), return_inverse=True)
        ref = mlxtend_decomposition(codes[50:].reshape(30, 50), codes[:50], loss)
    else:
        ref = mlxtend_decomposition(r.predictions, yte, loss)
        assert r.expected_loss == pytest.approx(r.bias + r.variance, rel=1e-12)
    assert tuple(r) == pytest.approx(ref, rel=1e-12)


def test_bias_variance_samples_are_uniform_bootstraps():
    # Each row of n = 50 appears Binomial(50, 1/50) times per sample; over 400 samples its mean
    # count is 1 with sd sqrt(0.98 / 400) = 0.0495: |mean - 1| < 0.25 for every row fails with
    # probability < 50 * 4e-7.
    s = np.stack(_core.bias_variance_samples(50, 400, 11))
    counts = np.stack([np.bincount(r, minlength=50) for r in s])
    assert np.all(np.abs(counts.mean(axis=0) - 1) < 0.25)
    assert not np.array_equal(s[0], s[1])
    np.testing.assert_array_equal(s, np.stack(_core.bias_variance_samples(50, 400, 11)))


def test_bias_variance_bad_input():
    X, y = make_regression(n_samples=20, n_features=2, random_state=0)
    with pytest.raises(ValueError, match="n_rounds is 1"):
        ms.bias_variance(LinearRegression(), X, y, X, y, n_rounds=1)
    with pytest.raises(ValueError, match="loss is 'hinge'"):
        ms.bias_variance(LinearRegression(), X, y, X, y, loss="hinge")
    with pytest.raises(ValueError, match="y has 19 entries"):
        ms.bias_variance(LinearRegression(), X, y[1:], X, y)


# ---- learning curve and lesion ------------------------------------------------------------------


def test_learning_curve_equals_scikit_learn_with_corrected_intervals(clf_data):
    X, y = clf_data
    est = LogisticRegression()
    cv = ms.StratifiedKFold(4, shuffle=True, random_state=2)
    splits = list(cv.split(X, y))
    ours = ms.learning_curve(est, X, y, cv=splits, train_sizes=[0.2, 0.5, 1.0], level=0.9)
    sizes, train, test = skms.learning_curve(est, X, y, cv=splits, train_sizes=[0.2, 0.5, 1.0])
    np.testing.assert_array_equal(ours.train_sizes, sizes)
    np.testing.assert_array_equal(ours.train_scores, train)
    np.testing.assert_array_equal(ours.test_scores, test)
    for i, m in enumerate(sizes):
        _, _, (lo, hi) = corrected_t_reference(test[i], np.zeros(4), m, 30, level=0.9)
        assert tuple(ours.test_ci[i]) == pytest.approx((lo, hi), rel=1e-10)
        assert ours.test_ci[i, 0] <= ours.test_mean[i] <= ours.test_ci[i, 1]
    with pytest.raises(ValueError, match="train_sizes"):
        ms.learning_curve(est, X, y, cv=splits, train_sizes=[0.0, 0.5])


def test_lesion_equals_cross_validation_without_the_columns():
    X, y = make_regression(n_samples=90, n_features=4, n_informative=2, noise=5, random_state=1, shuffle=False)
    est = Ridge()
    cv = ms.KFold(5, shuffle=True, random_state=0)
    r = ms.lesion(est, X, y, {"informative": [0, 1], "noise": [3]}, cv=cv)
    splits = list(cv.split(X))
    full = skms.cross_val_score(est, X, y, cv=splits)
    assert r.full == pytest.approx(full.mean(), rel=1e-12)
    for name, cols in (("informative", [0, 1]), ("noise", [3])):
        less = skms.cross_val_score(est, np.delete(X, cols, axis=1), y, cv=splits)
        t, p, ci = corrected_t_reference(full, less, 72, 18)
        g = r.groups[name]
        assert g.drop == pytest.approx(np.mean(full - less), rel=1e-12)
        assert (g.statistic, g.pvalue) == pytest.approx((t, p), rel=1e-10)
        assert g.ci == pytest.approx(ci, rel=1e-10)
    assert r.groups["informative"].drop > 0.5 and r.groups["informative"].pvalue < 0.01


def test_lesion_with_a_dataframe_and_bad_columns():
    pd = pytest.importorskip("pandas")
    X, y = make_regression(n_samples=60, n_features=3, random_state=1)
    df = pd.DataFrame(X, columns=["a", "b", "c"])
    r = ms.lesion(Ridge(), df, y, {"ab": ["a", "b"]}, cv=3)
    splits = list(skms.KFold(3).split(X))
    less = skms.cross_val_score(Ridge(), X[:, [2]], y, cv=splits)
    assert r.groups["ab"].lesioned == pytest.approx(less.mean(), rel=1e-12)
    with pytest.raises(ValueError, match="column 'z' is not a column of X"):
        ms.lesion(Ridge(), df, y, {"z": ["z"]})
    with pytest.raises(ValueError, match="column 5 is not a column index"):
        ms.lesion(Ridge(), X, y, {"z": [5]})
