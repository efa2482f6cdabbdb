#!/usr/bin/env python3
"""Writes a CSV of regression predictions for the out-of-core benchmark of `assay report --task regression`.

usage: gen_regression.py ROWS OUT.csv [--seed S] [--levels L]
Columns: y (the target), pred (the prediction: y plus noise), w (weights in 0.1 steps, some 0). With
L > 0 the target and the prediction are on a grid of 1/L (heavy ties of the residuals), else full
doubles printed with 17 significant digits. Written in blocks, constant memory.
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
    fmt = "%.6g" if a.levels > 0 else "%.17g"
    with open(a.out, "w") as f:
        f.write("y,pred,w\n")
        left = a.rows
        while left > 0:
            n = min(block, left)
            left -= n
            y = 10 + 3 * g.normal(size=n)
            p = y + g.normal(size=n)
            if a.levels > 0:
                y = np.round(y * a.levels) / a.levels
                p = np.round(p * a.levels) / a.levels
            w = np.round(g.random(n) * 30) * 0.1
            lines = "\n".join(f"{fmt % yi},{fmt % pi},{wi:.1f}" for yi, pi, wi in zip(y.tolist(), p.tolist(), w.tolist()))
            f.write(lines + "\n")


if __name__ == "__main__":
    main()
