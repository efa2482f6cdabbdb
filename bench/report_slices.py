#!/usr/bin/env python3
"""Writes the data of bench/report_slices.sh: `label,score,slice` rows (30% positives, scores as in
bench/compare_sklearn.py, the slice a country-like code `c0` .. `c999` drawn uniformly).

    report_slices.py generate ROWS FILE [SLICES]
"""
import random
import sys


def generate(n, path, slices):
    rng = random.Random(20261126)
    with open(path, "w") as f:
        f.write("label,score,slice\n")
        lines = []
        for _ in range(n):
            y = 1 if rng.random() < 0.3 else 0
            lines.append(f"{y},{rng.random() * 0.6 + 0.4 * y!r},c{rng.randrange(slices)}\n")
            if len(lines) == 100_000:
                f.writelines(lines)
                lines = []
        f.writelines(lines)


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] != "generate":
        sys.exit("usage: report_slices.py generate ROWS FILE [SLICES]")
    generate(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 1000)
