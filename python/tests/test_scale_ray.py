"""assay.ray.evaluate on a local Ray (ray.init(num_cpus=2), started once for the module): the report
equals assay.report on all rows in one process, whatever the blocks and the shape of the merge tree;
a task that dies and is retried by Ray changes nothing; a worker without assay fails with a message
that names the cause."""

import os

import numpy as np
import pyarrow as pa
import pytest

from scale_data import (binary_table, multiclass_table, proba_reference, proba_table, reference, sliced_reference,
                        sliced_table, split)

ray = pytest.importorskip("ray")

import assay.ray  # noqa: E402


def _flaky_hook(marker_dir):
    """A worker setup hook (run in every Ray worker as it starts): while the file `arm` exists in
    `marker_dir`, the first call to build a block's state reads its first batch into a state and then
    kills its worker process (as a lost node would), once (the file `done` is created atomically)."""

    def hook():
        import assay._scale as scale

        real = scale.state_of_batches

        def state_of_batches(batches, spec, first_row=0, counts=None):
            if os.path.exists(os.path.join(marker_dir, "arm")):
                try:
                    os.close(os.open(os.path.join(marker_dir, "done"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                except FileExistsError:
                    return real(batches, spec, first_row, counts)
                batches = list(batches)
                real(batches[:1], spec, first_row, counts)
                os._exit(1)
            return real(batches, spec, first_row, counts)

        scale.state_of_batches = state_of_batches

    return hook


@pytest.fixture(scope="module")
def markers(tmp_path_factory):
    d = tmp_path_factory.mktemp("ray_markers")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env={"worker_process_setup_hook": _flaky_hook(str(d))})
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield d
    ray.shutdown()


def _dataset(table, k, rng):
    """`table` as a Ray Dataset of k blocks of random sizes (some may be empty), in order."""
    return ray.data.from_arrow(split(table, k, rng))


@pytest.mark.parametrize("k", [1, 3, 10])
def test_blocks_give_the_single_process_report(markers, k):
    # Ties (scores rounded to 2 decimals), weights, text labels; merge trees of fan-in 2 and 8.
    rng = np.random.default_rng(100 + k)
    t = binary_table(rng, 3000)
    ds = _dataset(t, k, rng)
    got = assay.ray.evaluate(ds, label="y", score="p", weight="w", pos_label="spam",
                             split_every=2 if k > 1 else 8).to_dict()
    assert got == reference(t, score="p", weight="w", pos_label="spam", source="ray")
    m = multiclass_table(rng, 2000)
    assert assay.ray.evaluate(_dataset(m, k, rng), label="y", pred="c", weight="w").to_dict() == \
        reference(m, pred="c", weight="w", source="ray")


@pytest.mark.parametrize("k", [1, 4])
def test_sliced_reports_and_row_indices(markers, k):
    # by=: one sliced state per block; weighted intervals resample rows by their index among all rows
    # (the blocks numbered in order); class probabilities and regression keep their rows too.
    rng = np.random.default_rng(200 + k)
    t = sliced_table(rng, 1500)
    ds = _dataset(t, k, rng)
    for kw in (dict(score="p", by=["region", "tier"]), dict(pred="c", weight="w", by=["tier"]),
               dict(score="p", weight="w", by=["region"], ci=0.9, replicates=30)):
        by = kw.pop("by")
        got = assay.ray.evaluate(ds, label="y", pos_label="spam", by=by, split_every=2, **kw).to_dict()
        assert got == sliced_reference(t, by, pos_label="spam", source="ray", **kw)
    ci = dict(ci=0.9, replicates=60, random_state=5)
    got = assay.ray.evaluate(ds, label="y", score="p", weight="w", pos_label="spam", **ci).to_dict()
    assert got == reference(t, score="p", weight="w", pos_label="spam", source="ray", **ci)
    assert "poisson bootstrap" in got["roc_auc_ci_method"]
    p = proba_table(rng, 1200)
    got = assay.ray.evaluate(_dataset(p, k, rng), label="y", proba=["c", "a", "b"], weight="w", **ci).to_dict()
    assert got == proba_reference(p, ["c", "a", "b"], weight="w", source="ray", **ci)
    y = np.round(rng.normal(0, 20, 1000), 1)
    r = pa.table({"y": y, "p": y + np.round(rng.normal(0, 3, 1000), 2), "w": rng.integers(0, 5, 1000) / 4.0})
    got = assay.ray.evaluate(_dataset(r, k, rng), label="y", pred="p", weight="w", task="regression", **ci).to_dict()
    want = assay.report(y, y_pred=r.column("p").to_numpy(), sample_weight=r.column("w").to_numpy(),
                        task="regression", **ci).to_dict()
    want["source"] = "ray"
    assert got == want


def test_a_retried_task_changes_nothing(markers):
    # One state task reads a batch and dies; Ray retries it (max_retries): the report is the same as
    # without the failure, on the streamed path and on the row-numbered one.
    rng = np.random.default_rng(300)
    t = binary_table(rng, 2000)
    ds = _dataset(t, 4, rng)
    (markers / "arm").touch()
    try:
        for kw in (dict(), dict(ci=0.9, replicates=30)):
            (markers / "done").unlink(missing_ok=True)
            got = assay.ray.evaluate(ds, label="y", score="p", weight="w", pos_label="spam",
                                     ray_remote_args={"max_retries": 2}, **kw).to_dict()
            assert (markers / "done").exists()  # a task did die
            assert got == reference(t, score="p", weight="w", pos_label="spam", source="ray", **kw)
    finally:
        (markers / "arm").unlink()


def test_bad_input(markers):
    rng = np.random.default_rng(3)
    t = binary_table(rng, 500, missing=4)
    ds = _dataset(t, 3, rng)
    with pytest.raises(ValueError, match=r"assay.ray.evaluate: 4 row\(s\) have a missing"):
        assay.ray.evaluate(ds, label="y", score="p", pos_label="spam")
    r = assay.ray.evaluate(ds, label="y", score="p", pos_label="spam", drop_missing=True)
    assert r.missing == 4
    with pytest.raises(ValueError, match=r"assay.ray.evaluate: column\(s\) \['q'\] not in the data"):
        assay.ray.evaluate(ds, label="y", score="q")
    # refused on the workers: the ValueError of one process, not Ray's wrapper around it
    text = ray.data.from_arrow(pa.table({"y": [0, 1, 1], "p": ["a", "b", "c"], "w": [1.0, 2.0, 1.0]}))
    for kw in (dict(), dict(weight="w", ci=0.9)):
        with pytest.raises(ValueError, match=r"^assay.ray.evaluate: column 'p' has type string; it must be numeric$"):
            assay.ray.evaluate(text, label="y", score="p", **kw)
    # no rows (a dataset whose blocks are empty, without columns): as the state of no rows
    empty = ds.filter(expr="y == 'none'")
    for kw in (dict(), dict(weight="w", ci=0.9)):
        with pytest.raises(ValueError, match=r"no rows were added; there is nothing to evaluate"):
            assay.ray.evaluate(empty, label="y", score="p", **kw)
    with pytest.raises(ValueError, match=r"assay.ray.evaluate: split_every is 1"):
        assay.ray.evaluate(ds, label="y", score="p", split_every=1)
    with pytest.raises(ValueError, match=r"assay.ray.evaluate: ray_remote_args is 3"):
        assay.ray.evaluate(ds, label="y", score="p", ray_remote_args=3)


_NO_ASSAY = """import sys


class _NoAssay:
    # the Python of a worker where assay is not installed
    def find_spec(self, name, path=None, target=None):
        if name == "assay" or name.startswith("assay."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NoAssay())
"""

_RUN_SHIPPED = """import pickle, sys
f, args = pickle.loads(sys.stdin.buffer.read())
try:
    f(*args)
except RuntimeError as e:
    print(e)
"""


def test_a_worker_without_assay_names_the_cause(markers, tmp_path):
    # The functions assay.ray ships to its workers, run by a Python that cannot import assay (a
    # sitecustomize refuses it): they unpickle (shipped by value), and their call says which Python
    # ran and how to give it assay, instead of a ModuleNotFoundError.
    import subprocess
    import sys

    from ray import cloudpickle

    from assay import _scale

    (tmp_path / "sitecustomize.py").write_text(_NO_ASSAY)
    spec = _scale.Spec("assay.ray.evaluate", label="y", score="p")
    t = pa.table({"y": [0, 1], "p": [0.2, 0.7]})
    for f, args in ((assay.ray._block_function(spec), (t, 0)), (assay.ray._merge_function(spec), ())):
        out = subprocess.run([sys.executable, "-c", _RUN_SHIPPED], input=cloudpickle.dumps((f, args)),
                             capture_output=True, env={**os.environ, "PYTHONPATH": str(tmp_path)}, check=True)
        msg = out.stdout.decode()
        head = "assay.ray.evaluate: a worker cannot import assay: the worker runs the Python "
        assert msg.startswith(head), msg
        assert os.path.samefile(msg[len(head):].split(" (")[0], sys.executable)
        assert "No module named 'assay'" in msg and "runtime_env" in msg and "docs/scaling.md" in msg
    # On the driver, that message comes out of Ray Data's wrapped task error, alone.
    text = msg.strip()

    def fails(batch):
        raise RuntimeError(text)

    with pytest.raises(RuntimeError) as e:
        with _scale.worker_failures("assay.ray.evaluate", "ray"):
            ray.data.from_items([{"a": 1}]).map_batches(fails).materialize()
    assert str(e.value) == text
