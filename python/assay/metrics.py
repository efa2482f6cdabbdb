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

# Added with the names of issue 28 (numpy implementations today; see docs/getting-started-python.md).
import sys as _sys  # noqa: E402

from assay import _cluster as cluster  # noqa: E402  (assay.metrics.cluster, as sklearn.metrics.cluster)
from assay._cluster import *  # noqa: F401,F403,E402
from assay._cluster import __all__ as _cluster_all  # noqa: E402
from assay._deviance import *  # noqa: F401,F403,E402
from assay._deviance import __all__ as _deviance_all  # noqa: E402
from assay._displays import *  # noqa: F401,F403,E402
from assay._displays import __all__ as _displays_all  # noqa: E402
from assay._pairwise import *  # noqa: F401,F403,E402
from assay._pairwise import __all__ as _pairwise_all  # noqa: E402
from assay._rank_lists import *  # noqa: F401,F403,E402
from assay._rank_lists import __all__ as _rank_lists_all  # noqa: E402
from assay._scorer import *  # noqa: F401,F403,E402
from assay._scorer import __all__ as _scorer_all  # noqa: E402
from assay._scores_more import *  # noqa: F401,F403,E402
from assay._scores_more import __all__ as _scores_more_all  # noqa: E402
from assay._thresholds import *  # noqa: F401,F403,E402
from assay._thresholds import __all__ as _thresholds_all  # noqa: E402

_sys.modules[__name__ + ".cluster"] = cluster

# contingency_matrix and expected_mutual_information are in sklearn.metrics.cluster only.
__all__ += [
    "cluster",
    *_scores_more_all,
    *_thresholds_all,
    *_deviance_all,
    *_rank_lists_all,
    *(n for n in _cluster_all if n not in ("contingency_matrix", "expected_mutual_information")),
    *_pairwise_all,
    *_scorer_all,
    *_displays_all,
]
