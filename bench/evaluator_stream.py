"""assay.Evaluator against streaming evaluation as people do it today: update per batch, result at the end.

Run with the project's venv:
    .venv/bin/python bench/evaluator_stream.py [--batches 1000] [--batch-rows 10000] [--repeat 3]
        [--scores distinct|ties|both] [--peer-python PATH] [--cpu]
--cpu times with time.process_time (CPU seconds of the process, all threads) instead of the wall clock:
on a machine shared with other jobs the wall clock counts the time other processes held the cores.
Each run feeds the same batches (binary int64 labels, float64 scores: "distinct" random reals, "ties"
rounded to 3 decimals) to
  - assay: ``Evaluator.update(y, y_score=s)`` per batch, then ``report()`` (the whole report of
    assay.report: every metric, DeLong-ready runs, the kept curves);
  - torchmetrics' exact ``BinaryAUROC(thresholds=None)``: ``update(preds, target)`` per batch (tensors
    made from the same arrays beforehand, without a copy), then ``compute()``; it runs in the
    interpreter given by --peer-python (a throwaway venv with torch and torchmetrics: they are not
    project dependencies), which runs this file with --peer and prints its timings as JSON;
  - scikit-learn: the batches kept in a list, concatenated at the end, ``roc_auc_score`` (the same
    way of keeping every prediction as torchmetrics' exact AUROC), in this interpreter.
The AUCs are checked equal (1e-9; torchmetrics' float32 result to 1e-6) before the timings are printed. Prints the median seconds of the
update loop and of the final result, their total, the ratio peer / assay (how many times faster
assay is) and the memory held at the end (assay: the state's memory_bytes; the others: the bytes of
the predictions they keep).
"""

import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np

CLOCK = time.perf_counter


def batches(n_batches, rows, kind, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_batches):
        y = (rng.random(rows) < 0.3).astype(np.int64)
        s = np.clip(rng.normal(0.4, 0.25, rows) + 0.3 * y, 0, 1)
        if kind == "ties":
            s = np.round(s, 3)
        out.append((y, s))
    return out


def time_assay(data):
    import assay

    ev = assay.Evaluator()
    t0 = CLOCK()
    for y, s in data:
        ev.update(y, y_score=s)
    t1 = CLOCK()
    auc = ev.report()["roc_auc"]
    t2 = CLOCK()
    return t1 - t0, t2 - t1, float(auc), ev.memory_bytes


def time_sklearn(data):
    from sklearn.metrics import roc_auc_score

    ys, ss = [], []
    t0 = CLOCK()
    for y, s in data:
        ys.append(y)
        ss.append(s)
    t1 = CLOCK()
    y, s = np.concatenate(ys), np.concatenate(ss)
    auc = roc_auc_score(y, s)
    t2 = CLOCK()
    return t1 - t0, t2 - t1, float(auc), y.nbytes + s.nbytes


def time_torchmetrics(data):
    import torch
    from torchmetrics.classification import BinaryAUROC

    tensors = [(torch.from_numpy(y), torch.from_numpy(s)) for y, s in data]
    metric = BinaryAUROC(thresholds=None)
    t0 = CLOCK()
    for y, s in tensors:
        metric.update(s, y)
    t1 = CLOCK()
    auc = metric.compute()
    t2 = CLOCK()
    held = sum(t.element_size() * t.nelement() for name in ("preds", "target") for t in getattr(metric, name))
    return t1 - t0, t2 - t1, float(auc), held


def peer_main(args):
    import torch
    import torchmetrics

    torch.set_num_threads(2)
    out = {"versions": {"torch": torch.__version__, "torchmetrics": torchmetrics.__version__}, "runs": {}}
    for kind in kinds(args):
        data = batches(args.batches, args.batch_rows, kind)
        out["runs"][kind] = [time_torchmetrics(data) for _ in range(args.repeat)]
    print(json.dumps(out))


def kinds(args):
    return ("distinct", "ties") if args.scores == "both" else (args.scores,)


def median(runs, i):
    return statistics.median(r[i] for r in runs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", type=int, default=1000)
    ap.add_argument("--batch-rows", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scores", choices=["distinct", "ties", "both"], default="both")
    ap.add_argument("--peer-python", help="an interpreter with torch and torchmetrics (runs this file with --peer)")
    ap.add_argument("--peer", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--cpu", action="store_true", help="CPU time of the process instead of wall time")
    args = ap.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.cpu else time.perf_counter
    if args.peer:
        return peer_main(args)
    import sklearn

    import assay

    peer = None
    if args.peer_python:
        cmd = [args.peer_python, __file__, "--peer", "--batches", str(args.batches), "--batch-rows",
               str(args.batch_rows), "--repeat", str(args.repeat), "--scores", args.scores] + (["--cpu"] if args.cpu else [])
        peer = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        print(f"peer: torch {peer['versions']['torch']}, torchmetrics {peer['versions']['torchmetrics']}")
    print(f"assay {assay.__version__}, scikit-learn {sklearn.__version__}; {args.batches} batches of "
          f"{args.batch_rows} rows; medians of {args.repeat}; {'CPU' if args.cpu else 'wall'} seconds")
    # ratio: the peer's update loop + result over assay's; per batch: the peer's (update loop + result) / batches
    # over assay's update of one batch (the "update at least 5x faster than update + compute amortised")
    print(f"{'scores':<9}{'who':<14}{'update s':>10}{'result s':>10}{'total s':>10}{'ratio':>8}{'per batch':>10}"
          f"{'held MB':>10}")
    for kind in kinds(args):
        data = batches(args.batches, args.batch_rows, kind)
        rows = {"assay": [time_assay(data) for _ in range(args.repeat)],
                "sklearn": [time_sklearn(data) for _ in range(args.repeat)]}
        if peer:
            rows["torchmetrics"] = peer["runs"][kind]
        ref = rows["assay"][0][2]
        for who, runs in rows.items():
            # torchmetrics returns its AUROC as a float32 tensor: equal to 1e-6 (sklearn's to 1e-9)
            if abs(runs[0][2] - ref) > (1e-6 if who == "torchmetrics" else 1e-9):
                sys.exit(f"{kind}: {who}'s AUC {runs[0][2]!r} differs from assay's {ref!r}")
        ours = median(rows["assay"], 0) + median(rows["assay"], 1)
        ours_update = median(rows["assay"], 0)
        for who, runs in rows.items():
            total = median(runs, 0) + median(runs, 1)
            print(f"{kind:<9}{who:<14}{median(runs, 0):>10.3f}{median(runs, 1):>10.3f}{total:>10.3f}"
                  f"{total / ours:>8.2f}{total / ours_update:>10.2f}{runs[0][3] / 2**20:>10.1f}")


if __name__ == "__main__":
    main()
