"""assay.report(..., by=...): the sliced report of the CLI (assay report --by) on arrays in memory.
Every slice's report equals assay.report on that slice's rows alone; the tests of each slice
against the rest equal statsmodels' proportions_ztest and SciPy's chi2_contingency(correction=False),
the adjusted p-values statsmodels' multipletests(method="holm")."""

import json
import subprocess

import numpy as np
import pytest
from scipy.stats import chi2_contingency
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportions_ztest

import assay
from test_report import assay_cli


def strip_source(d):
    d = json.loads(json.dumps(d))
    d["overall"].pop("source", None)
    for s in d["slices"]:
        if s["report"] is not None:
            s["report"].pop("source", None)
    return d


def data(rng, n=900):
    y = rng.integers(0, 2, n)
    country = np.array(["FR", "DE", "UK", "IT"])[rng.integers(0, 4, n)]
    # Better scores in some countries, on a grid (ties).
    shift = np.where(country == "FR", 0.3, 0.0)
    s = np.round(np.clip(rng.random(n) * 0.8 + y * (0.15 + shift), 0, 1), 2)
    return y, s, country


def test_equals_the_cli(tmp_path, rng):
    y, s, country = data(rng)
    device = np.where(rng.random(len(y)) < 0.5, 1, 2)  # numbers as keys
    f = tmp_path / "p.csv"
    f.write_text("y,s,country,device\n" + "".join(f"{a},{b!r},{c},{d}\n" for a, b, c, d in
                                                    zip(y, s.tolist(), country, device)))
    for by, args in ((country, ["--by", "country"]), ([country, device], ["--by", "country", "--by", "device"])):
        out = subprocess.run([assay_cli(), "report", str(f), "--label", "y", "--score", "s", *args, "--ci",
                              "--format", "json"], capture_output=True, text=True, check=True).stdout
        theirs = json.loads(out)
        ours = assay.report(y, y_score=s, by=by if isinstance(by, list) else pd_like(by, "country"), ci=0.95)
        d = strip_source(ours.to_dict())
        t = strip_source(theirs)
        if isinstance(by, list):  # unnamed arrays: by[0], by[1]
            assert d["by"] == ["by[0]", "by[1]"]
            d["by"] = t["by"]
        assert d == t


class pd_like(np.ndarray):
    """A 1-D array with a name, as a pandas Series lends it."""

    def __new__(cls, a, name):
        obj = np.asarray(a).view(cls)
        obj.name = name
        return obj


def test_each_slice_is_the_report_of_its_rows(rng):
    y, s, country = data(rng)
    r = assay.report(y, y_score=s, by=country, ci=0.9, replicates=100)
    d = r.to_dict()
    assert [k["key"] for k in d["slices"]] == [["DE"], ["FR"], ["IT"], ["UK"]]
    for sl in d["slices"]:
        rows = country == sl["key"][0]
        alone = assay.report(y[rows], y_score=s[rows], pos_label=1, ci=0.9, replicates=100, keep_curves=False)
        a = alone.to_dict()
        a.pop("source"), sl["report"].pop("source")
        assert sl["report"] == a
    assert "Slices by by: 4 slices" in str(r)
    assert "<svg" in r._repr_html_()
    assert r["accuracy"] == d["overall"]["accuracy"]


def test_tests_equal_statsmodels_and_scipy(rng):
    y, s, country = data(rng, 1200)
    pred = (s >= 0.5).astype(int)
    d = assay.report(y, y_pred=pred, by=country).to_dict()
    keys = [k["key"][0] for k in d["slices"]]
    for name, succ, trial in (("accuracy", pred == y, np.ones_like(y, bool)),
                              ("recall", (pred == 1) & (y == 1), y == 1),
                              ("precision", (pred == 1) & (y == 1), pred == 1)):
        m = next(m for m in d["metrics"] if m["name"] == name)
        x = np.array([succ[(country == k) & trial].sum() for k in keys])
        n = np.array([trial[country == k].sum() for k in keys])
        p = []
        for i, row in enumerate(m["slices"]):
            z, pv = proportions_ztest([x[i], x.sum() - x[i]], [n[i], n.sum() - n[i]])
            assert row["successes"] == x[i] and row["trials"] == n[i]
            assert row["statistic"] == pytest.approx(z, rel=1e-12)
            assert row["p_value"] == pytest.approx(pv, rel=1e-10, abs=1e-300)
            p.append(pv)
        holm = multipletests(p, method="holm")[1]
        assert [row["p_adjusted"] for row in m["slices"]] == pytest.approx(holm, rel=1e-10)
        chi2, chi2_p, dof, _ = chi2_contingency(np.c_[x, n - x], correction=False)
        h = m["homogeneity_chi2"]
        assert h["statistic"] == pytest.approx(chi2, rel=1e-10)
        assert h["p_value"] == pytest.approx(chi2_p, rel=1e-9)
        assert h["df"] == dof


def test_delong_against_all_pairs(rng):
    y, s, country = data(rng, 500)
    d = assay.report(y, y_score=s, by=country).to_dict()
    m = next(m for m in d["metrics"] if m["name"] == "roc_auc")

    def auc_var(yy, ss):
        pos, neg = ss[yy == 1], ss[yy == 0]
        psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
        v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
        auc = psi.mean()
        return auc, v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg), len(yy)

    from scipy.stats import t as student_t
    for row in m["slices"]:
        inside = country == row["key"][0]
        a, va, na = auc_var(y[inside], s[inside])
        b, vb, nb = auc_var(y[~inside], s[~inside])
        t = (a - b) / np.sqrt(va + vb)
        df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
        assert row["statistic"] == pytest.approx(t, rel=1e-9)
        assert row["df"] == pytest.approx(df, rel=1e-9)
        assert row["p_value"] == pytest.approx(2 * student_t.sf(abs(t), df), rel=1e-8)


def test_bad_by(rng):
    y = rng.integers(0, 2, 20)
    s = rng.random(20)
    with pytest.raises(ValueError, match=r"report: by\[0\] must be 1-D with one key per row \(20\); got shape \(3,\)"):
        assay.report(y, y_score=s, by=["a", "b", "c"])
    with pytest.raises(ValueError, match="report: by has 3 arrays of slice keys; give 1 or 2"):
        assay.report(y, y_score=s, by=[y, y, y])
    one = assay.report(y, y_score=s, by=np.zeros(20)).to_dict()
    assert one["notes"] == ["every row has the same key (0): one slice, the whole table; no test"]
