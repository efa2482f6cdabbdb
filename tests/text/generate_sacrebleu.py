#!/usr/bin/python3
"""Writes reference BLEU, chrF and exact n-gram scores for assay's text tests.

sacreBLEU is not a Debian package and cannot be installed here, so this script is an independent
Python re-implementation of the procedures documented by sacreBLEU 2.x (Post, "A Call for Clarity
in Reporting BLEU Scores", WMT 2018; sacrebleu/metrics/bleu.py, chrf.py, helpers.py and
tokenizers/tokenizer_13a.py, tokenizer_re.py), written afresh on Python's own `re` module and
str.split(), so that the regular expressions and the Unicode white space are Python's, not ours.
Run from the repository root:
    /usr/bin/python3 tests/text/generate_sacrebleu.py
It writes tests/text/data/cases.json (inputs) and expected.json (scores, Python repr doubles).
"""
import json
import math
import os
import platform
import random
import re
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data")

# ---------------------------------------------------------------- tokenizers (13a, none)
RULES_13A = [
    (re.compile(r'([\{-\~\[-\` -\&\(-\+\:-\@\/])'), r' \1 '),
    (re.compile(r'([^0-9])([\.,])'), r'\1 \2 '),
    (re.compile(r'([\.,])([^0-9])'), r' \1 \2'),
    (re.compile(r'([0-9])(-)'), r'\1 \2 '),
]


def tok_13a(line):
    line = line.replace('<skipped>', '').replace('-\n', '').replace('\n', ' ')
    if '&' in line:
        line = line.replace('&quot;', '"').replace('&amp;', '&').replace('&lt;', '<').replace('&gt;', '>')
    line = ' ' + line + ' '
    for rx, rep in RULES_13A:
        line = rx.sub(rep, line)
    return ' '.join(line.split())


def tokenize(line, tok):
    return tok_13a(line) if tok == '13a' else line


# ---------------------------------------------------------------- BLEU
def ngrams(words, n_max):
    c = Counter()
    for n in range(1, n_max + 1):
        for i in range(len(words) - n + 1):
            c[tuple(words[i:i + n])] += 1
    return c


def bleu_stats(hyp, refs, tok):
    refs = [r for r in refs if r != '']
    hw = tokenize(hyp.rstrip(), tok).split()
    ref_ngrams = Counter()
    ref_lens = []
    for r in refs:
        rw = tokenize(r.rstrip(), tok).split()
        ref_lens.append(len(rw))
        for g, c in ngrams(rw, 4).items():
            ref_ngrams[g] = max(ref_ngrams[g], c)
    closest, cdiff = -1, -1
    for rl in ref_lens:
        d = abs(len(hw) - rl)
        if cdiff == -1 or d < cdiff:
            cdiff, closest = d, rl
        elif d == cdiff:
            closest = min(closest, rl)
    correct = [0] * 4
    total = [0] * 4
    for g, c in ngrams(hw, 4).items():
        total[len(g) - 1] += c
        correct[len(g) - 1] += min(c, ref_ngrams.get(g, 0))
    return [len(hw), closest] + correct + total


def compute_bleu(stats, smooth, eff):
    sys_len, ref_len = stats[0], stats[1]
    correct, total = list(stats[2:6]), list(stats[6:10])
    value = {'none': None, 'floor': 0.1, 'add-k': 1, 'exp': None}[smooth]
    bp = 1.0 if sys_len >= ref_len else (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0)
    prec = [0.0] * 4
    if not any(correct):
        return 0.0
    smooth_mteval = 1.
    eff_order = 4
    for n in range(1, 5):
        if smooth == 'add-k' and n > 1:
            correct[n - 1] += value
            total[n - 1] += value
        if total[n - 1] == 0:
            break
        if eff:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth == 'exp':
                smooth_mteval *= 2
                prec[n - 1] = 100. / (smooth_mteval * total[n - 1])
            elif smooth == 'floor':
                prec[n - 1] = 100. * value / total[n - 1]
        else:
            prec[n - 1] = 100. * correct[n - 1] / total[n - 1]
    return bp * math.exp(sum([(-9999999999 if p == 0 else math.log(p)) for p in prec[:eff_order]]) / eff_order)


# ---------------------------------------------------------------- chrF
PUNCTS = set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


def remove_punct(sent):
    out = []
    for w in sent.split():
        if len(w) == 1:
            out.append(w)
        elif w[-1] in PUNCTS:
            out += [w[:-1], w[-1]]
        elif w[0] in PUNCTS:
            out += [w[0], w[1:]]
        else:
            out.append(w)
    return out


def char_ngrams(line, order):
    line = ''.join(line.split())
    return [Counter([line[i:i + n] for i in range(len(line) - n + 1)]) for n in range(1, order + 1)]


def word_ngrams(words, n):
    return Counter([' '.join(words[i:i + n]) for i in range(len(words) - n + 1)])


def chrf_f(stats, beta=2):
    eps = 1e-16
    factor = beta ** 2
    score, eff, ap, ar = 0.0, 0, 0.0, 0.0
    for i in range(len(stats) // 3):
        h, r, m = stats[3 * i:3 * i + 3]
        p = m / h if h > 0 else eps
        rc = m / r if r > 0 else eps
        d = factor * p + rc
        score += ((1 + factor) * p * rc / d) if d > 0 else eps
        if h > 0 and r > 0:
            ap += p
            ar += rc
            eff += 1
    if eff == 0:
        ap = ar = 0.0
    else:
        ap /= eff
        ar /= eff
    if ap + ar:
        s = (1 + factor) * ap * ar
        s /= ((factor * ap) + ar)
        return 100 * s
    return 0.0


def chrf_stats(hyp, refs, word_order):
    def grams(s):
        g = char_ngrams(s, 6)
        if word_order:
            w = remove_punct(s)
            g += [word_ngrams(w, n) for n in range(1, word_order + 1)]
        return g
    hg = grams(hyp)
    best, best_f = None, -1.0
    for r in [r for r in refs if r != '']:
        st = []
        for h, rr in zip(hg, grams(r)):
            hc, rc = sum(h.values()), sum(rr.values())
            m = sum(min(c, rr[g]) for g, c in h.items() if g in rr)
            st += [hc if rc > 0 else 0, rc, m]
        f = chrf_f(st)
        if f > best_f:
            best_f, best = f, st
    return best


# ---------------------------------------------------------------- exact n-gram P/R (seed 002)
def exact_counts(hyp, ref, tok):
    hw = tokenize(hyp.rstrip(), tok).split()
    rw = tokenize(ref.rstrip(), tok).split()
    out = []
    for n in range(1, 5):
        hs = [tuple(hw[i:i + n]) for i in range(len(hw) - n + 1)]
        rs = [tuple(rw[i:i + n]) for i in range(len(rw) - n + 1)]
        out.append([sum(1 for g in hs if g in set(rs)), len(hs), sum(1 for g in rs if g in set(hs)), len(rs)])
    return out


# ---------------------------------------------------------------- cases
def handmade():
    hyps = [
        "The cat sat on the mat.",
        "It costs 3.50 dollars, or 1,000 yen -- roughly.",
        "",
        "She said &quot;hello&quot; &amp; left at 5-3.",
        "Éléphant\u00a0rose\u3000à Paris, n'est-ce pas?",
        "co-operate (hi) [x]{y}|z~ a/b a\\b @home #tag $5 %p ^_` e.g. U.S.A.",
        "no match here",
        "word",
        "  trailing spaces and\ttabs   ",
        "中文 字符 测试 。",
        "a b c d e f g h",
        "the the the the the the the",
    ]
    refs1 = [
        "The cat is on the mat.",
        "It costs 3.50 dollars, or about 1,000 yen.",
        "An empty hypothesis still has a reference.",
        "She said \"hello\" & left at 5 - 3.",
        "Éléphant rose à Paris, n'est-ce pas ?",
        "cooperate (hi) [x] {y} | z ~ a / b a \\ b @ home # tag $ 5 % p ^ _ ` e.g. U.S.A.",
        "completely different words",
        "word",
        "trailing spaces and tabs",
        "中文 字符 测试 。",
        "a b c d e f g h",
        "the cat is on the mat",
    ]
    refs2 = [
        "There is a cat on the mat.",
        "",
        "Nothing.",
        "She said hello and left at 5-3.",
        "L'éléphant rose est à Paris, n'est-ce pas?",
        "co-operate hi x y z",
        "no match there",
        "a word",
        "",
        "中文字符测试。",
        "a b c d",
        "the the the",
    ]
    return hyps, [refs1, refs2]


def synthetic(seed, n):
    rng = random.Random(seed)
    vocab = ["the", "a", "cat", "dog", "sat", "on", "mat", "ran", "fast", ",", ".", "3.5", "1,000", "well-known",
             "(x)", "x-1", "café", "naïve", "!", "?", "'s", "&amp;"]
    hyps, r1, r2 = [], [], []
    for _ in range(n):
        ref = [rng.choice(vocab) for _ in range(rng.randint(1, 14))]
        hyp = [w for w in ref if rng.random() > 0.25]
        for _ in range(rng.randint(0, 3)):
            hyp.insert(rng.randint(0, len(hyp)), rng.choice(vocab))
        if rng.random() < 0.05:
            hyp = []
        ref2 = [w if rng.random() > 0.3 else rng.choice(vocab) for w in ref]
        glue = lambda ws: ''.join(w + (' ' if rng.random() > 0.15 else '') for w in ws).rstrip()
        hyps.append(glue(hyp))
        r1.append(glue(ref))
        r2.append(glue(ref2))
    return hyps, [r1, r2]


def main():
    os.makedirs(OUT, exist_ok=True)
    corpora = {'handmade': handmade(), 'synthetic': synthetic(11, 300)}
    cases, expected = {}, {'generator': 'tests/text/generate_sacrebleu.py', 'python': platform.python_version(),
                           'reference': 'independent re-implementation of sacreBLEU 2.x BLEU/chrF procedures',
                           'corpora': {}}
    for name, (hyps, refs) in corpora.items():
        cases[name] = {'hyps': hyps, 'refs': refs}
        e = {'tok13a': [tok_13a(h.rstrip()) for h in hyps + refs[0] + refs[1]],
             'split': [h.split() for h in hyps + refs[0] + refs[1]]}
        for tok in ['13a', 'none']:
            for nrefs in [1, 2]:
                rs = refs[:nrefs]
                stats = [bleu_stats(h, [r[i] for r in rs], tok) for i, h in enumerate(hyps)]
                tot = [sum(s[k] for s in stats) for k in range(10)]
                for smooth in ['none', 'floor', 'add-k', 'exp']:
                    for eff in [False, True]:
                        key = 'bleu|%s|%d|%s|%s' % (tok, nrefs, smooth, 'eff' if eff else 'noeff')
                        e[key] = {'corpus': compute_bleu(tot, smooth, eff),
                                  'sentence': [compute_bleu(s, smooth, eff) for s in stats]}
                e['bleu_stats|%s|%d' % (tok, nrefs)] = tot
            ex = [exact_counts(h, refs[0][i], tok) for i, h in enumerate(hyps)]
            e['exact|%s' % tok] = {'per_sentence': ex}
        for nrefs in [1, 2]:
            rs = refs[:nrefs]
            for wo in [0, 2]:
                stats = [chrf_stats(h, [r[i] for r in rs], wo) for i, h in enumerate(hyps)]
                tot = [sum(s[k] for s in stats) for k in range(len(stats[0]))]
                e['chrf|%d|%d' % (nrefs, wo)] = {'corpus': chrf_f(tot), 'sentence': [chrf_f(s) for s in stats]}
        expected['corpora'][name] = e
    with open(os.path.join(OUT, 'cases.json'), 'w', encoding='utf-8') as f:
        json.dump(cases, f, ensure_ascii=False, indent=0)
    with open(os.path.join(OUT, 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=0)
    # Show a few for the record.
    print('handmade 13a 1 ref exp:', expected['corpora']['handmade']['bleu|13a|1|exp|noeff']['corpus'])
    print('tok:', [tok_13a(h) for h in corpora['handmade'][0][:6]])


if __name__ == '__main__':
    main()
