"""assay: how good is this model, really?

Evaluation of machine-learning predictions on arrays in memory, on the same C++ core as the
``assay`` command-line tool. ``assay.metrics`` is a drop-in for ``sklearn.metrics``.
"""

from assay import _core

__version__ = _core.__version__

__all__ = ["__version__", "metrics"]


def __getattr__(name):
    # Submodules load on first use, so `import assay` stays cheap.
    if name == "metrics":
        import importlib

        return importlib.import_module("assay.metrics")
    raise AttributeError(f"module 'assay' has no attribute {name!r}")
