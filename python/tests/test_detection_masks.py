"""assay.detection.evaluate_coco with iou_type 'segm' and 'keypoints' against pycocotools' COCOeval on
generated data sets (masks from pycocotools.mask.encode, counts as bytes; polygons; crowd regions;
keypoints with visibility 0 and people without visible keypoints), compared exactly (==)."""

import contextlib
import copy
import io
import re

import numpy as np
import pytest
from pycocotools import mask as mask_utils
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

from assay import detection


def pycocotools_stats(gt, dt, iou_type, sigmas=None):
    with contextlib.redirect_stdout(io.StringIO()):
        coco_gt = COCO()
        coco_gt.dataset = copy.deepcopy(gt)
        coco_gt.createIndex()
        coco_dt = coco_gt.loadRes(copy.deepcopy(dt))
        e = COCOeval(coco_gt, coco_dt, iou_type)
        if sigmas is not None:
            e.params.kpt_oks_sigmas = np.asarray(sigmas)
        e.evaluate()
        e.accumulate()
        e.summarize()
    return e


def masks_dataset(seed, n_images=12):
    rng = np.random.default_rng(seed)
    images, anns, dts = [], [], []
    for img in range(1, n_images + 1):
        h, w = int(rng.integers(20, 140)), int(rng.integers(20, 140))
        images.append({"id": img, "height": h, "width": w})
        y, x = np.ogrid[0:h, 0:w]
        for _ in range(int(rng.integers(0, 5))):
            cat = int(rng.integers(1, 4))
            cy, cx, ry, rx = rng.uniform(0, h), rng.uniform(0, w), rng.uniform(1, h / 2), rng.uniform(1, w / 2)
            m = ((y - cy) / ry) ** 2 + ((x - cx) / rx) ** 2 <= 1
            if rng.random() < 0.3:
                pts = [float(v) for a in np.linspace(0, 2 * np.pi, 7)[:-1]
                       for v in (cx + rx * np.cos(a), cy + ry * np.sin(a))]
                seg = [pts]
                m = mask_utils.decode(mask_utils.merge(mask_utils.frPyObjects(seg, h, w))).astype(bool)
            else:
                seg = mask_utils.encode(np.asfortranarray(m.astype(np.uint8)))
            crowd = int(rng.random() < 0.1)
            anns.append({"id": len(anns) + 1, "image_id": img, "category_id": cat, "segmentation": seg,
                         "area": float(m.sum()), "iscrowd": crowd, "bbox": [0, 0, 1, 1]})
            for _ in range(int(rng.integers(0, 3))):
                d = np.roll(m, (int(rng.integers(-4, 5)), int(rng.integers(-4, 5))), axis=(0, 1))
                dts.append({"image_id": img, "category_id": cat, "score": float(np.round(rng.random(), 1)),
                            "segmentation": mask_utils.encode(np.asfortranarray(d.astype(np.uint8)))})
    cats = [{"id": c, "name": f"c{c}"} for c in (1, 2, 3)]
    return {"images": images, "annotations": anns, "categories": cats}, dts


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_segm_matches_pycocotools(seed):
    gt, dt = masks_dataset(seed)
    e = pycocotools_stats(gt, dt, "segm")
    ours = detection.evaluate_coco(gt, dt, iou_type="segm")
    assert ours.stats.tolist() == e.stats.tolist()
    assert np.array_equal(ours.precision, e.eval["precision"])
    assert np.array_equal(ours.recall, e.eval["recall"])


def keypoints_dataset(seed, k=17, n_images=15):
    rng = np.random.default_rng(seed)
    images, anns, dts = [], [], []
    for img in range(1, n_images + 1):
        images.append({"id": img, "height": 300, "width": 300})
        for _ in range(int(rng.integers(0, 4))):
            bw, bh = rng.uniform(10, 200), rng.uniform(10, 200)
            x0, y0 = rng.uniform(0, 300 - bw), rng.uniform(0, 300 - bh)
            hidden = rng.random() < 0.15
            kps = []
            for _ in range(k):
                v = 0 if hidden or rng.random() < 0.3 else 2
                kps += [float(rng.uniform(x0, x0 + bw)) if v else 0.0, float(rng.uniform(y0, y0 + bh)) if v else 0.0, v]
            anns.append({"id": len(anns) + 1, "image_id": img, "category_id": 1, "keypoints": kps,
                         "num_keypoints": sum(1 for j in range(k) if kps[3 * j + 2]), "bbox": [x0, y0, bw, bh],
                         "area": bw * bh * 0.5, "iscrowd": int(rng.random() < 0.05)})
            for _ in range(int(rng.integers(0, 3))):
                d = []
                for j in range(k):
                    d += [kps[3 * j] + rng.normal(0, bw / 12), kps[3 * j + 1] + rng.normal(0, bh / 12), 1.0]
                dts.append({"image_id": img, "category_id": 1, "keypoints": [float(v) for v in d],
                            "score": float(np.round(rng.random(), 2))})
    return {"images": images, "annotations": anns, "categories": [{"id": 1, "name": "person"}]}, dts


@pytest.mark.parametrize("seed", [4, 5])
def test_keypoints_match_pycocotools(seed):
    gt, dt = keypoints_dataset(seed)
    e = pycocotools_stats(gt, dt, "keypoints")
    ours = detection.evaluate_coco(gt, dt, iou_type="keypoints")
    assert list(ours) == ["AP", "AP50", "AP75", "APm", "APl", "AR", "AR50", "AR75", "ARm", "ARl"]
    assert ours.stats.tolist() == e.stats.tolist()
    assert np.array_equal(ours.precision, e.eval["precision"])


def test_keypoints_with_given_sigmas_match_pycocotools():
    gt, dt = keypoints_dataset(6, k=4)
    sigmas = [0.05, 0.07, 0.09, 0.11]
    e = pycocotools_stats(gt, dt, "keypoints", sigmas)
    ours = detection.evaluate_coco(gt, dt, iou_type="keypoints", kpt_oks_sigmas=sigmas)
    assert ours.stats.tolist() == e.stats.tolist()


def test_segm_intervals():
    gt, dt = masks_dataset(1)
    r = detection.evaluate_coco(gt, dt, iou_type="segm", ci=0.9, n_boot=50, seed=3)
    assert r["AP"].ci[0] <= r["AP"].ci[1]


@pytest.mark.parametrize("change,message", [
    (lambda gt, dt: gt["annotations"][0].update(segmentation={"size": [2, 2], "counts": [1, 2]}),
     "evaluate_coco: gt: annotations[0]: segmentation.size is [2, 2]"),
    (lambda gt, dt: gt["annotations"][0].update(segmentation=[[1, 2, 3, 4]]),
     "evaluate_coco: gt: annotations[0]: segmentation: polygon 0 has 4 numbers"),
    (lambda gt, dt: dt[0].update(segmentation=dict(dt[0]["segmentation"], counts=b"1")),
     "evaluate_coco: dt: [0]: segmentation.counts: the counts sum to 1"),
])
def test_bad_masks_name_record_and_field(change, message):
    gt, dt = masks_dataset(1)
    change(gt, dt)
    with pytest.raises(ValueError, match=re.escape(message)):
        detection.evaluate_coco(gt, dt, iou_type="segm")


def test_bad_keypoints_name_record_and_field():
    gt, dt = keypoints_dataset(4)
    dt[1]["keypoints"] = dt[1]["keypoints"][:-3]
    with pytest.raises(ValueError, match=re.escape("evaluate_coco: dt: [1]: field 'keypoints' must hold 51 numbers")):
        detection.evaluate_coco(gt, dt, iou_type="keypoints")
    with pytest.raises(ValueError, match="kpt_oks_sigmas"):
        detection.evaluate_coco(gt, dt, iou_type="segm", kpt_oks_sigmas=[0.1])


def test_files_give_the_same_numbers(tmp_path):
    import json
    gt, dt = keypoints_dataset(4)
    (tmp_path / "gt.json").write_text(json.dumps(gt))
    (tmp_path / "dt.json").write_text(json.dumps(dt))
    from_files = detection.evaluate_coco(tmp_path / "gt.json", str(tmp_path / "dt.json"), iou_type="keypoints")
    from_dicts = detection.evaluate_coco(gt, dt, iou_type="keypoints")
    assert from_files.stats.tolist() == from_dicts.stats.tolist()
    assert list(from_files.per_category) == [1]
    with pytest.raises(ValueError, match=re.escape("evaluate_coco: dt: cannot read")):
        detection.evaluate_coco(gt, tmp_path / "missing.json", iou_type="keypoints")
