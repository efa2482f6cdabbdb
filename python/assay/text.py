"""Text generation metrics: BLEU and chrF with sacreBLEU 2's numbers, and BERTScore from token
embeddings the caller computed (no model is downloaded), on the same C++ core as ``assay text``.

``references`` is a list of reference *streams*, as ``sacrebleu.corpus_bleu`` takes it:
``references[j][i]`` is reference j of hypothesis i.
"""

from __future__ import annotations

import math

import numpy as np

from assay import _core
from assay._estimate import Estimate, check_bootstrap_args

__all__ = ["BLEUScore", "bertscore", "bleu", "chrf", "sentence_bleu", "sentence_chrf"]
__all__ += ["RougeScore", "rouge", "rouge_tokenize", "sentence_rouge"]
__all__ += ["TERScore", "PairedResult", "paired_test", "sentence_ter", "ter"]


class _CorpusScore(Estimate):
    """A corpus score that is a float (an Estimate) with sacreBLEU's ``score`` attribute."""

    __slots__ = ()

    @property
    def score(self):
        return float(self)

    def _ci_text(self):
        return "" if self.ci is None else f" {100 * self.level:g}% CI [{self.ci[0]:.2f}, {self.ci[1]:.2f}]"


class BLEUScore(_CorpusScore):
    """A BLEU score (0..100) that is a float (an :class:`~assay.Estimate`, with ``ci`` when asked
    for) and carries sacreBLEU's ``BLEUScore`` fields: ``score``, ``precisions`` (4, after
    smoothing), ``bp``, ``sys_len``, ``ref_len``, ``counts``, ``totals`` and ``signature``.
    ``counts`` and ``totals`` are the n-gram matches and totals before smoothing (sacreBLEU's
    add-k adds k into the ones it returns)."""

    __slots__ = ("precisions", "bp", "sys_len", "ref_len", "counts", "totals", "signature")

    def __new__(cls, d, ci=None, level=None, method=None):
        self = super().__new__(cls, d["score"], ci=ci, level=level, method=method)
        self.precisions = list(d["precisions"])
        self.bp = d["bp"]
        self.sys_len = int(d["sys_len"])
        self.ref_len = int(d["ref_len"])
        self.counts = [int(c) for c in d["counts"]]
        self.totals = [int(t) for t in d["totals"]]
        self.signature = d.get("signature", "")
        return self

    def __repr__(self):
        p = "/".join(f"{x:.1f}" for x in self.precisions)
        return (f"BLEU = {float(self):.2f} {p} (BP = {self.bp:.3f} hyp_len = {self.sys_len} "
                f"ref_len = {self.ref_len}){self._ci_text()}")

    def __reduce__(self):
        d = {"score": float(self), "precisions": self.precisions, "bp": self.bp, "sys_len": self.sys_len,
             "ref_len": self.ref_len, "counts": self.counts, "totals": self.totals, "signature": self.signature}
        return (BLEUScore, (d, self.ci, self.level, self.method))


def _lines(fn, name, x):
    if isinstance(x, str):
        raise ValueError(f"{fn}: {name} must be a list of strings, not a single string")
    try:
        x = list(x)
    except TypeError:
        raise ValueError(f"{fn}: {name} must be a list of strings, got {type(x).__name__}") from None
    for i, s in enumerate(x):
        if not isinstance(s, str):
            raise ValueError(f"{fn}: {name}[{i}] is {type(s).__name__}, not a string")
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"{fn}: {name}[{i}] is not valid Unicode (a lone surrogate)") from None
    return x


def _streams(fn, hyps, references):
    if isinstance(references, str):
        raise ValueError(f"{fn}: references must be a list of reference streams (lists of strings), "
                         "not a single string")
    try:
        refs = list(references)
    except TypeError:
        raise ValueError(f"{fn}: references must be a list of reference streams, "
                         f"got {type(references).__name__}") from None
    if not refs:
        raise ValueError(f"{fn}: references is empty; give at least one reference stream")
    out = []
    for j, stream in enumerate(refs):
        stream = _lines(fn, f"references[{j}]", stream)
        if len(stream) != len(hyps):
            raise ValueError(f"{fn}: references[{j}] has {len(stream)} lines but hypotheses has {len(hyps)}")
        out.append(stream)
    return out


def _call(fn, core, *args):
    # The core's messages name the line ("line 3: BLEU: ..."); ours add the function.
    try:
        return core(*args)
    except ValueError as e:
        raise ValueError(f"{fn}: {e}") from None


def _lower(lowercase, hyps, refs):
    if not lowercase:
        return hyps, refs
    return [h.lower() for h in hyps], [[r.lower() for r in s] for s in refs]


def _smooth(fn, smooth_method, smooth_value):
    if smooth_method not in ("exp", "none", "floor", "add-k"):
        raise ValueError(f"{fn}: smooth_method is {smooth_method!r}; it must be 'exp', 'none', 'floor' or 'add-k'")
    if smooth_value is None:
        return -1.0
    v = float(smooth_value)
    if not math.isfinite(v) or v < 0:
        raise ValueError(f"{fn}: smooth_value is {smooth_value!r}; it must be a finite number >= 0")
    return v


def _tokenize(fn, tokenize):
    if tokenize not in ("13a", "intl", "none"):
        raise ValueError(f"{fn}: tokenize is {tokenize!r}; it must be '13a', 'intl' or 'none'")
    return tokenize


def bleu(hypotheses, references, *, tokenize="13a", lowercase=False, smooth_method="exp", smooth_value=None,
         use_effective_order=False, ci=None, n_boot=1000, seed=0):
    """Corpus BLEU, the number of ``sacrebleu.corpus_bleu(hypotheses, references, ...)``.

    Parameters
    ----------
    hypotheses : list of str
        One line per segment.
    references : list of list of str
        Reference streams, each with one line per hypothesis (empty lines are skipped, as sacreBLEU
        does, but each segment needs one non-empty reference).
    tokenize : {'13a', 'intl', 'none'}
    lowercase : bool
    smooth_method : {'exp', 'none', 'floor', 'add-k'}
    smooth_value : float, optional
        For 'floor' (default 0.1) and 'add-k' (default 1).
    use_effective_order : bool
    ci : float, optional
        Level of a percentile bootstrap interval, resampling segments (Koehn 2004).
    n_boot, seed : int
        Replicates and seed of that bootstrap.

    Returns
    -------
    BLEUScore
        A float (the score, 0..100) with ``precisions``, ``bp``, ``sys_len``, ``ref_len``,
        ``counts``, ``totals``, ``signature`` and, with ``ci``, ``ci``/``level``/``method``.
    """
    fn = "bleu"
    hyps = _lines(fn, "hypotheses", hypotheses)
    refs = _streams(fn, hyps, references)
    level, replicates, seed = check_bootstrap_args(fn, ci, n_boot, seed)
    sv = _smooth(fn, smooth_method, smooth_value)
    hyps, refs = _lower(lowercase, hyps, refs)
    d = _call(fn, _core.text_bleu, hyps, refs, _tokenize(fn, tokenize), smooth_method, sv,
              bool(use_effective_order), level, replicates, seed)
    if lowercase:
        d["signature"] = d["signature"].replace("case:mixed", "case:lc")
    if "ci" not in d:
        return BLEUScore(d)
    low, high, lvl, _dropped = d["ci"]
    return BLEUScore(d, ci=(low, high), level=lvl,
                     method=f"bootstrap percentile, resampling sentences, {replicates} replicates, seed {seed}")


def sentence_bleu(hypothesis, references, *, tokenize="13a", lowercase=False, smooth_method="exp",
                  smooth_value=None, use_effective_order=True):
    """Sentence BLEU of one hypothesis against its references (a list of strings), the number of
    ``sacrebleu.sentence_bleu(hypothesis, references, ...)`` (effective order by default)."""
    fn = "sentence_bleu"
    if not isinstance(hypothesis, str):
        raise ValueError(f"sentence_bleu: hypothesis must be a string, got {type(hypothesis).__name__}")
    hyps = _lines(fn, "hypothesis", [hypothesis])
    refs = _lines(fn, "references", references)
    if not refs:
        raise ValueError("sentence_bleu: references is empty; give at least one reference")
    sv = _smooth(fn, smooth_method, smooth_value)
    hyps, streams = _lower(lowercase, hyps, [[r] for r in refs])
    out = _call(fn, _core.text_sentence_bleu, hyps, streams, _tokenize(fn, tokenize), smooth_method, sv,
                bool(use_effective_order))
    return BLEUScore(out[0])


def _chrf_args(fn, char_order, word_order, beta):
    for name, v, lo in (("char_order", char_order, 0), ("word_order", word_order, 0)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
            raise ValueError(f"{fn}: {name} is {v!r}; it must be a whole number >= {lo}")
    if char_order + word_order < 1:
        raise ValueError(f"{fn}: char_order + word_order is 0; at least one order is needed")
    beta = float(beta)
    if not math.isfinite(beta) or beta <= 0:
        raise ValueError(f"{fn}: beta is {beta!r}; it must be a finite number > 0")
    return int(char_order), int(word_order), beta


def chrf(hypotheses, references, *, char_order=6, word_order=0, beta=2, lowercase=False, whitespace=False,
         eps_smoothing=False):
    """Corpus chrF (chrF++ with ``word_order=2``), 0..100: the number of
    ``sacrebleu.corpus_chrf(hypotheses, references, ...)``. ``whitespace=True`` keeps spaces in the
    character n-grams (sacreBLEU's ``whitespace``)."""
    fn = "chrf"
    hyps = _lines(fn, "hypotheses", hypotheses)
    refs = _streams(fn, hyps, references)
    c, w, b = _chrf_args(fn, char_order, word_order, beta)
    hyps, refs = _lower(lowercase, hyps, refs)
    scores, _sig = _call(fn, _core.text_chrf, hyps, refs, c, w, b, bool(whitespace), bool(eps_smoothing), False)
    return Estimate(scores[0])


def sentence_chrf(hypothesis, references, *, char_order=6, word_order=0, beta=2, lowercase=False,
                  whitespace=False, eps_smoothing=False):
    """Sentence chrF of one hypothesis against its references (a list of strings), as
    ``sacrebleu.sentence_chrf``."""
    fn = "sentence_chrf"
    if not isinstance(hypothesis, str):
        raise ValueError(f"{fn}: hypothesis must be a string, got {type(hypothesis).__name__}")
    refs = _lines(fn, "references", references)
    if not refs:
        raise ValueError(f"{fn}: references is empty; give at least one reference")
    c, w, b = _chrf_args(fn, char_order, word_order, beta)
    hyps, streams = _lower(lowercase, [hypothesis], [[r] for r in refs])
    scores, _sig = _call(fn, _core.text_chrf, hyps, streams, c, w, b, bool(whitespace), bool(eps_smoothing), True)
    return Estimate(scores[0])


def _embeddings(fn, name, x):
    if isinstance(x, np.ndarray) and x.ndim == 3:
        x = list(x)
    try:
        x = list(x)
    except TypeError:
        raise ValueError(f"{fn}: {name} must be a list of (tokens, dim) arrays") from None
    out = []
    for i, e in enumerate(x):
        try:
            e = np.ascontiguousarray(e, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{fn}: {name}[{i}] must be an array of numbers") from None
        if e.ndim != 2:
            raise ValueError(f"{fn}: {name}[{i}] must have shape (tokens, dim), got {e.shape}")
        if not np.isfinite(e).all():
            raise ValueError(f"{fn}: {name}[{i}] holds a value that is not finite")
        if e.shape[0] and not (np.linalg.norm(e, axis=1) > 0).all():
            raise ValueError(f"{fn}: {name}[{i}] has a zero vector (no direction for a cosine)")
        out.append(e)
    return out


def _optional_lists(fn, name, x, n, kind):
    if x is None:
        return None
    x = list(x)
    if len(x) != n:
        raise ValueError(f"{fn}: {name} has {len(x)} entries but there are {n} sentences")
    return [[kind(t) for t in s] for s in x]


def bertscore(cand_embeddings, ref_embeddings, *, idf=False, cand_tokens=None, ref_tokens=None, cand_idf=None,
              ref_idf=None, baseline=None):
    """BERTScore (Zhang et al., ICLR 2020) from token embeddings: one (tokens, dim) array per
    candidate and per reference sentence (e.g. a BERT layer's output, computed by the caller).

    With cosine similarities of the unit-normalised embeddings, R averages over reference tokens
    the best similarity with a candidate token, P the same over candidate tokens, F = 2PR/(P+R).
    ``idf=True`` weights tokens by idf: ``cand_idf``/``ref_idf`` weights if given, else
    log((M + 1) / (df + 1)) over the M references, which needs ``ref_tokens`` and ``cand_tokens``.
    ``baseline=(b_P, b_R, b_F)`` rescales each score s to (s - b) / (1 - b).

    Returns a dict: ``P``, ``R``, ``F`` (arrays, one per sentence, NaN where undefined) and
    ``mean_P``, ``mean_R``, ``mean_F`` (Estimates).
    """
    fn = "bertscore"
    cand = _embeddings(fn, "cand_embeddings", cand_embeddings)
    ref = _embeddings(fn, "ref_embeddings", ref_embeddings)
    if len(cand) != len(ref):
        raise ValueError(f"{fn}: cand_embeddings has {len(cand)} sentences but ref_embeddings has {len(ref)}")
    for i, (c, r) in enumerate(zip(cand, ref)):
        if c.shape[0] and r.shape[0] and c.shape[1] != r.shape[1]:
            raise ValueError(f"{fn}: sentence {i}: cand_embeddings[{i}] has dimension {c.shape[1]} but "
                             f"ref_embeddings[{i}] has {r.shape[1]}")
    ct = _optional_lists(fn, "cand_tokens", cand_tokens, len(cand), str)
    rt = _optional_lists(fn, "ref_tokens", ref_tokens, len(ref), str)
    ci_ = _optional_lists(fn, "cand_idf", cand_idf, len(cand), float)
    ri_ = _optional_lists(fn, "ref_idf", ref_idf, len(ref), float)
    for name, lists, arrays in (("cand_tokens", ct, cand), ("ref_tokens", rt, ref), ("cand_idf", ci_, cand),
                                ("ref_idf", ri_, ref)):
        if lists is not None:
            for i, (l, e) in enumerate(zip(lists, arrays)):
                if len(l) != e.shape[0]:
                    raise ValueError(f"{fn}: {name}[{i}] has {len(l)} entries but the sentence has "
                                     f"{e.shape[0]} embeddings")
    if idf and (ci_ is None or ri_ is None) and (ct is None or rt is None):
        raise ValueError(f"{fn}: idf=True needs cand_idf and ref_idf, or cand_tokens and ref_tokens to count")
    if baseline is not None:
        baseline = tuple(float(b) for b in baseline)
        if len(baseline) != 3 or any(not math.isfinite(b) or b >= 1 for b in baseline):
            raise ValueError(f"{fn}: baseline must be 3 finite numbers (P, R, F) below 1")
    r = _call(fn, _core.text_bertscore, cand, ref, ct, rt, ci_, ri_, bool(idf), baseline)
    return {"P": r["P"], "R": r["R"], "F": r["F"], "mean_P": Estimate(*r["mean_P"][:1], reason=r["mean_P"][1]),
            "mean_R": Estimate(*r["mean_R"][:1], reason=r["mean_R"][1]),
            "mean_F": Estimate(*r["mean_F"][:1], reason=r["mean_F"][1])}


# ---------------------------------------------------------------- TER and paired tests


class TERScore(_CorpusScore):
    """A TER score (0..100, may exceed 100) that is a float (an :class:`~assay.Estimate`, with ``ci``
    when asked for) and carries sacreBLEU's ``TERScore`` fields: ``score``, ``num_edits``,
    ``ref_length`` (the summed average reference length) and ``signature``."""

    __slots__ = ("num_edits", "ref_length", "signature")

    def __new__(cls, d, ci=None, level=None, method=None):
        self = super().__new__(cls, d["score"], ci=ci, level=level, method=method)
        self.num_edits = int(d["num_edits"])
        self.ref_length = float(d["ref_length"])
        self.signature = d.get("signature", "")
        return self

    def __repr__(self):
        return f"TER = {float(self):.2f}{self._ci_text()}"

    def __reduce__(self):
        d = {"score": float(self), "num_edits": self.num_edits, "ref_length": self.ref_length,
             "signature": self.signature}
        return (TERScore, (d, self.ci, self.level, self.method))


def _flags(**kw):
    return {k: bool(v) for k, v in kw.items()}


def ter(hypotheses, references, *, normalized=False, no_punct=False, asian_support=False, case_sensitive=False,
        ci=None, n_boot=1000, seed=0):
    """Corpus TER, the number of ``sacrebleu.corpus_ter(hypotheses, references, ...)`` (sacreBLEU's
    ``TER`` options: Tercom normalisation, punctuation removal, Asian support, case sensitivity).

    Parameters
    ----------
    hypotheses : list of str
    references : list of list of str
        Reference streams, each with one line per hypothesis; a segment's edits are those of its best
        reference and its length the mean of its references' lengths (empty references count).
    ci : float, optional
        Level of a percentile bootstrap interval, resampling segments.
    n_boot, seed : int
        Replicates and seed of that bootstrap.

    Returns
    -------
    TERScore
    """
    fn = "ter"
    hyps = _lines(fn, "hypotheses", hypotheses)
    refs = _streams(fn, hyps, references)
    level, replicates, seed = check_bootstrap_args(fn, ci, n_boot, seed)
    f = _flags(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    d = _call(fn, _core.text_ter, hyps, refs, f["normalized"], f["no_punct"], f["asian_support"],
              f["case_sensitive"], False, level, replicates, seed)
    if "ci" not in d:
        return TERScore(d)
    low, high, lvl = d["ci"]
    return TERScore(d, ci=(low, high), level=lvl,
                    method=f"bootstrap percentile, resampling sentences, {replicates} replicates, seed {seed}")


def sentence_ter(hypothesis, references, *, normalized=False, no_punct=False, asian_support=False,
                 case_sensitive=False):
    """TER of one hypothesis against its references (a list of strings), as ``sacrebleu.sentence_ter``."""
    fn = "sentence_ter"
    if not isinstance(hypothesis, str):
        raise ValueError(f"{fn}: hypothesis must be a string, got {type(hypothesis).__name__}")
    refs = _lines(fn, "references", references)
    if not refs:
        raise ValueError(f"{fn}: references is empty; give at least one reference")
    f = _flags(normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive)
    d = _call(fn, _core.text_ter, [hypothesis], [[r] for r in refs], f["normalized"], f["no_punct"],
              f["asian_support"], f["case_sensitive"], True, math.nan, 0, 0)
    return Estimate(d["scores"][0])


class PairedResult:
    """One system of a paired test: ``name``, ``score``, ``p_value`` (None for the baseline) and,
    for the bootstrap, ``mean`` and ``ci`` (the half-width of the 95% interval, sacreBLEU's
    "mean ± ci"; None for approximate randomisation)."""

    __slots__ = ("name", "score", "p_value", "mean", "ci")

    def __init__(self, name, d):
        self.name = name
        self.score = d["score"]
        self.p_value, self.mean, self.ci = (None if math.isnan(d[k][0]) else d[k][0]
                                            for k in ("p_value", "mean", "ci"))

    def __repr__(self):
        parts = [f"{self.name}: {self.score:.2f}"]
        if self.mean is not None:
            parts.append(f"({self.mean:.2f} ± {self.ci:.2f})")
        if self.p_value is not None:
            parts.append(f"p = {self.p_value:.4f}")
        return " ".join(parts)


def paired_test(baseline, systems, references, *, metric="bleu", method="bs", n_samples=0, seed=12345,
                names=None, **options):
    """sacreBLEU's paired significance test of each system against the baseline, as
    ``sacrebleu --paired-bs`` (``method='bs'``, Koehn 2004) or ``--paired-ar`` (``method='ar'``,
    Riezler & Maxwell 2005) with ``SACREBLEU_SEED=seed``: the resamples are NumPy's for that seed,
    so the p-values are sacreBLEU's.

    Parameters
    ----------
    baseline : list of str
    systems : list of list of str
        The other systems' hypotheses, each with as many lines as the baseline.
    references : list of list of str
    metric : {'bleu', 'chrf', 'ter'}
    method : {'bs', 'ar'}
    n_samples : int
        Resamples (bootstrap) or trials (AR); 0 for sacreBLEU's defaults, 1000 and 10000.
    seed : int
    names : list of str, optional
        Names of the baseline and the systems (default "baseline", "system 1", ...).
    **options
        The metric's options, as :func:`bleu`, :func:`chrf` or :func:`ter` take them.

    Returns
    -------
    (list of PairedResult, signature) : the baseline first.
    """
    fn = "paired_test"
    if metric not in ("bleu", "chrf", "ter"):
        raise ValueError(f"{fn}: metric is {metric!r}; it must be 'bleu', 'chrf' or 'ter'")
    if method not in ("bs", "ar"):
        raise ValueError(f"{fn}: method is {method!r}; it must be 'bs' (paired bootstrap) or 'ar' "
                         "(approximate randomisation)")
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or not 0 <= n_samples <= 10_000_000:
        raise ValueError(f"{fn}: n_samples is {n_samples!r}; it must be a whole number in [0, 10000000]")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise ValueError(f"{fn}: seed is {seed!r}; it must be a whole number in [0, 2**64)")
    base = _lines(fn, "baseline", baseline)
    if isinstance(systems, str):
        raise ValueError(f"{fn}: systems must be a list of systems (lists of strings), not a single string")
    others = [_lines(fn, f"systems[{k}]", s) for k, s in enumerate(systems)]
    if not others:
        raise ValueError(f"{fn}: systems is empty; give at least one system to compare with the baseline")
    for k, s in enumerate(others):
        if len(s) != len(base):
            raise ValueError(f"{fn}: systems[{k}] has {len(s)} lines but baseline has {len(base)}")
    refs = _streams(fn, base, references)
    names = ["baseline"] + [f"system {k + 1}" for k in range(len(others))] if names is None else list(names)
    if len(names) != len(others) + 1:
        raise ValueError(f"{fn}: names has {len(names)} entries; it needs {len(others) + 1} (baseline first)")
    allowed = {"bleu": {"tokenize": "13a", "lowercase": False, "smooth_method": "exp", "smooth_value": None,
                        "use_effective_order": False},
               "chrf": {"char_order": 6, "word_order": 0, "beta": 2, "lowercase": False, "whitespace": False,
                        "eps_smoothing": False},
               "ter": {"normalized": False, "no_punct": False, "asian_support": False, "case_sensitive": False}}[metric]
    for k in options:
        if k not in allowed:
            raise ValueError(f"{fn}: {k!r} is not an option of {metric}; its options are {sorted(allowed)}")
    opt = {**allowed, **options}
    hyps = [base] + others
    if metric == "bleu":
        opt["smooth_value"] = _smooth(fn, opt["smooth_method"], opt["smooth_value"])
        _tokenize(fn, opt["tokenize"])
        opt["use_effective_order"] = bool(opt["use_effective_order"])
    elif metric == "chrf":
        opt["char_order"], opt["word_order"], opt["beta"] = _chrf_args(fn, opt["char_order"], opt["word_order"],
                                                                       opt["beta"])
        opt["whitespace"], opt["eps_smoothing"] = bool(opt["whitespace"]), bool(opt["eps_smoothing"])
    else:
        opt = _flags(**opt)
    if opt.pop("lowercase", False):
        hyps = [[h.lower() for h in s] for s in hyps]
        refs = [[r.lower() for r in s] for s in refs]
    res, sig, _n = _call(fn, _core.text_paired, metric, hyps, refs, method, int(n_samples), int(seed), opt)
    if metric == "bleu" and options.get("lowercase"):
        sig = sig.replace("case:mixed", "case:lc")
    return [PairedResult(n, r) for n, r in zip(names, res)], sig


# ---------------------------------------------------------------------------------------- ROUGE

class RougeScore(tuple):
    """rouge-score's ``Score``: a (precision, recall, fmeasure) tuple with those attribute names.
    From :func:`rouge` the three are :class:`~assay.Estimate` means (with ``ci`` when asked for)."""

    __slots__ = ()
    _fields = ("precision", "recall", "fmeasure")

    def __new__(cls, precision, recall, fmeasure):
        return super().__new__(cls, (precision, recall, fmeasure))

    precision = property(lambda self: self[0])
    recall = property(lambda self: self[1])
    fmeasure = property(lambda self: self[2])

    def __repr__(self):
        return f"RougeScore(precision={self[0]!r}, recall={self[1]!r}, fmeasure={self[2]!r})"

    def __reduce__(self):
        return (RougeScore, tuple(self))


_ROUGE_DEFAULT = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _rouge_types(fn, rouge_types):
    if isinstance(rouge_types, str):
        rouge_types = [rouge_types]
    try:
        types = list(rouge_types)
    except TypeError:
        raise ValueError(f"{fn}: rouge_types must be a list of names such as 'rouge1', "
                         f"got {type(rouge_types).__name__}") from None
    if not types:
        raise ValueError(f"{fn}: rouge_types is empty; give at least one of rouge1 .. rouge9, rougeL, rougeLsum")
    for i, t in enumerate(types):
        if not isinstance(t, str):
            raise ValueError(f"{fn}: rouge_types[{i}] is {type(t).__name__}, not a string")
        if t not in ("rougeL", "rougeLsum") and not (len(t) == 6 and t.startswith("rouge") and t[5] in "123456789"):
            raise ValueError(f"{fn}: rouge_types[{i}] is {t!r}; a ROUGE type is rouge1 .. rouge9, rougeL or rougeLsum")
        if len(set(types)) != len(types):
            raise ValueError(f"{fn}: rouge_types names {t!r} twice")
    return types


def _rouge_refs(fn, hyps, references):
    # One string per hypothesis is taken as a single reference stream, as rouge-score pairs them.
    if not isinstance(references, str):
        try:
            refs = list(references)
        except TypeError:
            refs = None
        if refs and all(isinstance(r, str) for r in refs):
            references = [refs]
    return _streams(fn, hyps, references)


def rouge(hypotheses, references, *, rouge_types=_ROUGE_DEFAULT, use_stemmer=False, ci=None, n_boot=1000, seed=0):
    """ROUGE of each hypothesis against its references, averaged over hypotheses: the centre of
    ``rouge_score.scoring.BootstrapAggregator`` over ``RougeScorer(rouge_types,
    use_stemmer=use_stemmer).score_multi(refs_i, hyp_i)`` (rouge-score 0.1.2).

    Parameters
    ----------
    hypotheses : list of str
        Predictions (summaries); ``"\n"`` separates the sentences that ``rougeLsum`` uses.
    references : list of str, or list of list of str
        One reference per hypothesis, or reference streams (``references[j][i]`` is reference j of
        hypothesis i, as in :func:`bleu`). With several, each type takes the reference with the
        highest F (the first on ties), as ``score_multi`` does.
    rouge_types : list of str
        ``'rouge1'`` .. ``'rouge9'``, ``'rougeL'``, ``'rougeLsum'``.
    use_stemmer : bool
        Porter-stem tokens longer than 3 characters (NLTK's PorterStemmer, its default mode).
    ci : float, optional
        Level of percentile bootstrap intervals of the three means, resampling hypotheses
        (rouge-score's aggregator draws unseeded; this one is seeded, so reproducible).
    n_boot, seed : int

    Returns
    -------
    dict
        Type -> :class:`RougeScore` of :class:`~assay.Estimate` (the means; NaN with a reason when
        there are no hypotheses). rouge-score's ``mid`` is the median of its bootstrap means, which
        approximates this mean.
    """
    fn = "rouge"
    hyps = _lines(fn, "hypotheses", hypotheses)
    refs = _rouge_refs(fn, hyps, references)
    types = _rouge_types(fn, rouge_types)
    level, replicates, seed = check_bootstrap_args(fn, ci, n_boot, seed)
    d = _call(fn, _core.text_rouge, hyps, refs, types, bool(use_stemmer), False, level, replicates, seed)
    method = None if ci is None else f"bootstrap percentile, resampling hypotheses, {replicates} replicates, seed {seed}"
    out = {}
    for t in types:
        p, r, f, reason, pci, rci, fci = d[t]

        def est(x, interval):
            if reason:
                return Estimate(math.nan, reason=reason)
            if ci is None:
                return Estimate(x)
            return Estimate(x, ci=interval, level=level, method=method)

        out[t] = RougeScore(est(p, pci), est(r, rci), est(f, fci))
    return out


def sentence_rouge(hypotheses, references, *, rouge_types=_ROUGE_DEFAULT, use_stemmer=False):
    """ROUGE of every hypothesis: type -> :class:`RougeScore` of three arrays (precision, recall,
    fmeasure, one value per hypothesis), the numbers of rouge-score's ``score`` (one reference) or
    ``score_multi`` (several). Arguments as :func:`rouge`. An empty text scores 0, as in rouge-score."""
    fn = "sentence_rouge"
    hyps = _lines(fn, "hypotheses", hypotheses)
    refs = _rouge_refs(fn, hyps, references)
    types = _rouge_types(fn, rouge_types)
    d = _call(fn, _core.text_rouge, hyps, refs, types, bool(use_stemmer), True, math.nan, 0, 0)
    return {t: RougeScore(*d[t]) for t in types}


def rouge_tokenize(text, *, use_stemmer=False):
    """The tokens rouge-score's default tokenizer makes of ``text``: lowercased, split at every
    character other than ASCII a-z and 0-9, Porter-stemmed when longer than 3 characters with
    ``use_stemmer``."""
    if not isinstance(text, str):
        raise ValueError(f"rouge_tokenize: text must be a string, got {type(text).__name__}")
    _lines("rouge_tokenize", "text", [text])
    return _call("rouge_tokenize", _core.text_rouge_tokenize, text, bool(use_stemmer))
