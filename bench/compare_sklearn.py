#!/usr/bin/python3
"""The Python side of bench/compare_sklearn.sh.

  compare_sklearn.py generate N PATH [SLICES]
                                       writes a `label,score` CSV of N rows (label 0/1, 30% positives;
                                       score uniform in [0, 0.6), +0.4 for positives; repr() digits);
                                       with SLICES also a `slice` column, `c0` .. `c<SLICES-1>` drawn
                                       uniformly (bench/report_slices.sh)
  compare_sklearn.py run PATH          times pandas.read_csv + sklearn confusion_matrix +
                                       classification_report at threshold 0.5 and prints the
                                       wall-clock and CPU seconds

Only the work is timed (not the interpreter start-up or the imports), which favours Python.
"""
import random
import sys
import time


def generate(n, path, slices=0):
    rng = random.Random(20261126)
    with open(path, "w") as f:
        f.write("label,score,slice\n" if slices else "label,score\n")
        lines = []
        for _ in range(n):
            y = 1 if rng.random() < 0.3 else 0
            score = rng.random() * 0.6 + 0.4 * y
            lines.append(f"{y},{score!r},c{rng.randrange(slices)}\n" if slices else f"{y},{score!r}\n")
            if len(lines) == 100_000:
                f.writelines(lines)
                lines = []
        f.writelines(lines)


def run(path):
    import pandas as pd
    from sklearn.metrics import classification_report, confusion_matrix

    t0, c0 = time.perf_counter(), time.process_time()
    df = pd.read_csv(path)
    y = df["label"].to_numpy()
    yhat = (df["score"].to_numpy() >= 0.5).astype(y.dtype)
    cm = confusion_matrix(y, yhat)
    text = classification_report(y, yhat, digits=6)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert cm.sum() == len(df) and text
    print(f"{elapsed:.3f} {cpu:.3f}")


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    elif sys.argv[1] == "run":
        run(sys.argv[2])
    else:
        sys.exit(f"usage: {sys.argv[0]} generate N PATH [SLICES] | run PATH")
