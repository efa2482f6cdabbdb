"""assay: how good is this model, really?

Evaluation of machine-learning predictions on arrays in memory, on the same C++ core as the
``assay`` command-line tool:

- ``assay.report(y_true, y_score=... | y_pred=... | y_proba=..., ci=0.95)``: the full report
  (text, dict, HTML inline in Jupyter);
- ``assay.roc_auc(y_true, y_score, ci=0.95)``, ``assay.accuracy(...)``, ...: one number with its
  interval, an :class:`Estimate` (a float);
- ``assay.Evaluator``: the same report computed batch by batch (update, merge, bytes, sync across
  processes), for training loops and streams;
- ``assay.metrics``: a drop-in for ``sklearn.metrics``; ``assay.stats``: tests and intervals;
  ``assay.model_selection``: resampling splitters for scikit-learn's ``cv=``.
"""

from assay import _core
from assay._estimate import Estimate, TestResult
from assay._evaluator import Evaluator
from assay._report import ESTIMATE_FUNCTIONS as _ESTIMATE_FUNCTIONS
from assay._report import Report, SlicedReport, report
from assay._threads import get_num_threads, limit_threads, set_num_threads

__version__ = _core.__version__

globals().update(_ESTIMATE_FUNCTIONS)

_SUBMODULES = {"curves", "dask", "detection", "metrics", "model_selection", "ray", "spark", "stats", "text"}

__all__ = ["Estimate", "Evaluator", "Report", "SlicedReport", "TestResult", "__version__", "get_num_threads", "limit_threads", "report",
           "set_num_threads", *sorted(_ESTIMATE_FUNCTIONS),
           *sorted(_SUBMODULES)]


def __getattr__(name):
    # Submodules load on first use, so `import assay` stays cheap.
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"assay.{name}")
    raise AttributeError(f"module 'assay' has no attribute {name!r}")
