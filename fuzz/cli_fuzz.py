#!/usr/bin/env python3
"""End-to-end mutation fuzzer of the assay CLI over prediction files.

Deterministic (seeded): run i mutates a seed file with random.Random(f"{seed}:{i}") and runs one
command line through the built `assay` binary: `report`, `curve` or `compare`, in every output
format (text, JSON, CSV, HTML, SVG). A run fails when

  - the process is killed by a signal, or exits with a code other than 0, 2, 3 or 4;
  - standard error holds "internal error", or a sanitizer report (AddressSanitizer, LeakSanitizer,
    UndefinedBehaviorSanitizer's "runtime error:");
  - it does not finish within --timeout seconds;
  - it succeeds but an output is not valid UTF-8 (the rule of include/assay/io/text.hpp), or a JSON
    output does not parse.

Seeds: fuzz/cli_seeds/* and the CSV fuzzer's corpus fuzz/corpus/* (whose first 4 bytes are that
fuzzer's settings, dropped here). Mutations: bit flips, insertions of special bytes (NUL, CR, LF,
quote, comma, tab, bytes that are not UTF-8), fields replaced by huge or tiny numbers and nan/inf
spellings, truncation, deleted ranges, duplicated rows and columns, a header name copied over
another, line ends converted to CR or CRLF.

Usage:
  fuzz/cli_fuzz.py --assay build/assay --iterations 2000 [--seed 1] [--save-dir DIR]
  fuzz/cli_fuzz.py --assay build/assay --seconds 3600          # long run (fuzz/run_cli.sh)
  fuzz/cli_fuzz.py --assay build/assay --replay DIR            # re-run saved failures

Each failing input is written to --save-dir (default build/cli-fuzz-failures) as <hash>.<ext> with
<hash>.json holding the command line; keep it as a regression case in tests/cli/fuzz_regressions/
(replayed by tests/cli/fuzz_regressions_cli_test.cpp). Exit status 1 if any run failed.
"""
import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

SPECIAL_BYTES = [b"\0", b"\r", b"\n", b"\r\n", b'"', b",", b"\t", b"\xff", b"\xc3", b"\xe9", b"\xed\xa0\x80",
                 b"\xef\xbb\xbf", b"\xc0\xaf", b"\xf4\x90\x80\x80", b'""', b";", b" "]
SPECIAL_FIELDS = [b"1e309", b"-1e309", b"1e-400", b"99999999999999999999999999", b"-0", b"nan", b"NaN", b"inf",
                  b"-inf", b"Infinity", b"", b" ", b"0x1p3", b"+", b"-", b".", b"1e", b"0.5.1", b"1,5", b"\xff",
                  b"2", b"-1", b"3", b"a", b"\xc3\xa9", b"1.7976931348623157e308", b"4.9e-324", b'"1"']


def load_seeds():
    seeds = []
    for name in sorted(os.listdir(os.path.join(HERE, "cli_seeds"))):
        with open(os.path.join(HERE, "cli_seeds", name), "rb") as f:
            seeds.append((name, f.read()))
    corpus = os.path.join(HERE, "corpus")
    for name in sorted(os.listdir(corpus)):
        with open(os.path.join(corpus, name), "rb") as f:
            seeds.append((name, f.read()[4:]))  # the CSV fuzzer's 4 settings bytes
    return seeds


def mutate(data, rng):
    lines = data.split(b"\n")
    kind = rng.choice([0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 11, 12])
    if kind == 0 and data:  # flip a bit
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]
    if kind == 1:  # insert special bytes
        i = rng.randrange(len(data) + 1)
        return data[:i] + rng.choice(SPECIAL_BYTES) + data[i:]
    if kind in (2, 3) and len(lines) > 1:  # replace a field
        r = rng.randrange(len(lines))
        fields = lines[r].split(b",")
        fields[rng.randrange(len(fields))] = rng.choice(SPECIAL_FIELDS)
        lines[r] = b",".join(fields)
        return b"\n".join(lines)
    if kind == 4:  # truncate
        return data[:rng.randrange(len(data) + 1)]
    if kind == 5 and data:  # delete a range
        i = rng.randrange(len(data))
        return data[:i] + data[i + rng.randint(1, 8):]
    if kind == 6 and len(lines) > 1:  # duplicate rows
        r = rng.randrange(len(lines))
        return b"\n".join(lines[:r] + [lines[r]] * rng.randint(2, 50) + lines[r + 1:])
    if kind == 7 and lines:  # duplicate a column (by comma)
        k = rng.randrange(4)
        out = []
        for line in lines:
            fields = line.split(b",")
            out.append(line + b"," + fields[k % len(fields)] if line else line)
        return b"\n".join(out)
    if kind == 8 and lines:  # copy a header name over another
        fields = lines[0].split(b",")
        if len(fields) > 1:
            a, b = rng.randrange(len(fields)), rng.randrange(len(fields))
            fields[b] = fields[a]
            lines[0] = b",".join(fields)
        return b"\n".join(lines)
    if kind == 9:  # line ends
        return data.replace(b"\r\n", b"\n").replace(b"\n", rng.choice([b"\r", b"\r\n"]))
    if kind == 10 and len(lines) > 2:  # swap lines (the header may move)
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
        return b"\n".join(lines)
    if kind == 11 and len(lines) > 1:  # a class the label column has not seen
        r = rng.randrange(1, len(lines))
        lines[r] = rng.choice([b"\xff", b"x\xe9", b"2", b"-1", b"\xc3\xa9t\xc3\xa9", b"\xed\xa0\x80"]) + lines[r][1:]
        return b"\n".join(lines)
    if kind == 12 and len(lines) > 1:  # a class a prediction column has not seen (4th field: pred)
        r = rng.randrange(1, len(lines))
        fields = lines[r].split(b",")
        if len(fields) >= 4:
            fields[3] = rng.choice([b"\xfe", b"1\x80", b"7", b"\xe2\x82\xac"])
            lines[r] = b",".join(fields)
        return b"\n".join(lines)
    return data + rng.choice(SPECIAL_BYTES)


def command(seed_name, path, out_dir, rng):
    """One command line for a file derived from seed `seed_name`."""
    multi = seed_name.startswith("multi")
    fmt = rng.choice(["text", "json"])
    out = os.path.join(out_dir, "out")
    cmd = rng.choice(["report", "report", "curve", "compare"])
    extra = []
    if cmd == "report":
        if multi:
            pred = rng.choice([["--pred", "pred"], ["--proba", "pa", "pb", "pc"]])
        else:
            pred = rng.choice([["--score", "score"], ["--pred", "pred"], ["--score", "2"]])
            if rng.random() < 0.3:
                extra += ["--weight", "w"]
        if rng.random() < 0.3:
            extra += ["--ci"]
            if rng.random() < 0.3:
                extra += ["--ci-method", "bootstrap", "--replicates", "200"]
        if rng.random() < 0.4:
            extra += ["--html", os.path.join(out_dir, "report.html")]
        args = ["report", path, "--label", "label"] + pred + extra + ["--format", fmt, "--output", out]
    elif cmd == "curve":
        kind = rng.choice(["roc", "pr", "threshold", "rejection", "calibration"])
        fmt = rng.choice(["csv", "json"])
        if multi:
            pred = ["--proba", "pa", "pb", "pc"]
        else:
            pred = rng.choice([["--score", "score"], ["--score", "score", "score2"]])
        if kind == "threshold" and rng.random() < 0.5:
            extra += ["--cost-fp", "1", "--cost-fn", "5"]
        if rng.random() < 0.5:
            extra += ["--plot", os.path.join(out_dir, "plot.svg")]
        args = ["curve", kind, path, "--label", "label"] + pred + extra + ["--format", fmt, "--output", out]
    else:
        if multi:
            pred = ["--pred", "pred", "--pred", "label"]
        else:
            pred = rng.choice([["--score", "score", "--score", "score2"], ["--pred", "pred", "--pred", "label"]])
        if rng.random() < 0.3:
            extra += ["--metric", rng.choice(["accuracy", "roc_auc", "f1"]), "--replicates", "100",
                      "--permutations", "100"]
        if rng.random() < 0.4:
            extra += ["--html", os.path.join(out_dir, "compare.html")]
        args = ["compare", path, "--label", "label"] + pred + extra + ["--format", fmt, "--output", out]
    if rng.random() < 0.2:
        args += ["--pos-label", rng.choice(["1", "a", "0"])]
    return args, fmt


SANITIZER_MARKS = ["internal error", "AddressSanitizer", "LeakSanitizer", "runtime error:", "ThreadSanitizer"]


def check_run(assay, args, fmt, out_dir, timeout):
    """Runs one command; returns a failure description, or None."""
    for name in ("out", "report.html", "compare.html", "plot.svg"):
        p = os.path.join(out_dir, name)
        if os.path.exists(p):
            os.remove(p)
    try:
        r = subprocess.run([assay] + args, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timeout after {timeout} s"
    err = r.stderr.decode("utf-8", "backslashreplace")
    if r.returncode < 0:
        return f"killed by signal {-r.returncode}: {err[-2000:]}"
    for mark in SANITIZER_MARKS:
        if mark in err:
            return f"exit {r.returncode}, stderr has {mark!r}: {err[-2000:]}"
    if r.returncode not in (0, 2, 3, 4):
        return f"exit {r.returncode}: {err[-2000:]}"
    if r.returncode != 0:
        if not err.strip():
            return f"exit {r.returncode} with no message"
        return None
    for name in ("out", "report.html", "compare.html", "plot.svg"):
        p = os.path.join(out_dir, name)
        if not os.path.exists(p):
            continue
        with open(p, "rb") as f:
            data = f.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            return f"output {name} is not valid UTF-8: {e}"
        if name == "out" and fmt == "json":
            try:
                json.loads(text)
            except ValueError as e:
                return f"JSON output does not parse: {e}"
    return None


def save_failure(save_dir, ext, data, args, path, why):
    os.makedirs(save_dir, exist_ok=True)
    h = hashlib.sha1(data + "\0".join(args).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    with open(os.path.join(save_dir, f"{h}{ext}"), "wb") as f:
        f.write(data)
    shown = ["{file}" if a == path else os.path.basename(a) if os.path.dirname(a) else a for a in args]
    with open(os.path.join(save_dir, f"{h}.json"), "w") as f:
        json.dump({"input": f"{h}{ext}", "args": shown, "failure": why}, f, indent=1)
    return h


def replay(assay, directory, timeout):
    failures = 0
    with tempfile.TemporaryDirectory(prefix="assay_cli_fuzz_") as tmp:
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(directory, name)) as f:
                case = json.load(f)
            path = os.path.join(directory, case["input"])
            args = [path if a == "{file}" else os.path.join(tmp, a) if a in ("out", "report.html", "compare.html", "plot.svg") else a
                    for a in case["args"]]
            fmt = args[args.index("--format") + 1] if "--format" in args else "text"
            why = check_run(assay, args, fmt, tmp, timeout)
            if why:
                failures += 1
                print(f"FAIL {name}: {why}")
    print(f"replayed: {failures} failed")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--assay", required=True, help="the assay binary")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=0, help="run for this long instead (0: --iterations)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--save-dir", default=None)
    ap.add_argument("--replay", default=None, help="re-run the saved failures in this directory")
    a = ap.parse_args()
    assay = os.path.abspath(a.assay)
    if a.replay:
        return replay(assay, a.replay, a.timeout)
    save_dir = a.save_dir or os.path.join(os.path.dirname(assay), "cli-fuzz-failures")
    seeds = load_seeds()
    failures, runs, exits = 0, 0, {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="assay_cli_fuzz_") as tmp:
        i = 0
        while (a.seconds > 0 and time.monotonic() - start < a.seconds) or (a.seconds <= 0 and i < a.iterations):
            rng = random.Random(f"{a.seed}:{i}")
            seed_name, data = seeds[rng.randrange(len(seeds))]
            for _ in range(rng.randint(1, 4)):
                data = mutate(data, rng)
            ext = os.path.splitext(seed_name)[1] or ".csv"
            path = os.path.join(tmp, "input" + ext)
            with open(path, "wb") as f:
                f.write(data)
            args, fmt = command(seed_name, path, tmp, rng)
            why = check_run(assay, args, fmt, tmp, a.timeout)
            runs += 1
            if why:
                failures += 1
                h = save_failure(save_dir, ext, data, args, path, why)
                print(f"FAIL run {i} ({h}): assay {' '.join(args)}\n  {why}", flush=True)
            i += 1
    import resource
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"cli_fuzz: {runs} runs in {time.monotonic() - start:.1f} s (assay CPU {child.ru_utime + child.ru_stime:.1f} s), "
          f"seed {a.seed}")
    print(f"{runs - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
