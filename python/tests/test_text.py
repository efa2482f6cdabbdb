"""assay.text against sacreBLEU 2.6.0 (corpus_bleu, sentence_bleu, corpus_chrf, sentence_chrf; scores
compared to 1e-12 absolute, lengths and counts exactly) on varied sentences, and BERTScore against
a NumPy transcription of its formula."""

import math
import re

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

import assay
from assay import text

HYPS = [
    "The cat sat on the mat.",
    "It costs $3.50, or 4,000 yen -- cheap!",
    "",
    "Über 2019. naïve café résumé, «quoted» — dash",
    "A B C D E F G",
    "the the the the",
    "Numbers: 1,234.56 and 3-4 items (approx.)",
    "東京は日本の首都です。",
    "He said: \"don't\" &amp; left...",
    "short",
]
REFS_A = [
    "The cat is sitting on the mat.",
    "It costs $3.50 or 4,000 yen - cheap!",
    "Nothing was said.",
    "Über 2019, naïve café resume «quoted» - dash",
    "A B C D E F G",
    "the cat",
    "Numbers: 1,234.56 and 3 - 4 items (approx.)",
    "東京は日本の首都である。",
    "He said \"don't\" & left.",
    "a much longer reference sentence than the hypothesis",
]
REFS_B = [
    "A cat sat on a mat.",
    "The price is 3.50 dollars or 4000 yen; cheap!",
    "Nothing.",
    "",  # an empty reference is skipped
    "a b c d e f g",
    "the the cat",
    "numbers 1234.56 and 3-4 items",
    "首都は東京です。",
    "He said: don't & left...",
    "short one",
]


def same_bleu(ours, theirs, add_k=None):
    assert float(ours) == pytest.approx(theirs.score, abs=1e-12)
    assert ours.score == float(ours)
    assert ours.precisions == pytest.approx(theirs.precisions, abs=1e-12)
    assert ours.bp == pytest.approx(theirs.bp, abs=1e-12)
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    counts, totals = list(theirs.counts), list(theirs.totals)
    if add_k is not None and any(ours.counts):
        # sacreBLEU's add-k adds k into the counts and totals it returns (orders 2..4); ours are raw.
        counts = counts[:1] + [c - add_k for c in counts[1:]]
        totals = totals[:1] + [t - add_k for t in totals[1:]]
    assert ours.counts == counts and ours.totals == totals


@pytest.mark.parametrize("tokenize", ["13a", "intl", "none"])
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("smooth", [("exp", None), ("none", None), ("floor", 0.1), ("floor", 0.3), ("add-k", 1),
                                    ("add-k", 2)])
@pytest.mark.parametrize("nrefs", [1, 2])
def test_corpus_bleu_matches_sacrebleu(tokenize, lowercase, smooth, nrefs):
    refs = [REFS_A, REFS_B][:nrefs]
    method, value = smooth
    ours = text.bleu(HYPS, refs, tokenize=tokenize, lowercase=lowercase, smooth_method=method, smooth_value=value)
    theirs = sacrebleu.corpus_bleu(HYPS, refs, tokenize=tokenize, lowercase=lowercase, smooth_method=method,
                                   smooth_value=value)
    same_bleu(ours, theirs, value if method == "add-k" else None)


def test_corpus_bleu_effective_order_and_subsets():
    for lo, hi in [(0, 1), (2, 3), (5, 6), (0, 4), (4, 10)]:
        h, r = HYPS[lo:hi], [REFS_A[lo:hi], REFS_B[lo:hi]]
        if not any(x.strip() for x in r[0]) and not any(x.strip() for x in r[1]):
            continue
        for eff in (False, True):
            same_bleu(text.bleu(h, r, use_effective_order=eff), sacrebleu.corpus_bleu(h, r, use_effective_order=eff))


@pytest.mark.parametrize("tokenize", ["13a", "intl"])
@pytest.mark.parametrize("smooth", ["exp", "none", "floor", "add-k"])
def test_sentence_bleu_matches_sacrebleu(tokenize, smooth):
    for i, h in enumerate(HYPS):
        refs = [r for r in (REFS_A[i], REFS_B[i]) if r]
        ours = text.sentence_bleu(h, refs, tokenize=tokenize, smooth_method=smooth)
        theirs = sacrebleu.sentence_bleu(h, refs, tokenize=tokenize, smooth_method=smooth)
        k = 1 if smooth == "add-k" else None
        same_bleu(ours, theirs, k)
        single = text.sentence_bleu(h, refs[:1], tokenize=tokenize, smooth_method=smooth, use_effective_order=False)
        same_bleu(single, sacrebleu.sentence_bleu(h, refs[:1], tokenize=tokenize, smooth_method=smooth,
                                                  use_effective_order=False), k)


def test_bleu_signature_and_repr():
    s = text.bleu(HYPS, [REFS_A], lowercase=True)
    assert "nrefs:1" in s.signature and "case:lc" in s.signature and "tok:13a" in s.signature
    assert repr(s).startswith(f"BLEU = {float(s):.2f}")
    assert isinstance(s, assay.Estimate) and s.ci is None


def test_bleu_interval():
    hyps, refs = HYPS * 3, [REFS_A * 3, REFS_B * 3]
    s = text.bleu(hyps, refs, ci=0.9, n_boot=300, seed=7)
    assert s.level == 0.9 and s.ci[0] <= float(s) <= s.ci[1]
    assert "sentences" in s.method and "300 replicates" in s.method
    assert text.bleu(hyps, refs, ci=0.9, n_boot=300, seed=7).ci == s.ci
    same_bleu(s, sacrebleu.corpus_bleu(hyps, refs))


@pytest.mark.parametrize("char_order,word_order,beta", [(6, 0, 2), (6, 2, 2), (4, 0, 1), (6, 1, 3), (3, 2, 2)])
@pytest.mark.parametrize("nrefs", [1, 2])
def test_chrf_matches_sacrebleu(char_order, word_order, beta, nrefs):
    refs = [REFS_A, REFS_B][:nrefs]
    ours = text.chrf(HYPS, refs, char_order=char_order, word_order=word_order, beta=beta)
    theirs = sacrebleu.corpus_chrf(HYPS, refs, char_order=char_order, word_order=word_order, beta=beta)
    assert float(ours) == pytest.approx(theirs.score, abs=1e-12)
    for i, h in enumerate(HYPS):
        rs = [r for r in (REFS_A[i], REFS_B[i])[:nrefs]]
        ours = text.sentence_chrf(h, rs, char_order=char_order, word_order=word_order, beta=beta)
        theirs = sacrebleu.sentence_chrf(h, rs, char_order=char_order, word_order=word_order, beta=beta)
        assert float(ours) == pytest.approx(theirs.score, abs=1e-12), i


@pytest.mark.parametrize("lowercase,whitespace,eps", [(True, False, False), (False, True, False),
                                                      (False, False, True), (True, True, True)])
def test_chrf_options_match_sacrebleu(lowercase, whitespace, eps):
    metric = CHRF(word_order=2, lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps)
    ours = text.chrf(HYPS, [REFS_A, REFS_B], word_order=2, lowercase=lowercase, whitespace=whitespace,
                     eps_smoothing=eps)
    assert float(ours) == pytest.approx(metric.corpus_score(HYPS, [REFS_A, REFS_B]).score, abs=1e-12)


def reference_bertscore(cand, ref, cw=None, rw=None):
    p, r, f = [], [], []
    for i, (c, x) in enumerate(zip(cand, ref)):
        c = c / np.linalg.norm(c, axis=1, keepdims=True)
        x = x / np.linalg.norm(x, axis=1, keepdims=True)
        sim = x @ c.T  # reference tokens x candidate tokens
        wc = np.ones(len(c)) if cw is None else np.asarray(cw[i])
        wr = np.ones(len(x)) if rw is None else np.asarray(rw[i])
        rec = (wr * sim.max(axis=1)).sum() / wr.sum()
        pre = (wc * sim.max(axis=0)).sum() / wc.sum()
        p.append(pre)
        r.append(rec)
        f.append(2 * pre * rec / (pre + rec))
    return np.array(p), np.array(r), np.array(f)


def test_bertscore_matches_formula():
    rng = np.random.default_rng(3)
    cand = [rng.normal(size=(n, 16)) for n in (3, 5, 1, 7)]
    ref = [rng.normal(size=(n, 16)) for n in (4, 5, 2, 6)]
    got = text.bertscore(cand, ref)
    p, r, f = reference_bertscore(cand, ref)
    assert np.allclose(got["P"], p, rtol=0, atol=1e-12)
    assert np.allclose(got["R"], r, rtol=0, atol=1e-12)
    assert np.allclose(got["F"], f, rtol=0, atol=1e-12)
    assert float(got["mean_F"]) == pytest.approx(f.mean(), abs=1e-12)
    cw = [rng.uniform(0.1, 2, len(c)) for c in cand]
    rw = [rng.uniform(0.1, 2, len(x)) for x in ref]
    got = text.bertscore(cand, ref, idf=True, cand_idf=cw, ref_idf=rw)
    p, r, f = reference_bertscore(cand, ref, cw, rw)
    assert np.allclose(got["F"], f, rtol=0, atol=1e-12)
    b = (0.2, 0.3, 0.25)
    got = text.bertscore(cand, ref, baseline=b)
    p, r, f = reference_bertscore(cand, ref)
    assert np.allclose(got["P"], (p - b[0]) / (1 - b[0]), rtol=0, atol=1e-12)
    assert np.allclose(got["F"], (f - b[2]) / (1 - b[2]), rtol=0, atol=1e-12)


def test_bertscore_idf_from_tokens():
    rng = np.random.default_rng(4)
    cand_tokens = [["a", "b"], ["c", "a", "d"]]
    ref_tokens = [["a", "b", "e"], ["a", "c"]]
    cand = [rng.normal(size=(len(t), 8)) for t in cand_tokens]
    ref = [rng.normal(size=(len(t), 8)) for t in ref_tokens]
    got = text.bertscore(cand, ref, idf=True, cand_tokens=cand_tokens, ref_tokens=ref_tokens)
    m = len(ref_tokens)

    def idf(w):
        return math.log((m + 1) / (sum(w in set(t) for t in ref_tokens) + 1))

    p, r, f = reference_bertscore(cand, ref, [[idf(w) for w in t] for t in cand_tokens],
                                  [[idf(w) for w in t] for t in ref_tokens])
    assert np.allclose(got["F"], f, rtol=0, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("call,message", [
    (lambda: text.bleu(HYPS, [REFS_A, REFS_B[:3]]), "bleu: references[1] has 3 lines but hypotheses has 10"),
    (lambda: text.bleu(HYPS, REFS_A), "bleu: references[0] must be a list of strings, not a single string"),
    (lambda: text.bleu("a b", [["a b"]]), "bleu: hypotheses must be a list of strings"),
    (lambda: text.bleu(HYPS, []), "bleu: references is empty"),
    (lambda: text.bleu([1, 2], [["a", "b"]]), "bleu: hypotheses[0] is int"),
    (lambda: text.bleu(HYPS, [REFS_A], tokenize="zh"), "bleu: tokenize is 'zh'"),
    (lambda: text.bleu(HYPS, [REFS_A], smooth_method="add_k"), "bleu: smooth_method"),
    (lambda: text.bleu(HYPS, [REFS_A], ci=95), "bleu: ci is 95"),
    (lambda: text.bleu(["a\ud800"], [["a"]]), "bleu: hypotheses[0] is not valid Unicode"),
    (lambda: text.sentence_bleu(["a"], ["a"]), "sentence_bleu: hypothesis must be a string"),
    (lambda: text.sentence_bleu("a", []), "sentence_bleu: references is empty"),
    (lambda: text.chrf(HYPS, [REFS_A[:2]]), "chrf: references[0] has 2 lines but hypotheses has 10"),
    (lambda: text.chrf(HYPS, [REFS_A], char_order=0, word_order=0), "chrf: char_order + word_order is 0"),
    (lambda: text.chrf(HYPS, [REFS_A], beta=0), "chrf: beta is 0"),
    (lambda: text.bertscore([np.ones((2, 3))], [np.ones((2, 4))]), "bertscore: sentence 0: cand_embeddings[0]"),
    (lambda: text.bertscore([np.ones((2, 3))], []), "bertscore: cand_embeddings has 1 sentences"),
    (lambda: text.bertscore([np.zeros((2, 3))], [np.ones((2, 3))]), "bertscore: cand_embeddings[0] has a zero"),
    (lambda: text.bertscore([np.ones(3)], [np.ones((2, 3))]), "bertscore: cand_embeddings[0] must have shape"),
    (lambda: text.bertscore([np.ones((2, 3))], [np.ones((2, 3))], idf=True), "bertscore: idf=True needs"),
])
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


@pytest.mark.parametrize("hyps, refs", [
    (["a b c", "x"], [["a b c", ""], ["a b", "x y"]]),  # the empty reference is the closest length
    (["a b", "c d e"], [["", ""], ["a b", ""]]),         # a segment whose references are all empty
    (["a b"], [[""]]),
    (["", "q"], [["", "q r"], ["s", ""]]),
])
def test_empty_references_count_as_in_sacrebleu(hyps, refs):
    # sacreBLEU 2.6 keeps an empty reference (length 0, no n-grams): it can be the closest
    # reference length of BLEU and the best-F reference of chrF.
    sacrebleu = pytest.importorskip("sacrebleu")
    want = sacrebleu.corpus_bleu(hyps, refs)
    got = text.bleu(hyps, refs)
    assert float(got) == pytest.approx(want.score, abs=1e-12)
    assert got.ref_len == want.ref_len
    assert float(text.chrf(hyps, refs)) == pytest.approx(sacrebleu.corpus_chrf(hyps, refs).score, abs=1e-12)


def test_submodule_is_reachable():
    assert assay.text is text and "text" in assay.__all__
