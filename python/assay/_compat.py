"""Warning classes that behave as scikit-learn's: when scikit-learn is installed they are its own
classes (so `warnings.filterwarnings(..., category=UndefinedMetricWarning)` written for
scikit-learn also catches assay's), otherwise look-alikes with the same bases."""

try:
    from sklearn.exceptions import DataConversionWarning, UndefinedMetricWarning
except ImportError:  # pragma: no cover - exercised only without scikit-learn

    class UndefinedMetricWarning(UserWarning):
        """A metric is undefined (0/0) and was set to the zero_division value."""

    class DataConversionWarning(UserWarning):
        """Input was converted (e.g. a column vector flattened)."""


__all__ = ["DataConversionWarning", "UndefinedMetricWarning"]
