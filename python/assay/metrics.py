"""A drop-in for ``sklearn.metrics``: the same names, signatures, defaults, return types, warnings
and numbers, computed by the assay core.

``from assay import metrics`` instead of ``from sklearn import metrics`` changes nothing but the
speed. Where assay's own definitions differ (assay reports 0/0 as undefined, with the reason), this
module follows scikit-learn on purpose, ``zero_division`` included; the rest of assay does not.
See docs/getting-started-python.md for what is covered.
"""

from assay._classification import *  # noqa: F401,F403
from assay._classification import __all__ as _classification_all
from assay._probabilistic import *  # noqa: F401,F403
from assay._probabilistic import __all__ as _probabilistic_all
from assay._ranking import *  # noqa: F401,F403
from assay._ranking import __all__ as _ranking_all
from assay._regression import *  # noqa: F401,F403
from assay._regression import __all__ as _regression_all

__all__ = [*_classification_all, *_ranking_all, *_probabilistic_all, *_regression_all]
