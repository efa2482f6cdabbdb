"""The Python side of bench/report_vs_sklearn.sh (issue 13, "Speed"): one timed run of a peer on a
`label,score` CSV (bench/compare_sklearn.py generate writes it), printing "WALL CPU" in seconds.

  report_vs_sklearn.py report PATH    pandas.read_csv + confusion_matrix + classification_report at
                                      threshold 0.5 (the counts and per-class table of `assay report`)
  report_vs_sklearn.py ranking PATH   pandas.read_csv + roc_auc_score + average_precision_score (the
                                      ranking metrics of `assay report`)

Run with the project's venv (.venv/bin/python: its pandas and scikit-learn). Only the work is timed,
not the interpreter start-up or the imports, which favours Python; CPU is the process's user + system
time over the same span (all threads).
"""
import sys
import time


# The report peer is the one bench/compare_sklearn.sh times (the same file, the same work).
from compare_sklearn import run as report  # noqa: E402  (bench/ is on sys.path: the script's folder)


def ranking(path):
    import pandas as pd
    from sklearn.metrics import average_precision_score, roc_auc_score

    t0, c0 = time.perf_counter(), time.process_time()
    df = pd.read_csv(path)
    y = df["label"].to_numpy()
    s = df["score"].to_numpy()
    auc = roc_auc_score(y, s)
    ap = average_precision_score(y, s)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert 0 <= auc <= 1 and 0 <= ap <= 1
    print(f"{elapsed:.3f} {cpu:.3f}")


if __name__ == "__main__":
    modes = {"report": report, "ranking": ranking}
    if len(sys.argv) != 3 or sys.argv[1] not in modes:
        sys.exit(f"usage: {sys.argv[0]} report|ranking PATH")
    modes[sys.argv[1]](sys.argv[2])
