"""assay.metrics against sklearn.metrics on the score metrics: median of 5 runs each, and the ratio.

Run with the project's venv: .venv/bin/python bench/python_ranking.py [--max-n 1000000] [--repeat 5] [--cpu] [--scores distinct|ties|both]
    [--sizes 1000 1000000]
--cpu times with time.process_time (CPU seconds of this process, all threads) instead of the wall
clock: on a machine shared with other jobs the wall clock counts the time other processes held the
cores, which a long call suffers more than a short one.
Inputs: binary int64 labels in {0, 1} (numpy's default integer), contiguous float64 scores, no
weights: "distinct" scores are random reals (nearly all distinct, the longest curves), "ties" the same
rounded to 3 decimals (1001 distinct values). Both libraries get the same arrays, in the same call
with the same arguments; each value is checked equal before timing. Prints the median seconds of
each and the ratio sklearn / assay (how many times faster assay is).
"""

import argparse
import statistics
import time

import numpy as np
from sklearn import metrics as sk

from assay import metrics as am


def median_seconds(f, repeat, clock=time.perf_counter):
    times = []
    for _ in range(repeat):
        # Short calls are timed in batches so that the clock's resolution does not matter.
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
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-n", type=int, default=10**6)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cpu", action="store_true", help="CPU time of the process instead of wall time")
    ap.add_argument("--sizes", type=int, nargs="+", help="these sizes instead of 10^3 ... --max-n")
    ap.add_argument("--scores", choices=["distinct", "ties", "both"], default="both")
    args = ap.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    rng = np.random.default_rng(0)
    sizes = args.sizes or [n for n in (10**3, 10**5, 10**6, 10**7) if n <= args.max_n]
    print(f"{'function':<26}{'scores':>9}{'n':>10}{'sklearn s':>12}{'assay s':>12}{'ratio':>8}")
    for n, kind in ((n, kind) for n in sizes for kind in ("distinct", "ties") if args.scores in (kind, "both")):
        y = rng.integers(0, 2, n)
        s = rng.random(n)
        if kind == "ties":
            s = np.round(s, 3)
        for name in ("roc_auc_score", "average_precision_score", "roc_curve"):
            ours, theirs = getattr(am, name), getattr(sk, name)
            a, b = ours(y, s), theirs(y, s)
            if isinstance(b, tuple):
                assert all(np.array_equal(x, z) for x, z in zip(a, b)), name
            else:
                assert a == b, (name, a, b)
            rep = args.repeat if n < 10**7 else max(3, args.repeat // 2)
            t_sk = median_seconds(lambda: theirs(y, s), rep, clock)
            t_am = median_seconds(lambda: ours(y, s), rep, clock)
            print(f"{name:<26}{kind:>9}{n:>10}{t_sk:>12.6f}{t_am:>12.6f}{t_sk / t_am:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
