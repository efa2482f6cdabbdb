"""Object-detection evaluation: COCO (pycocotools' COCOeval for boxes, segmentation masks and
keypoints) and PASCAL VOC average precision, and box IoU, on the same C++ core as
``assay detection``.

Ground truth is a COCO-format dict (``images``, ``annotations``, ``categories``) and detections a
list of dicts ``{image_id, category_id, bbox: [x, y, w, h], score}`` (or an (n, 7) array
``[image_id, x, y, w, h, score, category_id]``), as pycocotools takes them. They are handed to the
core as JSON text (``json.dumps``) and parsed there, with no temporary file.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np

from assay import _core
from assay._estimate import Estimate, check_bootstrap_args
from assay._inputs import as_numpy

__all__ = ["CocoResult", "VocResult", "box_iou", "evaluate_coco", "evaluate_voc"]

STAT_NAMES = ("AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl")
KEYPOINT_STAT_NAMES = ("AP", "AP50", "AP75", "APm", "APl", "AR", "AR50", "AR75", "ARm", "ARl")
_DETECTION_FIELDS = {"bbox": ("image_id", "category_id", "bbox", "score"),
                     "segm": ("image_id", "category_id", "segmentation", "bbox", "score"),
                     "keypoints": ("image_id", "category_id", "keypoints", "bbox", "score")}


def _plain(x):
    # json.dumps' fallback for NumPy scalars and arrays inside the caller's dicts.
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    if isinstance(x, np.bool_):
        return bool(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"{type(x).__name__} is not a JSON value")


def _dumps(fn, name, obj):
    try:
        return json.dumps(obj, default=_plain, allow_nan=False)
    except TypeError as e:
        raise ValueError(f"{fn}: {name} cannot be read as COCO JSON: {e}") from None
    except ValueError:
        raise ValueError(f"{fn}: {name} holds NaN or an infinite number (boxes, scores and areas must be "
                         "finite)") from None


def _read_text(fn, name, path):
    # A file name is read as it is: the core parses the JSON text (no Python objects in between).
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8")
    except OSError as e:
        raise ValueError(f"{fn}: {name}: cannot read '{os.fspath(path)}': {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ValueError(f"{fn}: {name}: '{os.fspath(path)}' is not UTF-8 text (byte {e.start})") from None


def _ground_truth(fn, gt):
    if isinstance(gt, (str, os.PathLike)):
        return _read_text(fn, "gt", gt)
    if not isinstance(gt, dict):
        raise ValueError(f"{fn}: gt must be a COCO-format dict with 'images', 'annotations' and 'categories', "
                         f"got {type(gt).__name__}")
    for key in ("images", "annotations", "categories"):
        if key not in gt:
            raise ValueError(f"{fn}: gt has no '{key}' (a COCO ground-truth dict needs 'images', 'annotations' "
                             "and 'categories')")
    keep = {key: gt[key] for key in ("images", "annotations", "categories")}
    if any(isinstance(a, dict) and isinstance(a.get("segmentation"), dict) and
           isinstance(a["segmentation"].get("counts"), bytes) for a in keep["annotations"]):
        keep["annotations"] = [dict(a, segmentation=_rle_text(a["segmentation"]))
                               if isinstance(a, dict) and "segmentation" in a else a for a in keep["annotations"]]
    return _dumps(fn, "gt", keep)


def _rle_text(x):
    # pycocotools.mask.encode gives counts as bytes; JSON wants text.
    if isinstance(x, dict) and isinstance(x.get("counts"), bytes):
        return dict(x, counts=x["counts"].decode("ascii", errors="replace"))
    return x


def _detections(fn, dt, iou_type="bbox"):
    if isinstance(dt, (str, os.PathLike)):
        return _read_text(fn, "dt", dt)
    if not isinstance(dt, (list, tuple, dict, str)) and (hasattr(dt, "__array__") or hasattr(dt, "__dlpack__")):
        dt = as_numpy(dt, "dt")  # an (n, 7) array of any array library
    if isinstance(dt, np.ndarray) and iou_type != "bbox":
        raise ValueError(f"{fn}: dt as an array holds boxes; iou_type={iou_type!r} needs a list of dicts")
    if isinstance(dt, np.ndarray):
        if dt.ndim != 2 or dt.shape[1] != 7:
            raise ValueError(f"{fn}: dt as an array must have shape (n, 7) [image_id, x, y, w, h, score, "
                             f"category_id], got {dt.shape}")
        arr = np.asarray(dt, dtype=np.float64)
        dt = [{"image_id": int(r[0]), "bbox": [float(r[1]), float(r[2]), float(r[3]), float(r[4])],
               "score": float(r[5]), "category_id": int(r[6])} for r in arr]
    elif isinstance(dt, (list, tuple)):
        keep = []
        for i, d in enumerate(dt):
            if not isinstance(d, dict):
                raise ValueError(f"{fn}: dt[{i}] must be a dict with image_id, category_id, bbox and score, "
                                 f"got {type(d).__name__}")
            keep.append({k: _rle_text(d[k]) for k in _DETECTION_FIELDS[iou_type] if k in d})
        dt = keep
    else:
        raise ValueError(f"{fn}: dt must be a list of detection dicts or an (n, 7) array, got {type(dt).__name__}")
    return _dumps(fn, "dt", dt)


def _call(fn, core, *args):
    # The core's messages name the input ("dt: [3]: missing field 'bbox'"); ours add the function.
    try:
        return core(*args)
    except ValueError as e:
        raise ValueError(f"{fn}: {e}") from None


def _estimate(number, reason, ci=None, method=None):
    if reason:
        return Estimate(math.nan, reason=reason)
    if ci is None:
        return Estimate(number)
    low, high, level, _dropped = ci[:4]
    return Estimate(number, ci=(low, high), level=level, method=method)


class CocoResult(dict):
    """The 12 numbers of ``COCOeval.summarize()`` by name (``result["AP"]``, ... ``result["ARl"]``),
    each an :class:`~assay.Estimate` (NaN with a reason where pycocotools prints -1).

    Attributes
    ----------
    stats : numpy.ndarray
        The 12 numbers in COCOeval.stats order, -1 where undefined (exactly ``COCOeval.stats``).
    per_category : dict
        Category id -> dict with ``name``, ``AP`` (IoU .50:.95), ``AP50``, ``AP75`` (Estimates, area
        all, the largest maxDets) and ``n_gt``, ``n_dt``.
    precision : numpy.ndarray
        COCOeval.eval['precision'], shape (T, R, K, A, M), -1 where undefined.
    recall : numpy.ndarray
        COCOeval.eval['recall'], shape (T, K, A, M).
    """

    def __init__(self, stats, per_category, precision, recall):
        super().__init__(stats)
        self.stats = np.array([-1.0 if math.isnan(v) else float(v) for v in stats.values()])
        self.per_category = per_category
        self.precision = precision
        self.recall = recall

    def __repr__(self):
        return "CocoResult(" + ", ".join(f"{k}={float(v):.4f}" for k, v in self.items()) + ")"


class VocResult:
    """PASCAL VOC detection results.

    Attributes
    ----------
    map : Estimate
        Mean AP over the categories whose AP is defined (with ``ci`` when asked for).
    ap : dict
        Category id -> AP (Estimate; NaN with a reason when the category has no ground truth that
        is not difficult).
    per_category : dict
        Category id -> dict with ``name``, ``AP``, ``n_pos`` (ground truths not difficult),
        ``n_dt``, ``recall`` and ``precision`` (arrays, one point per ranked detection).
    """

    def __init__(self, map_, ap, per_category):
        self.map = map_
        self.ap = ap
        self.per_category = per_category

    def __repr__(self):
        return f"VocResult(map={float(self.map):.4f}, categories={len(self.ap)})"


def evaluate_coco(gt, dt, iou_type="bbox", *, iou_thresholds=None, max_dets=None, kpt_oks_sigmas=None, ci=None,
                  n_boot=1000, seed=0):
    """COCO evaluation of boxes, segmentation masks or keypoints: the numbers of pycocotools'
    ``COCOeval(COCO(gt), coco.loadRes(dt), iou_type)`` after evaluate(), accumulate(), summarize().

    Parameters
    ----------
    gt : dict or path
        COCO-format ground truth: ``images`` (``id``), ``categories`` (``id``, ``name``) and
        ``annotations`` (``image_id``, ``category_id``, ``bbox`` [x, y, w, h], optional ``area``
        (default w*h), ``iscrowd``, ``id``). A file name (str or os.PathLike) is read as COCO JSON
        by the core directly (faster than a dict: nothing is serialised in Python).
    dt : list of dict, numpy.ndarray or path
        Detections ``{image_id, category_id, bbox, score}``, an (n, 7) array
        ``[image_id, x, y, w, h, score, category_id]``, or a results JSON file. Ties in score keep
        the input order.
    iou_type : {'bbox', 'segm', 'keypoints'}
        'bbox': IoU of boxes. 'segm': IoU of masks; annotations and detections carry
        ``segmentation`` as COCO RLE (``{size: [h, w], counts}``, counts a string, bytes as
        pycocotools.mask.encode gives them, or a list) or, in gt, polygons (drawn on the image's
        ``height`` and ``width``); the detection's area is its pixel count. 'keypoints': OKS;
        ``keypoints`` [x, y, v, ...] on both sides, gt also ``bbox`` and ``num_keypoints`` (0 =
        ignored); 10 numbers (AP, AP50, AP75, APm, APl, AR, AR50, AR75, ARm, ARl) at 20
        detections per image.
    kpt_oks_sigmas : sequence of float, optional
        'keypoints': one sigma per keypoint (default COCO's 17 person sigmas, 0.026 ... 0.089).
    iou_thresholds : sequence of float, optional
        Default numpy.linspace(0.5, 0.95, 10). The summary numbers AP50 and AP75 need 0.5 and 0.75.
    max_dets : sequence of 3 ints, optional
        Default (1, 10, 100), ascending. AP is read at the largest (pycocotools' summarize() reads
        it at 100 whatever maxDets is, and prints -1 when 100 is not among them).
    ci : float, optional
        Confidence level of percentile bootstrap intervals of the 12 numbers, resampling images.
    n_boot, seed : int
        Replicates and seed of that bootstrap (the same seed gives the same intervals).

    Returns
    -------
    CocoResult
        A dict of the 12 summary numbers by name (10 for keypoints), with ``stats``,
        ``per_category``, ``precision`` and ``recall``.
    """
    fn = "evaluate_coco"
    if iou_type not in ("bbox", "segm", "keypoints"):
        raise ValueError(f"{fn}: iou_type is {iou_type!r}; it must be 'bbox', 'segm' or 'keypoints'")
    sigmas = None
    if kpt_oks_sigmas is not None:
        if iou_type != "keypoints":
            raise ValueError(f"{fn}: kpt_oks_sigmas is for iou_type='keypoints'")
        sigmas = [float(s) for s in np.atleast_1d(np.asarray(kpt_oks_sigmas, dtype=np.float64))]
        if not sigmas or any(not (s > 0 and math.isfinite(s)) for s in sigmas):
            raise ValueError(f"{fn}: kpt_oks_sigmas must be a non-empty sequence of positive finite numbers")
    thresholds = None
    if iou_thresholds is not None:
        thresholds = [float(t) for t in np.atleast_1d(np.asarray(iou_thresholds, dtype=np.float64))]
        if not thresholds or any(not 0 <= t <= 1 for t in thresholds):
            raise ValueError(f"{fn}: iou_thresholds must be a non-empty sequence of numbers in [0, 1]")
    dets = None
    if max_dets is not None:
        dets = [int(m) for m in max_dets]
        n_dets = 1 if iou_type == "keypoints" else 3
        if len(dets) != n_dets or any(m < 1 for m in dets) or dets != sorted(dets):
            raise ValueError(f"{fn}: max_dets is {list(max_dets)!r}; it must be {n_dets} ascending whole number(s) "
                             ">= 1")
    level, replicates, seed = check_bootstrap_args(fn, ci, n_boot, seed)
    r = _call(fn, _core.detection_coco, _ground_truth(fn, gt), _detections(fn, dt, iou_type), thresholds, dets, level,
              replicates, seed, iou_type, sigmas)
    cis = r.get("ci")
    method = None if cis is None else f"bootstrap percentile, resampling images, {replicates} replicates, seed {seed}"
    stats = {}
    for i, name in enumerate(KEYPOINT_STAT_NAMES if iou_type == "keypoints" else STAT_NAMES):
        number, reason = r["stats"][i]
        stats[name] = _estimate(number, reason, None if cis is None else cis[i], method)
    per_category = {}
    cats = r["categories"]
    keys = _category_keys(gt)
    for k, cid in enumerate(cats["ids"]):
        per_category[keys.get(cid, cid)] = {
            "name": cats["names"][k],
            "AP": _estimate(*r["category_ap"][k]),
            "AP50": _estimate(*r["category_ap50"][k]),
            "AP75": _estimate(*r["category_ap75"][k]),
            "n_gt": r["category_gt"][k],
            "n_dt": r["category_dt"][k],
        }
    T, R, K, A, M = r["shape"]
    return CocoResult(stats, per_category, r["precision"].reshape(T, R, K, A, M), r["recall"].reshape(T, K, A, M))


def evaluate_voc(gt, dt, *, use_07_metric=False, iou_threshold=0.5, plus_one=True, ci=None, n_boot=1000, seed=0):
    """PASCAL VOC average precision per category and its mean (the devkit's ``voc_eval``).

    ``gt`` and ``dt`` are as for :func:`evaluate_coco`; annotations may carry ``difficult`` (0/1),
    and crowd boxes count as difficult. A detection is a true positive when its best IoU with a
    ground truth of its image and category exceeds ``iou_threshold`` (strictly) and that ground
    truth is not difficult and not matched yet.

    Parameters
    ----------
    use_07_metric : bool
        True: VOC2007's 11-point interpolated AP; False (default): VOC2010+'s all-point AP.
    iou_threshold : float
        Default 0.5.
    plus_one : bool
        The devkit's inclusive-pixel convention (widths x2 - x1 + 1); default True.
    ci : float, optional
        Confidence level of a percentile bootstrap interval of mAP, resampling images.
    """
    fn = "evaluate_voc"
    iou_threshold = float(iou_threshold)
    if not 0 < iou_threshold < 1:
        raise ValueError(f"{fn}: iou_threshold is {iou_threshold!r}; it must be in (0, 1)")
    level, replicates, seed = check_bootstrap_args(fn, ci, n_boot, seed)
    r = _call(fn, _core.detection_voc, _ground_truth(fn, gt), _detections(fn, dt), bool(use_07_metric),
              iou_threshold, bool(plus_one), level, replicates, seed)
    ci_t = r.get("ci")
    method = None if ci_t is None else f"bootstrap percentile, resampling images, {replicates} replicates, seed {seed}"
    map_ = _estimate(*r["map"], ci=ci_t, method=method)
    ap, per_category = {}, {}
    cats = r["categories"]
    keys = _category_keys(gt)
    for k, cid in enumerate(cats["ids"]):
        key = keys.get(cid, cid)
        ap[key] = _estimate(*r["ap"][k])
        per_category[key] = {"name": cats["names"][k], "AP": ap[key], "n_pos": r["npos"][k],
                             "n_dt": r["detections"][k], "recall": r["recall"][k], "precision": r["precision"][k]}
    return VocResult(map_, ap, per_category)


def _category_keys(gt):
    # The core keeps ids as text; the results are keyed by the ids as the caller's dict has them
    # (from a file: integers where the text is one).
    keys = {}
    if not isinstance(gt, dict):
        return _FileKeys()
    for c in gt["categories"]:
        if isinstance(c, dict) and "id" in c:
            cid = c["id"]
            cid = int(cid) if isinstance(cid, np.integer) else cid
            keys[str(cid)] = cid
    return keys


class _FileKeys:
    def get(self, cid, default=None):
        try:
            return int(cid)
        except ValueError:
            return cid if default is None else default


def box_iou(a, b, *, box_format="xyxy", plus_one=False, iscrowd=None):
    """Pairwise IoU of boxes ``a`` (n, 4) and ``b`` (m, 4): an (n, m) array.

    box_format : 'xyxy' (corners x1, y1, x2, y2; as torchvision.ops.box_iou) or 'xywh' (COCO's
        x, y, width, height; as pycocotools.mask.iou).
    plus_one : with 'xyxy', the VOC devkit's inclusive-pixel widths x2 - x1 + 1.
    iscrowd : with 'xywh', one flag per box of ``b``: for a crowd box the union is replaced by the
        area of the box of ``a`` (pycocotools' rule). Two empty boxes give 0.
    """
    fn = "box_iou"
    if box_format not in ("xyxy", "xywh"):
        raise ValueError(f"{fn}: box_format is {box_format!r}; it must be 'xyxy' or 'xywh'")
    arrays = []
    for name, x in (("a", a), ("b", b)):
        try:
            x = np.asarray(as_numpy(x, name), dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{fn}: {name} must be an array of numbers") from None
        if x.ndim == 1 and x.shape[0] == 4:
            x = x[None, :]
        if x.ndim == 1 and x.shape[0] == 0:
            x = x.reshape(0, 4)
        if x.ndim != 2 or x.shape[1] != 4:
            raise ValueError(f"{fn}: {name} must have shape (n, 4), got {x.shape}")
        if not np.isfinite(x).all():
            raise ValueError(f"{fn}: {name} holds a value that is not finite")
        arrays.append(np.ascontiguousarray(x))
    crowd = None
    if iscrowd is not None:
        if box_format != "xywh":
            raise ValueError(f"{fn}: iscrowd is for box_format='xywh' (COCO's rule)")
        crowd = np.ascontiguousarray(as_numpy(iscrowd, "iscrowd").astype(bool).astype(np.uint8).ravel())
        if crowd.shape[0] != arrays[1].shape[0]:
            raise ValueError(f"{fn}: iscrowd has {crowd.shape[0]} flags but b has {arrays[1].shape[0]} boxes")
    if plus_one and box_format != "xyxy":
        raise ValueError(f"{fn}: plus_one is for box_format='xyxy' (the VOC devkit's rule)")
    return _core.box_iou(arrays[0], arrays[1], box_format == "xyxy", bool(plus_one), crowd)
