"""assay.stats.two_proportions against statsmodels and SciPy in the same run."""

import math

import numpy as np
import pytest
import scipy.stats as st
from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

from assay import stats

rng = np.random.default_rng(14)
CASES = [(30, 200, 45, 210), (0, 20, 5, 20), (20, 20, 3, 25), (7, 1000, 19, 900), (12.5, 40.25, 8.75, 39.5)]
for _ in range(20):
    n1, n2 = int(rng.integers(1, 300)), int(rng.integers(1, 300))
    CASES.append((int(rng.integers(0, n1 + 1)), n1, int(rng.integers(0, n2 + 1)), n2))
SM_ALT = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}


@pytest.mark.parametrize("x1,n1,x2,n2", CASES)
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_matches_statsmodels(x1, n1, x2, n2, alternative):
    r = stats.two_proportions(x1, n1, x2, n2, level=0.9, alternative=alternative)
    for method, got in (("wald", r.wald_ci), ("newcomb", r.newcombe_ci)):
        want = confint_proportions_2indep(x1, n1, x2, n2, method=method, compare="diff", alpha=0.1)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    assert r.ci == r.newcombe_ci
    with np.errstate(all="ignore"):
        z, p = proportions_ztest(np.array([x1, x2], float), np.array([n1, n2], float), alternative=SM_ALT[alternative])
    if math.isnan(z):
        assert math.isnan(r.statistic) and r.z_test_undefined
    else:
        assert r.statistic == pytest.approx(z, rel=1e-12)
        assert r.pvalue == pytest.approx(p, rel=1e-10, abs=1e-15)
    if float(x1).is_integer() and float(x2).is_integer():
        odds, pf = st.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]], alternative=alternative)
        assert r.fisher_pvalue == pytest.approx(pf, rel=1e-9, abs=1e-14)
    else:
        assert math.isnan(r.fisher_pvalue)


def test_bad_input():
    with pytest.raises(ValueError, match=r"compare_two_proportions: x1 must be in \[0, n1\] = \[0, 2\]; got 3"):
        stats.two_proportions(3, 2, 1, 2)
    with pytest.raises(ValueError, match="level is 1.0; it must be in"):
        stats.two_proportions(1, 2, 1, 2, level=1)
    with pytest.raises(ValueError, match="ci_method is 'score'"):
        stats.two_proportions(1, 2, 1, 2, ci_method="score")
