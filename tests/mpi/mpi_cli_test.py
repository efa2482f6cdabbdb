#!/usr/bin/env python3
"""assay report (with --by too), curve, compare and cv under mpirun: the output of N ranks equals the one-process
run, byte for byte; a bad row read by rank 1 fails the run with a clear message, a nonzero exit and no output file;
what the merged state cannot do is refused, naming the option.

Two paths for `assay report --score` (binary): the merged evaluation states (scale/over_ranks.hpp
report_by_parts), and the range-partitioned report (report_by_ranges, scale/ranges.hpp: rows sent to
the rank of their score range, the walks chained between ranks), taken when the scores are mostly
distinct and the report has no --ci, --html, constraints or --by. The "ranges" cases (-n 2, 3 and 4)
check both give the one-process bytes and, through rank 0's ASSAY_MPI_TRACE=1 line, which one ran:
distinct full-precision scores (weighted with non-dyadic weights, string and numeric labels,
--pos-label, --threshold, --beta, scores outside [0, 1], labels spelled 1 and 1.0 in different parts,
--drop-missing, -o); scores rounded to 2 decimals forced onto the ranges (ASSAY_MPI_RANGES=1, ties
across the cuts) and left to the states; and the fallbacks to the states' messages (one class, three
classes, missing values, a bad row in rank 1's part).

Usage: mpi_cli_test.py ASSAY MPIRUN [case ...]   (ctest registers it when the CLI is built with MPI)
A case is a name in `cases` or a section ("output", "bad row", ..., "ranges", "ranges ties",
"ranges fallbacks", "ranges output"). The ranks inherit mpirun's environment (Open MPI 4.1 passes
it to the ranks it starts on this machine; `-x VAR` would be needed for other nodes).

The expected outputs are not stored: they are the one-process run's (a different code path: all rows
read and evaluated at once by make_report / cross_validate), which the golden and reference tests pin.
Data are generated here with a fixed seed: scores rounded to 2 decimals (ties within and across
classes and across the ranks' parts), weights with ties and zeros, string labels, numeric labels
spelled 1 and 1.0.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

ASSAY, MPIRUN = sys.argv[1], sys.argv[2]
ONLY = set(sys.argv[3:])
# ASSAY_MPI_TEST_RANKS (tests/CMakeLists.txt sets "3" under the sanitizers, where every run is ten
# times slower) replaces the default rank counts of the cases with its list: 3 ranks still make an
# uneven merge tree and more ranks than cores. Cases that name their own rank counts keep them.
_RANKS_GIVEN = tuple(int(x) for x in os.environ.get("ASSAY_MPI_TEST_RANKS", "").split(",") if x.strip())
RANKS = _RANKS_GIVEN or (2, 4)
failures = []

# Open MPI as root (CI) and with more ranks than cores, without the cross-memory-attach copy that
# containers often forbid (ptrace); LeakSanitizer off for the ranks only (Open MPI
# keeps allocations until exit by design; docs/scaling.md "MPI", the ASan note).
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_btl_vader_single_copy_mechanism="none")
MPI_ENV["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
# The path of a binary score's report is the one each case asks for (ASSAY_MPI_RANGES, ASSAY_MPI_TRACE
# per case), whatever the caller's environment says.
for var in ("ASSAY_MPI_RANGES", "ASSAY_MPI_TRACE", "ASSAY_REPORT_BY_PARTS"):
    MPI_ENV.pop(var, None)


def run(args, ranks=None, env=None):
    """`env`: one process, its environment; under mpirun, variables added to MPI_ENV (the ranks
    inherit mpirun's environment)."""
    cmd = [ASSAY] + args if ranks is None else \
        [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-n", str(ranks), ASSAY] + args
    p = subprocess.run(cmd, capture_output=True, env=dict(MPI_ENV, **(env or {})) if ranks else env, timeout=600)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
    if not ok:
        failures.append(name)


def same_as_one_process(name, args):
    code1, out1, err1 = run(args)
    check(name + " (one process succeeds)", code1 == 0 and out1, err1)
    for n in RANKS:
        code, out, err = run(args, n)
        check(f"{name} -n {n}", code == 0 and out == out1,
              f"exit {code}, {len(out)} vs {len(out1)} bytes; stderr: {err[-2000:]}")
    # The per-part path on one process (what bench/mpi_scaling.sh times from 1 rank).
    code, out, err = run(args, env=dict(os.environ, ASSAY_REPORT_BY_PARTS="1"))
    check(f"{name} by parts, one process", code == 0 and out == out1, err[-2000:])


def spoiled_copy(src, dst, n):
    """A copy of `src` whose third field is not a number in the row rank 1 of `n` reads (at 1.5/n of
    the file), and with 4 ranks in rank 3's part too (at 7/8): (its path, the spoiled lines' indices)."""
    with open(src) as f:
        lines = f.read().splitlines()
    ats = [len(lines) * 3 // (2 * n)] + ([len(lines) * 7 // 8] if n == 4 else [])
    for at in ats:
        fields = lines[at].split(",")
        fields[2] = "0.7.1"
        lines[at] = ",".join(fields)
    with open(dst, "w") as f:
        f.write("\n".join(lines) + "\n")
    return dst, ats


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")


# The range path's trace (ASSAY_MPI_TRACE=1, rank 0's standard error): a line, then one line per rank
# with its steps' times.
RANGE_RANKS = _RANKS_GIVEN or (2, 3, 4)
RANGE_TRACE = "assay report: range-partitioned over {} ranks\n"


def without_trace(err):
    return "".join(x for x in err.splitlines(keepends=True)
                   if not x.startswith("assay report: range-partitioned") and "rows in its range;" not in x)


def by_ranges(name, args, ranged=True, env=None, ranks=RANGE_RANKS):
    """Under n ranks the report equals the one-process run byte for byte (and so does standard error,
    which holds the --drop-missing note, apart from the trace line); the range path ran (`ranged`) or
    the merged states' path did. `env`: more variables for the ranks (ASSAY_MPI_RANGES)."""
    code1, out1, err1 = run(args)
    check(name + " (one process succeeds)", code1 == 0 and out1, err1)
    for n in ranks:
        code, out, err = run(args, n, dict({"ASSAY_MPI_TRACE": "1"}, **(env or {})))
        traced = RANGE_TRACE.format(n) in err
        check(f"{name} -n {n} ({'range' if ranged else 'state'} path)",
              code == 0 and out == out1 and traced == ranged and err1 in without_trace(err),
              f"exit {code}, {len(out)} vs {len(out1)} bytes, trace {traced}; stderr: {err[-2000:]}")


def falls_back(name, args, must, env=None, ranks=RANGE_RANKS):
    """The one-process run fails; under n ranks the range path gives way (no trace line) to the merged
    states' path: the exit code is the one-process run's, standard output empty, and the message (the
    first line of standard error) that of the states' path forced by ASSAY_MPI_RANGES=0, which holds
    `must` (a part of the one-process message: the states' messages are per part, or the library's)."""
    code1, out1, err1 = run(args)
    check(f"{name}, one process fails", code1 != 0 and out1 == b"" and must in err1, f"exit {code1}; {err1}")
    for n in ranks:
        code, out, err = run(args, n, dict({"ASSAY_MPI_TRACE": "1"}, **(env or {})))
        code0, out0, err0 = run(args, n, {"ASSAY_MPI_RANGES": "0"})
        first, first0 = err.split("\n", 1)[0], err0.split("\n", 1)[0]
        check(f"{name} -n {n}: the states' path message and the one-process exit",
              code == code0 == code1 and out == out0 == b"" and first == first0 and must in first
              and RANGE_TRACE.format(n) not in err,
              f"exit {code} vs {code0} vs {code1}; {first!r} vs {first0!r}; stderr: {err[-1500:]}")


def ranges_cases(tmp, wanted, binary):
    """The range-partitioned report's cases (`wanted`: "ranges", "ranges ties", "ranges fallbacks",
    "ranges output"); `binary` is the file of scores rounded to 2 decimals."""
    rng = random.Random(20261127)
    # Full-precision scores (mostly distinct; clipped to [0, 1], so ties at 0 and 1, in the top and
    # bottom ranges), string and numeric labels, weights with ties and zeros that are not dyadic (so
    # the running sums round, and only the one-process order of additions gives the same bits),
    # scores outside [0, 1] (log loss undefined).
    distinct = os.path.join(tmp, "distinct.csv")
    rows = []
    for i in range(60000):
        y = 1 if rng.random() < 0.35 else 0
        s = min(1.0, max(0.0, rng.gauss(0.6 if y else 0.42, 0.2)))
        rows.append((f"id{i}", "spam" if y else "ham", repr(s), rng.choice([0, 0.1, 0.3, 1, 1, 1.7, 2.5]), y,
                     repr(rng.gauss(1.0 if y else -0.5, 2.0))))
    write(distinct, "id,label,score,w,y,logit", rows)
    # Numeric labels spelled 1 and 0 in the first half of the rows, 1.0 and 0.0 in the second (so in
    # different ranks' parts): two classes by the numeric rule.
    spellings = os.path.join(tmp, "spellings.csv")
    rows = []
    for i in range(20000):
        y = 1 if rng.random() < 0.4 else 0
        rows.append((("1" if y else "0") if i < 10000 else ("1.0" if y else "0.0"), repr(rng.random() * 0.7 + 0.3 * y)))
    write(spellings, "y,s", rows)
    # Empty cells in the label, score and weight columns, in every rank's part.
    holes = os.path.join(tmp, "distinct_holes.csv")
    rows = []
    for i in range(30000):
        y = rng.random() < 0.3
        cells = [f"id{i}", "spam" if y else "ham", repr(rng.random() * 0.8 + 0.2 * y), rng.choice([0, 0.5, 1, 1.3])]
        if rng.random() < 0.03:
            cells[rng.choice([1, 2, 3])] = ""
        rows.append(cells)
    write(holes, "id,label,score,w", rows)
    first_hole = 2 + next(i for i, r in enumerate(rows) if "" in r[1:3])  # in the label or score column

    if "ranges" in wanted:
        by_ranges("ranges text", ["report", distinct, "--label", "label", "--score", "score", "--pos-label", "spam"])
        by_ranges("ranges json weighted threshold beta",
                  ["report", distinct, "--label", "label", "--score", "score", "--pos-label", "spam", "--weight", "w",
                   "--format", "json", "--threshold", "0.45", "--beta", "2"])
        by_ranges("ranges numeric json weighted", ["report", distinct, "--label", "5", "--score", "3", "--weight", "4",
                                                   "--format", "json"])
        by_ranges("ranges numeric pos-label 0 text weighted",
                  ["report", distinct, "--label", "y", "--score", "score", "--pos-label", "0", "--weight", "w",
                   "--threshold", "0.6"])
        by_ranges("ranges scores outside [0, 1] json", ["report", distinct, "--label", "y", "--score", "logit",
                                                         "--format", "json", "--beta", "0.5"])
        by_ranges("ranges spellings 1 and 1.0 json", ["report", spellings, "--label", "y", "--score", "s", "--format",
                                                      "json"])
        by_ranges("ranges drop missing json weighted", ["report", holes, "--label", "label", "--score", "score",
                                                        "--pos-label", "spam", "--weight", "w", "--format", "json",
                                                        "--drop-missing"])
        by_ranges("ranges drop missing text", ["report", holes, "--label", "label", "--score", "score", "--pos-label",
                                               "spam", "--drop-missing"], ranks=(3,))
        # ASSAY_MPI_RANGES=0: never the range path.
        by_ranges("ranges off", ["report", distinct, "--label", "label", "--score", "score", "--pos-label", "spam",
                                 "--weight", "w"], ranged=False, env={"ASSAY_MPI_RANGES": "0"}, ranks=(3,))

    # Scores rounded to 2 decimals: many ties, within the ranges and across their cuts. The range
    # path only when ASSAY_MPI_RANGES=1 forces it (equal scores share a range); else the state path.
    if "ranges ties" in wanted:
        for extra, what in (([], "text"),
                            (["--weight", "w", "--format", "json", "--threshold", "0.5"], "json weighted")):
            args = ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam"] + extra
            by_ranges(f"ranges ties forced {what}", args, env={"ASSAY_MPI_RANGES": "1"})
            by_ranges(f"ranges ties {what}", args, ranged=False, ranks=(2, 4))

    if "ranges fallbacks" in wanted:
        # One class only (distinct scores): the state path's message, or its report.
        oneclass = os.path.join(tmp, "oneclass.csv")
        write(oneclass, "y,s", [(1, repr(rng.random())) for _ in range(5000)])
        args = ["report", oneclass, "--label", "y", "--score", "s"]
        code1, _, _ = run(args)
        for env in ({}, {"ASSAY_MPI_RANGES": "1"}):
            if code1 == 0:
                by_ranges("ranges one class " + str(env), args, ranged=False, env=env, ranks=(2, 3))
            else:
                falls_back("ranges one class " + str(env), args, env=env, ranks=(2, 3))
        # Three classes: the message one process gives.
        three = os.path.join(tmp, "three.csv")
        write(three, "y,s", [(rng.choice("abc"), repr(rng.random())) for _ in range(5000)])
        # The whole one-process message, without a rank: the states' path checks the merged classes in
        # make_report's words (scale::check_classes_as_file), the file, the column and --score named.
        whole = (f"assay report: {three}: column 'y' has 3 classes (\"a\", \"b\", \"c\"), but --score makes a "
                 "binary task (use --pred or --proba for more than 2 classes)")
        falls_back("ranges three classes", ["report", three, "--label", "y", "--score", "s"], whole, ranks=(2, 3))
        falls_back("ranges three classes forced", ["report", three, "--label", "y", "--score", "s"], whole,
                   env={"ASSAY_MPI_RANGES": "1"}, ranks=(4,))
        # Empty cells without --drop-missing in every rank's part: the whole file's message (the count
        # of all parts' such rows and the first one's line), without a rank, whatever the ranks.
        holes_args = ["report", holes, "--label", "label", "--score", "score", "--pos-label", "spam"]
        whole_holes = run(holes_args)[2].split("\n", 1)[0]
        check("ranges missing values, one process names the first hole's line",
              f"distinct_holes.csv:{first_hole}: column" in whole_holes, whole_holes)
        falls_back("ranges missing values", holes_args, whole_holes, ranks=(2, 3, 4))
        # A bad row in rank 1's part (and rank 3's with 4 ranks): rank 1's message, exit 3, no output file.
        for n in RANGE_RANKS:
            bad, ats = spoiled_copy(distinct, os.path.join(tmp, f"distinct_bad{n}.csv"), n)
            args = ["report", bad, "--label", "label", "--score", "score", "--pos-label", "spam", "--weight", "w"]
            code1, _, err1 = run(args)
            expected = err1.strip().split("assay report: ", 1)[-1]
            check(f"ranges bad row, one process ({n})", code1 == 3 and f"distinct_bad{n}.csv:{ats[0] + 1}:" in err1,
                  err1)
            out_path = os.path.join(tmp, f"distinct-bad-{n}.txt")
            code, out, err = run(args + ["--output", out_path], n, {"ASSAY_MPI_TRACE": "1"})
            check(f"ranges bad row -n {n}: exit 3, rank 1's message with the file's line, no output",
                  code == 3 and f"assay report: rank 1 of {n}: {expected}" in err and RANGE_TRACE.format(n) not in err
                  and out == b"" and not os.path.exists(out_path) and not os.path.exists(out_path + ".assay-tmp"),
                  f"exit {code}; expected {expected!r}; stderr: {err[-1500:]}")

    # -o FILE: written by rank 0 only, equal to the one-process file; standard output empty.
    if "ranges output" in wanted:
        args = ["report", distinct, "--label", "label", "--score", "score", "--pos-label", "spam", "--weight", "w",
                "--format", "json"]
        one = os.path.join(tmp, "ranges-one.json")
        code1, _, err1 = run(args + ["-o", one])
        check("ranges -o (one process succeeds)", code1 == 0 and os.path.getsize(one) > 100, err1)
        for n in RANGE_RANKS:
            many = os.path.join(tmp, f"ranges-many{n}.json")
            code, out, err = run(args + ["-o", many], n, {"ASSAY_MPI_TRACE": "1"})
            check(f"ranges -o -n {n}", code == 0 and out == b"" and RANGE_TRACE.format(n) in err
                  and open(one, "rb").read() == open(many, "rb").read(), f"exit {code}; {err[-1500:]}")


def main():
    rng = random.Random(20261126)
    tmp = tempfile.mkdtemp(prefix="assay-mpi-test-")
    # Binary, string labels, scores with ties, weights with ties and zeros, an unused text column.
    binary = os.path.join(tmp, "binary.csv")
    rows = []
    for i in range(5000):
        y = "spam" if rng.random() < 0.3 else "ham"
        s = round(min(1.0, max(0.0, rng.gauss(0.62 if y == "spam" else 0.4, 0.2))), 2)
        w = rng.choice([0, 0.5, 1, 1, 2, 3.25])
        rows.append((f"id{i}", y, s, w))
    write(binary, "id,label,score,w", rows)
    # Numeric labels spelled 1, 1.0 and 0; CRLF line ends.
    numeric = os.path.join(tmp, "numeric.csv")
    with open(numeric, "w", newline="") as f:
        f.write("y,p\r\n")
        for i in range(3001):
            y = rng.choice(["1", "1.0", "0", "0"])
            f.write(f"{y},{round(rng.random(), 1)}\r\n")
    # Multiclass predicted classes, weighted.
    multi = os.path.join(tmp, "multi.csv")
    classes = ["setosa", "versicolor", "virginica", "x y"]
    rows = []
    for i in range(4000):
        y = rng.choice(classes)
        p = y if rng.random() < 0.7 else rng.choice(classes)
        rows.append((y, p, rng.choice([1, 2, 0.25])))
    write(multi, "truth,pred,weight", rows)
    # Class probabilities: 3 classes, columns named after them in another order, ties, weights; one row
    # (in the last rank's part) whose probabilities do not sum to 1: its number in the file is in the
    # report, so the ranks must know the rows of the parts before theirs.
    proba = os.path.join(tmp, "proba.csv")
    rows = []
    for i in range(4000):
        c = rng.randrange(3)
        v = [rng.randrange(6) + (3 if k == c else 0) for k in range(3)]
        t = sum(v)
        p = [x / t for x in v]
        if i == 3500:
            p[0] = min(1.0, p[0] + 0.4)
        rows.append(("abc"[c], p[2], rng.choice([0, 0.5, 1, 2]), p[0], p[1]))
    write(proba, "y,c,w,a,b", rows)
    proba_ok = os.path.join(tmp, "proba_ok.csv")  # every row sums to 1 (the curves refuse one that does not)
    write(proba_ok, "y,c,w,a,b", rows[:3500] + rows[3501:])
    # Many distinct scores (more than the 2^15 points from which one process formats a curve in pieces
    # on several threads, thinned piece by piece with --drop-intermediate).
    big = os.path.join(tmp, "big.csv")
    rows = []
    for i in range(40000):
        y = 1 if rng.random() < 0.4 else 0
        rows.append((y, round(rng.random() * 0.6 + 0.3 * y, 6), rng.choice([0, 1, 2.5])))
    write(big, "y,s,w", rows)
    tiny = os.path.join(tmp, "tiny.csv")
    write(tiny, "y,s", [(1, 0.9), (0, 0.2), (1, 0.2)])  # fewer rows than ranks: empty parts
    tiny2 = os.path.join(tmp, "tiny2.csv")  # as few rows as ranks (-n 4): a comparison needs 2 of each class
    write(tiny2, "y,s,t", [(1, 0.9, 0.8), (0, 0.2, 0.3), (1, 0.2, 0.6), (0, 0.5, 0.1)])
    # Empty cells (missing values) in the label, score and weight columns, and in the unused id column.
    holes = os.path.join(tmp, "holes.csv")
    rows = []
    for i in range(5000):
        y = "spam" if rng.random() < 0.3 else "ham"
        s = round(rng.random(), 2)
        w = rng.choice([0.5, 1, 2])
        cells = [f"id{i}" if rng.random() < 0.9 else "", y, s, w]
        if rng.random() < 0.04:
            cells[rng.choice([1, 2, 3])] = ""
        rows.append(cells)
    write(holes, "id,label,score,w", rows)

    # Slices (assay report --by): string labels, scores with ties, weights with ties and zeros, predicted
    # classes; slice columns `country` (one rare level holding negatives only: undefined rates and
    # areas in its slice) and `dev`, numbers `num` (ordered numerically); empty cells with --drop-missing.
    sliced = os.path.join(tmp, "sliced.csv")
    sliced_holes = os.path.join(tmp, "sliced_holes.csv")
    rows, holed = [], []
    for i in range(6000):
        y = "spam" if rng.random() < 0.3 else "ham"
        s = round(min(1.0, max(0.0, rng.gauss(0.62 if y == "spam" else 0.4, 0.2))), 2)
        w = rng.choice([0, 0.5, 1, 1, 2, 3.25])
        country = "zz" if y == "ham" and rng.random() < 0.02 else rng.choice(["de", "fr", "us", "br"])
        pred = "spam" if s >= 0.5 else "ham"
        cells = [f"id{i}", y, s, w, country, rng.choice(["web", "app"]), rng.choice([2, 10, -1]), pred]
        rows.append(cells)
        cells = list(cells)
        if rng.random() < 0.03:
            cells[rng.choice([1, 2, 3, 4, 5])] = ""
        holed.append(cells)
    write(sliced, "id,label,score,w,country,dev,num,pred", rows)
    write(sliced_holes, "id,label,score,w,country,dev,num,pred", holed)

    # Models on the same cases (assay compare): three score columns with ties (one of them rounded
    # coarsely), two predicted-class columns; and a multiclass label with three predicted-class
    # columns, one of which predicts a class the label does not have.
    models = os.path.join(tmp, "models.csv")
    rows = []
    for i in range(5000):
        y = "spam" if rng.random() < 0.3 else "ham"
        a = round(min(1.0, max(0.0, rng.gauss(0.62 if y == "spam" else 0.4, 0.2))), 2)
        b = round(min(1.0, max(0.0, rng.gauss(0.58 if y == "spam" else 0.42, 0.2))), 3)
        c = round(rng.random() * 0.5 + (0.3 if y == "spam" else 0.2), 1)
        rows.append((f"id{i}", y, a, b, c, "spam" if a >= 0.5 else "ham", "spam" if b >= 0.45 else "ham"))
    write(models, "id,label,a,b,c,pa,pb", rows)
    multi3 = os.path.join(tmp, "multi3.csv")
    rows = []
    for i in range(4000):
        y = rng.choice(classes)
        preds = [y if rng.random() < acc else rng.choice(classes) for acc in (0.7, 0.6, 0.5)]
        if rng.random() < 0.02:
            preds[2] = "other"
        rows.append((y, *preds))
    write(multi3, "truth,m1,m2,m3", rows)

    # Regression: targets with ties and a zero target (MAPE undefined, naming its row, in a later part),
    # predictions near them, weights with zeros.
    regression = os.path.join(tmp, "regression.csv")
    rows = []
    for i in range(4000):
        y = round(rng.uniform(-5, 20), 1) if i != 3100 else 0
        rows.append((y, round(y + rng.gauss(0, 2), 2), rng.choice([0, 1, 2.5])))
    write(regression, "y,yhat,w", rows)

    cases = {
        "binary text": ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam"],
        "binary json weighted": ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam",
                                 "--weight", "w", "--format", "json", "--threshold", "0.45", "--beta", "2"],
        "binary text weighted": ["report", binary, "--label", "2", "--score", "3", "--pos-label", "spam",
                                 "--weight", "4"],
        "numeric spellings json": ["report", numeric, "--label", "y", "--score", "p", "--format", "json"],
        "multiclass pred weighted json": ["report", multi, "--label", "truth", "--pred", "pred", "--weight", "weight",
                                          "--format", "json"],
        "multiclass pred text": ["report", multi, "--label", "truth", "--pred", "pred", "--zero-division", "skip"],
        "tiny": ["report", tiny, "--label", "y", "--score", "s", "--format", "json"],
        "curve roc csv two models": ["curve", "roc", binary, "--label", "label", "--score", "score", "w",
                                     "--pos-label", "spam"],
        "curve roc json weighted partial": ["curve", "roc", binary, "--label", "label", "--score", "score",
                                            "--pos-label", "spam", "--weight", "w", "--format", "json",
                                            "--partial-fpr", "0", "0.3", "--partial-tpr", "0.5", "1"],
        "curve pr json": ["curve", "pr", numeric, "--label", "y", "--score", "p", "--format", "json"],
        "curve pr csv weighted": ["curve", "pr", binary, "--label", "2", "--score", "3", "--pos-label", "spam",
                                  "--weight", "4"],
        "curve roc big drop-intermediate": ["curve", "roc", big, "--label", "y", "--score", "s", "--drop-intermediate"],
        "curve roc big json": ["curve", "roc", big, "--label", "y", "--score", "s", "--format", "json"],
        "curve pr big json weighted": ["curve", "pr", big, "--label", "y", "--score", "s", "--weight", "w",
                                       "--format", "json"],
        "curve roc tiny": ["curve", "roc", tiny, "--label", "y", "--score", "s"],
        "curve threshold json constraints": ["curve", "threshold", big, "--label", "y", "--score", "s", "--format",
                                             "json", "--max-fpr", "0.05", "--min-tpr", "0.9", "--cost-fp", "1",
                                             "--cost-fn", "4"],
        "curve threshold csv weighted": ["curve", "threshold", binary, "--label", "label", "--score", "score",
                                         "--pos-label", "spam", "--weight", "w", "--beta", "2"],
        "curve cost json": ["curve", "cost", binary, "--label", "label", "--score", "score", "w", "--pos-label",
                            "spam", "--format", "json", "--cost-fp", "1", "--cost-fn", "3", "--prior", "0.1"],
        "proba text": ["report", proba, "--label", "y", "--proba", "a", "b", "c"],
        "proba json weighted": ["report", proba, "--label", "y", "--proba", "c", "a", "b", "--weight", "w",
                                "--top-k", "1", "--format", "json"],
        # --drop-missing: the rows with an empty cell skipped in every part; "missing" counts them all.
        "drop missing json weighted": ["report", holes, "--label", "label", "--score", "score", "--pos-label", "spam",
                                       "--weight", "w", "--format", "json", "--drop-missing"],
        "drop missing curve json": ["curve", "roc", holes, "--label", "label", "--score", "score", "--pos-label",
                                    "spam", "--format", "json", "--drop-missing"],
        # Intervals: analytic from the merged counts and runs, or from the rows kept with their index
        # in the file (the Poisson bootstrap: weights, --ci-method bootstrap; every interval of class
        # probabilities and of regression); with --drop-missing the skipped rows have no index.
        "ci binary text": ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam", "--ci"],
        "ci binary weighted json": ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam",
                                    "--weight", "w", "--ci", "0.9", "--replicates", "200", "--seed", "4", "--format",
                                    "json"],
        "ci pred bootstrap json": ["report", multi, "--label", "truth", "--pred", "pred", "--ci", "--ci-method",
                                   "bootstrap", "--replicates", "150", "--format", "json"],
        "ci proba text": ["report", proba, "--label", "y", "--proba", "a", "b", "c", "--ci", "--replicates", "150"],
        "ci proba weighted json": ["report", proba, "--label", "y", "--proba", "c", "a", "b", "--weight", "w", "--ci",
                                   "--replicates", "150", "--format", "json"],
        "ci drop missing weighted json": ["report", holes, "--label", "label", "--score", "score", "--pos-label",
                                          "spam", "--weight", "w", "--ci", "--replicates", "150", "--format", "json",
                                          "--drop-missing"],
        "regression text": ["report", regression, "--task", "regression", "--label", "y", "--pred", "yhat"],
        "regression weighted json": ["report", regression, "--task", "regression", "--label", "y", "--pred", "yhat",
                                     "--weight", "w", "--format", "json"],
        "regression ci json": ["report", regression, "--task", "regression", "--label", "y", "--pred", "yhat", "--ci",
                               "--replicates", "150", "--format", "json"],
        "regression weighted ci text": ["report", regression, "--task", "regression", "--label", "y", "--pred",
                                        "yhat", "--weight", "w", "--ci", "--ci-method", "bootstrap", "--replicates",
                                        "150"],
        # Curves that need every row (rejection, calibration), of class probabilities, or drawn: rank 0
        # gathers the parsed columns.
        "curve rejection csv weighted": ["curve", "rejection", binary, "--label", "label", "--score", "score",
                                         "--pos-label", "spam", "--weight", "w"],
        "curve rejection proba json": ["curve", "rejection", proba_ok, "--label", "y", "--proba", "a", "b", "c",
                                       "--format", "json"],
        "curve calibration uniform json": ["curve", "calibration", big, "--label", "y", "--score", "s", "--bins", "7",
                                           "--format", "json"],
        "curve calibration quantile weighted": ["curve", "calibration", binary, "--label", "label", "--score",
                                                "score", "--pos-label", "spam", "--weight", "w", "--strategy",
                                                "quantile", "--bins", "5"],
        "curve calibration proba json": ["curve", "calibration", proba_ok, "--label", "y", "--proba", "c", "a", "b",
                                         "--weight", "w", "--format", "json"],
        "curve roc proba json": ["curve", "roc", proba_ok, "--label", "y", "--proba", "a", "b", "c", "--format", "json"],
        "curve calibration drop missing": ["curve", "calibration", holes, "--label", "label", "--score", "score",
                                           "--pos-label", "spam", "--format", "json", "--drop-missing"],
        "compare scores text metrics": ["compare", models, "--label", "label", "--pos-label", "spam", "--score", "a",
                                        "--score", "b", "--metric", "f1", "--metric", "roc_auc", "--replicates", "300",
                                        "--permutations", "300", "--seed", "5"],
        "compare three scores json": ["compare", models, "--label", "label", "--pos-label", "spam", "--score", "a",
                                      "--score", "b", "--score", "c", "--threshold", "0.45", "--format", "json",
                                      "--adjust", "fdr_bh"],
        "compare preds json": ["compare", models, "--label", "label", "--pos-label", "spam", "--pred", "pa", "--pred",
                               "pb", "--format", "json", "--metric", "precision"],
        "compare multiclass preds text": ["compare", multi3, "--label", "truth", "--pred", "m1", "--pred", "m2",
                                          "--pred", "m3", "--metric", "f1_macro", "--replicates", "200",
                                          "--permutations", "200"],
        "compare tiny": ["compare", tiny2, "--label", "y", "--score", "s", "--score", "t"],
        "compare drop missing json": ["compare", holes, "--label", "label", "--pos-label", "spam", "--score", "score",
                                      "--score", "w", "--format", "json", "--drop-missing"],
        # Operating points under constraints (the umbrella threshold from the negatives of the merged runs).
        "report constraints": ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam",
                               "--max-fpr", "0.1", "--confidence", "0.9", "--min-tpr", "0.8", "--min-precision", "0.6",
                               "--min-recall", "0.5"],
        "report constraints weighted json": ["report", binary, "--label", "label", "--score", "score", "--pos-label",
                                             "spam", "--weight", "w", "--max-fpr", "0.05", "--format", "json"],
        "by constraints": ["report", sliced, "--label", "label", "--score", "score", "--pos-label", "spam", "--by",
                           "country", "--max-fpr", "0.1", "--min-recall", "0.4", "--format", "json"],
        # --by: one sliced state per rank (sliced_state_of_file_part), merged along the same tree.
        "by text": ["report", sliced, "--label", "label", "--score", "score", "--pos-label", "spam", "--by", "country"],
        "by json two columns": ["report", sliced, "--label", "label", "--score", "score", "--pos-label", "spam",
                                "--by", "country", "--by", "num", "--format", "json"],
        "by weighted json": ["report", sliced, "--label", "label", "--score", "score", "--pos-label", "spam",
                             "--weight", "w", "--by", "country", "--format", "json", "--threshold", "0.45"],
        "by weighted two columns text": ["report", sliced, "--label", "2", "--score", "3", "--pos-label", "spam",
                                         "--weight", "4", "--by", "6", "--by", "5"],
        "by ci text": ["report", sliced, "--label", "label", "--score", "score", "--pos-label", "spam", "--by",
                       "country", "--ci"],
        "by ci two columns json": ["report", sliced, "--label", "label", "--score", "score", "--pos-label", "spam",
                                   "--by", "dev", "--by", "country", "--ci", "--replicates", "150", "--format",
                                   "json"],
        "by ci weighted json": ["report", sliced, "--label", "label", "--score", "score", "--pos-label", "spam",
                                "--weight", "w", "--by", "dev", "--ci", "0.9", "--replicates", "150", "--seed", "4",
                                "--format", "json"],
        "by pred weighted ci text": ["report", sliced, "--label", "label", "--pred", "pred", "--pos-label", "spam",
                                     "--weight", "w", "--by", "country", "--ci", "--replicates", "150"],
        "by drop missing weighted json": ["report", sliced_holes, "--label", "label", "--score", "score",
                                          "--pos-label", "spam", "--weight", "w", "--by", "country", "--by", "dev",
                                          "--format", "json", "--drop-missing"],
        "by drop missing ci text": ["report", sliced_holes, "--label", "label", "--score", "score", "--pos-label",
                                    "spam", "--by", "country", "--ci", "--replicates", "150", "--drop-missing"],
        # Class probabilities (row 3500 does not sum to 1: its slice names it by its row within the slice,
        # so the ranks' row ids must be the file's) and regression (every row kept), sliced by a column.
        "by proba json": ["report", proba, "--label", "y", "--proba", "a", "b", "c", "--by", "w", "--format", "json"],
        "by proba weighted ci text": ["report", proba, "--label", "y", "--proba", "c", "a", "b", "--weight", "w",
                                      "--by", "y", "--ci", "--replicates", "100"],
        "by regression ci json": ["report", regression, "--task", "regression", "--label", "y", "--pred", "yhat",
                                  "--by", "w", "--ci", "--replicates", "100", "--format", "json"],
        "by tiny": ["report", tiny, "--label", "y", "--score", "s", "--by", "y", "--format", "json"],
        "drop missing text": ["report", holes, "--label", "label", "--score", "score", "--pos-label", "spam",
                              "--drop-missing"],
    }
    for name, args in cases.items():
        if not ONLY or name in ONLY:
            same_as_one_process(name, args)

    # The range-partitioned report (scale::report_by_ranges, src/scale/over_ranks_ranges.cpp, scale/ranges.hpp): binary
    # scores with mostly distinct values, no --ci, --html, constraints or --by. ASSAY_MPI_TRACE=1 makes
    # rank 0 say on standard error that it ran (RANGE_TRACE), which each case asserts; every other
    # line of standard error is the one-process run's (the --drop-missing note).
    ranges_wanted = [c for c in ("ranges", "ranges ties", "ranges fallbacks", "ranges output") if not ONLY or c in ONLY]
    if ranges_wanted:
        ranges_cases(tmp, ranges_wanted, binary)

    # --output: the file written by rank 0 equals the one-process file; standard output stays empty.
    if not ONLY or "output" in ONLY:
        one, many = os.path.join(tmp, "one.json"), os.path.join(tmp, "many.json")
        args = ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam", "--format", "json"]
        run(args + ["--output", one])
        code, out, err = run(args + ["--output", many], 2)
        check("output file -n 2", code == 0 and out == b"" and open(one, "rb").read() == open(many, "rb").read(), err)

    # --html (and --output): the files rank 0 writes equal the one-process files; the drop-missing note
    # on standard error too.
    if not ONLY or "compare files" in ONLY:
        for n in RANKS:
            args = ["compare", holes, "--label", "label", "--pos-label", "spam", "--score", "score", "--score", "w",
                    "--drop-missing"]
            files1 = [os.path.join(tmp, f"cmp1.{x}") for x in ("html", "txt")]
            files = [os.path.join(tmp, f"cmp{n}.{x}") for x in ("html", "txt")]
            code1, out1, err1 = run(args + ["--html", files1[0], "--output", files1[1]])
            code, out, err = run(args + ["--html", files[0], "--output", files[1]], n)
            same = all(open(a, "rb").read() == open(b, "rb").read() for a, b in zip(files1, files))
            check(f"compare --html --output -n {n}", code1 == 0 and code == 0 and out == out1 == b"" and same
                  and "skipped" in err1 and err1 in err, f"exit {code}; stderr: {err[-1500:]}")

    # assay report --html (kept curves from the merged state: ROC and PR with their bands, the threshold
    # sweep, the reliability diagram; and the sliced page): the page rank 0 writes equals the one-process
    # page, byte for byte, for scores (weighted, with intervals), predicted classes, class probabilities,
    # regression and slices.
    if not ONLY or "report html" in ONLY:
        cases = {
            "scores": ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam"],
            "scores weighted ci": ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam",
                                   "--weight", "w", "--ci", "--replicates", "100"],
            "preds": ["report", multi, "--label", "truth", "--pred", "pred", "--weight", "weight"],
            "proba": ["report", proba_ok, "--label", "y", "--proba", "a", "b", "c", "--weight", "w"],
            "by": ["report", sliced, "--label", "label", "--score", "score", "--pos-label", "spam", "--by", "country",
                   "--ci", "--replicates", "100"],
        }
        for name, args in cases.items():
            page1 = os.path.join(tmp, "one.html")
            code1, out1, err1 = run(args + ["--html", page1])
            check(f"report --html {name} (one process succeeds)", code1 == 0 and os.path.getsize(page1) > 1000, err1)
            for n in RANKS:
                page = os.path.join(tmp, f"many{n}.html")
                code, out, err = run(args + ["--html", page], n)
                check(f"report --html {name} -n {n}", code == 0 and out == out1 and
                      open(page, "rb").read() == open(page1, "rb").read(), f"exit {code}; {err[-1500:]}")

    # Failures of the comparison itself (rank 0, on all the rows): the one-process message and exit code.
    if not ONLY or "compare errors" in ONLY:
        empty = os.path.join(tmp, "empty.csv")
        write(empty, "y,s,t", [])
        # Empty cells in several ranks' parts: the count of all parts and the file's first such row,
        # whatever the number of ranks (each part used to refuse its own count).
        holes = os.path.join(tmp, "compare_holes.csv")
        hr = random.Random(7)
        write(holes, "y,s,t", [(i % 2, "" if i % 97 == 13 else round(hr.random(), 3),
                                "" if i % 89 == 50 else round(hr.random(), 3)) for i in range(2000)])
        for args in (["compare", holes, "--label", "y", "--score", "s", "--score", "t"],
                     ["compare", empty, "--label", "y", "--score", "s", "--score", "t"],
                     ["compare", models, "--label", "label", "--score", "a", "--score", "b"],
                     ["compare", models, "--label", "label", "--score", "a", "--score", "nope", "--pos-label", "spam"]):
            code1, _, err1 = run(args)
            for n in RANKS:
                code, out, err = run(args, n)
                check(f"compare error {args[-1]} -n {n}", code1 != 0 and code == code1 and out == b""
                      and err.startswith(err1), f"exit {code} vs {code1}; {err[-800:]} vs {err1}")

    # A row of class probabilities that does not sum to 1: the one-process message (no rank: rank 0's
    # check of all the rows), exit 3.
    if not ONLY or "curve proba off" in ONLY:
        args = ["curve", "roc", proba, "--label", "y", "--proba", "a", "b", "c"]
        code1, _, err1 = run(args)
        for n in RANKS:
            code, out, err = run(args, n)
            check(f"curve proba off 1 -n {n}", code1 == 3 and code == 3 and out == b"" and err.startswith(err1),
                  f"exit {code}; {err[-800:]} vs {err1}")

    # --plot: the SVG rank 0 draws equals the one-process SVG (and --output with it).
    if not ONLY or "curve plots" in ONLY:
        for n in RANKS:
            for kind in ("roc", "calibration"):
                args = ["curve", kind, binary, "--label", "label", "--score", "score", "--pos-label", "spam"]
                files1 = [os.path.join(tmp, f"plot1.{x}") for x in ("svg", "csv")]
                files = [os.path.join(tmp, f"plot{n}.{x}") for x in ("svg", "csv")]
                code1, out1, err1 = run(args + ["--plot", files1[0], "--output", files1[1]])
                code, out, err = run(args + ["--plot", files[0], "--output", files[1]], n)
                same = all(open(a, "rb").read() == open(b, "rb").read() for a, b in zip(files1, files))
                check(f"curve {kind} --plot --output -n {n}", code1 == 0 and code == 0 and out == out1 == b"" and same,
                      f"exit {code}; stderr: {err[-1500:]}")

    # A bad row in the part rank 1 reads (at 1.5/N of the file): exit 3, rank 1's message with the
    # file's line number (the one-process message), and no output file. With 4 ranks rank 3's part has
    # a bad row too: the lowest failing rank's message is the one shown.
    if not ONLY or "bad row" in ONLY:
        for n in RANKS:
            bad, ats = spoiled_copy(binary, os.path.join(tmp, f"bad{n}.csv"), n)
            args = ["report", bad, "--label", "label", "--score", "score", "--pos-label", "spam"]
            code1, _, err1 = run(args)
            expected = err1.strip().split("assay report: ", 1)[-1]
            check(f"bad row, one process ({n})", code1 == 3 and f"bad{n}.csv:{ats[0] + 1}:" in err1, err1)
            out_path = os.path.join(tmp, f"bad-{n}.txt")
            code, out, err = run(args + ["--output", out_path], n)
            check(f"bad row -n {n}: exit 3, rank 1's message with the file's line, no output",
                  code == 3 and f"assay report: rank 1 of {n}: {expected}" in err
                  and out == b"" and not os.path.exists(out_path) and not os.path.exists(out_path + ".assay-tmp"),
                  f"exit {code}; expected {expected!r}; stderr: {err[-1500:]}")
            # assay compare: the same row refused by rank 1 with the one-process message; neither the
            # output file nor the HTML page is written.
            args = ["compare", bad, "--label", "label", "--score", "score", "--score", "w", "--pos-label", "spam"]
            code1, _, err1 = run(args)
            expected = err1.strip().split("assay compare: ", 1)[-1]
            check(f"compare bad row, one process ({n})", code1 == 3 and f"bad{n}.csv:{ats[0] + 1}:" in err1, err1)
            html_path = os.path.join(tmp, f"bad-{n}.html")
            code, out, err = run(args + ["--output", out_path, "--html", html_path], n)
            check(f"compare bad row -n {n}: exit 3, rank 1's message with the file's line, no output",
                  code == 3 and f"assay compare: rank 1 of {n}: {expected}" in err and out == b""
                  and not any(os.path.exists(p) for p in (out_path, out_path + ".assay-tmp", html_path,
                                                           html_path + ".assay-tmp")),
                  f"exit {code}; expected {expected!r}; stderr: {err[-1500:]}")

    # The same under --by: rank 1's part (and rank 3's) has the bad row; its message, no output file.
    if not ONLY or "by bad row" in ONLY:
        for n in RANKS:
            bad, ats = spoiled_copy(sliced, os.path.join(tmp, f"bybad{n}.csv"), n)
            args = ["report", bad, "--label", "label", "--score", "score", "--pos-label", "spam", "--by", "country",
                    "--format", "json"]
            code1, _, err1 = run(args)
            expected = err1.strip().split("assay report: ", 1)[-1]
            check(f"by bad row, one process ({n})", code1 == 3 and f"bybad{n}.csv:{ats[0] + 1}:" in err1, err1)
            out_path = os.path.join(tmp, f"bybad-{n}.json")
            code, out, err = run(args + ["--output", out_path], n)
            check(f"by bad row -n {n}: exit 3, rank 1's message with the file's line, no output",
                  code == 3 and f"assay report: rank 1 of {n}: {expected}" in err
                  and out == b"" and not os.path.exists(out_path) and not os.path.exists(out_path + ".assay-tmp"),
                  f"exit {code}; expected {expected!r}; stderr: {err[-1500:]}")

    # Refused under several ranks, naming the option or the kind of curve or comparison.
    if not ONLY or "refused" in ONLY:
        base = ["report", binary, "--label", "label", "--score", "score", "--pos-label", "spam"]
        for extra, option in ((["--max-memory", "64M"], "--max-memory"),
                              (["--by", "w", "--max-memory", "64M"], "--max-memory")):
            code, out, err = run(base + extra, 2)
            check(f"refused {' '.join(extra[:-1])} -n 2", code == 2 and f"assay report: {option} does not work on several MPI ranks" in err
                  and out == b"", f"exit {code}; {err[-800:]}")
        curve = ["--label", "label", "--score", "score", "--pos-label", "spam"]
        for args, what in ((["curve", "roc", "-"] + curve, "assay curve roc does not work on several MPI ranks with "
                                                           "standard input"),
                           (["compare", binary, binary, "--label", "label", "--score", "score", "--pos-label", "spam"],
                            "assay compare: two files (two independent samples) does not work on several MPI ranks"),
                           (["compare", binary, "--sample", "w", "--label", "label", "--score", "score",
                             "--pos-label", "spam"], "assay compare: --sample does not work on several MPI ranks"),
                           (["compare", "-", "--label", "label", "--score", "score", "--score", "w"],
                            "assay compare: standard input ('-') does not work on several MPI ranks")):
            code, out, err = run(args, 2)
            check(f"refused {' '.join(args[:2])} -n 2", code == 2 and what in err and out == b"", err[-800:])
        quoted = os.path.join(tmp, "quoted.csv")
        write(quoted, "y,s,note", [(1, 0.5, '"a, b"'), (0, 0.25, "c")])
        code, out, err = run(["report", quoted, "--label", "y", "--score", "s"], 2)
        check("refused quotes -n 2", code == 3 and "quote characters" in err and out == b"", err[-800:])

    # assay cv: the splits spread over the ranks; the result equals the one-process run except the
    # wall times and the thread count (the lanes of every rank together), which are masked here.
    if not ONLY or "cv" in ONLY:
        data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "data")
        iris, breast = os.path.join(data, "iris.csv"), os.path.join(data, "breast_cancer.csv")
        timing = re.compile(rb'("(?:seconds|fit_seconds|predict_seconds|cpu_seconds|model_cpu_seconds|'
                            rb'encode_cpu_seconds|threads)": )[0-9.e+-]+')
        first_line = re.compile(rb"^(Cross-validation of .*?: \d+ splits(?: \(\d+ repeats\))?), .*\n")
        cv_cases = {
            "cv iris json": (["cv", iris, "--target", "species", "--learner", "gaussian_nb", "--folds", "5",
                              "--repeats", "3", "--seed", "7", "--format", "json"], timing),
            "cv breast text": (["cv", breast, "--target", "diagnosis", "--pos-label", "malignant", "--learner", "logistic:C=0.5", "--folds", "7",
                                "--repeats", "2", "--seed", "3", "--no-folds"], first_line),
        }
        for name, (args, mask) in cv_cases.items():
            code1, out1, err1 = run(args)
            check(name + " (one process succeeds)", code1 == 0 and out1, err1)
            for n in RANKS:
                code, out, err = run(args, n)
                check(f"{name} -n {n}", code == 0 and mask.sub(rb"\1", out) == mask.sub(rb"\1", out1),
                      f"exit {code}; stderr: {err[-1500:]}\n{out[:600]!r}\n{out1[:600]!r}")
        one, many = os.path.join(tmp, "oof1.csv"), os.path.join(tmp, "oof4.csv")
        args = ["cv", iris, "--target", "species", "--learner", "knn", "--folds", "6", "--seed", "2"]
        run(args + ["--oof-predictions", one])
        code, _, err = run(args + ["--oof-predictions", many], 4)
        check("cv out-of-fold predictions -n 4", code == 0 and open(one, "rb").read() == open(many, "rb").read(), err)
        # Splits 1 and 2 (0-based) fail: an external learner that refuses a test part holding a row of
        # fold 1 or of fold 2. The run fails with split 2's message (the first in split order, as one
        # process reports it), though with 2 ranks rank 0 fails too (split 2) and rank 1 has split 1.
        code, out, _ = run(["split", iris, "--target", "species", "--method", "stratified-kfold", "--folds", "5"])
        fold_of = dict(line.split(",") for line in out.decode().splitlines()[1:])
        with open(iris) as f:
            rows = [",".join(line.split(",")[:4]) for line in f.read().splitlines()[1:]]
        unique = [i for i, r in enumerate(rows) if rows.count(r) == 1]
        marks = [rows[next(i for i in unique if fold_of[str(i)] == fold)] for fold in ("1", "2")]
        learner = ("if grep -qx -e '{}' -e '{}' {{test}}; then echo refused >&2; exit 1; fi; "
                   "(echo pred; tail -n +2 {{test}} | sed 's/.*/0/') > {{predictions}}").format(*marks)
        args = ["cv", iris, "--target", "species", "--method", "stratified-kfold", "--folds", "5",
                "--external-command", learner]
        code1, _, err1 = run(args)
        check("cv failing splits, one process", code1 == 3 and "split 2 (of 5)" in err1, err1)
        for n in RANKS:
            code, out, err = run(args, n)
            check(f"cv failing splits -n {n}: the first failing split's message", code == 3 and out == b""
                  and err1.strip() in err and "rank" not in err.split("\n")[0], err[-1500:])
        code, out, err = run(["cv", iris, "--target", "species", "--metric", "no_such_metric"], 2)
        check("cv bad metric -n 2", code == 2 and "no_such_metric" in err and out == b"", err[-800:])

    if failures:
        print(f"{len(failures)} failed: {failures}")
        sys.exit(1)
    print("all passed")


main()
