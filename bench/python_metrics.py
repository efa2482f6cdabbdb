"""assay.metrics against sklearn.metrics on the label metrics: median of 5 runs of each call (after
one warm-up run), and the speed ratio sklearn time / assay time (how many times faster assay is);
the minima too, which are steadier on a busy machine.

    .venv/bin/python bench/python_metrics.py [--sizes 1000 100000 1000000] [--repeat 5]

Labels are int64 with 3 classes (uniform), the predictions right about 70% of the time.
"""

import argparse
import statistics
import time
import warnings

import numpy as np
from sklearn import metrics as sk

from assay import metrics as am

CALLS = [
    ("confusion_matrix", {}),
    ("classification_report", {}),
    ("f1_score", {"average": "macro"}),
    ("confusion_matrix (weighted)", {"sample_weight": True}),
    ("classification_report (strings)", {"strings": True}),
]


def times_of(f, repeat):
    f()  # warm-up (first-call imports, page faults)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**3, 10**5, 10**6])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    warnings.simplefilter("ignore")
    print(f"{'call':34s} {'n':>9s} {'sklearn ms':>11s} {'assay ms':>10s} {'ratio':>8s}   (min: sklearn, assay, ratio)")
    for n in args.sizes:
        y_true = rng.integers(0, 3, n)
        y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, 3, n))
        weight = rng.random(n)
        names = np.array(["cat", "dog", "fish"])
        for label, options in CALLS:
            options = dict(options)
            t, p = y_true, y_pred
            if options.pop("strings", False):
                t, p = names[y_true], names[y_pred]
            if options.pop("sample_weight", False):
                options["sample_weight"] = weight
            name = label.split(" ")[0]
            theirs, their_min = times_of(lambda: getattr(sk, name)(t, p, **options), args.repeat)
            ours, our_min = times_of(lambda: getattr(am, name)(t, p, **options), args.repeat)
            print(f"{label:34s} {n:>9d} {theirs * 1e3:>11.3f} {ours * 1e3:>10.3f} {theirs / ours:>7.1f}x"
                  f"   ({their_min * 1e3:.3f}, {our_min * 1e3:.3f}, {their_min / our_min:.1f}x)")


if __name__ == "__main__":
    main()
