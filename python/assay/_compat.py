"""Warning classes that behave as scikit-learn's: when scikit-learn is installed they are its own
classes (so `warnings.filterwarnings(..., category=UndefinedMetricWarning)` written for
scikit-learn also catches assay's), otherwise look-alikes with the same bases."""

try:
    from sklearn.exceptions import DataConversionWarning, UndefinedMetricWarning
    from sklearn.utils._param_validation import InvalidParameterError
except ImportError:  # pragma: no cover - exercised only without scikit-learn

    class InvalidParameterError(ValueError, TypeError):
        """A parameter has a wrong type or a value outside its allowed set."""

    class UndefinedMetricWarning(UserWarning):
        """A metric is undefined (0/0) and was set to the zero_division value."""

    class DataConversionWarning(UserWarning):
        """Input was converted (e.g. a column vector flattened)."""


__all__ = ["DataConversionWarning", "InvalidParameterError", "UndefinedMetricWarning"]
