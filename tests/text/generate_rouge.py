#!/usr/bin/env python3
"""Writes reference ROUGE scores and Porter stems for assay's ROUGE tests, from the peers themselves.

The peers are Google's rouge-score (rouge_scorer.RougeScorer, scoring.BootstrapAggregator) and the
PorterStemmer of NLTK in the mode rouge-score constructs it with (PorterStemmer(), whose default
mode is NLTK_EXTENSIONS); their versions are written into the JSON. Run from the repository root
with the project's virtual environment (python/requirements.txt pins rouge-score):
    .venv/bin/python tests/text/generate_rouge.py
It writes
  tests/text/data/rouge_cases.json   inputs, options and rouge-score's (P, R, F) per case and type;
                                     one corpus with BootstrapAggregator's low/mid/high
  tests/text/data/porter_words.json  words and nltk's stems: the words of the Python standard
                                     library's sources, synthetic stem + suffix forms and odd strings
"""
import importlib.metadata as md
import json
import os
import platform
import random
import re
import sys
import sysconfig

import numpy as np
from nltk.stem import porter
from rouge_score import rouge_scorer, scoring

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data")
TYPES = ["rouge1", "rouge2", "rouge3", "rouge5", "rougeL", "rougeLsum"]

# Words that exercise the stemmer's rules, in a few inflections each.
VOCAB = ("the a of cat cats dog dogs running runs ran run relational conditional national hopeful hopefulness "
         "generalization generalize generalizes flies flying fly tied ties died dying agreed feed plastered "
         "motoring sing hopping falling hissing fizzed failing filing happy sky skies news innings proceeding "
         "exceeded electrical formality sensitivity adjustment dependent adoption communism activate "
         "effective bowdlerize probate rate cease controlling roll summaries summarization 2019 3d covid19 "
         "x y z i s analogously differently vietnamization operator feudalism callousness").split()
UNICODE = ["İstanbul", "KELVIN", "\u212aelvin ok", "café naïve résumé", "東京 tokyo", "Ελληνικά greek", "emoji 🙂 smile",
           "straße strasse", "ǅemal", "ﬁne ﬂow", "Ⅻ roman", "１２３ fullwidth 123", "dash—dash", "tab\tsep", "über",
           "İİİ", "x\u0307y"]
PUNCT = [".", ",", "!", "?", "'s", "-", "(", ")", ";", ":", "\"", "...", "n't", "/"]


def sentence(rng, lo, hi):
    words = []
    for _ in range(rng.randint(lo, hi)):
        r = rng.random()
        if r < 0.08:
            words.append(rng.choice(UNICODE))
        elif r < 0.18:
            words.append(rng.choice(PUNCT))
        else:
            w = rng.choice(VOCAB)
            if rng.random() < 0.15:
                w = w.capitalize() if rng.random() < 0.5 else w.upper()
            words.append(w)
    return " ".join(words)


def document(rng, sentences, lo, hi):
    return "\n".join(sentence(rng, lo, hi) for _ in range(sentences))


def hand_cases():
    """(hypothesis, references) pairs for the corner cases."""
    return [
        ("", [""]), ("", ["the cat"]), ("the cat", [""]), ("!!! ...", ["the cat"]), ("the cat", ["?!"]),
        ("the cat sat on the mat", ["the cat sat on the mat"]), ("the the the the", ["the cat the"]),
        ("a", ["a"]), ("a b", ["b a"]), ("İstanbul", ["i stanbul"]), ("\u212a", ["k"]), ("café", ["caf"]),
        ("東京", ["東京"]), ("running flies", ["run fly"]), ("generalizations", ["generalize"]),
        ("the cat\nsat on\n\nthe mat", ["the mat\nthe cat sat"]), ("one two\n\n\nthree", ["\n\none\n"]),
        ("x\r\ny", ["x y"]), ("a b c d e f", ["a b c", "d e f", "a b c d e f"]), ("a b", ["c d", "e f"]),
        ("police killed the gunman", ["police kill the gunman", "the gunman kill police"]),
        ("w1 w2 w3 w4 w5 w6 w7", ["w1 w2 w3 w4 w5 w6 w7 w8"]),
    ]


def random_cases(rng):
    cases = []
    for _ in range(160):  # sentences, 1 to 3 references
        hyp = sentence(rng, 0, 20) if rng.random() > 0.05 else ""
        refs = [sentence(rng, 0, 20) if rng.random() > 0.05 else "" for _ in range(rng.choice([1, 1, 2, 3]))]
        cases.append((hyp, refs))
    for _ in range(30):  # multi-sentence summaries
        cases.append((document(rng, rng.randint(1, 4), 0, 12), [document(rng, rng.randint(1, 4), 0, 12)]))
    for _ in range(4):  # long documents
        cases.append((document(rng, 12, 10, 30), [document(rng, 10, 10, 30), document(rng, 14, 10, 30)]))
    return cases


def score(scorer, hyp, refs):
    s = scorer.score(refs[0], hyp) if len(refs) == 1 else scorer.score_multi(refs, hyp)
    return {t: [s[t].precision, s[t].recall, s[t].fmeasure] for t in TYPES}


def write(name, obj):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=None, separators=(",", ":"))
        f.write("\n")


def rouge_cases():
    rng = random.Random(20261128)
    scorers = {stem: rouge_scorer.RougeScorer(TYPES, use_stemmer=stem) for stem in (False, True)}
    cases = []
    for i, (hyp, refs) in enumerate(hand_cases() + random_cases(rng)):
        for stem in (False, True):
            if stem and i % 2 and len(hyp) < 200:
                continue  # half the short cases once, with and without stemming
            cases.append({"hyp": hyp, "refs": refs, "stem": stem, "scores": score(scorers[stem], hyp, refs)})
    # One corpus of single-reference sentences and rouge-score's bootstrap (random: seeded here).
    corpus = [(sentence(rng, 3, 25), sentence(rng, 3, 25)) for _ in range(200)]
    agg = scoring.BootstrapAggregator(confidence_interval=0.95, n_samples=10000)
    per = []
    for h, r in corpus:
        s = scorers[True].score(r, h)
        agg.add_scores(s)
        per.append({t: [s[t].precision, s[t].recall, s[t].fmeasure] for t in TYPES})
    np.random.seed(7)
    res = agg.aggregate()
    bootstrap = {"confidence_interval": 0.95, "n_samples": 10000, "numpy_seed": 7, "stem": True,
                 "hyps": [h for h, _ in corpus], "refs": [r for _, r in corpus], "scores": per,
                 "aggregate": {t: {k: list(getattr(res[t], k)) for k in ("low", "mid", "high")} for t in TYPES}}
    return {"generator": "tests/text/generate_rouge.py", "rouge_score_version": md.version("rouge-score"),
            "nltk_version": md.version("nltk"), "numpy_version": np.__version__, "python": platform.python_version(),
            "types": TYPES, "cases": cases, "bootstrap": bootstrap}


def stdlib_words():
    words = set()
    root = sysconfig.get_paths()["stdlib"]
    for dirpath, _, files in os.walk(root):
        if "site-packages" in dirpath or "test" in dirpath:
            continue
        for f in sorted(files):
            if f.endswith(".py"):
                with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                    words.update(w for w in re.findall(r"[a-z]+", fh.read().lower()) if len(w) > 3)
    return words


def porter_words():
    rng = random.Random(1980)
    words = sorted(stdlib_words())
    rng.shuffle(words)
    words = sorted(words[:12000])
    stems = ["hop", "fil", "relat", "condit", "valen", "digit", "conform", "radic", "differ", "analog", "predic",
             "oper", "feud", "decis", "callous", "formal", "sensit", "sensib", "triplic", "electr", "good", "reviv",
             "allow", "infer", "airlin", "gyroscop", "adjust", "defens", "irrit", "replac", "depend", "adopt",
             "homolog", "commun", "activ", "angular", "effect", "bowdler", "prob", "ceas", "contr", "sky", "spy",
             "geo", "theo", "archaeo", "y", "yy", "by", "toy", "syzyg", "tr", "ee", "oat", "ivy", "orrer", "a", "e"]
    suffixes = ["", "s", "es", "ies", "sses", "ss", "ed", "eed", "ied", "ing", "ings", "y", "ly", "ational", "tional",
                "enci", "anci", "izer", "abli", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator",
                "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "fulli", "logi", "logy",
                "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able",
                "ible", "ant", "ement", "ment", "ent", "sion", "tion", "ion", "ou", "ism", "ate", "iti", "ous", "ive",
                "ize", "e", "ll", "lled", "lling", "at", "bl", "iz", "ated", "bled", "ized", "tting", "zzed"]
    synthetic = {s + x for s in stems for x in suffixes}
    odd = {"yyyy", "yyyyy", "aaaa", "2019s", "1990", "abc123ing", "x1y2", "ies", "ied", "sses", "eed", "ing", "ings",
           "dies", "ties", "lies", "pies", "died", "tied", "spied", "dying", "lying", "tying", "news", "innings",
           "inning", "outings", "outing", "cannings", "canning", "howe", "proceed", "exceed", "succeed", "skies",
           "sky", "a", "is", "as", "us", "ow", "owed", "bowed", "tyyyy", "quy", "yes", "eyed", "agreed", "feed"}
    words = sorted(set(words) | synthetic | odd)
    stemmer = porter.PorterStemmer()
    return {"generator": "tests/text/generate_rouge.py", "nltk_version": md.version("nltk"), "mode": stemmer.mode,
            "python": platform.python_version(), "source": "Python standard library words (12,000 drawn), "
            "stem x suffix forms, odd strings", "words": words, "stems": [stemmer.stem(w) for w in words]}


def main():
    os.makedirs(OUT, exist_ok=True)
    write("rouge_cases.json", rouge_cases())
    write("porter_words.json", porter_words())
    print("wrote rouge_cases.json and porter_words.json with rouge-score", md.version("rouge-score"), "nltk",
          md.version("nltk"), file=sys.stderr)


if __name__ == "__main__":
    main()
