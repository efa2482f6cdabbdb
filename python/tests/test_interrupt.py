"""Long computations release the GIL and stop on Ctrl-C: a SIGINT during a bootstrap raises
KeyboardInterrupt within a fraction of a second, and the next call runs normally."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import assay
from assay import stats

CHILD = textwrap.dedent("""
    import sys, time
    import numpy as np
    import assay
    from assay import stats
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 20_000)
    a, b = rng.random(20_000), rng.random(20_000)
    kind = sys.argv[1]
    print("started", flush=True)
    t0 = time.perf_counter()
    try:
        if kind == "bootstrap":  # many minutes of work: 10^6 replicates of two AUCs on 2 x 10^4 cases
            stats.paired_bootstrap(y, a, b, "roc_auc", n_boot=1_000_000)
        elif kind == "permutation":
            stats.permutation_test(y, a, b, "roc_auc", n_permutations=1_000_000)
        else:  # rows x replicates within the report's resampling cap (5e8), so rows are resampled; with
            # weights (the general pass: seconds of work, where the unweighted pass now takes half a second)
            w = rng.random(20_000)
            assay.report(y, y_score=a, sample_weight=w, ci=0.95, method="bootstrap", replicates=25_000)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", time.perf_counter(), flush=True)  # CLOCK_MONOTONIC: comparable across processes
    # The cancellation flag is reset: a short bootstrap afterwards completes.
    r = stats.paired_bootstrap(y[:1000], a[:1000], b[:1000], "roc_auc", n_boot=50)
    print("after", r.replicates, flush=True)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("kind", ["bootstrap", "permutation", "report"])
def test_sigint_stops_a_long_computation(kind):
    p = subprocess.Popen([sys.executable, "-c", CHILD, kind], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(1.0)  # well inside the C++ call (input conversion takes milliseconds)
        assert p.poll() is None
        sent = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    lines = out.split()
    assert lines[0] == "interrupted", out
    assert "after 50" in out
    # From SIGINT to KeyboardInterrupt in the child: replicates are checked one by one (each takes
    # milliseconds here). The set-up before the replicate loop (sorting, DeLong) is not
    # interruptible, hence the small n. Measured 0.01-0.13 s at a load average of 20 on 2 cores.
    elapsed = float(lines[1]) - sent
    assert 0 < elapsed < 1.0, elapsed


def test_bootstrap_releases_the_gil():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 100_000)
    a, b = rng.random(100_000), rng.random(100_000)
    done = threading.Event()
    ticks = 0

    def work():
        with assay.limit_threads(1):
            stats.paired_bootstrap(y, a, b, "roc_auc", n_boot=400)
        done.set()

    t = threading.Thread(target=work)
    start = time.perf_counter()
    t.start()
    while not done.is_set():
        ticks += 1  # pure Python: runs only while the other thread does not hold the GIL
        time.sleep(0.001)
    t.join()
    elapsed = time.perf_counter() - start
    # The bootstrap takes a good fraction of a second; with the GIL held this loop would not run.
    assert elapsed > 0.1
    assert ticks > 0.2 * elapsed / 0.002, (ticks, elapsed)
