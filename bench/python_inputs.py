"""What the container costs: assay.metrics and sklearn.metrics on the same labels and scores held by
NumPy, pandas (NumPy-backed and nullable Float64/Int64), polars, pyarrow, JAX (CPU) and
array-api-strict, in the same run. Median of --repeat runs each, and the ratio sklearn / assay.

Run with the project's venv: .venv/bin/python bench/python_inputs.py [--sizes 1000 1000000] [--repeat 5]

Columns: the median seconds of the input layer's conversion alone (assay._inputs.as_numpy of the
scores: a view for NumPy, NumPy-backed pandas, Arrow without nulls, JAX and array-api-strict on the
CPU; a copy for nullable pandas), of scikit-learn's and assay's roc_auc_score and log_loss on the
container, and the ratio. Each pair of values is checked equal before timing.
"""

import argparse
import statistics
import time
import warnings

import numpy as np
from sklearn import metrics as sk

from assay import _inputs
from assay import metrics as am


def median_seconds(f, repeat):
    times = []
    for _ in range(repeat):
        batch = 1
        while True:
            t0 = time.perf_counter()
            for _ in range(batch):
                f()
            dt = time.perf_counter() - t0
            if dt >= 0.02 or batch >= 10000:
                break
            batch *= 10
        times.append(dt / batch)
    return statistics.median(times)


def containers():
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    out = {
        "numpy": lambda a: a,
        "pandas": lambda a: pd.Series(a),
        "pandas nullable": lambda a: pd.Series(a, dtype="Float64" if a.dtype.kind == "f" else "Int64"),
        "polars": pl.Series,
        "pyarrow": pa.array,
    }
    try:
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_enable_x64", True)  # the same float64 values as the others
        out["jax (cpu)"] = jnp.asarray
    except ImportError:
        pass
    try:
        import array_api_strict as xs

        out["array-api-strict"] = xs.asarray
    except ImportError:
        pass
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10**3, 10**6])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    print(f"{'container':<18}{'n':>9}{'function':>16}{'as_numpy s':>12}{'sklearn s':>12}{'assay s':>12}{'ratio':>8}")
    for n in args.sizes:
        y = rng.integers(0, 2, n)
        s = rng.random(n)
        for cname, conv in containers().items():
            yc, sc = conv(y), conv(s)
            convert = median_seconds(lambda: _inputs.as_numpy(sc, "y_score"), args.repeat)
            for name in ("roc_auc_score", "log_loss"):
                ours, theirs = getattr(am, name), getattr(sk, name)
                a, b = ours(yc, sc), theirs(yc, sc)
                if a != b:
                    raise SystemExit(f"{cname} {name} n={n}: assay {a!r} != sklearn {b!r}")
                t_sk = median_seconds(lambda: theirs(yc, sc), args.repeat)
                t_as = median_seconds(lambda: ours(yc, sc), args.repeat)
                print(f"{cname:<18}{n:>9}{name:>16}{convert:>12.2e}{t_sk:>12.2e}{t_as:>12.2e}{t_sk / t_as:>8.1f}",
                      flush=True)


if __name__ == "__main__":
    main()
