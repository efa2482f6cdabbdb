"""assay.text.ter / sentence_ter / paired_test against sacreBLEU 2.6.0, called here: TER scores and
signatures exactly for each option set, on Unicode, empty and multi-reference input; paired
bootstrap and approximate randomisation p-values exactly (the resamples are NumPy's draws for the
seed), bootstrap means and interval half-widths to 1e-5 (sacreBLEU scores its resamples in single
precision); and the messages for bad input."""

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

from assay import text

HYPS = ["The cat sat on the mat.", "", "ΣΊΣΥΦΟΣ said: \"hi\" &amp; left", "我爱北京天安门。",
        "on the mat the cat sat", "a b c d e f g h", "x"]
REFS = [["The cat is on the mat.", "the ref", "σίσυφος said hi & left", "我 爱 北京", "the cat sat on the mat",
         "h g f e d c b a", ""],
        ["A cat sat on a mat", "", "Sisyphus said hi", "我爱北京", "the cat sat on the mat", "a b c", "x y"]]
OPTIONS = [{}, {"normalized": True}, {"no_punct": True, "case_sensitive": True},
           {"normalized": True, "asian_support": True, "no_punct": True}]


def sig_body(s):
    return s[:s.index("|version:")]


@pytest.mark.parametrize("opts", OPTIONS)
def test_ter_matches_sacrebleu(opts):
    for refs in (REFS, REFS[:1]):
        m = TER(**opts)
        want = m.corpus_score(HYPS, refs)
        got = text.ter(HYPS, refs, **opts)
        assert float(got) == want.score
        assert got.num_edits == want.num_edits
        assert got.ref_length == want.ref_length
        assert sig_body(got.signature) == sig_body(str(m.get_signature()))
    for h, r in zip(HYPS, REFS[0]):
        assert float(text.sentence_ter(h, [r], **opts)) == TER(**opts).sentence_score(h, [r]).score


def test_ter_interval_contains_score():
    s = text.ter(HYPS, REFS, ci=0.9, n_boot=300, seed=3)
    assert s.ci[0] <= float(s) <= s.ci[1] and s.level == 0.9


@pytest.mark.parametrize("method,n", [("bs", 300), ("ar", 400)])
def test_paired_matches_sacrebleu(monkeypatch, method, n):
    monkeypatch.setenv("SACREBLEU_SEED", "4242")
    base = [f"{h} extra" if i % 2 else h for i, h in enumerate(HYPS * 3)]
    sys1 = [r for r in REFS[0] * 3]
    sys2 = [h[::-1] for h in HYPS * 3]
    refs = [s * 3 for s in REFS]  # with its empty references (length 0 in BLEU and TER, F 0 in chrF)
    named = [("b", base), ("s1", sys1), ("s2", sys2)]
    metrics = {"BLEU": BLEU(), "chrF": CHRF(), "TER": TER()}
    sigs, scores = PairedTest(named, metrics, references=refs, test_type=method, n_samples=n)()
    for metric, key in (("bleu", "BLEU"), ("chrf", "chrF2"), ("ter", "TER")):
        got, sig = text.paired_test(base, [sys1, sys2], refs, metric=metric, method=method, n_samples=n, seed=4242)
        assert sig_body(sig) == sig_body(str(sigs[key]))
        for g, w in zip(got, scores[key]):
            assert g.score == pytest.approx(w.score, abs=1e-9)
            assert g.p_value == w.p_value
            if w.mean is None:
                assert g.mean is None and g.ci is None
            else:
                assert g.mean == pytest.approx(float(w.mean), abs=1e-5)
                assert g.ci == pytest.approx(float(w.ci), abs=1e-5)


def test_bad_input_messages():
    with pytest.raises(ValueError, match=r"ter: references\[0\] has 1 lines but hypotheses has 2"):
        text.ter(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match=r"paired_test: systems\[0\] has 1 lines but baseline has 2"):
        text.paired_test(["a", "b"], [["a"]], [["a", "b"]])
    with pytest.raises(ValueError, match=r"paired_test: metric is 'rouge'"):
        text.paired_test(["a"], [["a"]], [["a"]], metric="rouge")
    with pytest.raises(ValueError, match=r"paired_test: 'beta' is not an option of ter"):
        text.paired_test(["a"], [["a"]], [["a"]], metric="ter", beta=3)
    with pytest.raises(ValueError, match=r"paired_test: systems is empty"):
        text.paired_test(["a"], [], [["a"]])
    with pytest.raises(ValueError, match=r"sentence_ter: hypothesis must be a string"):
        text.sentence_ter(3, ["a"])
    with pytest.raises(ValueError, match=r"ter: hypotheses\[1\] is not valid Unicode"):
        text.ter(["a", "\ud800"], [["a", "b"]])


def test_sacrebleu_version():
    assert sacrebleu.__version__ == "2.6.0"
