"""Every function of assay.metrics that computes from predictions, against scikit-learn in the same
run on the same inputs: the median time of each, the ratio sklearn / assay (how many times faster
assay is) and a verdict against the speed targets of issue 28.

    .venv/bin/python bench/metrics_table.py [--sizes 1e3,1e5,1e6] [--repeat 5] [--clock cpu|wall]
        [--only REGEX] [--skip REGEX] [--markdown]
    .venv/bin/python bench/metrics_table.py --wide FILE...   # one row per function from --markdown runs

What is timed: every name of assay.metrics.__all__ except the displays, the scorer API and the
pairwise distances and kernels (those are scikit-learn's own objects, forwarded). Before timing,
both libraries' answers to the same call are compared (numbers with numpy.allclose, NaN equal to
NaN; strings exactly), so that a wrong answer is never timed; a mismatch stops the run.

Inputs (numpy, contiguous, the same arrays for both libraries; one seed):
- labels: int64 in 3 classes, predictions right 70% of the time (binary for
  class_likelihood_ratios);
- scores: binary int64 labels and float64 scores in (0, 1) (nearly all distinct), probabilities for
  the losses, labels in {-1, 1} and real decisions for hinge_loss, scores rounded to 1 decimal for
  metric_at_thresholds (which calls the metric once per threshold, in both libraries; each gets its
  own library's accuracy_score); top_k_accuracy_score: 5 classes, k=2;
- regression: positive targets (gamma) and predictions within ~10% of them (every deviance defined);
- multilabel rankings: n samples x 5 labels (0/1 for the label-ranking losses, relevance 0..3 for
  DCG/NDCG) and float64 scores;
- clusterings: 10 true and 12 predicted clusters; calinski_harabasz_score and davies_bouldin_score
  on n points x 8 features; silhouette_score and silhouette_samples on 10^3 and 10^4 points x 32
  features whatever --sizes says (the cost is quadratic); consensus_score: 5 biclusters over n rows
  and 50 columns.

Timing: the first call of each (the one whose answer is compared) is the warm-up; then --repeat
runs (calls shorter than 20 ms in batches of 10^k, so the clock's resolution does not matter; calls
longer than 2 s only 3 times), and the median is printed. A call whose first run took more than
5 s (scikit-learn's label-ranking and DCG functions at the larger sizes) is not repeated: its first
time is printed. --clock cpu (the default) uses time.process_time, the CPU seconds of this process over all
its threads: on a machine shared with other jobs, the wall clock also counts the time others held
the cores. CPU time does not credit assay's (or numpy's) multithreading, so it is the cautious
figure for assay's kernels that run in parallel. --clock wall uses time.perf_counter.

Targets (issue 28): no function slower than scikit-learn at any size; at n = 10^6 at least 10x for
every function of predictions, 20x for the ranking functions (scores and multilabel rankings) and
for the contingency-based clustering scores; silhouette_score at 10^4 x 32 at least 5x. The verdict
column says "SLOWER" (ratio < 1), "below 10x" / "below 20x" / "below 5x" where a target applies and
is missed, and "ok" otherwise.
"""

import argparse
import re
import statistics
import time
import warnings

import numpy as np
from sklearn import metrics as sk
from sklearn.metrics import cluster as sk_cluster

from assay import _displays, _pairwise, _scorer
from assay import metrics as am

RANKING = {"average_precision_score", "det_curve", "precision_recall_curve", "roc_auc_score", "roc_curve",
           "top_k_accuracy_score", "confusion_matrix_at_thresholds", "coverage_error", "dcg_score",
           "label_ranking_average_precision_score", "label_ranking_loss", "ndcg_score"}
CONTINGENCY = {"adjusted_mutual_info_score", "adjusted_rand_score", "completeness_score", "fowlkes_mallows_score",
               "homogeneity_completeness_v_measure", "homogeneity_score", "mutual_info_score",
               "normalized_mutual_info_score", "pair_confusion_matrix", "rand_score", "v_measure_score"}
SILHOUETTE = {"silhouette_score", "silhouette_samples"}
LABELS = ["accuracy_score", "balanced_accuracy_score", "classification_report", "cohen_kappa_score",
          "confusion_matrix", "f1_score", "fbeta_score", "hamming_loss", "jaccard_score", "matthews_corrcoef",
          "multilabel_confusion_matrix", "precision_recall_fscore_support", "precision_score", "recall_score",
          "zero_one_loss"]
AVERAGED = {"f1_score", "fbeta_score", "jaccard_score", "precision_recall_fscore_support", "precision_score",
            "recall_score"}
REGRESSION = ["explained_variance_score", "max_error", "mean_absolute_error", "mean_absolute_percentage_error",
              "mean_squared_error", "mean_squared_log_error", "median_absolute_error", "r2_score",
              "root_mean_squared_error", "root_mean_squared_log_error", "d2_absolute_error_score",
              "d2_pinball_score", "mean_gamma_deviance", "mean_pinball_loss", "mean_poisson_deviance"]
TWEEDIE = ["d2_tweedie_score", "mean_tweedie_deviance"]


def timed_functions():
    """The names timed: assay.metrics.__all__ without the forwarded or non-metric objects."""
    skip = {*_pairwise.__all__, *_scorer.__all__, *_displays.__all__, "cluster"}
    return [n for n in am.__all__ if n not in skip]


class Inputs:
    """The arrays of one size, made once and shared by every call (both libraries)."""

    def __init__(self, n, seed=0):
        rng = np.random.default_rng(seed)
        self.n = n
        self.y3 = rng.integers(0, 3, n)
        self.p3 = np.where(rng.random(n) < 0.7, self.y3, rng.integers(0, 3, n))
        self.y2 = rng.integers(0, 2, n)
        self.p2 = np.where(rng.random(n) < 0.7, self.y2, 1 - self.y2)
        # Scores that lean towards the positive class, in (0, 1).
        self.score = np.clip(0.3 * self.y2 + 0.7 * rng.random(n), 1e-6, 1 - 1e-6)
        self.score_coarse = np.round(self.score, 1)
        self.y5 = rng.integers(0, 5, n)
        logits = rng.normal(size=(n, 5)) + 1.5 * (self.y5[:, None] == np.arange(5))
        self.proba5 = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        self.reg_true = rng.gamma(2.0, 1.0, n) + 0.1
        self.reg_pred = self.reg_true * np.exp(rng.normal(0, 0.1, n))
        self.ml_true = (rng.random((n, 5)) < 0.4).astype(np.int64)
        self.ml_true[np.arange(n), rng.integers(0, 5, n)] = 1  # a relevant label in every row
        self.ml_score = rng.random((n, 5))
        self.relevance = rng.integers(0, 4, (n, 5))
        self.curve_x = np.sort(rng.random(n))
        self.curve_y = rng.random(n)
        self.c_true = rng.integers(0, 10, n)
        self.c_pred = np.where(rng.random(n) < 0.6, self.c_true, rng.integers(0, 12, n))
        self.points8 = rng.normal(size=(n, 8)) + self.c_true[:, None]
        self.bic_rows = self._biclusters(rng, n)
        self.bic_cols = self._biclusters(rng, 50)
        self.bic_rows_b = self._biclusters(rng, n)
        self.bic_cols_b = self._biclusters(rng, 50)

    @staticmethod
    def _biclusters(rng, size, k=5):
        return rng.integers(0, k, size)[None, :] == np.arange(k)[:, None]

    def silhouette(self, n):
        rng = np.random.default_rng(1)
        labels = rng.integers(0, 10, n)
        return rng.normal(size=(n, 32)) + labels[:, None], labels


def call_of(name, lib, x):
    """(args, kwargs) of the call of function `name` of library `lib` (sk or am) on inputs x."""
    if name in LABELS:
        return (x.y3, x.p3), ({"average": "macro"} if name in AVERAGED else {}) | (
            {"beta": 2.0} if name == "fbeta_score" else {})
    if name == "class_likelihood_ratios":
        return (x.y2, x.p2), {}
    if name in ("average_precision_score", "det_curve", "precision_recall_curve", "roc_auc_score", "roc_curve",
                "confusion_matrix_at_thresholds", "brier_score_loss", "log_loss", "d2_brier_score",
                "d2_log_loss_score"):
        return (x.y2, x.score), {}
    if name == "hinge_loss":
        return (2 * x.y2 - 1, 4 * x.score - 2), {}
    if name == "metric_at_thresholds":
        return (x.y2, x.score_coarse, lib.accuracy_score), {}
    if name == "top_k_accuracy_score":
        return (x.y5, x.proba5), {"k": 2}
    if name in REGRESSION:
        return (x.reg_true, x.reg_pred), {}
    if name in TWEEDIE:
        return (x.reg_true, x.reg_pred), {"power": 1.5}
    if name == "auc":
        return (x.curve_x, x.curve_y), {}
    if name in ("coverage_error", "label_ranking_average_precision_score", "label_ranking_loss"):
        return (x.ml_true, x.ml_score), {}
    if name in ("dcg_score", "ndcg_score"):
        return (x.relevance, x.ml_score), {}
    if name in CONTINGENCY:
        return (x.c_true, x.c_pred), {}
    if name in ("calinski_harabasz_score", "davies_bouldin_score"):
        return (x.points8, x.c_true), {}
    if name == "consensus_score":
        return ((x.bic_rows, x.bic_cols), (x.bic_rows_b, x.bic_cols_b)), {}
    raise KeyError(f"metrics_table: no inputs defined for {name!r}; add them to call_of")


def same(a, b):
    """Whether two answers agree: numbers by numpy.allclose (NaN equal to NaN), containers item by item."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)) and not np.isscalar(a):
        return isinstance(b, (tuple, list)) and len(a) == len(b) and all(same(u, v) for u, v in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "biufc" and b.dtype.kind in "biufc":
        return bool(np.allclose(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def first_call(f, clock):
    """(the answer, the seconds) of the first call, which is also the warm-up of the timing."""
    t0 = clock()
    value = f()
    return value, clock() - t0


def median_seconds(f, repeat, clock, first):
    """The median time of `repeat` calls of f; a call whose first run took more than 5 s is not run
    again (its first time is returned: a ratio that large needs no more precision)."""
    if first > 5.0:
        return first
    times = []
    for _ in range(repeat):
        batch = 1
        while True:
            t0 = clock()
            for _ in range(batch):
                f()
            dt = clock() - t0
            if dt >= 0.02 or batch >= 1000:
                break
            batch *= 10
        times.append(dt / batch)
        if dt > 2.0 and len(times) >= 3:
            break
    return statistics.median(times)


def target_of(name, n):
    """(minimum ratio, its label) that applies to function `name` at size n."""
    if name in SILHOUETTE:
        return (5.0, "below 5x") if n >= 10**4 else (1.0, "SLOWER")
    if n >= 10**6:
        if name in RANKING or name in CONTINGENCY:
            return 20.0, "below 20x"
        return 10.0, "below 10x"
    return 1.0, "SLOWER"


def sizes_of(name, sizes):
    if name in SILHOUETTE:
        return [10**3, 10**4]
    return sizes


def lib_function(lib, name):
    if lib is sk and not hasattr(sk, name):
        return getattr(sk_cluster, name)
    return getattr(lib, name)


def size_text(n):
    return f"10^{len(str(n)) - 1}" if str(n).strip("0") == "1" else str(n)


def parse_sizes(text):
    return [int(float(s)) for s in text.split(",") if s]


def wide_table(paths):
    """One row per function from the --markdown outputs of runs at different sizes (e.g. run in
    parallel, one size each): scikit-learn's and assay's milliseconds and the ratio at each size,
    and the targets missed."""
    rows = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("| ") and not line.startswith("| function"):
                    name, n, sk_ms, am_ms, ratio, verdict = [c.strip() for c in line.strip().strip("|").split("|")]
                    rows.setdefault(name, {})[n] = (sk_ms, am_ms, ratio, verdict)
    print("| function | 10^3 | 10^5 | 10^6 | verdict |\n|---|---:|---:|---:|---|")
    for name, by in rows.items():
        used = ["10^3", "10^4"] if name in SILHOUETTE else ["10^3", "10^5", "10^6"]
        cells = [f"{float(by[s][0]):.3g} / {float(by[s][1]):.3g} ms = **{by[s][2]}**" if s in by else "" for s in used]
        if name in SILHOUETTE:
            cells[1] += " (at 10^4 x 32)"
            cells.append("")
        misses = "; ".join(f"{by[s][3]} at {s}" for s in used if s in by and by[s][3] != "ok") or "ok"
        print(f"| {name} | " + " | ".join(cells) + f" | {misses} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=parse_sizes, default=[10**3, 10**5, 10**6],
                    help="comma-separated, e.g. 1e3,1e5,1e6")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    ap.add_argument("--only", help="time only the functions whose name matches this regular expression")
    ap.add_argument("--skip", help="leave out the functions whose name matches this regular expression")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--wide", nargs="+", metavar="FILE",
                    help="time nothing: merge --markdown outputs of runs at different sizes into one row per function")
    args = ap.parse_args()
    if args.wide:
        wide_table(args.wide)
        return
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    names = [n for n in timed_functions() if (not args.only or re.search(args.only, n))
             and not (args.skip and re.search(args.skip, n))]
    warnings.simplefilter("ignore")
    header = ("function", "n", "sklearn ms", "assay ms", "ratio", "verdict")
    if args.markdown:
        print("| " + " | ".join(header) + " |\n|---|---:|---:|---:|---:|---|")
    else:
        print(f"{header[0]:<40}{header[1]:>9}{header[2]:>13}{header[3]:>12}{header[4]:>9}  {header[5]}")
    inputs, misses = {}, []
    for n in sorted({s for name in names for s in sizes_of(name, args.sizes)}):
        x = inputs.setdefault(n, Inputs(n))
        for name in (m for m in names if n in sizes_of(m, args.sizes)):
            if name in SILHOUETTE:
                X, labels = x.silhouette(n)
                calls = {lib: ((X, labels), {}) for lib in (sk, am)}
            else:
                calls = {lib: call_of(name, lib, x) for lib in (sk, am)}
            funcs = {lib: lib_function(lib, name) for lib in (sk, am)}
            run = {lib: (lambda lib=lib: funcs[lib](*calls[lib][0], **calls[lib][1])) for lib in (sk, am)}
            (theirs, first_sk), (ours, first_am) = first_call(run[sk], clock), first_call(run[am], clock)
            if not same(ours, theirs):
                raise SystemExit(f"metrics_table: {name} at n={n}: assay answered {ours!r}, scikit-learn {theirs!r}")
            t_sk = median_seconds(run[sk], args.repeat, clock, first_sk)
            t_am = median_seconds(run[am], args.repeat, clock, first_am)
            ratio = t_sk / t_am if t_am > 0 else float("inf")
            need, miss = target_of(name, n)
            verdict = "SLOWER" if ratio < 1 else (miss if ratio < need else "ok")
            if verdict != "ok":
                misses.append((name, n, ratio, verdict))
            if args.markdown:
                print(f"| {name} | {size_text(n)} | {t_sk * 1e3:.3f} | {t_am * 1e3:.3f} | {ratio:.1f}x | {verdict} |",
                      flush=True)
            else:
                print(f"{name:<40}{n:>9}{t_sk * 1e3:>13.3f}{t_am * 1e3:>12.3f}{ratio:>8.1f}x  {verdict}", flush=True)
        del inputs[n]
    print(f"\n{len(misses)} misses of the targets")
    for name, n, ratio, verdict in misses:
        print(f"  {name} n={n}: {ratio:.1f}x ({verdict})")


if __name__ == "__main__":
    main()
