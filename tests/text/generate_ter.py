#!/usr/bin/env python3
"""Writes reference TER scores and paired-test results from sacreBLEU for assay's text tests.

Calls sacreBLEU itself (pinned 2.6.0, recorded in the output with NumPy's version): TER with each of
its tokenizer options on hand-made and generated sentence pairs (Unicode, empty hypotheses and
references, several references, reordered sentences that need shifts, long sentences that reach the
band of the edit distance and the limit on candidate shifts), the per-segment statistics, the
signature; and sacreBLEU's paired bootstrap and approximate randomisation tests (significance.py's
PairedTest, the same code `sacrebleu --paired-bs/--paired-ar` runs) for BLEU, chrF and TER, plus
raw draws of numpy.random.default_rng for the generator tests.

Run from the repository root (the worktree's venv has sacreBLEU):
    .venv/bin/python tests/text/generate_ter.py
It writes tests/text/data/ter.json.
"""
import json
import os
import platform
import random

import numpy as np
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "ter.json")

HAND = [
    ("the cat sat on the mat", ["the cat sat on the mat"]),
    ("on the mat the cat sat", ["the cat sat on the mat"]),
    ("", ["a reference"]),
    ("a hypothesis", [""]),
    ("", [""]),
    ("The Quick, brown fox!", ["the quick brown fox .", "A quick brown fox"]),
    ("ΣΊΣΥΦΟΣ ΟΔΥΣΣΕΑΣ τοῦ", ["σίσυφος οδυσσέας του"]),
    ("İstanbul'da ŞEHİR", ["istanbul'da şehir"]),
    ("Das ist's &quot;gut&quot; &amp; 3.14, 1,000 -5 x-y", ["das ist 's \" gut \" & 3.14 , 1,000 -5 x - y"]),
    ("我爱北京天安门。你好！", ["我 爱 北京 天安门 。", "你好"]),
    ("日本語のテキスト、カタカナ", ["日本語 の テキスト"]),
    ("  spaces\u3000and\u00a0tabs\t here  ", ["spaces and tabs here"]),
    ("a b c d e f", ["f e d c b a", "a b c", ""]),
    ("one two three four five six seven eight", ["five six seven eight one two three four"]),
    ("(quoted) text: yes; no? ok!", ["quoted text yes no ok"]),
]

OPTIONS = [
    {},
    {"case_sensitive": True},
    {"normalized": True},
    {"no_punct": True},
    {"normalized": True, "asian_support": True},
    {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True},
    {"no_punct": True, "asian_support": True},
]

VOCAB = "the a of to and in is that it was for on are with as I his they be at one have this from or had by hot word".split()
VOCAB += ["Über", "naïve", "café", "東京", "ΑΣ", "ß", "x.", "y,", "z!"]


def sentence(rng, n):
    return " ".join(rng.choice(VOCAB) for _ in range(n))


def perturb(rng, words):
    w = list(words)
    for _ in range(rng.randint(0, 3)):  # move a block
        if len(w) < 3:
            break
        a = rng.randrange(len(w))
        b = min(len(w), a + rng.randint(1, 4))
        block = w[a:b]
        del w[a:b]
        t = rng.randrange(len(w) + 1)
        w[t:t] = block
    for _ in range(rng.randint(0, 3)):  # substitute, delete, insert
        k = rng.random()
        if w and k < 0.33:
            w[rng.randrange(len(w))] = rng.choice(VOCAB)
        elif w and k < 0.66:
            del w[rng.randrange(len(w))]
        else:
            w.insert(rng.randrange(len(w) + 1), rng.choice(VOCAB))
    return " ".join(w)


def generated(rng, count, lo, hi, nrefs):
    hyps, refs = [], [[] for _ in range(nrefs)]
    for _ in range(count):
        ref = sentence(rng, rng.randint(lo, hi))
        hyps.append(perturb(rng, ref.split()))
        for j in range(nrefs):
            refs[j].append(ref if j == 0 else perturb(rng, ref.split()))
    return hyps, refs


def ter_case(name, hyps, refs, opts):
    m = TER(**opts)
    stats = m._extract_corpus_statistics(hyps, [list(r) for r in refs])
    score = m.corpus_score(hyps, [list(r) for r in refs])
    return {
        "name": name, "options": opts, "hyps": hyps, "refs": refs,
        "edits": [s[0] for s in stats], "ref_len": [s[1] for s in stats],
        "tokens": [" ".join(m._preprocess_segment(h).split()) for h in hyps],
        "score": score.score, "signature": str(m.get_signature()),
    }


def num(x):
    """A float for JSON (sacreBLEU's bootstrap means and intervals are NumPy float32), or None."""
    return None if x is None else float(x)


def paired(method, seed, samples, systems, refs):
    os.environ["SACREBLEU_SEED"] = str(seed)
    metrics = {"BLEU": BLEU(), "chrF": CHRF(), "TER": TER()}
    named = [(f"sys{i}", s) for i, s in enumerate(systems)]
    sigs, scores = PairedTest(named, metrics, references=refs, test_type=method,
                                                     n_samples=samples)()
    out = {}
    for key, name in (("bleu", "BLEU"), ("chrf", "chrF2"), ("ter", "TER")):
        out[key] = {"signature": str(sigs[name]),
                    "results": [{"score": num(r.score), "p_value": num(r.p_value), "mean": num(r.mean), "ci": num(r.ci)}
                                for r in scores[name]]}
    return {"method": method, "seed": seed, "samples": samples, "metrics": out}


def main():
    rng = random.Random(20261128)
    cases = []
    hyps = [h for h, _ in HAND]
    nref = max(len(r) for _, r in HAND)
    refs = [[r[j] if j < len(r) else r[0] for _, r in HAND] for j in range(nref)]
    for i, opts in enumerate(OPTIONS):
        cases.append(ter_case(f"hand/{i}", hyps, refs, opts))
        cases.append(ter_case(f"hand-1ref/{i}", hyps, refs[:1], opts))
    h, r = generated(rng, 60, 0, 30, 1)
    cases.append(ter_case("generated/1ref", h, r, {}))
    h, r = generated(rng, 40, 1, 25, 3)
    cases.append(ter_case("generated/3refs", h, r, {"normalized": True}))
    # Long pairs: the band of the edit distance (|ref| / |hyp| far from 1) and the 1000-candidate limit.
    long_h, long_r = [], []
    for n_h, n_r in ((120, 40), (30, 140), (90, 90), (70, 75)):
        ref = sentence(rng, n_r).split()
        hyp = perturb(rng, (ref * 3)[:n_h]) if n_h > n_r else perturb(rng, ref[:n_h])
        for _ in range(6):
            hyp = perturb(rng, hyp.split())
        long_h.append(hyp)
        long_r.append(" ".join(ref))
    cases.append(ter_case("long", long_h, [long_r], {}))

    # Paired tests: a baseline and two systems on generated segments.
    base_h, p_refs = generated(rng, 50, 3, 20, 2)
    sys1 = [perturb(rng, r.split()) for r in p_refs[0]]
    sys2 = [perturb(rng, h.split()) for h in base_h]
    systems = [base_h, sys1, sys2]
    tests = [paired("bs", 12345, 1000, systems, p_refs), paired("ar", 12345, 2000, systems, p_refs),
             paired("bs", 7, 300, [base_h, base_h], p_refs), paired("ar", 99, 500, systems[:2], p_refs)]

    draws = {}
    for seed in (0, 1, 12345, 2**40 + 3):
        g = np.random.default_rng(seed)
        draws[str(seed)] = {"below_7": g.choice(7, size=20).tolist(),
                            "below_1000003": g.integers(0, 1000003, size=10).tolist(),
                            "bools": [int(x) for x in g.integers(2, size=70, dtype=bool)]}

    out = {"generator": "tests/text/generate_ter.py", "sacrebleu": sacrebleu.__version__,
           "numpy": np.__version__, "python": platform.python_version(),
           "ter": cases, "paired": {"systems": systems, "refs": p_refs, "tests": tests}, "draws": draws}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
    print(f"wrote {OUT}: {len(cases)} TER cases, {len(tests)} paired tests")


if __name__ == "__main__":
    main()
