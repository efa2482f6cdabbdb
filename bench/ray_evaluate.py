"""assay.ray.evaluate on a local Ray against what a Ray Data user does without it: collect the
dataset on the driver (`ds.to_pandas()`) and call scikit-learn's exact ROC AUC and average precision
there. Also, as the cost of the engine itself, the blocks collected as one Arrow table (`to_arrow_refs`) and `assay.report` in one process.

    .venv/bin/python bench/ray_evaluate.py --rows 4000000 --blocks 8 --repeats 5

Prints the median of each (after one untimed warm-up each, so that neither pays the workers' start),
the ratio to scikit-learn, and checks that the AUCs agree. Binary labels, scores rounded to
`--decimals` (0: distinct), weights optional.
"""

import argparse
import statistics
import time

import numpy as np
import pyarrow as pa


def median_time(f, repeats):
    f()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=4_000_000)
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--decimals", type=int, default=4, help="round the scores (0: distinct scores)")
    ap.add_argument("--num-cpus", type=int, default=2)
    args = ap.parse_args()

    import ray
    import sklearn
    from sklearn.metrics import average_precision_score, roc_auc_score

    import assay
    import assay.ray

    rng = np.random.default_rng(1)
    y = (rng.random(args.rows) < 0.3).astype(np.int64)
    p = np.clip(0.3 * y + rng.normal(0.4, 0.2, args.rows), 0, 1)
    if args.decimals:
        p = np.round(p, args.decimals)
    t = pa.table({"y": y, "p": p})
    ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    n = args.rows
    ds = ray.data.from_arrow([t.slice(i * n // args.blocks, (i + 1) * n // args.blocks - i * n // args.blocks)
                              for i in range(args.blocks)]).materialize()

    out = {}

    def ours():
        out["assay.ray"] = assay.ray.evaluate(ds, label="y", score="p", pos_label=1).to_dict()["roc_auc"]

    def collected_assay():
        table = pa.concat_tables(ray.get(ds.to_arrow_refs()))
        out["assay.report"] = assay.report(table, label="y", y_score="p", pos_label=1).to_dict()["roc_auc"]

    def peer():
        pdf = ds.to_pandas()
        out["sklearn"] = roc_auc_score(pdf["y"], pdf["p"])
        average_precision_score(pdf["y"], pdf["p"])

    print(f"rows {n}, blocks {args.blocks}, scores rounded to {args.decimals or 'no'} decimals, "
          f"ray {ray.__version__}, scikit-learn {sklearn.__version__}, assay {assay.__version__}")
    m_peer, runs = median_time(peer, args.repeats)
    print(f"ds.to_pandas() + sklearn roc_auc_score + average_precision_score: median {m_peer:.3f} s "
          f"(runs {', '.join(f'{r:.2f}' for r in runs)})")
    for name, f in (("assay.ray.evaluate (full report)", ours),
                    ("blocks collected + assay.report (full report, one process)", collected_assay)):
        m, runs = median_time(f, args.repeats)
        print(f"{name}: median {m:.3f} s (runs {', '.join(f'{r:.2f}' for r in runs)}); "
              f"scikit-learn / this = {m_peer / m:.2f}x")
    assert abs(out["assay.ray"] - out["sklearn"]) <= 1e-12, out
    assert out["assay.ray"] == out["assay.report"], out
    ray.shutdown()


if __name__ == "__main__":
    main()
