"""Parameter checks with scikit-learn's wording: a wrong type or value of a parameter raises
InvalidParameterError (a ValueError and a TypeError) with the message scikit-learn's
validate_params gives, so that code matching on it keeps working."""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np

from assay._compat import InvalidParameterError


class Str:
    """One of a set of strings (keep the set literal in scikit-learn's order: the message lists
    them in the set's iteration order)."""

    def __init__(self, options):
        self.options = options

    def ok(self, v):
        return isinstance(v, str) and v in self.options

    def __str__(self):
        return f"a str among {{{', '.join(repr(o) for o in self.options)}}}"


class RealIn:
    """A real number among a set of values."""

    def __init__(self, options):
        self.options = options

    def ok(self, v):
        return isinstance(v, Real) and v in self.options

    def __str__(self):
        return f"a float among {{{', '.join(repr(o) for o in self.options)}}}"


class Interval:
    def __init__(self, kind, left, right, closed):
        self.kind, self.left, self.right, self.closed = kind, left, right, closed

    def ok(self, v):
        if not isinstance(v, self.kind):
            return False
        if not isinstance(v, Integral) and np.isnan(v):
            return False
        # A missing bound is an infinite one, open or closed as the interval says ([0, inf) refuses inf).
        left = -math.inf if self.left is None else self.left
        right = math.inf if self.right is None else self.right
        lo_ok = v >= left if self.closed in ("left", "both") else v > left
        hi_ok = v <= right if self.closed in ("right", "both") else v < right
        return lo_ok and hi_ok

    def __str__(self):
        kind = "an int" if self.kind is Integral else "a float"
        left = "-inf" if self.left is None else self.left if self.kind is Integral else float(self.left)
        right = "inf" if self.right is None else self.right if self.kind is Integral else float(self.right)
        lb = "[" if self.closed in ("left", "both") else "("
        rb = "]" if self.closed in ("right", "both") else ")"
        return f"{kind} in the range {lb}{left}, {right}{rb}"


class Instance:
    def __init__(self, kind, name):
        self.kind, self.name = kind, name

    def ok(self, v):
        return isinstance(v, self.kind)

    def __str__(self):
        return f"an instance of {self.name!r}"


class _ArrayLike:
    def ok(self, v):
        return (hasattr(v, "__len__") or hasattr(v, "shape") or hasattr(v, "__array__")) and not np.isscalar(v)

    def __str__(self):
        return "an array-like"


class _NoneOnly:
    def ok(self, v):
        return v is None

    def __str__(self):
        return "None"


class _Nan:
    def ok(self, v):
        return isinstance(v, Real) and math.isnan(v)

    def __str__(self):
        return "numpy.nan"


class _Boolean:
    def ok(self, v):
        return isinstance(v, (bool, np.bool_))

    def __str__(self):
        return "an instance of 'bool' or an instance of 'numpy.bool'"


ARRAY = _ArrayLike()
NONE = _NoneOnly()
NAN = _Nan()
BOOL = _Boolean()
REAL = Instance(Real, "float")
STR = Instance(str, "str")
POS_LABEL = [REAL, STR, BOOL, NONE]
AVERAGE = [Str({"micro", "macro", "samples", "weighted", "binary"}), NONE]
ZERO_DIVISION = [RealIn({0.0, 1.0}), NAN, Str({"warn"})]


def str_options(function, param, options):
    """The allowed strings of a parameter as the set object scikit-learn's own validation of that
    function holds, when scikit-learn is installed: its message lists a set in the set's iteration
    order, and two equal sets built in a different order (each module's set constant) can iterate
    differently from one process to the next (string hashing is randomised); the same object gives
    the same message. Otherwise the given set."""
    try:
        from sklearn import metrics as sk
        from sklearn.utils._param_validation import StrOptions

        for cell in getattr(getattr(sk, function, None), "__closure__", None) or ():
            constraints = cell.cell_contents
            if isinstance(constraints, dict) and param in constraints:
                for c in constraints[param]:
                    if isinstance(c, StrOptions) and set(c.options) == set(options):
                        return c.options
    except (ImportError, AttributeError, ValueError):  # pragma: no cover - other scikit-learn versions
        pass
    return options


def validate(function, **params):
    """Checks each parameter (in the order given: the function's signature order) against its
    list of allowed constraints."""
    for name, (value, constraints) in params.items():
        if any(c.ok(value) for c in constraints):
            continue
        words = [str(Str(str_options(function, name, c.options))) if isinstance(c, Str) else str(c)
                 for c in constraints]
        allowed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
        raise InvalidParameterError(f"The {name!r} parameter of {function} must be {allowed}. Got {value!r} instead.")


class _Sparse:
    def ok(self, v):
        return type(v).__module__.startswith("scipy.sparse")

    def __str__(self):
        return "a sparse array or matrix"


SPARSE = _Sparse()
LABELS_IN = [ARRAY, SPARSE]  # y_true / y_pred of the functions that take multilabel input
