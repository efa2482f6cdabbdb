"""How many threads assay's core may use: the process-wide cap and a scoped limit.

Every parallel kernel of the core (bootstrap and permutation replicates, cross-validation splits,
the class sort of large score arrays, ...) runs on one oneTBB scheduler; these functions bound it.
Results never depend on the number of threads (each replicate draws from its own random stream).
The environment variable ASSAY_NUM_THREADS sets the default cap.
"""

from __future__ import annotations

import contextlib
import numbers

from assay import _core


def get_num_threads():
    """The number of threads a parallel call of assay may use now, on this thread (>= 1)."""
    return int(_core.max_threads())


def set_num_threads(n):
    """Caps the threads of every parallel call of assay in this process at ``n``; ``None`` or 0
    restores the default (ASSAY_NUM_THREADS, else the cores available)."""
    n = 0 if n is None else n
    if not isinstance(n, numbers.Integral) or isinstance(n, bool) or n < 0:
        raise ValueError(f"set_num_threads: n is {n!r}; it must be a whole number >= 0 or None")
    _core.set_max_threads(int(n))


@contextlib.contextmanager
def limit_threads(n):
    """``with assay.limit_threads(1): ...`` runs assay's calls made by this thread, nested work
    included, on at most ``n`` threads; limits nest and the smallest wins (scikit-learn's
    ``n_jobs``-style control for code that calls assay from its own workers)."""
    if not isinstance(n, numbers.Integral) or isinstance(n, bool) or n < 1:
        raise ValueError(f"limit_threads: n is {n!r}; it must be a whole number >= 1")
    limit = _core.ThreadLimit(int(n))
    try:
        yield
    finally:
        del limit
