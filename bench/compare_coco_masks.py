#!/usr/bin/env python3
"""COCO segmentation and keypoint evaluation: assay against pycocotools, in the same run.

    .venv/bin/python bench/compare_coco_masks.py [--images 5000] [--per-image 20] [--repeats 3]

Writes a synthetic data set (masks as compressed RLE on 480x640 images, 80 categories; people with
17 keypoints), then times, per repetition:
  * pycocotools 2.0.11: COCOeval(gt, gt.loadRes(dt), iou_type).evaluate() + accumulate() (the
    files already loaded, as in the task's target), and
  * assay from the dicts: assay.detection.evaluate_coco(gt, dt, iou_type), which serialises them
    to JSON (json.dumps) and parses that in C++, then evaluates;
  * assay from JSON text: the same core call on the already serialised text (what `assay
    detection` and evaluate_coco(gt_path, dt_path) do with files: parse and evaluate),
and prints the medians, the ratios and whether the numbers agree. assay's times include reading
its input; pycocotools' exclude it (COCO() and loadRes() are not timed), so the ratios are
conservative. Wall and CPU seconds are both printed: on a shared machine wall time is noisy.
"""
import argparse
import contextlib
import io
import json
import random
import statistics
import time
from importlib.metadata import version

import numpy as np
from pycocotools import mask as mask_utils
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

import assay.detection
from assay import _core


def blob(rng, h, w):
    # An ellipse as compressed RLE, drawn in a small window then placed (cheap to generate).
    ry, rx = rng.uniform(4, 60), rng.uniform(4, 60)
    cy, cx = rng.uniform(ry, h - ry), rng.uniform(rx, w - rx)
    y, x = np.ogrid[0:h, 0:w]
    m = ((y - cy) / ry) ** 2 + ((x - cx) / rx) ** 2 <= 1
    return m


def gen_segm(n_images, per_image, seed=1):
    rng = random.Random(seed)
    h, w = 480, 640
    images = [{"id": i + 1, "height": h, "width": w} for i in range(n_images)]
    cats = [{"id": k + 1, "name": f"c{k + 1}"} for k in range(80)]
    anns, dts = [], []
    for img in images:
        for _ in range(per_image):
            m = blob(rng, h, w)
            rle = mask_utils.encode(np.asfortranarray(m.astype(np.uint8)))
            cat = rng.randint(1, 80)
            anns.append({"id": len(anns) + 1, "image_id": img["id"], "category_id": cat,
                         "segmentation": {"size": [h, w], "counts": rle["counts"].decode()},
                         "area": float(m.sum()), "iscrowd": 1 if rng.random() < 0.02 else 0,
                         "bbox": [float(v) for v in mask_utils.toBbox(rle)]})
            d = np.roll(m, (rng.randint(-6, 6), rng.randint(-6, 6)), axis=(0, 1))
            drle = mask_utils.encode(np.asfortranarray(d.astype(np.uint8)))
            dts.append({"image_id": img["id"], "category_id": cat if rng.random() < 0.9 else rng.randint(1, 80),
                        "segmentation": {"size": [h, w], "counts": drle["counts"].decode()},
                        "score": round(rng.random(), 3)})
    return {"images": images, "annotations": anns, "categories": cats}, dts


def gen_keypoints(n_images, per_image, seed=2):
    rng = random.Random(seed)
    images = [{"id": i + 1, "height": 480, "width": 640} for i in range(n_images)]
    anns, dts = [], []
    for img in images:
        for _ in range(per_image):
            bw, bh = rng.uniform(20, 200), rng.uniform(40, 300)
            x0, y0 = rng.uniform(0, 640 - bw), rng.uniform(0, 480 - bh)
            kps, det = [], []
            for _ in range(17):
                v = 0 if rng.random() < 0.2 else 2
                x, y = (rng.uniform(x0, x0 + bw), rng.uniform(y0, y0 + bh)) if v else (0.0, 0.0)
                kps += [x, y, v]
                det += [x + rng.gauss(0, 5), y + rng.gauss(0, 5), 1]
            nk = sum(1 for j in range(17) if kps[3 * j + 2])
            anns.append({"id": len(anns) + 1, "image_id": img["id"], "category_id": 1, "keypoints": kps,
                         "num_keypoints": nk, "bbox": [x0, y0, bw, bh], "area": bw * bh * 0.6, "iscrowd": 0})
            dts.append({"image_id": img["id"], "category_id": 1, "keypoints": det, "score": round(rng.random(), 3)})
    return {"images": images, "annotations": anns, "categories": [{"id": 1, "name": "person"}]}, dts


def clocks():
    return time.perf_counter(), time.process_time()


def since(t):
    return time.perf_counter() - t[0], time.process_time() - t[1]


def time_pycocotools(gt, dt, iou_type):
    with contextlib.redirect_stdout(io.StringIO()):
        coco_gt = COCO()
        coco_gt.dataset = gt
        coco_gt.createIndex()
        coco_dt = coco_gt.loadRes([dict(d) for d in dt])
        e = COCOeval(coco_gt, coco_dt, iou_type)
        t = clocks()
        e.evaluate()
        e.accumulate()
        elapsed = since(t)
        e.summarize()
    return elapsed, list(e.stats)


def time_assay(gt, dt, iou_type):
    t = clocks()
    r = assay.detection.evaluate_coco(gt, dt, iou_type)
    return since(t), list(r.stats)


def time_assay_text(gt_text, dt_text, iou_type):
    t = clocks()
    _core.detection_coco(gt_text, dt_text, None, None, float("nan"), 0, 0, iou_type, None)
    return since(t)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--images", type=int, default=5000)
    ap.add_argument("--per-image", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", choices=["segm", "keypoints"])
    a = ap.parse_args()
    print(f"pycocotools {version('pycocotools')}, numpy {np.__version__}; {a.images} images x {a.per_image} objects "
          f"per image, {a.repeats} repeats")
    for iou_type, gen in (("segm", gen_segm), ("keypoints", gen_keypoints)):
        if a.only and a.only != iou_type:
            continue
        gt, dt = gen(a.images, a.per_image)
        gt = json.loads(json.dumps(gt))
        gt_text = assay.detection._ground_truth("bench", gt)
        dt_text = assay.detection._detections("bench", dt, iou_type)
        ours, text, theirs = [], [], []
        for _ in range(a.repeats):
            t, s_theirs = time_pycocotools(gt, dt, iou_type)
            theirs.append(t)
            t, s_ours = time_assay(gt, dt, iou_type)
            ours.append(t)
            text.append(time_assay_text(gt_text, dt_text, iou_type))
        same = s_ours == [float(x) for x in s_theirs]
        med = lambda v, i: statistics.median(x[i] for x in v)
        print(f"{iou_type}: numbers identical to pycocotools: {same}")
        for i, clock in ((0, "wall"), (1, "cpu")):
            mt, mo, mx = med(theirs, i), med(ours, i), med(text, i)
            print(f"  {clock:4s} median  pycocotools evaluate+accumulate {mt:8.3f} s | assay from dicts {mo:7.3f} s "
                  f"({mt / mo:5.1f}x) | assay from JSON text {mx:7.3f} s ({mt / mx:5.1f}x)")

if __name__ == "__main__":
    main()
