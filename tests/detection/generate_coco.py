#!/usr/bin/python3
"""Writes synthetic detection sets and their reference COCO and VOC numbers for assay's tests.

pycocotools and the PASCAL VOC devkit are not Debian packages and cannot be installed here, so the
reference numbers come from an independent Python re-implementation of the two documented
procedures, written on numpy exactly as the tools are (numpy's argsort(kind='mergesort'),
searchsorted, linspace, arange and mean, whose rounding the C++ side must reproduce):
  * COCOeval.evaluate / accumulate / summarize of pycocotools 2.0 (cocodataset/cocoapi,
    PythonAPI/pycocotools/cocoeval.py) for iouType 'bbox', with maskApi.c's bbIou;
  * voc_eval / voc_ap of the Python port of the VOC devkit (py-faster-rcnn lib/datasets/voc_eval.py),
    with a stable sort of the scores (the MATLAB devkit's sort is stable; numpy's default is not).
The code below follows those procedures step by step but is written afresh (dicts and loops, no
pycocotools objects). Run with /usr/bin/python3 from the repository root:
    /usr/bin/python3 tests/detection/generate_coco.py
It writes tests/detection/data/<case>_gt.json, <case>_dt.json and expected.json.
"""
import json
import os
import random

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data")


# ----------------------------------------------------------------------------- COCO reference
def bb_iou(d, g, crowd):
    w = min(d[2] + d[0], g[2] + g[0]) - max(d[0], g[0])
    if w <= 0:
        return 0.0
    h = min(d[3] + d[1], g[3] + g[1]) - max(d[1], g[1])
    if h <= 0:
        return 0.0
    i = w * h
    da = d[2] * d[3]
    ga = g[2] * g[3]
    u = da if crowd else da + ga - i
    return i / u


def coco_reference(gt, dt):
    iou_thrs = np.linspace(.5, 0.95, int(np.round((0.95 - .5) / .05)) + 1, endpoint=True)
    rec_thrs = np.linspace(.0, 1.00, int(np.round((1.00 - .0) / .01)) + 1, endpoint=True)
    max_dets = [1, 10, 100]
    area_rng = [[0 ** 2, 1e5 ** 2], [0 ** 2, 32 ** 2], [32 ** 2, 96 ** 2], [96 ** 2, 1e5 ** 2]]
    area_lbl = ['all', 'small', 'medium', 'large']
    img_ids = sorted({im['id'] for im in gt['images']})
    cat_ids = sorted({c['id'] for c in gt['categories']})
    # loadRes: ids 1.., area = w*h, iscrowd 0.
    dts = []
    for i, d in enumerate(dt):
        d = dict(d)
        d['id'] = i + 1
        d['area'] = d['bbox'][2] * d['bbox'][3]
        d['iscrowd'] = 0
        dts.append(d)
    gts_by, dts_by = {}, {}
    # getAnnIds: per image in img_ids order, annotations in file order.
    for img in img_ids:
        for a in gt['annotations']:
            if a['image_id'] == img and a['category_id'] in cat_ids:
                a = dict(a)
                a['ignore'] = bool(a.get('iscrowd', 0))
                gts_by.setdefault((img, a['category_id']), []).append(a)
        for d in dts:
            if d['image_id'] == img and d['category_id'] in cat_ids:
                dts_by.setdefault((img, d['category_id']), []).append(d)
    T, R, K, A, M = len(iou_thrs), len(rec_thrs), len(cat_ids), len(area_rng), len(max_dets)
    maxd = max_dets[-1]

    def iou_matrix(img, cat):
        g = gts_by.get((img, cat), [])
        d = dts_by.get((img, cat), [])
        if not g and not d:
            return []
        order = np.argsort([-x['score'] for x in d], kind='mergesort')
        d = [d[i] for i in order][:maxd]
        if not g or not d:
            return []
        return np.array([[bb_iou(x['bbox'], y['bbox'], int(y.get('iscrowd', 0))) for y in g] for x in d])

    ious = {(i, c): iou_matrix(i, c) for i in img_ids for c in cat_ids}

    def evaluate_img(img, cat, rng):
        g = gts_by.get((img, cat), [])
        d = dts_by.get((img, cat), [])
        if not g and not d:
            return None
        ign = [1 if (x['ignore'] or x['area'] < rng[0] or x['area'] > rng[1]) else 0 for x in g]
        gind = np.argsort(ign, kind='mergesort')
        g = [g[i] for i in gind]
        gig = np.array([ign[i] for i in gind])
        dind = np.argsort([-x['score'] for x in d], kind='mergesort')
        d = [d[i] for i in dind[0:maxd]]
        crowd = [int(x.get('iscrowd', 0)) for x in g]
        io = ious[img, cat][:, gind] if len(ious[img, cat]) > 0 else ious[img, cat]
        G, D = len(g), len(d)
        gtm = np.zeros((T, G))
        dtm = np.zeros((T, D))
        dig = np.zeros((T, D))
        if len(io) != 0:
            for ti, t in enumerate(iou_thrs):
                for di, x in enumerate(d):
                    best = min([t, 1 - 1e-10])
                    m = -1
                    for gi in range(G):
                        if gtm[ti, gi] > 0 and not crowd[gi]:
                            continue
                        if m > -1 and gig[m] == 0 and gig[gi] == 1:
                            break
                        if io[di, gi] < best:
                            continue
                        best = io[di, gi]
                        m = gi
                    if m == -1:
                        continue
                    dig[ti, di] = gig[m]
                    dtm[ti, di] = g[m]['id']
                    gtm[ti, m] = x['id']
        a = np.array([x['area'] < rng[0] or x['area'] > rng[1] for x in d]).reshape((1, D))
        dig = np.logical_or(dig, np.logical_and(dtm == 0, np.repeat(a, T, 0)))
        return {'dtm': dtm, 'dig': dig, 'scores': [x['score'] for x in d], 'gig': gig}

    evals = {(c, ai, i): evaluate_img(i, c, rng) for c in cat_ids for ai, rng in enumerate(area_rng) for i in img_ids}
    precision = -np.ones((T, R, K, A, M))
    recall = -np.ones((T, K, A, M))
    for k, c in enumerate(cat_ids):
        for ai in range(A):
            for mi, md in enumerate(max_dets):
                E = [evals[c, ai, i] for i in img_ids]
                E = [e for e in E if e is not None]
                if not E:
                    continue
                sc = np.concatenate([e['scores'][0:md] for e in E])
                inds = np.argsort(-sc, kind='mergesort')
                dtm = np.concatenate([e['dtm'][:, 0:md] for e in E], axis=1)[:, inds]
                dig = np.concatenate([e['dig'][:, 0:md] for e in E], axis=1)[:, inds]
                gig = np.concatenate([e['gig'] for e in E])
                npig = np.count_nonzero(gig == 0)
                if npig == 0:
                    continue
                tps = np.logical_and(dtm, np.logical_not(dig))
                fps = np.logical_and(np.logical_not(dtm), np.logical_not(dig))
                tp_sum = np.cumsum(tps, axis=1).astype(dtype=float)
                fp_sum = np.cumsum(fps, axis=1).astype(dtype=float)
                for t, (tp, fp) in enumerate(zip(tp_sum, fp_sum)):
                    nd = len(tp)
                    rc = tp / npig
                    pr = tp / (fp + tp + np.spacing(1))
                    q = np.zeros((R,))
                    recall[t, k, ai, mi] = rc[-1] if nd else 0
                    pr = pr.tolist()
                    q = q.tolist()
                    for i in range(nd - 1, 0, -1):
                        if pr[i] > pr[i - 1]:
                            pr[i - 1] = pr[i]
                    idx = np.searchsorted(rc, rec_thrs, side='left')
                    for ri, pi in enumerate(idx):
                        if pi < nd:
                            q[ri] = pr[pi]
                    precision[t, :, k, ai, mi] = np.array(q)

    def summarize(ap, iou_thr=None, area='all', md=100):
        aind = [i for i, a in enumerate(area_lbl) if a == area]
        mind = [i for i, m in enumerate(max_dets) if m == md]
        if ap:
            s = precision
            if iou_thr is not None:
                s = s[np.where(iou_thr == iou_thrs)[0]]
            s = s[:, :, :, aind, mind]
        else:
            s = recall
            if iou_thr is not None:
                s = s[np.where(iou_thr == iou_thrs)[0]]
            s = s[:, :, aind, mind]
        return -1.0 if len(s[s > -1]) == 0 else float(np.mean(s[s > -1]))

    stats = [summarize(1), summarize(1, .5), summarize(1, .75), summarize(1, area='small'),
             summarize(1, area='medium'), summarize(1, area='large'), summarize(0, md=1), summarize(0, md=10),
             summarize(0), summarize(0, area='small'), summarize(0, area='medium'), summarize(0, area='large')]
    per_cat = []
    for k in range(K):
        p = precision[:, :, k, 0, -1]
        p = p[p > -1]
        per_cat.append(float(np.mean(p)) if p.size else -1.0)
    return stats, per_cat


# ----------------------------------------------------------------------------- VOC reference
def voc_ap(rec, prec, use_07):
    if use_07:
        ap = 0.
        for t in np.arange(0., 1.1, 0.1):
            p = 0 if np.sum(rec >= t) == 0 else np.max(prec[rec >= t])
            ap = ap + p / 11.
        return float(ap)
    mrec = np.concatenate(([0.], rec, [1.]))
    mpre = np.concatenate(([0.], prec, [0.]))
    for i in range(mpre.size - 1, 0, -1):
        mpre[i - 1] = np.maximum(mpre[i - 1], mpre[i])
    i = np.where(mrec[1:] != mrec[:-1])[0]
    return float(np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1]))


def voc_reference(gt, dt, use_07, thresh=0.5):
    cat_ids = sorted({c['id'] for c in gt['categories']})
    aps = []
    for c in cat_ids:
        recs = {}
        npos = 0
        for a in gt['annotations']:
            if a['category_id'] != c:
                continue
            x, y, w, h = a['bbox']
            diff = bool(a.get('difficult', 0)) or bool(a.get('iscrowd', 0))
            recs.setdefault(a['image_id'], []).append(([x, y, x + w, y + h], diff))
            npos += not diff
        det = {k: [False] * len(v) for k, v in recs.items()}
        ds = [d for d in dt if d['category_id'] == c]
        conf = np.array([d['score'] for d in ds])
        order = np.argsort(-conf, kind='stable') if len(ds) else []
        nd = len(ds)
        tp = np.zeros(nd)
        fp = np.zeros(nd)
        for r, di in enumerate(order):
            d = ds[di]
            x, y, w, h = d['bbox']
            bb = np.array([x, y, x + w, y + h], dtype=float)
            R = recs.get(d['image_id'], [])
            ovmax = -np.inf
            if R:
                B = np.array([b for b, _ in R], dtype=float)
                ixmin = np.maximum(B[:, 0], bb[0])
                iymin = np.maximum(B[:, 1], bb[1])
                ixmax = np.minimum(B[:, 2], bb[2])
                iymax = np.minimum(B[:, 3], bb[3])
                iw = np.maximum(ixmax - ixmin + 1., 0.)
                ih = np.maximum(iymax - iymin + 1., 0.)
                inters = iw * ih
                uni = ((bb[2] - bb[0] + 1.) * (bb[3] - bb[1] + 1.) +
                       (B[:, 2] - B[:, 0] + 1.) * (B[:, 3] - B[:, 1] + 1.) - inters)
                ov = inters / uni
                ovmax = np.max(ov)
                jmax = np.argmax(ov)
            if ovmax > thresh:
                if not R[jmax][1]:
                    if not det[d['image_id']][jmax]:
                        tp[r] = 1.
                        det[d['image_id']][jmax] = True
                    else:
                        fp[r] = 1.
            else:
                fp[r] = 1.
        if npos == 0:
            continue
        fp = np.cumsum(fp)
        tp = np.cumsum(tp)
        rec = tp / float(npos)
        prec = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
        aps.append(voc_ap(rec, prec, use_07))
    return aps, float(np.mean(aps))


# ----------------------------------------------------------------------------- synthetic sets
def make_case(seed, n_images, n_cats, crowd_rate, difficult_rate, score_decimals, crowded_image):
    rng = random.Random(seed)
    images = [{'id': 3 * i + 7} for i in range(n_images)]
    cats = [{'id': 10 + 5 * k, 'name': 'class%d' % k} for k in range(n_cats)]
    anns, dets = [], []
    aid = 1
    for im in images:
        for _ in range(rng.randint(0, 6)):
            c = rng.choice(cats)['id']
            side = rng.choice([rng.uniform(4, 30), rng.uniform(30, 100), rng.uniform(90, 250)])
            w = round(side * rng.uniform(0.6, 1.4), 2)
            h = round(side * rng.uniform(0.6, 1.4), 2)
            x = round(rng.uniform(0, 400), 2)
            y = round(rng.uniform(0, 400), 2)
            a = {'id': aid, 'image_id': im['id'], 'category_id': c, 'bbox': [x, y, w, h],
                 'area': round(w * h * rng.uniform(0.5, 1.0), 3),
                 'iscrowd': 1 if rng.random() < crowd_rate else 0}
            if rng.random() < difficult_rate:
                a['difficult'] = 1
            aid += 1
            anns.append(a)
            # detections near this object: 0-3 jittered copies
            for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
                j = [x + rng.gauss(0, w * 0.12), y + rng.gauss(0, h * 0.12), w * rng.uniform(0.8, 1.2),
                     h * rng.uniform(0.8, 1.2)]
                dc = c if rng.random() < 0.9 else rng.choice(cats)['id']
                dets.append({'image_id': im['id'], 'category_id': dc, 'bbox': [round(v, 2) for v in j],
                             'score': round(rng.random(), score_decimals)})
        for _ in range(rng.randint(0, 4)):  # false positives
            s = rng.uniform(5, 150)
            dets.append({'image_id': im['id'], 'category_id': rng.choice(cats)['id'],
                         'bbox': [round(rng.uniform(0, 400), 2), round(rng.uniform(0, 400), 2), round(s, 2),
                                  round(s * rng.uniform(0.5, 2), 2)],
                         'score': round(rng.random(), score_decimals)})
    if crowded_image:  # more than 100 detections on one image and class: exercises maxDets
        im = images[0]['id']
        c = cats[0]['id']
        for _ in range(8):
            anns.append({'id': aid, 'image_id': im, 'category_id': c, 'bbox': [rng.uniform(0, 300), rng.uniform(0, 300), 40, 40],
                         'area': 1500.0, 'iscrowd': 0})
            aid += 1
        for _ in range(130):
            dets.append({'image_id': im, 'category_id': c,
                         'bbox': [round(rng.uniform(0, 300), 1), round(rng.uniform(0, 300), 1), 40, 40],
                         'score': round(rng.random(), score_decimals)})
    rng.shuffle(dets)
    return {'images': images, 'annotations': anns, 'categories': cats}, dets


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = {
        'ties': dict(seed=1, n_images=40, n_cats=3, crowd_rate=0.1, difficult_rate=0.1, score_decimals=1,
                     crowded_image=True),
        'fine': dict(seed=2, n_images=60, n_cats=4, crowd_rate=0.05, difficult_rate=0.15, score_decimals=4,
                     crowded_image=False),
        'few': dict(seed=3, n_images=8, n_cats=5, crowd_rate=0.2, difficult_rate=0.0, score_decimals=2,
                    crowded_image=False),
    }
    expected = {'generator': 'tests/detection/generate_coco.py', 'numpy': np.__version__,
                'reference': 'independent re-implementation of pycocotools 2.0 COCOeval (bbox) and voc_eval.py',
                'cases': {}}
    for name, kw in cases.items():
        gt, dt = make_case(**kw)
        with open(os.path.join(OUT, name + '_gt.json'), 'w') as f:
            json.dump(gt, f)
        with open(os.path.join(OUT, name + '_dt.json'), 'w') as f:
            json.dump(dt, f)
        stats, per_cat = coco_reference(gt, dt)
        voc07, map07 = voc_reference(gt, dt, True)
        voc12, map12 = voc_reference(gt, dt, False)
        expected['cases'][name] = {'coco_stats': stats, 'coco_category_ap': per_cat, 'voc07_ap': voc07,
                                   'voc07_map': map07, 'voc_ap': voc12, 'voc_map': map12}
    with open(os.path.join(OUT, 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=1)


if __name__ == '__main__':
    main()
