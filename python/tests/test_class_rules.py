"""One set of class rules (include/assay/data/classes.hpp): every front end decides the same classes.

The same label sets go through ``assay report``, ``assay curve``, ``assay compare`` and ``assay cv`` (the
command-line tool, on a CSV file) and through ``assay.report`` and ``assay.curves`` (arrays). Each must
either refuse or choose the positive class the table below says; the table is written from the rules
(docs/definitions/classes.md), not from assay's output, so a drift of every front end at once fails too.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import assay
import assay.curves

ROOT = Path(__file__).resolve().parents[2]


def _cli():
    for p in (ROOT / "build" / "assay", Path(sys.executable).parent / "assay"):
        if p.exists():
            return str(p)
    found = shutil.which("assay")
    if not found:
        pytest.skip("no assay executable (build it with scripts/build.sh)")
    return found


REFUSED = None
# (name, true labels as Python values, pos_label, the positive class as the core names it, or REFUSED)
CASES = [
    ("0/1", [0, 1], None, "1"),
    ("-1/1", [-1, 1], None, "1"),
    ("2/5", [2, 5], None, "5"),
    ("2/5 pos 2", [2, 5], 2, "2"),
    ("a/b", ["a", "b"], None, REFUSED),
    ("a/b pos a", ["a", "b"], "a", "a"),
    ("0.0/1", [0.0, 1], None, "1"),
    ("True/False", [True, False], None, "1"),
    ("True/False pos False", [True, False], False, "0"),
    ("yes/no", ["yes", "no"], None, REFUSED),
    ("yes/no pos yes", ["yes", "no"], "yes", "yes"),
    ("one class 1", [1], None, "1"),
    ("one class 0", [0], None, "1"),
    ("one class a", ["a"], None, REFUSED),
    ("one class a pos a", ["a"], "a", "a"),
    ("three classes", [0, 1, 2], None, REFUSED),
    ("three classes pos 1", [0, 1, 2], 1, REFUSED),
]


def _rows(values):
    """40 rows: the label set repeated, with scores that rank a larger label higher (ties kept)."""
    y = [values[i % len(values)] for i in range(40)]
    rng = np.random.default_rng(7)
    rank = {v: k for k, v in enumerate(sorted(set(values), key=lambda v: (str(type(v)), v)))}
    s = [round(0.2 + 0.5 * rank[v] / max(1, len(rank) - 1) + float(rng.uniform(-0.3, 0.3)), 2) for v in y]
    return y, s


def _spell(v):
    return str(v)  # how a CSV file writes the value (True, 0.0, 2, a)


def _pos_arg(pos):
    return [] if pos is None else ["--pos-label", _spell(pos)]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("class_rules")
    out = {}
    for name, values, _, _ in CASES:
        y, s = _rows(values)
        rng = np.random.default_rng(11)
        f = d / (name.replace(" ", "_").replace("/", "_") + ".csv")
        with open(f, "w") as fh:
            fh.write("y,s,s2,x1,x2\n")
            for yi, si in zip(y, s):
                fh.write(f"{_spell(yi)},{si},{round(1 - si, 2)},{rng.normal():.4f},{rng.normal():.4f}\n")
        out[name] = f
    return out


def _run(args):
    r = subprocess.run([_cli(), *args], capture_output=True, text=True)
    if r.returncode == 0:
        return json.loads(r.stdout)
    assert r.returncode in (2, 3), (args, r.returncode, r.stderr)  # usage or data error, never a crash
    return REFUSED


def _report_cli(f, pos):
    j = _run(["report", str(f), "--label", "y", "--score", "s", "--format", "json", *_pos_arg(pos)])
    return REFUSED if j is REFUSED else j["positive_label"]


def _curve_cli(f, pos):
    j = _run(["curve", "roc", str(f), "--label", "y", "--score", "s", "--format", "json", *_pos_arg(pos)])
    return REFUSED if j is REFUSED else j["positive"]


def _compare_cli(f, pos):
    j = _run(["compare", str(f), "--label", "y", "--score", "s", "--score", "s2", "--format", "json",
              *_pos_arg(pos)])
    return REFUSED if j is REFUSED else j["positive_class"]


def _cv_cli(f, pos):
    j = _run(["cv", str(f), "--target", "y", "--features", "x1", "x2", "--learner", "majority", "--folds", "2",
              "--task", "classification", "--format", "json", *_pos_arg(pos)])
    return REFUSED if j is REFUSED else j.get("positive")


def _report_py(values, pos):
    y, s = _rows(values)
    try:
        return assay.report(y, y_score=s, pos_label=pos).to_dict()["positive_label"]
    except ValueError:
        return REFUSED


def _curves_py(values, pos, expected):
    """assay.curves.roc has no positive class to show: its AUC must be that of `expected` against the rest."""
    y, s = _rows(values)
    try:
        curve = assay.curves.roc(y, s, pos_label=pos)
    except ValueError:
        return REFUSED
    if expected is REFUSED:
        return "accepted"
    names = [assay._report._label_text(v) for v in y]
    pos_rows = np.array([n == expected for n in names])
    auc = curve.auc if hasattr(curve, "auc") else curve["auc"]
    if pos_rows.all() or not pos_rows.any():
        assert np.isnan(float(auc))  # one class: no area
        return expected
    ranks = np.array(s)
    wins = sum((a > b) + 0.5 * (a == b) for a in ranks[pos_rows] for b in ranks[~pos_rows])
    assert float(auc) == pytest.approx(wins / (pos_rows.sum() * (~pos_rows).sum()), abs=1e-12)
    return expected


@pytest.mark.parametrize("name,values,pos,expected", CASES, ids=[c[0] for c in CASES])
def test_every_front_end_decides_the_same(files, name, values, pos, expected):
    f = files[name]
    got = {
        "assay report": _report_cli(f, pos),
        "assay curve": _curve_cli(f, pos),
        "assay compare": _compare_cli(f, pos),
        "assay.report": _report_py(values, pos),
        "assay.curves": _curves_py(values, pos, expected),
    }
    if len(set(values)) == 2:  # cv splits two classes; compare tests models on both classes
        got["assay cv"] = _cv_cli(f, pos)
    else:
        assert got.pop("assay compare") is REFUSED  # "compare needs cases of both classes" (or of two)
    assert got == {k: expected for k in got}, got
