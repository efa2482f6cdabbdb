"""The plugin that runs scikit-learn's metrics tests with assay's functions
(sklearn_suite/assay_swap.py, used by scripts/sklearn_suite.sh): a module imported as one of
scikit-learn's test modules gets assay's objects, and scikit-learn itself is left as it was."""

import importlib
import sys
import textwrap

import pytest

sklearn_metrics = pytest.importorskip("sklearn.metrics")
import sklearn.metrics.tests  # noqa: E402

import assay.metrics  # noqa: E402
from sklearn_suite import assay_swap  # noqa: E402

PROBE = textwrap.dedent("""
    import sklearn.metrics
    from sklearn import metrics
    from sklearn.metrics import accuracy_score, make_scorer, cluster as cluster_module
    from sklearn.metrics._classification import f1_score, _check_targets
    from sklearn.metrics import *  # noqa

    TABLE = {"accuracy": accuracy_score, "f1": f1_score}

    def imported_in_a_test():
        from sklearn.metrics import roc_auc_score
        return roc_auc_score
""")


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """A module imported as sklearn.metrics.tests._assay_probe, with the hook installed."""
    (tmp_path / "_assay_probe.py").write_text(PROBE)
    monkeypatch.setattr(sklearn.metrics.tests, "__path__", [*sklearn.metrics.tests.__path__, str(tmp_path)])
    name = "sklearn.metrics.tests._assay_probe"
    assay_swap.install()
    try:
        yield importlib.import_module(name)
    finally:
        assay_swap.uninstall()
        sys.modules.pop(name, None)


def test_a_test_module_gets_assays_functions(probe):
    assert probe.accuracy_score is assay.metrics.accuracy_score
    assert probe.f1_score is assay.metrics.f1_score  # a public name imported from a private module
    assert probe.TABLE == {"accuracy": assay.metrics.accuracy_score, "f1": assay.metrics.f1_score}
    assert probe.metrics.roc_auc_score is assay.metrics.roc_auc_score
    assert probe.sklearn.metrics.log_loss is assay.metrics.log_loss
    assert probe.imported_in_a_test() is assay.metrics.roc_auc_score
    assert probe.mean_squared_error is assay.metrics.mean_squared_error  # from sklearn.metrics import *


def test_what_assay_does_not_define_stays_scikit_learns(probe):
    from sklearn.metrics._classification import _check_targets

    assert "make_scorer" not in assay.metrics.__all__ or probe.make_scorer is assay.metrics.make_scorer
    if "make_scorer" not in assay.metrics.__all__:
        assert probe.make_scorer is sklearn.metrics.make_scorer
    assert probe._check_targets is _check_targets
    assert probe.cluster_module.rand_score is getattr(assay.metrics, "rand_score", sklearn.metrics.rand_score)


def test_scikit_learn_itself_is_unchanged(probe):
    import sklearn.metrics._classification as classification

    assert sklearn.metrics.accuracy_score is not assay.metrics.accuracy_score
    assert classification.f1_score.__module__ == "sklearn.metrics._classification"
    assert sys.modules["sklearn.metrics"].f1_score is classification.f1_score


def test_every_shared_name_is_replaced():
    assay_swap.install()
    assay_swap.uninstall()
    shared = [n for n in assay.metrics.__all__ if hasattr(sklearn.metrics, n)
              and getattr(sklearn.metrics, n) is not getattr(assay.metrics, n)
              and not isinstance(getattr(assay.metrics, n), type(sys))]
    assert shared
    assert set(assay_swap.replaced_names()) >= {f"sklearn.metrics.{n}" for n in shared}


def test_names_used_reaches_into_functions_and_strings(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def f():\n    from x import roc_curve\n    return getattr(y, 'log_loss')\n")
    assert {"roc_curve", "log_loss", "f"} <= assay_swap.names_used(str(path))
    assert "f1_score" not in assay_swap.names_used(str(path))


def _junit(path, cases):
    body = "".join(f'<testcase classname="m" name="{name}">{inner}</testcase>' for name, inner in cases)
    path.write_text(f'<testsuites><testsuite name="pytest">{body}</testsuite></testsuites>')
    return str(path)


def test_compare_fails_on_a_new_difference_and_on_a_stale_entry(tmp_path, capsys):
    from sklearn_suite import compare

    failed = '<failure message="AssertionError: x" />'
    shipped = _junit(tmp_path / "s.xml", [("a", ""), ("b[1]", ""), ("b[2]", ""), ("c", ""), ("d", failed)])
    known = tmp_path / "known.txt"
    known.write_text("# comment\nm::b[*]  # a reason\n")
    ok = _junit(tmp_path / "ok.xml", [("a", ""), ("b[1]", failed), ("b[2]", ""), ("c", ""), ("d", failed)])
    assert compare.main(shipped, ok, str(known)) == 0
    new = _junit(tmp_path / "new.xml", [("a", failed), ("b[1]", failed), ("b[2]", failed), ("d", "")])
    assert compare.main(shipped, new, str(known)) == 1
    out = capsys.readouterr().out
    assert "FAILS WITH ASSAY (failed): m::a" in out and "FAILS WITH ASSAY (missing): m::c" in out
    assert "FAILS WITH ASSAY (failed): m::b" not in out  # listed, with every parametrisation
    stale = _junit(tmp_path / "stale.xml", [("a", ""), ("b[1]", ""), ("b[2]", ""), ("c", ""), ("d", "")])
    assert compare.main(shipped, stale, str(known)) == 1
    assert "STALE ENTRY" in capsys.readouterr().out
