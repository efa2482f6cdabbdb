"""assay.Evaluator: batches, merges, bytes and syncs give assay.report on all the rows (the whole JSON
report, exactly); refused batches name the parameter and the batch and change nothing; corrupt,
truncated or foreign bytes are refused."""

import copy
import hashlib
import os
import pickle
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import assay
from assay import _evaluator


def _binary(rng, n):
    """Labels 0/1, scores rounded to 2 decimals (many ties), weights with ties, predicted classes."""
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = np.round(np.clip(0.35 * y + rng.normal(0.4, 0.25, n), 0, 1), 2)
    w = rng.integers(1, 5, n) / 4.0
    c = (rng.random(n) < np.where(y == 1, 0.7, 0.2)).astype(np.int64)
    return y, s, w, c


def _proba(rng, n):
    k = rng.integers(0, 3, n)
    q = rng.integers(0, 6, (n, 3)).astype(float)
    q[np.arange(n), k] += 3
    return np.array(["cat", "dog", "emu"], dtype=object)[k], q / q.sum(axis=1, keepdims=True)


def _cuts(rng, n, k):
    """k batches of random sizes (empty ones too) covering 0..n in order."""
    cuts = np.sort(rng.integers(0, n + 1, k - 1))
    bounds = [0, *cuts.tolist(), n]
    return list(zip(bounds[:-1], bounds[1:]))


def _case(name, rng, n):
    """(Evaluator options, the columns of all rows as update's keyword arguments, assay.report's
    extra arguments)."""
    y, s, w, c = _binary(rng, n)
    if name == "score_weighted_ci":  # weighted intervals: the Poisson bootstrap over the kept rows
        return dict(ci=0.9, replicates=200, pos_label=1), dict(y_true=y, y_score=s, sample_weight=w), {}
    if name == "score_delong_text":
        lab = np.where(y == 1, "spam", "ham").astype(object)
        return dict(ci=0.95, pos_label="spam"), dict(y_true=lab, y_score=s), {}
    if name == "pred_multiclass":
        classes = np.array(["a", "b", "c", "d"], dtype=object)
        t = classes[rng.integers(0, 4, n)]
        p = np.where(rng.random(n) < 0.6, t, classes[rng.integers(0, 4, n)])
        return dict(ci=0.95), dict(y_true=t, y_pred=p, sample_weight=w), {}
    if name == "proba_ci":
        t, p = _proba(rng, n)
        return dict(ci=0.95, replicates=100), dict(y_true=t, y_proba=p), {}
    if name == "regression":
        t = rng.normal(size=n)
        v = np.round(t + rng.normal(size=n), 1)
        return dict(task="regression", ci=0.95, replicates=100), dict(y_true=t, y_pred=v), {}
    if name == "sliced":
        region = rng.choice(np.array(["north", "south", "east"], dtype=object), n)
        tier = rng.choice([1, 2, 9, 10], n)
        return (dict(by=["region", "tier"], ci=0.95), dict(y_true=y, y_score=s, sample_weight=w,
                                                           by={"region": region, "tier": tier}),
                dict(by=[pd.Series(region, name="region"), pd.Series(tier, name="tier")]))
    raise AssertionError(name)


def _rows(cols, a, b):
    out = {}
    for k, v in cols.items():
        out[k] = {kk: vv[a:b] for kk, vv in v.items()} if isinstance(v, dict) else v[a:b]
    return out


def _reference(options, cols, extra):
    """assay.report on all the rows at once."""
    kw = {k: v for k, v in options.items() if k != "by"}
    args = {k: v for k, v in cols.items() if k != "by"}
    return assay.report(args.pop("y_true"), **args, **kw, **extra).to_dict()


CASES = ["score_weighted_ci", "score_delong_text", "pred_multiclass", "proba_ci", "regression", "sliced"]


@pytest.mark.parametrize("name", CASES)
def test_random_batchings_and_merges_equal_the_report_on_all_rows(rng, name):
    n = 1500
    options, cols, extra = _case(name, rng, n)
    expected = _reference(options, cols, extra)
    for k in (1, 7, 40):
        ev = assay.Evaluator(**options)
        for a, b in _cuts(rng, n, k):
            ev.update(**_rows(cols, a, b))
        assert ev.rows == n
        assert ev.report().to_dict() == expected
    # several Evaluators (one per worker), each fed its own consecutive rows, merged in order; and the
    # same through bytes and pickle on the way
    parts = []
    for a, b in _cuts(rng, n, 5):
        part = assay.Evaluator(**options)
        for c, d in _cuts(rng, b - a, 3):
            part.update(**_rows(cols, a + c, a + d))
        parts.append(part)
    whole = assay.Evaluator(**options)
    for i, part in enumerate(parts):
        whole.merge(part if i % 2 else pickle.loads(pickle.dumps(part)))
    assert whole.report().to_dict() == expected
    assert assay.Evaluator.from_bytes(bytes(whole)).report().to_dict() == expected
    # merging as a tree ((p0 + p1) + (p2 + (p3 + p4))) gives the same bytes
    left = copy.deepcopy(parts[0]).merge(parts[1])
    right = copy.deepcopy(parts[2]).merge(copy.deepcopy(parts[3]).merge(parts[4]))
    assert bytes(left.merge(right)) == bytes(whole)


def test_weighted_roc_auc_agrees_with_scikit_learn(rng):
    # the peer on the concatenated rows (the report's other numbers are assay.report's, tested against
    # scikit-learn elsewhere)
    y, s, w, _ = _binary(rng, 2000)
    ev = assay.Evaluator()
    for a, b in _cuts(rng, 2000, 13):
        ev.update(y[a:b], y_score=s[a:b], sample_weight=w[a:b])
    assert ev.compute()["roc_auc"] == pytest.approx(roc_auc_score(y, s, sample_weight=w), rel=1e-12)


def test_class_first_seen_in_a_late_batch_is_decided_on_all_rows(rng):
    t = np.array([0, 1] * 50 + [2] * 10)
    p = np.concatenate([np.roll(t[:100], 3), [0, 2] * 5])
    ev = assay.Evaluator()
    ev.update(t[:100], y_pred=p[:100])
    assert ev.report().to_dict()["task"] == "binary"
    ev.update(t[100:], y_pred=p[100:])  # 2 arrives: the report becomes the multiclass one of all rows
    assert ev.report().to_dict() == assay.report(t, y_pred=p).to_dict()
    # declared classes refuse a label outside them, naming it
    ev = assay.Evaluator(classes=[0, 1])
    ev.update(t[:100], y_pred=p[:100])
    before = bytes(ev)
    with pytest.raises(ValueError, match=r"batch 2\): y_true\[0\] is 2, not one of the classes"):
        ev.update(t[100:], y_pred=p[100:])
    assert bytes(ev) == before


def _refused(ev, match, **batch):
    before = bytes(ev)
    with pytest.raises(ValueError, match=match):
        ev.update(**batch)
    assert bytes(ev) == before  # the state after a refused batch is the state before it


def test_refused_batches_name_parameter_and_batch_and_change_nothing(rng):
    y, s, w, c = _binary(rng, 200)
    ev = assay.Evaluator()
    ev.update(y[:100], y_score=s[:100], sample_weight=w[:100])
    bad = s[100:].copy()
    bad[17] = np.nan
    _refused(ev, r"Evaluator.update \(batch 2\): y_score\[17\] is nan", y_true=y[100:], y_score=bad,
             sample_weight=w[100:])
    _refused(ev, r"batch 3\): the labels \(y_true\) are text; the earlier batches' labels were numbers",
             y_true=y[100:].astype(str), y_score=s[100:], sample_weight=w[100:])
    _refused(ev, r"batch 4\): sample_weight is None; the earlier batches were weighted", y_true=y[100:],
             y_score=s[100:])
    _refused(ev, r"batch 5\): this batch gives y_pred; the earlier batches gave y_score", y_true=y[100:],
             y_pred=c[100:], sample_weight=w[100:])
    _refused(ev, r"batch 6\): y_score has 99 rows; y_true has 100", y_true=y[100:], y_score=s[101:],
             sample_weight=w[100:])
    neg = w[100:].copy()
    neg[3] = -1
    _refused(ev, r"batch 7\): .*sample_weight\[3\]", y_true=y[100:], y_score=s[100:], sample_weight=neg)
    _refused(ev, r"batch 8\): give exactly one of y_score, y_pred or y_proba", y_true=y[100:])
    _refused(ev, r"batch 9\): y_true\[0\] is nan", y_true=np.full(3, np.nan), y_score=s[:3], sample_weight=w[:3])
    _refused(ev, r"batch 10\): y_true\[1\] is None, a missing label", y_true=np.array(["a", None], dtype=object),
             y_score=s[:2], sample_weight=w[:2])
    with pytest.raises(ValueError, match=r"Evaluator: replicates is 0; it must be an int >= 1"):
        assay.Evaluator(replicates=0)
    # three classes under scores: refused when the report decides the classes, not silently binary
    ev.update(np.full(5, 2), y_score=s[:5], sample_weight=w[:5])
    with pytest.raises(ValueError, match=r"Evaluator.report: .*"):
        ev.report()
    # a batch of 0 rows changes nothing and fixes nothing
    fresh = assay.Evaluator()
    fresh.update(np.array([], dtype=object), y_pred=np.array([], dtype=object))
    fresh.update(y[:10], y_score=s[:10])
    assert fresh.rows == 10
    with pytest.raises(ValueError, match=r"Evaluator.report: no rows yet"):
        assay.Evaluator().report()


def test_proba_columns_change_is_refused(rng):
    t, p = _proba(rng, 60)
    ev = assay.Evaluator()
    ev.update(t[:30], y_proba=p[:30])
    _refused(ev, r"batch 2\): y_proba has 2 columns; the earlier batches had 3", y_true=t[30:],
             y_proba=p[30:, :2] / p[30:, :2].sum(axis=1, keepdims=True))
    # (A tensor that requires grad is read through .detach(), the input layer's one rule for every
    # function: python/tests/test_inputs.py.)


def test_merging_evaluators_with_different_options_is_refused(rng):
    y, s, w, _ = _binary(rng, 100)
    a = assay.Evaluator(threshold=0.5).update(y, y_score=s)
    b = assay.Evaluator(threshold=0.4).update(y, y_score=s)
    before = bytes(a)
    with pytest.raises(ValueError, match=r"Evaluator.merge: .*threshold is 0.5 here and 0.4 in the other"):
        a.merge(b)
    with pytest.raises(ValueError, match=r"Evaluator.merge: .*weighted here, unweighted in the other"):
        assay.Evaluator().update(y, y_score=s, sample_weight=w).merge(assay.Evaluator().update(y, y_score=s))
    with pytest.raises(TypeError, match=r"Evaluator.merge: other is a dict"):
        a.merge({})
    assert bytes(a) == before
    with pytest.raises(ValueError, match=r"random_state is None; it must be an int"):
        assay.Evaluator(random_state=None)


def test_bytes_are_checked_corrupt_truncated_or_foreign_raise(rng):
    y, s, w, _ = _binary(rng, 300)
    ev = assay.Evaluator(ci=0.95).update(y, y_score=s, sample_weight=w)
    blob = bytes(ev)
    assert assay.Evaluator.from_bytes(blob).report().to_dict() == ev.report().to_dict()
    for i in range(len(blob)):  # every byte flipped
        broken = bytearray(blob)
        broken[i] ^= 0x5A
        with pytest.raises(ValueError, match=r"Evaluator.from_bytes: "):
            assay.Evaluator.from_bytes(bytes(broken))
    for cut in range(len(blob)):  # every truncation
        with pytest.raises(ValueError, match=r"Evaluator.from_bytes: .*(truncated|not an assay Evaluator)"):
            assay.Evaluator.from_bytes(blob[:cut])
    with pytest.raises(ValueError, match=r"Evaluator.from_bytes: the blob is .*appended"):
        assay.Evaluator.from_bytes(blob + b"\0")
    # the state inside carries its own checksum: a flipped byte there with the outer checksum redone
    # is still refused (by the core)
    end = len(blob) - _evaluator._DIGEST
    inner = bytearray(blob[:end])
    inner[end - 40] ^= 1
    forged = bytes(inner) + hashlib.blake2b(bytes(inner), digest_size=_evaluator._DIGEST).digest()
    with pytest.raises(ValueError, match=r"Evaluator.from_bytes: .*"):
        assay.Evaluator.from_bytes(forged)
    # foreign blobs: another format version, a bare engine state, a pickle of something else, nothing
    with pytest.raises(ValueError, match=r"format version 99"):
        assay.Evaluator.from_bytes(blob[:8] + (99).to_bytes(4, "little") + blob[12:])
    with pytest.raises(ValueError, match=r"a bare evaluation state"):
        assay.Evaluator.from_bytes(ev._state.serialize())
    for foreign in (pickle.dumps([1, 2, 3]), b"", os.urandom(64)):
        with pytest.raises(ValueError, match=r"not an assay Evaluator's bytes"):
            assay.Evaluator.from_bytes(foreign)
    with pytest.raises(TypeError, match=r"blob is a str"):
        assay.Evaluator.from_bytes("ASSAYEV")
    # an Evaluator without rows goes through bytes too, and reset forgets the rows
    empty = assay.Evaluator.from_bytes(bytes(assay.Evaluator(by="g")))
    assert empty.rows == 0 and empty.options["by"] == ["g"]
    assert ev.reset().rows == 0 and bytes(ev) == bytes(assay.Evaluator(ci=0.95))


def test_sync_merges_every_process_in_rank_order(rng):
    y, s, w, _ = _binary(rng, 900)
    ranks = [assay.Evaluator(ci=0.95, method="bootstrap", replicates=100) for _ in range(3)]
    for r, (a, b) in enumerate(_cuts(rng, 900, 3)):
        ranks[r].update(y[a:b], y_score=s[a:b], sample_weight=w[a:b])
    blobs = [bytes(e) for e in ranks]
    for e in ranks:  # an all-gather in one process: every rank receives every rank's bytes
        e.sync(lambda mine: blobs)
        assert e.report().to_dict() == ranks[0].report().to_dict()
    expected = assay.report(y, y_score=s, sample_weight=w, ci=0.95, method="bootstrap", replicates=100).to_dict()
    assert ranks[0].report().to_dict() == expected
    with pytest.raises(ValueError, match=r"Evaluator.sync: this Evaluator already holds every process's rows"):
        ranks[0].sync(lambda mine: blobs)
    other = assay.Evaluator(ci=0.99)
    with pytest.raises(ValueError, match=r"Evaluator.sync: process 1: .*ci is 0.99 here and 0.95"):
        other.sync(lambda mine: [bytes(other), blobs[0]])
    with pytest.raises(ValueError, match=r"Evaluator.sync: the bytes of process 0: .*corrupt"):
        other.sync(lambda mine: [mine[:-1] + bytes([mine[-1] ^ 1])])


def test_compute_returns_the_metrics_asked_for(rng):
    y, s, w, _ = _binary(rng, 300)
    ev = assay.Evaluator(metrics=["roc_auc", "average_precision"], ci=0.95).update(y, y_score=s)
    got = ev.compute()
    assert list(got) == ["roc_auc", "average_precision"] and got["roc_auc"].ci is not None
    with pytest.raises(KeyError, match=r"metrics \['rmse'\] are not in this report"):
        assay.Evaluator(metrics=["rmse"]).update(y, y_score=s).compute()


def test_torch_adapter_says_torch_is_missing():
    try:
        import torch  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match=r"torch_all_gather needs PyTorch"):
            assay.Evaluator.torch_all_gather()
    else:
        pytest.skip("torch is installed: test_sync_over_torch_distributed runs the adapter")


def test_sync_over_torch_distributed(tmp_path):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (it is not a dependency of assay)")
    import socket

    with socket.socket() as sock:  # a free port for the process group's rendezvous
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    child = os.path.join(os.path.dirname(__file__), "torch_evaluator_child.py")
    subprocess.run([sys.executable, child, str(tmp_path), str(port)], check=True, timeout=300)
    sys.path.insert(0, os.path.dirname(__file__))
    from torch_evaluator_child import all_rows

    y, s = all_rows()
    expected = assay.report(y.numpy(), y_score=s.numpy(), ci=0.95, method="bootstrap", replicates=100).to_dict()
    import json

    for rank in range(2):
        assert json.loads((tmp_path / f"{rank}.json").read_text()) == expected
    # a tensor that records gradients is read through .detach() (the input layer's rule)
    g = torch.rand(10, requires_grad=True)
    got = assay.Evaluator().update(y[:10].numpy(), y_score=g).report().to_dict()
    assert got == assay.report(y[:10].numpy(), y_score=g.detach().numpy()).to_dict()


@pytest.mark.skipif(shutil.which("mpirun") is None, reason="mpirun (Open MPI) is not on PATH")
def test_sync_over_mpi_on_two_processes(tmp_path):
    pytest.importorskip("mpi4py", reason="mpi4py is not installed")
    out = tmp_path / "report.json"
    child = os.path.join(os.path.dirname(__file__), "mpi_evaluator_child.py")
    subprocess.run(["mpirun", "--allow-run-as-root", "--oversubscribe", "-n", "2", sys.executable, child, str(out)],
                   check=True, timeout=120, env={**os.environ, "OMPI_MCA_rmaps_base_oversubscribe": "1"})
    import json

    got = json.loads(out.read_text())
    sys.path.insert(0, os.path.dirname(__file__))
    from mpi_evaluator_child import all_rows

    y, s, w = all_rows()
    expected = assay.report(y, y_score=s, sample_weight=w, ci=0.95, replicates=200).to_dict()
    assert got["rank0"] == expected and got["rank1"] == expected


def test_predicted_labels_that_turn_to_text_are_refused(rng):
    ev = assay.Evaluator().update([1, 0], y_score=[0.9, 0.2])
    _refused(ev, r"batch 2\): the labels \(y_true\) are text; the earlier batches' labels were numbers \(e.g. 1 then "
             r"'1'", y_true=["1", "0"], y_score=[0.8, 0.1])
    ev = assay.Evaluator().update(np.array([1, 0, 1]), y_pred=np.array([1, 1, 0]))
    _refused(ev, r"batch 2\): the labels \(y_true, y_pred\) are text; the earlier batches' labels were numbers",
             y_true=np.array([1, 0]), y_pred=np.array(["1", "0"]))


def test_a_refused_sliced_batch_changes_no_slice(rng):
    y, s, w, _ = _binary(rng, 400)
    keys = rng.choice(np.array(["x", "y", "z"], dtype=object), 400)
    ev = assay.Evaluator(by="k", ci=0.95).update(y[:200], y_score=s[:200], sample_weight=w[:200], by=keys[:200])
    neg = w[200:].copy()
    neg[150] = -2.0  # the core finds it after rows of every slice were read
    _refused(ev, r"batch 2\): .*sample_weight\[150\]", y_true=y[200:], y_score=s[200:], sample_weight=neg,
             by=keys[200:])
    _refused(ev, r"batch 3\): by\['k'\] has 199 rows; y_true has 200", y_true=y[200:], y_score=s[200:],
             sample_weight=w[200:], by=keys[201:])


def test_threads_updating_one_evaluator_take_turns(rng):
    # The core releases the GIL in update: without the Evaluator's lock two threads would write one
    # state at once. Without a bootstrap the row order does not matter, so any interleaving gives
    # assay.report's report.
    from concurrent.futures import ThreadPoolExecutor

    y, s, w, _ = _binary(rng, 8000)
    ev = assay.Evaluator(ci=0.95)
    cuts = _cuts(rng, 8000, 64)
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda ab: ev.update(y[ab[0]:ab[1]], y_score=s[ab[0]:ab[1]]), cuts))
        list(pool.map(lambda _: ev.report(), range(4)))
    assert ev.report().to_dict() == assay.report(y, y_score=s, ci=0.95).to_dict()
