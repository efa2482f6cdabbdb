#!/usr/bin/env python3
"""ROUGE on 10^5 sentence pairs: assay (the `assay text rouge` process, and assay.text.rouge in
Python on one thread) against Google's rouge-score (RougeScorer.score per pair, then the mean, as
its BootstrapAggregator centres on; the bootstrap itself is not timed on either side), in the same
run (issue 30, "Speed": target assay >= 20x rouge-score).

    .venv/bin/python bench/compare_rouge.py [--pairs N] [--runs R] [--peer-runs P] [--no-stem]

Data: N synthetic pairs (seed 1): 12-40 words drawn from a Zipf-like vocabulary of 20,000 words
made of English stems and suffixes (so the stemmer has work), with capitals, punctuation and a
newline between sentences (for rougeLsum); written once to ${TMPDIR:-/tmp}/assay_rouge. Types:
rouge1, rouge2, rougeL, rougeLsum; use_stemmer=True unless --no-stem. Prints every run, the
medians (wall clock, and CPU time = user + system of all threads, which a busy shared machine
disturbs less), the ratios and the three tools' means (they must agree to 1e-9).
"""
import argparse
import importlib.metadata as md
import itertools
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def vocabulary(rng, size):
    stems = ["connect", "relat", "general", "nation", "hope", "run", "fly", "happy", "form", "adjust", "depend",
             "adopt", "commun", "activ", "effect", "sens", "electr", "cond", "operat", "analys", "summar", "report",
             "govern", "market", "develop", "announc", "presid", "minist", "compan", "servic", "product", "educat"]
    suffixes = ["", "s", "ed", "ing", "ion", "ions", "al", "ally", "ive", "ness", "ment", "ments", "er", "ers", "ly",
                "ity", "ize", "ization", "able", "ful", "ous", "ies", "e", "es"]
    words = {s + x for s in stems for x in suffixes}
    letters = "abcdefghijklmnopqrstuvwxyz"
    while len(words) < size:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(2, 10))))
    return sorted(words)


def sentence(rng, vocab, cum):
    n = rng.randint(6, 20)
    words = rng.choices(vocab, cum_weights=cum, k=n)
    words[0] = words[0].capitalize()
    return " ".join(w + (rng.choice([",", ".", ";"]) if rng.random() < 0.08 else "") for w in words) + "."


def generate(path, pairs):
    rng = random.Random(1)
    vocab = vocabulary(rng, 20000)
    cum = list(itertools.accumulate(1.0 / (k + 1) for k in range(len(vocab))))
    rng.shuffle(vocab)
    with open(os.path.join(path, "hyp.txt"), "w") as h, open(os.path.join(path, "ref.txt"), "w") as r:
        for _ in range(pairs):
            ref = [sentence(rng, vocab, cum) for _ in range(rng.randint(1, 2))]
            hyp = [" ".join(w if rng.random() < 0.6 else rng.choices(vocab, cum_weights=cum)[0] for w in s.split())
                   for s in ref]
            h.write(" <n> ".join(hyp) + "\n")
            r.write(" <n> ".join(ref) + "\n")


def read(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").replace(" <n> ", "\n") for line in f]


def run_assay_cli(assay, d, stem):
    cmd = [assay, "text", "rouge", "--hyp", os.path.join(d, "hyp.txt"), "--ref", os.path.join(d, "ref.txt"),
           "--sentence-separator", " <n> ", "--format", "json"] + (["--stem"] if stem else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    j = json.loads(out)
    return (wall, cpu), {k: [j[k]["precision"], j[k]["recall"], j[k]["fmeasure"]] for k in TYPES}


def run_assay_py(hyps, refs, stem):
    from assay import text
    t, c = time.perf_counter(), time.process_time()
    r = text.rouge(hyps, refs, rouge_types=TYPES, use_stemmer=stem)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return (wall, cpu), {k: [float(x) for x in r[k]] for k in TYPES}


def run_peer(hyps, refs, stem):
    from rouge_score import rouge_scorer
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    t, c = time.perf_counter(), time.process_time()
    sums = {k: [0.0, 0.0, 0.0] for k in TYPES}
    for h, r in zip(hyps, refs):
        s = scorer.score(r, h)
        for k in TYPES:
            for i in range(3):
                sums[k][i] += s[k][i]
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return (wall, cpu), {k: [x / len(hyps) for x in v] for k, v in sums.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peer-runs", type=int, default=3)
    ap.add_argument("--no-stem", action="store_true")
    ap.add_argument("--assay", default=os.environ.get("ASSAY", os.path.join(HERE, "..", "build", "assay")))
    a = ap.parse_args()
    stem = not a.no_stem
    d = os.path.join(os.environ.get("TMPDIR", "/tmp"), "assay_rouge", str(a.pairs))
    os.makedirs(d, exist_ok=True)
    if not os.path.exists(os.path.join(d, "ref.txt")):
        print(f"generating {a.pairs} pairs in {d} ...", flush=True)
        generate(d, a.pairs)
    hyps, refs = read(os.path.join(d, "hyp.txt")), read(os.path.join(d, "ref.txt"))
    print(f"{len(hyps)} pairs, types {','.join(TYPES)}, use_stemmer={stem}; rouge-score {md.version('rouge-score')}, "
          f"nltk {md.version('nltk')}; {os.cpu_count()} CPUs", flush=True)
    times = {"assay CLI": [], "assay Python (1 thread)": [], "rouge-score": []}
    means = {}
    for i in range(max(a.runs, a.peer_runs)):
        if i < a.runs:
            w, means["assay CLI"] = run_assay_cli(a.assay, d, stem)
            times["assay CLI"].append(w)
            w, means["assay Python (1 thread)"] = run_assay_py(hyps, refs, stem)
            times["assay Python (1 thread)"].append(w)
        if i < a.peer_runs:
            w, means["rouge-score"] = run_peer(hyps, refs, stem)
            times["rouge-score"].append(w)
        print(f"run {i + 1} (wall/cpu s): " + ", ".join(f"{k} {v[-1][0]:.3f}/{v[-1][1]:.3f}" for k, v in times.items()
                                                    if len(v) > i), flush=True)
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    print(f"{'median':<31} {'wall':>9} {'cpu':>9}")
    for k, (w, c) in med.items():
        print(f"  {k:<29} {w:8.3f}s {c:8.3f}s   ({len(times[k])} runs)")
    pw, pc = med["rouge-score"]
    for k in ("assay CLI", "assay Python (1 thread)"):
        print(f"ratio rouge-score / {k}: wall {pw / med[k][0]:.1f}x, cpu {pc / med[k][1]:.1f}x (target >= 20x)")
    worst = 0.0
    for t in TYPES:
        print(f"{t:<10} " + "  ".join(f"{k}: F={means[k][t][2]:.6f}" for k in means))
        worst = max(worst, *(abs(means[k][t][i] - means["rouge-score"][t][i]) for k in means for i in range(3)))
    print(f"largest difference from rouge-score's means: {worst:.2e}")
    sys.exit(0 if worst < 1e-9 else 1)


if __name__ == "__main__":
    main()
