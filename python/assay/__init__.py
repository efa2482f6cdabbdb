"""assay: how good is this model, really?

Evaluation of machine-learning predictions on arrays in memory, on the same C++ core as the
``assay`` command-line tool. ``assay.metrics`` is a drop-in for ``sklearn.metrics``.
"""

from assay import _core

__version__ = _core.__version__

from assay._estimate import Estimate, TestResult

__all__ = ["Estimate", "TestResult", "__version__", "curves", "metrics", "model_selection", "stats"]

_SUBMODULES = {"curves", "metrics", "model_selection", "stats"}


def __getattr__(name):
    # Submodules load on first use, so `import assay` stays cheap.
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"assay.{name}")
    raise AttributeError(f"module 'assay' has no attribute {name!r}")
