"""assay.metrics against sklearn.metrics on the score metrics: median of 5 runs each, and the ratio.

Run with the project's venv: .venv/bin/python bench/python_ranking.py [--max-n 1000000] [--repeat 5]
Inputs: binary int64 labels (numpy's default integer), contiguous float64 scores of random reals
(nearly all distinct, the longest curves), no weights. Both libraries get the same arrays; each value
is checked equal before timing.
"""

import argparse
import statistics
import time

import numpy as np
from sklearn import metrics as sk

from assay import metrics as am


def median_seconds(f, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-n", type=int, default=10**6)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    sizes = [n for n in (10**3, 10**5, 10**6, 10**7) if n <= args.max_n]
    print(f"{'function':<26}{'n':>10}{'sklearn s':>12}{'assay s':>12}{'ratio':>8}")
    for n in sizes:
        y = rng.integers(0, 2, n)
        s = rng.random(n)
        for name in ("roc_auc_score", "average_precision_score", "roc_curve"):
            ours, theirs = getattr(am, name), getattr(sk, name)
            a, b = ours(y, s), theirs(y, s)
            if isinstance(b, tuple):
                assert all(np.array_equal(x, z) for x, z in zip(a, b)), name
            else:
                assert a == b, (name, a, b)
            rep = args.repeat if n < 10**7 else max(3, args.repeat // 2)
            t_sk = median_seconds(lambda: theirs(y, s), rep)
            t_am = median_seconds(lambda: ours(y, s), rep)
            print(f"{name:<26}{n:>10}{t_sk:>12.6f}{t_am:>12.6f}{t_sk / t_am:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
