"""assay.text.rouge / sentence_rouge / rouge_tokenize against rouge-score 0.1.2 in the same run
(RougeScorer.score and score_multi, with and without its Porter stemmer; scores compared to 1e-12),
on unicode text, empty hypotheses and references, several references and multi-sentence texts;
and whole error messages for bad arguments."""

import math
import pickle
import random

import numpy as np
import pytest
from rouge_score import rouge_scorer, tokenizers

from assay import text

TYPES = ["rouge1", "rouge2", "rouge4", "rouge6", "rougeL", "rougeLsum"]
WORDS = ("the cat cats running runs flies flying happy happiness generalization national relational "
         "İstanbul \u212aelvin café 東京 naïve don't 2019 3d , . ! ? - ( ) résumé ΣΊΣΥΦΟΣ sky skies").split()


def _sentence(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def _text(rng):
    if rng.random() < 0.1:
        return ""
    return "\n".join(_sentence(rng, 0, 12) for _ in range(rng.randint(1, 3)))


@pytest.fixture(scope="module")
def corpus():
    rng = random.Random(5)
    hyps = [_text(rng) for _ in range(120)] + ["", "", "x", "!!!"]
    refs = [[_text(rng) for _ in hyps] for _ in range(3)]
    refs[0][-4] = ""  # both empty
    return hyps, refs


@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("nrefs", [1, 3])
def test_sentence_rouge_matches_rouge_score(corpus, stem, nrefs):
    hyps, refs = corpus
    refs = refs[:nrefs]
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    got = text.sentence_rouge(hyps, refs if nrefs > 1 else refs[0], rouge_types=TYPES, use_stemmer=stem)
    for i, h in enumerate(hyps):
        rs = [r[i] for r in refs]
        want = scorer.score(rs[0], h) if nrefs == 1 else scorer.score_multi(rs, h)
        for t in TYPES:
            for k in range(3):
                assert got[t][k][i] == pytest.approx(want[t][k], abs=1e-12), (i, t, k, h, rs)


def test_mean_and_interval(corpus):
    hyps, refs = corpus
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True)
    per = [scorer.score(r, h) for h, r in zip(hyps, refs[0])]
    got = text.rouge(hyps, refs[0], rouge_types=["rouge1", "rougeLsum"], use_stemmer=True, ci=0.9, n_boot=300,
                     seed=2)
    for t in ("rouge1", "rougeLsum"):
        for k, name in enumerate(("precision", "recall", "fmeasure")):
            e = getattr(got[t], name)
            assert float(e) == pytest.approx(np.mean([s[t][k] for s in per]), abs=1e-12)
            assert e.ci[0] <= float(e) <= e.ci[1] and e.level == 0.9
            assert e.method == "bootstrap percentile, resampling hypotheses, 300 replicates, seed 2"
    again = text.rouge(hyps, refs[0], rouge_types=["rouge1", "rougeLsum"], use_stemmer=True, ci=0.9, n_boot=300,
                       seed=2)
    assert again["rouge1"].fmeasure.ci == got["rouge1"].fmeasure.ci  # seeded: reproducible
    assert pickle.loads(pickle.dumps(got))["rouge1"].recall == got["rouge1"].recall


def test_tokenizer_matches_rouge_score():
    for stem in (False, True):
        tok = tokenizers.DefaultTokenizer(use_stemmer=stem)
        for s in ["Hello, İstanbul \u212a!", "RUNNING flies über-cool", "", "a\u0130b", "ΣΊΣΥΦΟΣ 123abc"]:
            assert text.rouge_tokenize(s, use_stemmer=stem) == tok.tokenize(s), s


def test_no_hypotheses_is_undefined():
    r = text.rouge([], [[]])
    assert math.isnan(r["rouge1"].fmeasure) and r["rouge1"].fmeasure.reason == "no segments to average"


@pytest.mark.parametrize("call, message", [
    (lambda: text.rouge(["a"], ["a"], rouge_types=["rougeW"]),
     "rouge: rouge_types[0] is 'rougeW'; a ROUGE type is rouge1 .. rouge9, rougeL or rougeLsum"),
    (lambda: text.rouge(["a"], ["a"], rouge_types=[]),
     "rouge: rouge_types is empty; give at least one of rouge1 .. rouge9, rougeL, rougeLsum"),
    (lambda: text.rouge(["a", "b"], ["a"]), "rouge: references[0] has 1 lines but hypotheses has 2"),
    (lambda: text.rouge("a", ["a"]), "rouge: hypotheses must be a list of strings, not a single string"),
    (lambda: text.rouge(["a"], [[3]]), "rouge: references[0][0] is int, not a string"),
    (lambda: text.rouge(["\ud800"], ["a"]), "rouge: hypotheses[0] is not valid Unicode (a lone surrogate)"),
    (lambda: text.rouge(["a"], ["a"], ci=1.5), "rouge: ci is 1.5; it must be None or a level in (0, 1), e.g. 0.95"),
    (lambda: text.sentence_rouge(["a"], ["a"], rouge_types=["rouge1", "rouge1"]),
     "sentence_rouge: rouge_types names 'rouge1' twice"),
])
def test_bad_arguments(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == message
