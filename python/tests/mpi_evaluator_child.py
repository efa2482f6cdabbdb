"""Run by test_evaluator.py under `mpirun -n 2`: each rank evaluates its half of the rows batch by
batch, the ranks sync over mpi4py, and both write their report (rank 0 writes the file named on the
command line, with both ranks' reports gathered)."""

import json
import sys

import numpy as np


def all_rows():
    """The rows of every rank, in rank order (rank r holds the r-th half)."""
    rng = np.random.default_rng(7)
    n = 4000
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = np.round(np.clip(0.35 * y + rng.normal(0.4, 0.25, n), 0, 1), 2)
    w = rng.integers(1, 5, n) / 4.0
    return y, s, w


def main(path):
    from mpi4py import MPI

    import assay

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    y, s, w = all_rows()
    lo, hi = rank * len(y) // size, (rank + 1) * len(y) // size
    ev = assay.Evaluator(ci=0.95, replicates=200)
    for a in range(lo, hi, 300):
        b = min(a + 300, hi)
        ev.update(y[a:b], y_score=s[a:b], sample_weight=w[a:b])
    ev.sync(assay.Evaluator.mpi_all_gather(comm))
    reports = comm.gather(ev.report().to_dict(), root=0)
    if rank == 0:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({f"rank{r}": d for r, d in enumerate(reports)}, f)


if __name__ == "__main__":
    main(sys.argv[1])
