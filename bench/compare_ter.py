#!/usr/bin/env python3
"""Synthetic data and the sacreBLEU side of bench/compare_ter.sh.

  compare_ter.py gen DIR N [SEED]      writes DIR/hyp.txt, DIR/ref.txt: N sentence pairs (references of
                                       5-40 words from a 5,000-word vocabulary; hypotheses with moved
                                       blocks, substitutions, deletions and insertions)
  compare_ter.py run HYP REF           corpus TER with sacreBLEU (sacrebleu.metrics.TER, default
                                       options); prints "<wall s> <cpu s> <TER> <sacrebleu version>"

Timed: reading the files and scoring (not the interpreter start or the import).
"""
import os
import random
import sys
import time


def gen(d, n, seed):
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(5000)] + ["Über", "café", "東京", ",", "."]
    with open(os.path.join(d, "hyp.txt"), "w", encoding="utf-8") as fh, \
            open(os.path.join(d, "ref.txt"), "w", encoding="utf-8") as fr:
        for _ in range(n):
            ref = [rng.choice(vocab) for _ in range(rng.randint(5, 40))]
            hyp = list(ref)
            for _ in range(rng.randint(0, 2)):
                a = rng.randrange(len(hyp))
                b = min(len(hyp), a + rng.randint(1, 4))
                block = hyp[a:b]
                del hyp[a:b]
                t = rng.randrange(len(hyp) + 1)
                hyp[t:t] = block
            for _ in range(rng.randint(0, 4)):
                k = rng.random()
                if hyp and k < 0.4:
                    hyp[rng.randrange(len(hyp))] = rng.choice(vocab)
                elif hyp and k < 0.7:
                    del hyp[rng.randrange(len(hyp))]
                else:
                    hyp.insert(rng.randrange(len(hyp) + 1), rng.choice(vocab))
            fh.write(" ".join(hyp) + "\n")
            fr.write(" ".join(ref) + "\n")


def run(hyp, ref):
    import sacrebleu
    from sacrebleu.metrics import TER
    w0, c0 = time.perf_counter(), time.process_time()
    with open(hyp, encoding="utf-8") as f:
        hyps = f.read().split("\n")[:-1]
    with open(ref, encoding="utf-8") as f:
        refs = f.read().split("\n")[:-1]
    score = TER().corpus_score(hyps, [refs]).score
    print(f"{time.perf_counter() - w0:.3f} {time.process_time() - c0:.3f} {score:.10f} {sacrebleu.__version__}")


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    else:
        run(sys.argv[2], sys.argv[3])
