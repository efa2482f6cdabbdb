#!/usr/bin/env python3
"""Writes a CSV of binary predictions for the out-of-core benchmark and tests of `assay report`.

usage: gen_scores.py ROWS OUT.csv [--seed S] [--levels L]
Columns: y (0/1), score (a probability with ~L distinct values when L > 0, else full doubles printed
with 17 significant digits), w (weights in 0.1 steps, some 0). Written in blocks, constant memory.
"""
import argparse

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", type=int)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--levels", type=int, default=0)
    a = ap.parse_args()
    g = np.random.default_rng(a.seed)
    block = 1_000_000
    with open(a.out, "w") as f:
        f.write("y,score,w\n")
        left = a.rows
        while left > 0:
            n = min(block, left)
            left -= n
            y = (g.random(n) < 0.3).astype(np.int64)
            s = 1 / (1 + np.exp(-(g.normal(size=n) + 1.2 * y)))
            if a.levels > 0:
                s = np.round(s * a.levels) / a.levels
                fmt = "%.6g"
            else:
                fmt = "%.17g"
            w = np.round(g.random(n) * 30) * 0.1
            lines = "\n".join(f"{yi},{si},{wi:.1f}" for yi, si, wi in zip(y.tolist(), (fmt % v for v in s), w.tolist()))
            f.write(lines + "\n")


if __name__ == "__main__":
    main()
