#!/usr/bin/env python3
"""Writes COCO segmentation and keypoint test sets and pycocotools' own numbers for them.

The reference is pycocotools itself (the version is recorded in the output): COCOeval with
iouType 'segm' and 'keypoints', after evaluate(), accumulate() and summarize(). Run from the
repository root with the project's virtual environment:
    .venv/bin/python tests/detection/generate_coco_masks.py
It writes tests/detection/data/masks/<case>_gt.json, <case>_dt.json and expected.json.

The sets hold what the evaluation must get right: crowd regions (uncompressed RLE, as COCO stores
them), polygons (several per object), compressed and uncompressed RLE, a mask with a hole (a ring,
given as RLE), degenerate masks (empty, one pixel, the whole image), images without ground truth,
without detections and with neither, tied scores, objects in every area range; for keypoints,
keypoints with visibility 0, objects with no visible keypoint (num_keypoints 0) and crowd objects,
and a set with 5 keypoints and sigmas of its own.
"""
import contextlib
import io
import json
import os
import random
from importlib.metadata import version

import numpy as np
from pycocotools import mask as mask_utils
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "masks")


def rle_string(m):
    r = mask_utils.encode(np.asfortranarray(m.astype(np.uint8)))
    return {"size": [int(x) for x in r["size"]], "counts": r["counts"].decode("ascii")}


def rle_list(m):
    # Uncompressed RLE: runs of 0s and 1s in column-major order, starting with 0s.
    flat = m.astype(np.uint8).flatten(order="F")
    counts, cur, run = [], 0, 0
    for v in flat:
        if v == cur:
            run += 1
        else:
            counts.append(run)
            cur, run = v, 1
    counts.append(run)
    return {"size": [int(m.shape[0]), int(m.shape[1])], "counts": counts}


def ellipse(h, w, cy, cx, ry, rx):
    y, x = np.mgrid[0:h, 0:w]
    return ((y - cy) / max(ry, 0.5)) ** 2 + ((x - cx) / max(rx, 0.5)) ** 2 <= 1


def polygon(rng, cx, cy, r, n):
    pts = []
    for i in range(n):
        a = 2 * np.pi * i / n + rng.uniform(-0.2, 0.2)
        rr = r * rng.uniform(0.5, 1.0)
        pts += [round(cx + rr * np.cos(a), 2), round(cy + rr * np.sin(a), 2)]
    return pts


def segm_case(seed):
    rng = random.Random(seed)
    images, anns, dts = [], [], []
    sizes = [(40, 50), (64, 48), (120, 110), (30, 30), (80, 100), (100, 120), (50, 50), (96, 128)]
    cats = [{"id": 1, "name": "blob"}, {"id": 2, "name": "ring"}, {"id": 3, "name": "poly"}]
    aid = 1
    for i, (h, w) in enumerate(sizes):
        img = i + 1
        images.append({"id": img, "height": h, "width": w})
        if img == 4:  # neither ground truth nor detections
            continue
        masks = []
        for _ in range(rng.randint(2, 5)):
            c = rng.choice([1, 2, 3])
            cy, cx = rng.uniform(0, h), rng.uniform(0, w)
            ry, rx = rng.uniform(1, h / 2), rng.uniform(1, w / 2)
            if c == 1:
                m = ellipse(h, w, cy, cx, ry, rx)
                seg = rle_string(m) if rng.random() < 0.5 else rle_list(m)
            elif c == 2:  # a ring: a mask with a hole, only expressible as RLE
                m = ellipse(h, w, cy, cx, ry, rx) & ~ellipse(h, w, cy, cx, ry / 2, rx / 2)
                seg = rle_list(m)
            else:
                polys = [polygon(rng, cx, cy, min(h, w) / rng.uniform(2, 6), rng.randint(3, 9))
                         for _ in range(rng.choice([1, 1, 2]))]
                seg = polys
                m = mask_utils.decode(mask_utils.merge(mask_utils.frPyObjects(polys, h, w))).astype(bool)
            crowd = 1 if rng.random() < 0.12 else 0
            if crowd:
                seg = rle_list(m)
            area = float(m.sum()) if rng.random() < 0.9 else float(m.sum()) * rng.uniform(0.5, 2)
            anns.append({"id": aid, "image_id": img, "category_id": c, "segmentation": seg, "area": area,
                         "iscrowd": crowd, "bbox": [0, 0, 1, 1]})
            aid += 1
            masks.append((c, m))
        if img == 5:  # ground truth, no detections
            continue
        for c, m in masks:
            for _ in range(rng.randint(0, 2)):
                dy, dx = rng.randint(-3, 3), rng.randint(-3, 3)
                d = np.roll(np.roll(m, dy, axis=0), dx, axis=1)
                if rng.random() < 0.3:
                    d = d & ellipse(h, w, rng.uniform(0, h), rng.uniform(0, w), h / 2, w / 2)
                dts.append({"image_id": img, "category_id": c, "segmentation": rle_string(d),
                            "score": round(rng.uniform(0, 1), 1)})
        for _ in range(rng.randint(0, 3)):  # false positives and degenerate masks
            kind = rng.choice(["blob", "empty", "pixel", "full"])
            d = np.zeros((h, w), bool)
            if kind == "blob":
                d = ellipse(h, w, rng.uniform(0, h), rng.uniform(0, w), rng.uniform(1, h / 3), rng.uniform(1, w / 3))
            elif kind == "pixel":
                d[rng.randrange(h), rng.randrange(w)] = True
            elif kind == "full":
                d[:] = True
            dts.append({"image_id": img, "category_id": rng.choice([1, 2, 3]), "segmentation": rle_string(d),
                        "score": round(rng.uniform(0, 1), 1)})
    # Degenerate ground truths on image 7: an empty mask and a one-pixel mask.
    h, w = sizes[6]
    one = np.zeros((h, w), bool)
    one[3, 4] = True
    for m in (np.zeros((h, w), bool), one):
        anns.append({"id": aid, "image_id": 7, "category_id": 1, "segmentation": rle_list(m), "area": float(m.sum()),
                     "iscrowd": 0, "bbox": [0, 0, 1, 1]})
        aid += 1
    dts.append({"image_id": 7, "category_id": 1, "segmentation": rle_string(one), "score": 0.55})
    # Large objects (area > 96^2): a rectangle on image 3 with a shifted detection, and a large crowd
    # region on image 8 with a detection inside it.
    for img, crowd, (y0, y1, x0, x1) in ((3, 0, (5, 115, 4, 104)), (8, 1, (0, 96, 10, 120))):
        h, w = sizes[img - 1]
        m = np.zeros((h, w), bool)
        m[y0:y1, x0:x1] = True
        anns.append({"id": aid, "image_id": img, "category_id": 2, "segmentation": rle_list(m), "area": float(m.sum()),
                     "iscrowd": crowd, "bbox": [x0, y0, x1 - x0, y1 - y0]})
        aid += 1
        d = np.roll(m, 4 + seed % 3, axis=1)
        if crowd:
            d = ellipse(h, w, 48, 60, 30, 40)
        dts.append({"image_id": img, "category_id": 2, "segmentation": rle_string(d), "score": 0.7})
    return {"images": images, "annotations": anns, "categories": cats}, dts


COCO_SIGMAS = [.26, .25, .25, .35, .35, .79, .79, .72, .72, .62, .62, 1.07, 1.07, .87, .87, .89, .89]


def keypoint_case(seed, k):
    rng = random.Random(seed)
    images, anns, dts = [], [], []
    aid = 1
    for img in range(1, 11):
        images.append({"id": img, "height": 200, "width": 200})
        if img == 3:
            continue  # no people, no detections
        people = []
        for _ in range(rng.randint(1, 4)):
            w, h = rng.uniform(10, 150), rng.uniform(10, 150)
            x0, y0 = rng.uniform(0, 200 - w), rng.uniform(0, 200 - h)
            kps = []
            invisible = rng.random() < 0.15
            for _ in range(k):
                v = 0 if invisible or rng.random() < 0.25 else rng.choice([1, 2])
                if v == 0:
                    kps += [0, 0, 0]
                else:
                    kps += [round(rng.uniform(x0, x0 + w), 1), round(rng.uniform(y0, y0 + h), 1), v]
            crowd = 1 if rng.random() < 0.1 else 0
            nk = sum(1 for j in range(k) if kps[3 * j + 2] > 0)
            area = round(w * h * rng.uniform(0.4, 0.8), 2)
            anns.append({"id": aid, "image_id": img, "category_id": 1, "keypoints": kps, "num_keypoints": nk,
                         "bbox": [round(x0, 2), round(y0, 2), round(w, 2), round(h, 2)], "area": area,
                         "iscrowd": crowd})
            aid += 1
            people.append((kps, x0, y0, w, h))
        if img == 6:
            continue  # people, no detections
        for kps, x0, y0, w, h in people:
            for _ in range(rng.randint(0, 2)):
                d = []
                for j in range(k):
                    if kps[3 * j + 2] > 0:
                        x, y = kps[3 * j] + rng.gauss(0, w / 15), kps[3 * j + 1] + rng.gauss(0, h / 15)
                    else:
                        x, y = rng.uniform(x0 - w, x0 + 2 * w), rng.uniform(y0 - h, y0 + 2 * h)
                    d += [round(x, 2), round(y, 2), 1]
                dts.append({"image_id": img, "category_id": 1, "keypoints": d, "score": round(rng.uniform(0, 1), 2)})
        for _ in range(rng.randint(0, 2)):
            d = []
            for j in range(k):
                d += [round(rng.uniform(0, 200), 2), round(rng.uniform(0, 200), 2), 1]
            dts.append({"image_id": img, "category_id": 1, "keypoints": d, "score": round(rng.uniform(0, 1), 2)})
    return {"images": images, "annotations": anns, "categories": [{"id": 1, "name": "person"}]}, dts


def evaluate(gt, dt, iou_type, sigmas=None):
    with contextlib.redirect_stdout(io.StringIO()):
        coco_gt = COCO()
        coco_gt.dataset = json.loads(json.dumps(gt))
        coco_gt.createIndex()
        coco_dt = coco_gt.loadRes(json.loads(json.dumps(dt)))
        e = COCOeval(coco_gt, coco_dt, iou_type)
        if sigmas is not None:
            e.params.kpt_oks_sigmas = np.array(sigmas) / 10.0
        e.evaluate()
        e.accumulate()
        e.summarize()
    prec = e.eval["precision"]
    per_cat = []
    for k in range(prec.shape[2]):
        row = {}
        for name, t in (("AP", slice(None)), ("AP50", 0), ("AP75", 5)):
            p = prec[t, :, k, 0, -1]
            p = p[p > -1]
            row[name] = float(np.mean(p)) if p.size else -1.0
        per_cat.append(row)
    return {"stats": [float(x) for x in e.stats], "per_category": per_cat,
            "recall": [float(x) for x in e.eval["recall"].ravel()]}


def polygon_checks(seed):
    # Polygons rasterised by pycocotools (frPyObjects then merge), as canonical compressed RLE.
    rng = random.Random(seed)
    out = []
    for _ in range(40):
        h, w = rng.randint(1, 40), rng.randint(1, 40)
        polys = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            n = rng.randint(3, 8)
            pts = []
            for _ in range(n):
                pts += [round(rng.uniform(-5, w + 5), rng.choice([0, 1, 3])),
                        round(rng.uniform(-5, h + 5), rng.choice([0, 1, 3]))]
            if rng.random() < 0.2:
                pts += pts[-2:]  # a repeated vertex
            polys.append(pts)
        m = mask_utils.decode(mask_utils.merge(mask_utils.frPyObjects(polys, h, w)))
        out.append({"h": h, "w": w, "polygons": polys, "rle": rle_string(m)["counts"], "area": int(m.sum())})
    return out


def iou_checks(seed):
    rng = random.Random(seed)
    out = []
    for _ in range(30):
        h, w = rng.randint(1, 30), rng.randint(1, 30)
        ms = []
        for _ in range(4):
            m = np.zeros((h, w), bool)
            if rng.random() < 0.8:
                m = ellipse(h, w, rng.uniform(0, h), rng.uniform(0, w), rng.uniform(0.5, h), rng.uniform(0.5, w))
            ms.append(rle_string(m))
        d, g = ms[:2], ms[2:]
        crowd = [rng.randint(0, 1) for _ in g]
        enc = lambda rs: [{"size": r["size"], "counts": r["counts"].encode()} for r in rs]
        iou = mask_utils.iou(enc(d), enc(g), crowd)
        out.append({"dt": d, "gt": g, "iscrowd": crowd, "iou": [[float(x) for x in row] for row in iou]})
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    expected = {"generator": "tests/detection/generate_coco_masks.py", "pycocotools": version("pycocotools"),
                "numpy": np.__version__, "cases": {}}
    cases = [("segm", "segm", segm_case(1), None), ("segm2", "segm", segm_case(7), None),
             ("kp", "keypoints", keypoint_case(3, 17), None), ("kp5", "keypoints", keypoint_case(5, 5), [.5, .6, .7, .8, 1.0])]
    for name, iou_type, (gt, dt), sigmas in cases:
        with open(os.path.join(OUT, f"{name}_gt.json"), "w") as f:
            json.dump(gt, f, separators=(",", ":"))
        with open(os.path.join(OUT, f"{name}_dt.json"), "w") as f:
            json.dump(dt, f, separators=(",", ":"))
        r = evaluate(gt, dt, iou_type, sigmas)
        r["iou_type"] = iou_type
        if sigmas is not None:
            r["sigmas"] = [s / 10.0 for s in sigmas]
        expected["cases"][name] = r
    expected["polygons"] = polygon_checks(11)
    expected["iou"] = iou_checks(13)
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
    print(json.dumps({k: v["stats"] for k, v in expected["cases"].items()}, indent=1))


if __name__ == "__main__":
    main()
