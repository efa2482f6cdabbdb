#!/usr/bin/python3
"""Synthetic data and pure-Python reference implementations for bench/compare_domain.sh.

  compare_domain.py gen-coco DIR [SEED]   writes DIR/coco_gt.json, DIR/coco_dt.json: 5,000 images,
                                          80 categories, 100 detections per image
  compare_domain.py run-coco GT DT        COCO bbox evaluation in pure Python; prints
                                          "<wall s> <cpu s> <AP> <AP50> <AR100>"
  compare_domain.py gen-text DIR N [SEED] writes DIR/hyp.txt, DIR/ref.txt: N sentence pairs
  compare_domain.py run-bleu HYP REF      corpus BLEU (13a, exp smoothing) in pure Python; prints
                                          "<wall s> <cpu s> <BLEU>"

The references are our own code following the documented procedures: pycocotools' COCOeval
(evaluate: per image and category, detections by descending score, greedy matching to the unmatched
ground truth of highest IoU >= t, crowd and out-of-range boxes ignored; accumulate: detections of all
images merged by a stable sort on score, precision made monotone, read on the 101-point recall grid
numpy.linspace(0, 1, 101); summarize: means over defined entries) and sacreBLEU's corpus BLEU
(tokenizer 13a, clipped n-gram counts, closest reference length, brevity penalty, "exp" smoothing).
Timed: reading the files and evaluating (not the interpreter start).
"""
import json
import math
import random
import re
import sys
import time
from collections import Counter

# ------------------------------------------------------------------------------------------ COCO


def gen_coco(out_dir, seed=1):
    rng = random.Random(seed)
    n_img, n_cat, per_img = 5000, 80, 100
    images = [{"id": i + 1, "width": 640, "height": 480} for i in range(n_img)]
    cats = [{"id": k + 1, "name": "class%d" % (k + 1)} for k in range(n_cat)]
    anns, dets = [], []
    aid = 1
    for img in images:
        objs = []
        for _ in range(rng.randint(2, 12)):
            w = rng.uniform(8, 300)
            h = rng.uniform(8, 300)
            x = rng.uniform(0, 640 - w)
            y = rng.uniform(0, 480 - h)
            c = rng.randint(1, n_cat)
            crowd = 1 if rng.random() < 0.01 else 0
            anns.append({"id": aid, "image_id": img["id"], "category_id": c, "bbox": [round(x, 2), round(y, 2),
                         round(w, 2), round(h, 2)], "area": round(w * h, 2), "iscrowd": crowd})
            aid += 1
            objs.append((c, x, y, w, h))
        for j in range(per_img):
            if objs and j < 3 * len(objs):  # jittered copies of the objects, sometimes the wrong class
                c, x, y, w, h = objs[j % len(objs)]
                s = 0.15 * (1 + j // len(objs))
                x += rng.gauss(0, s * w * 0.3)
                y += rng.gauss(0, s * h * 0.3)
                w *= math.exp(rng.gauss(0, s * 0.5))
                h *= math.exp(rng.gauss(0, s * 0.5))
                if rng.random() < 0.1:
                    c = rng.randint(1, n_cat)
                score = round(rng.betavariate(5, 2), 3)
            else:
                w = rng.uniform(8, 300)
                h = rng.uniform(8, 300)
                x = rng.uniform(0, 640 - w)
                y = rng.uniform(0, 480 - h)
                c = rng.randint(1, n_cat)
                score = round(rng.betavariate(2, 5), 3)  # 3 decimals: many ties
            dets.append({"image_id": img["id"], "category_id": c,
                         "bbox": [round(x, 2), round(y, 2), round(w, 2), round(h, 2)], "score": score})
    with open(out_dir + "/coco_gt.json", "w") as f:
        json.dump({"images": images, "annotations": anns, "categories": cats}, f)
    with open(out_dir + "/coco_dt.json", "w") as f:
        json.dump(dets, f)


def bb_iou(d, g, crowd):
    iw = min(d[0] + d[2], g[0] + g[2]) - max(d[0], g[0])
    if iw <= 0:
        return 0.0
    ih = min(d[1] + d[3], g[1] + g[3]) - max(d[1], g[1])
    if ih <= 0:
        return 0.0
    inter = iw * ih
    union = d[2] * d[3] if crowd else d[2] * d[3] + g[2] * g[3] - inter
    return inter / union if union > 0 else 0.0


def run_coco(gt_path, dt_path):
    t0, c0 = time.perf_counter(), time.process_time()
    with open(gt_path) as f:
        gt = json.load(f)
    with open(dt_path) as f:
        dt = json.load(f)
    img_ids = sorted(i["id"] for i in gt["images"])
    cat_ids = sorted(c["id"] for c in gt["categories"])
    iou_thrs = [0.5 + i * ((0.95 - 0.5) / 9) for i in range(9)] + [0.95]
    rec_thrs = [i * (1.0 / 100) for i in range(100)] + [1.0]
    max_dets = [1, 10, 100]
    areas = [(0, 1e10), (0, 32 ** 2), (32 ** 2, 96 ** 2), (96 ** 2, 1e10)]
    gts, dts = {}, {}
    for a in gt["annotations"]:
        gts.setdefault((a["image_id"], a["category_id"]), []).append(a)
    for d in dt:
        dts.setdefault((d["image_id"], d["category_id"]), []).append(d)

    # evaluate(): per category, area range, image
    evals = {}
    for k in cat_ids:
        for i in img_ids:
            g_all = gts.get((i, k), [])
            d_all = dts.get((i, k), [])
            if not g_all and not d_all:
                continue
            d_sorted = sorted(d_all, key=lambda d: -d["score"])[:max_dets[-1]]
            for ai, (lo, hi) in enumerate(areas):
                ig = [1 if (g["iscrowd"] or g["area"] < lo or g["area"] > hi) else 0 for g in g_all]
                order = sorted(range(len(g_all)), key=lambda j: ig[j])
                g = [g_all[j] for j in order]
                gig = [ig[j] for j in order]
                ious = [[bb_iou(d["bbox"], x["bbox"], x["iscrowd"]) for x in g] for d in d_sorted]
                T, D, G = len(iou_thrs), len(d_sorted), len(g)
                dtm = [[0] * D for _ in range(T)]
                dti = [[0] * D for _ in range(T)]
                for ti, t in enumerate(iou_thrs):
                    gtm = [0] * G
                    for di in range(D):
                        best = min(t, 1 - 1e-10)
                        m = -1
                        for gi in range(G):
                            if gtm[gi] and not g[gi]["iscrowd"]:
                                continue
                            if m > -1 and gig[m] == 0 and gig[gi] == 1:
                                break
                            if ious[di][gi] < best:
                                continue
                            best = ious[di][gi]
                            m = gi
                        if m == -1:
                            continue
                        dti[ti][di] = gig[m]
                        dtm[ti][di] = g[m]["id"]
                        gtm[m] = 1
                for ti in range(T):
                    for di, d in enumerate(d_sorted):
                        a = d["bbox"][2] * d["bbox"][3]
                        if dtm[ti][di] == 0 and (a < lo or a > hi):
                            dti[ti][di] = 1
                evals[(k, ai, i)] = ([d["score"] for d in d_sorted], dtm, dti, G - sum(gig))

    # accumulate()
    T, R, K, A, M = len(iou_thrs), len(rec_thrs), len(cat_ids), len(areas), len(max_dets)
    precision = {}
    recall = {}
    for ki, k in enumerate(cat_ids):
        for ai in range(A):
            E = [evals[(k, ai, i)] for i in img_ids if (k, ai, i) in evals]
            if not E:
                continue
            npig = sum(e[3] for e in E)
            if npig == 0:
                continue
            for mi, md in enumerate(max_dets):
                items = []
                for e in E:
                    for di in range(min(md, len(e[0]))):
                        items.append((e, di))
                items.sort(key=lambda it: -it[0][0][it[1]])  # stable
                for ti in range(T):
                    tp = fp = 0
                    rc, pr = [], []
                    for e, di in items:
                        if not e[2][ti][di]:
                            if e[1][ti][di]:
                                tp += 1
                            else:
                                fp += 1
                        rc.append(tp / npig)
                        pr.append(tp / (fp + tp + 2.220446049250313e-16))
                    recall[(ti, ki, ai, mi)] = rc[-1] if rc else 0.0
                    for j in range(len(pr) - 1, 0, -1):
                        if pr[j] > pr[j - 1]:
                            pr[j - 1] = pr[j]
                    j = 0
                    for ri, r in enumerate(rec_thrs):
                        while j < len(rc) and rc[j] < r:
                            j += 1
                        precision[(ti, ri, ki, ai, mi)] = pr[j] if j < len(rc) else 0.0

    def mean_ap(t_only, ai, mi):
        s = [precision.get((ti, ri, ki, ai, mi), -1) for ti in range(T) if t_only is None or ti == t_only
             for ri in range(R) for ki in range(K)]
        s = [v for v in s if v > -1]
        return sum(s) / len(s) if s else -1

    def mean_ar(ai, mi):
        s = [recall.get((ti, ki, ai, mi), -1) for ti in range(T) for ki in range(K)]
        s = [v for v in s if v > -1]
        return sum(s) / len(s) if s else -1

    ap, ap50, ar100 = mean_ap(None, 0, 2), mean_ap(0, 0, 2), mean_ar(0, 2)
    print("%.4f %.4f %.12f %.12f %.12f" % (time.perf_counter() - t0, time.process_time() - c0, ap, ap50, ar100))

# ------------------------------------------------------------------------------------------ BLEU


WORDS = ("the a of to and in is was for on that with as by at from it an be this are have has not but "
         "which or were been their more one all new after first two about also we they can who would "
         "year time people city house government report 1990 3.5 2,000 U.S. -- ( ) \" ' ; : ? ! & % $").split()


def gen_text(out_dir, n, seed=1):
    rng = random.Random(seed)
    with open(out_dir + "/hyp.txt", "w") as fh, open(out_dir + "/ref.txt", "w") as fr:
        for _ in range(n):
            ref = [rng.choice(WORDS) for _ in range(rng.randint(5, 45))]
            hyp = [w if rng.random() < 0.7 else rng.choice(WORDS) for w in ref]
            if rng.random() < 0.3:
                hyp = hyp[:max(0, len(hyp) - rng.randint(1, 4))]
            fr.write(" ".join(ref).replace(" .", ".") + "\n")
            fh.write(" ".join(hyp) + "\n")


RX_13A = [
    (re.compile(r'([\{-\~\[-\` -\&\(-\+\:-\@\/])'), r' \1 '),
    (re.compile(r'([^0-9])([\.,])'), r'\1 \2 '),
    (re.compile(r'([\.,])([^0-9])'), r' \1 \2'),
    (re.compile(r'([0-9])(-)'), r'\1 \2 '),
]


def tok13a(line):
    line = line.replace('<skipped>', '').replace('-\n', '').replace('\n', ' ')
    if '&' in line:
        line = line.replace('&quot;', '"').replace('&amp;', '&').replace('&lt;', '<').replace('&gt;', '>')
    line = ' ' + line + ' '
    for rx, rep in RX_13A:
        line = rx.sub(rep, line)
    return line.split()


def grams(words):
    c = Counter()
    for n in range(1, 5):
        for i in range(len(words) - n + 1):
            c[tuple(words[i:i + n])] += 1
    return c


def run_bleu(hyp_path, ref_path):
    t0, c0 = time.perf_counter(), time.process_time()
    with open(hyp_path, encoding="utf-8") as f:
        hyps = f.read().split("\n")[:-1]
    with open(ref_path, encoding="utf-8") as f:
        refs = f.read().split("\n")[:-1]
    sys_len = ref_len = 0
    correct, total = [0] * 4, [0] * 4
    for h, r in zip(hyps, refs):
        hw, rw = tok13a(h.rstrip()), tok13a(r.rstrip())
        sys_len += len(hw)
        ref_len += len(rw)
        hg, rg = grams(hw), grams(rw)
        for g, c in hg.items():
            n = len(g) - 1
            total[n] += c
            correct[n] += min(c, rg.get(g, 0))
    bp = 1.0 if sys_len >= ref_len else (math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0)
    smooth, logs = 1.0, 0.0
    for n in range(4):
        if correct[n] == 0:
            smooth *= 2
            p = 100.0 / (smooth * total[n])
        else:
            p = 100.0 * correct[n] / total[n]
        logs += math.log(p)
    print("%.4f %.4f %.10f" % (time.perf_counter() - t0, time.process_time() - c0, bp * math.exp(logs / 4)))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "gen-coco":
        gen_coco(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    elif cmd == "run-coco":
        run_coco(sys.argv[2], sys.argv[3])
    elif cmd == "gen-text":
        gen_text(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    elif cmd == "run-bleu":
        run_bleu(sys.argv[2], sys.argv[3])
    else:
        sys.exit("compare_domain.py: unknown command " + cmd)
