"""assay.detection against pycocotools (COCOeval.stats and per-category AP, compared exactly: ==) on
generated data sets, against the PASCAL VOC devkit's voc_eval (written out below, 1e-12 absolute),
and box_iou against pycocotools.mask.iou."""

import contextlib
import copy
import io
import math
import re

import numpy as np
import pytest
from pycocotools import mask as mask_utils
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

import assay
from assay import detection


def make_dataset(seed, n_images=30, n_categories=5, crowd_rate=0.1, fp_rate=0.5):
    """Random boxes of all sizes in several categories, crowd flags, some 'area' fields that are not
    w*h (as segment areas), detections near the truths and false positives, scores with ties."""
    rng = np.random.default_rng(seed)
    image_ids = sorted(rng.choice(np.arange(1, 1000), size=n_images, replace=False).tolist())
    categories = [{"id": int(c), "name": f"class{c}"} for c in (1, 2, 3, 5, 8)[:n_categories]]
    cat_ids = [c["id"] for c in categories]
    anns, dets = [], []
    for img in image_ids:
        for _ in range(rng.integers(0, 8)):
            side = float(rng.choice([8, 20, 40, 70, 120, 200]))
            w = round(side * rng.uniform(0.5, 1.5), 1)
            h = round(side * rng.uniform(0.5, 1.5), 1)
            x, y = round(rng.uniform(0, 400), 1), round(rng.uniform(0, 400), 1)
            cat = int(rng.choice(cat_ids[:-1]))  # the last category has detections only
            area = w * h if rng.random() < 0.7 else round(w * h * rng.uniform(0.6, 1.0), 2)
            anns.append({"id": len(anns) + 1, "image_id": img, "category_id": cat, "bbox": [x, y, w, h],
                         "area": area, "iscrowd": int(rng.random() < crowd_rate)})
            for _ in range(rng.integers(0, 3)):
                jit = rng.normal(0, 0.1 * side, size=4)
                dets.append({"image_id": img, "category_id": cat if rng.random() < 0.85 else int(rng.choice(cat_ids)),
                             "bbox": [x + jit[0], y + jit[1], max(w + jit[2], 1.0), max(h + jit[3], 1.0)],
                             "score": round(float(rng.uniform(0.05, 1)), 1)})
        for _ in range(rng.poisson(fp_rate * 4)):
            side = float(rng.choice([10, 50, 150]))
            dets.append({"image_id": img, "category_id": int(rng.choice(cat_ids)),
                         "bbox": [float(rng.uniform(0, 400)), float(rng.uniform(0, 400)), side, side * 0.8],
                         "score": round(float(rng.uniform(0.05, 1)), 1)})
    order = rng.permutation(len(dets))
    dets = [dets[i] for i in order]
    gt = {"images": [{"id": i} for i in image_ids], "annotations": anns, "categories": categories}
    return gt, dets


def pycoco(gt, dt, **params):
    coco_gt = COCO()
    coco_gt.dataset = copy.deepcopy(gt)
    with contextlib.redirect_stdout(io.StringIO()):
        coco_gt.createIndex()
        coco_dt = coco_gt.loadRes(copy.deepcopy(dt))
        ev = COCOeval(coco_gt, coco_dt, "bbox")
        for k, v in params.items():
            setattr(ev.params, k, v)
        ev.evaluate()
        ev.accumulate()
        ev.summarize()
    return ev


def per_category_ap(ev, k, t=None):
    p = ev.eval["precision"][:, :, k, 0, -1] if t is None else ev.eval["precision"][t, :, k, 0, -1]
    p = p[p > -1]
    return float(np.mean(p)) if p.size else -1.0


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_coco_stats_match_pycocotools_exactly(seed):
    gt, dt = make_dataset(seed)
    ours = detection.evaluate_coco(gt, dt)
    ev = pycoco(gt, dt)
    assert list(ours) == list(detection.STAT_NAMES)
    # Exact: the same operations in the same order, numpy's pairwise means included.
    assert ours.stats.tolist() == ev.stats.tolist()
    for i, name in enumerate(detection.STAT_NAMES):
        theirs = ev.stats[i]
        assert (math.isnan(ours[name]) and theirs == -1) or float(ours[name]) == theirs, name
    assert np.array_equal(ours.precision, ev.eval["precision"])
    assert np.array_equal(ours.recall, ev.eval["recall"])
    assert list(ours.per_category) == sorted(c["id"] for c in gt["categories"])
    for k, cid in enumerate(ours.per_category):
        row = ours.per_category[cid]
        assert row["name"] == f"class{cid}"
        for key, t in (("AP", None), ("AP50", 0), ("AP75", 5)):
            theirs = per_category_ap(ev, k, t)
            if theirs == -1:
                assert math.isnan(row[key]) and row[key].reason
            else:
                assert float(row[key]) == theirs, (cid, key)


def test_coco_more_than_max_dets_per_image_and_many_crowds():
    gt, dt = make_dataset(200, n_images=4, n_categories=2, crowd_rate=0.3, fp_rate=100)
    assert max(sum(d["image_id"] == i["id"] for d in dt) for i in gt["images"]) > 100
    ours = detection.evaluate_coco(gt, dt)
    ev = pycoco(gt, dt)
    assert ours.stats.tolist() == ev.stats.tolist()
    assert np.array_equal(ours.precision, ev.eval["precision"])


def test_coco_category_without_ground_truth_is_undefined():
    gt, dt = make_dataset(5)
    r = detection.evaluate_coco(gt, dt)
    last = r.per_category[8]
    assert last["n_gt"] == 0 and last["n_dt"] > 0
    assert math.isnan(last["AP"]) and not last["AP"].defined


def test_coco_params_and_array_input_match_pycocotools():
    gt, dt = make_dataset(6, n_images=20)
    ev = pycoco(gt, dt, iouThrs=np.array([0.5, 0.6, 0.75]), maxDets=[1, 3, 100])
    ours = detection.evaluate_coco(gt, dt, iou_thresholds=[0.5, 0.6, 0.75], max_dets=[1, 3, 100])
    assert ours.stats.tolist() == ev.stats.tolist()
    # Without 100 in maxDets, pycocotools' summarize() still reads AP at maxDets=100 and prints -1
    # (its _summarize(1) default); assay reads it at max_dets[-1] like the 11 other numbers.
    ev = pycoco(gt, dt, iouThrs=np.array([0.5, 0.75]), maxDets=[1, 5, 20])
    ours = detection.evaluate_coco(gt, dt, iou_thresholds=[0.5, 0.75], max_dets=[1, 5, 20])
    assert ev.stats[0] == -1 and ours.stats[1:].tolist() == ev.stats[1:].tolist()
    p = ev.eval["precision"][:, :, :, 0, -1]
    assert float(ours["AP"]) == float(np.mean(p[p > -1]))
    arr = np.array([[d["image_id"], *d["bbox"], d["score"], d["category_id"]] for d in dt])
    again = detection.evaluate_coco(gt, arr, iou_thresholds=[0.5, 0.75], max_dets=[1, 5, 20])
    assert again.stats.tolist() == ours.stats.tolist()


def test_coco_numpy_values_in_dicts_and_string_ids():
    gt, dt = make_dataset(7, n_images=10)
    gt_np = copy.deepcopy(gt)
    for a in gt_np["annotations"]:
        a["bbox"] = np.array(a["bbox"])
        a["image_id"] = np.int64(a["image_id"])
    dt_np = [dict(d, score=np.float32(d["score"]).item(), bbox=np.array(d["bbox"])) for d in dt]
    assert detection.evaluate_coco(gt_np, dt_np).stats.tolist() == detection.evaluate_coco(gt, dt).stats.tolist()
    # Text ids: the same numbers, results keyed by the ids as given.
    gt_s = copy.deepcopy(gt)
    for c in gt_s["categories"]:
        c["id"] = f"c{c['id']}"
    for a in gt_s["annotations"]:
        a["category_id"] = f"c{a['category_id']}"
    dt_s = [dict(d, category_id=f"c{d['category_id']}") for d in dt]
    r = detection.evaluate_coco(gt_s, dt_s)
    assert r.stats.tolist() == detection.evaluate_coco(gt, dt).stats.tolist()
    assert list(r.per_category) == ["c1", "c2", "c3", "c5", "c8"]


def test_coco_interval():
    gt, dt = make_dataset(8)
    r = detection.evaluate_coco(gt, dt, ci=0.9, n_boot=200, seed=3)
    ap = r["AP"]
    assert ap.level == 0.9 and ap.ci[0] <= float(ap) <= ap.ci[1]
    assert "200 replicates" in ap.method
    assert detection.evaluate_coco(gt, dt, ci=0.9, n_boot=200, seed=3)["AP"].ci == ap.ci
    assert detection.evaluate_coco(gt, dt)["AP"].ci is None


def voc_eval_reference(gt, dt, cat, use_07_metric, ovthresh=0.5):
    """The devkit's voc_eval.py (py-faster-rcnn), on COCO-format input: boxes (x, y, x+w, y+h), crowd
    boxes as difficult, and a stable sort of scores (voc_eval.py's quicksort leaves ties arbitrary)."""
    recs = {}
    for a in gt["annotations"]:
        if a["category_id"] != cat:
            continue
        x, y, w, h = a["bbox"]
        r = recs.setdefault(a["image_id"], {"bbox": [], "difficult": []})
        r["bbox"].append([x, y, x + w, y + h])
        r["difficult"].append(bool(a.get("iscrowd", 0) or a.get("difficult", 0)))
    npos = 0
    for r in recs.values():
        r["bbox"] = np.array(r["bbox"])
        r["difficult"] = np.array(r["difficult"])
        r["det"] = [False] * len(r["difficult"])
        npos += int((~r["difficult"]).sum())
    ds = [d for d in dt if d["category_id"] == cat]
    conf = np.array([d["score"] for d in ds])
    order = np.argsort(-conf, kind="mergesort")
    nd = len(ds)
    tp, fp = np.zeros(nd), np.zeros(nd)
    for rank, j in enumerate(order):
        d = ds[j]
        x, y, w, h = d["bbox"]
        bb = np.array([x, y, x + w, y + h])
        r = recs.get(d["image_id"])
        ovmax = -np.inf
        if r is not None and r["bbox"].size > 0:
            g = r["bbox"]
            ixmin = np.maximum(g[:, 0], bb[0])
            iymin = np.maximum(g[:, 1], bb[1])
            ixmax = np.minimum(g[:, 2], bb[2])
            iymax = np.minimum(g[:, 3], bb[3])
            iw = np.maximum(ixmax - ixmin + 1.0, 0.0)
            ih = np.maximum(iymax - iymin + 1.0, 0.0)
            inters = iw * ih
            uni = ((bb[2] - bb[0] + 1.0) * (bb[3] - bb[1] + 1.0)
                   + (g[:, 2] - g[:, 0] + 1.0) * (g[:, 3] - g[:, 1] + 1.0) - inters)
            overlaps = inters / uni
            ovmax = np.max(overlaps)
            jmax = np.argmax(overlaps)
        if ovmax > ovthresh:
            if not r["difficult"][jmax]:
                if not r["det"][jmax]:
                    tp[rank] = 1.0
                    r["det"][jmax] = True
                else:
                    fp[rank] = 1.0
        else:
            fp[rank] = 1.0
    if npos == 0:
        return None
    fp, tp = np.cumsum(fp), np.cumsum(tp)
    rec = tp / float(npos)
    prec = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
    if use_07_metric:
        ap = 0.0
        for t in np.arange(0.0, 1.1, 0.1):
            p = 0 if np.sum(rec >= t) == 0 else np.max(prec[rec >= t])
            ap = ap + p / 11.0
        return ap
    mrec = np.concatenate(([0.0], rec, [1.0]))
    mpre = np.concatenate(([0.0], prec, [0.0]))
    for i in range(mpre.size - 1, 0, -1):
        mpre[i - 1] = max(mpre[i - 1], mpre[i])
    i = np.where(mrec[1:] != mrec[:-1])[0]
    return np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1])


@pytest.mark.parametrize("use_07_metric", [False, True])
@pytest.mark.parametrize("seed", [11, 12])
def test_voc_matches_devkit(seed, use_07_metric):
    gt, dt = make_dataset(seed)
    r = detection.evaluate_voc(gt, dt, use_07_metric=use_07_metric)
    aps = []
    for c in gt["categories"]:
        ref = voc_eval_reference(gt, dt, c["id"], use_07_metric)
        ours = r.ap[c["id"]]
        if ref is None:
            assert math.isnan(ours) and ours.reason
        else:
            assert float(ours) == pytest.approx(ref, abs=1e-12)
            aps.append(ref)
    assert float(r.map) == pytest.approx(np.mean(aps), abs=1e-12)


def test_voc_interval():
    gt, dt = make_dataset(13)
    r = detection.evaluate_voc(gt, dt, ci=0.95, n_boot=100)
    assert r.map.ci[0] <= float(r.map) <= r.map.ci[1] and r.map.level == 0.95


def test_box_iou_matches_pycocotools_and_corners():
    rng = np.random.default_rng(0)
    a = np.column_stack([rng.uniform(0, 50, 7), rng.uniform(0, 50, 7), rng.uniform(0, 40, 7), rng.uniform(0, 40, 7)])
    b = np.column_stack([rng.uniform(0, 50, 5), rng.uniform(0, 50, 5), rng.uniform(0, 40, 5), rng.uniform(0, 40, 5)])
    crowd = [0, 1, 0, 0, 1]
    theirs = mask_utils.iou(a.tolist(), b.tolist(), crowd)
    assert np.array_equal(detection.box_iou(a, b, box_format="xywh", iscrowd=crowd), theirs)
    # The same boxes as corners give the same overlaps (up to the rounding of x + w).
    ax = np.column_stack([a[:, :2], a[:, :2] + a[:, 2:]])
    bx = np.column_stack([b[:, :2], b[:, :2] + b[:, 2:]])
    plain = mask_utils.iou(a.tolist(), b.tolist(), [0] * 5)
    assert np.allclose(detection.box_iou(ax, bx), plain, rtol=0, atol=1e-12)
    got = detection.box_iou([0, 0, 9, 9], [[0, 0, 9, 9], [5, 0, 14, 9], [20, 20, 30, 30]], plus_one=True)
    assert got.shape == (1, 3) and got[0].tolist() == [1.0, 50 / 150, 0.0]
    assert detection.box_iou(np.zeros((0, 4)), b).shape == (0, 5)


@pytest.mark.parametrize("call,message", [
    (lambda gt, dt: detection.evaluate_coco([], dt), "evaluate_coco: gt must be a COCO-format dict"),
    (lambda gt, dt: detection.evaluate_coco({"images": []}, dt), "evaluate_coco: gt has no 'annotations'"),
    (lambda gt, dt: detection.evaluate_coco(gt, dt, iou_type="polygon"), "evaluate_coco: iou_type"),
    (lambda gt, dt: detection.evaluate_coco(gt, dt, iou_type="segm"),
     "evaluate_coco: gt: annotations[0]: missing field 'segmentation'"),
    (lambda gt, dt: detection.evaluate_coco(gt, [dict(dt[0], image_id=-5)]), "evaluate_coco: dt: [0]: image_id -5"),
    (lambda gt, dt: detection.evaluate_coco(gt, [dict(dt[0], bbox=[1, 2, float("nan"), 4])]),
     "evaluate_coco: dt holds NaN"),
    (lambda gt, dt: detection.evaluate_coco(gt, [dict(dt[0], bbox=[1, 2, -3, 4])]), "negative"),
    (lambda gt, dt: detection.evaluate_coco(gt, [{"image_id": 1}]), "evaluate_coco: dt: [0]: missing field"),
    (lambda gt, dt: detection.evaluate_voc(dict(gt, annotations=[{"image_id": 1}]), dt), "evaluate_voc: gt: annot"),
    (lambda gt, dt: detection.evaluate_coco(gt, np.zeros((3, 5))), "evaluate_coco: dt as an array"),
    (lambda gt, dt: detection.evaluate_coco(gt, dt, ci=1.5), "evaluate_coco: ci"),
    (lambda gt, dt: detection.evaluate_coco(gt, dt, max_dets=[10, 1, 100]), "evaluate_coco: max_dets"),
    (lambda gt, dt: detection.evaluate_voc(gt, dt, iou_threshold=0), "evaluate_voc: iou_threshold"),
    (lambda gt, dt: detection.evaluate_voc(gt, 5), "evaluate_voc: dt must be"),
    (lambda gt, dt: detection.evaluate_voc(gt, "x"), "evaluate_voc: dt: cannot read 'x'"),
    (lambda gt, dt: detection.box_iou(np.zeros((2, 3)), np.zeros((1, 4))), "box_iou: a must have shape"),
    (lambda gt, dt: detection.box_iou(np.zeros((2, 4)), np.zeros((1, 4)), iscrowd=[0, 1]), "box_iou: iscrowd"),
])
def test_bad_input_raises_value_error(call, message):
    gt, dt = make_dataset(9, n_images=5)
    with pytest.raises(ValueError, match=re.escape(message)):
        call(gt, dt)


def test_submodule_is_reachable():
    assert assay.detection is detection and "detection" in assay.__all__
