"""Helpers of the parity tests: run a function of assay.metrics and its scikit-learn namesake and
require the same outcome (value bit for bit with its type and dtype, or exception type and message)
and the same warnings (category and message, in order)."""

import warnings

import numpy as np
from sklearn import metrics as sk

from assay import metrics as am


def outcome(f, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("value", f(*args, **kwargs))
        except Exception as e:  # noqa: BLE001 - any exception must match
            result = ("raised", type(e), str(e))
    return result, [(w.category, str(w.message)) for w in caught]


def assert_same_value(a, b):
    if isinstance(b, tuple):
        assert isinstance(a, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            assert_same_value(x, y)
        return
    assert type(a) is type(b), (type(a), type(b))
    if isinstance(b, dict):  # classification_report(output_dict=True): NaN equals NaN here
        assert list(a) == list(b), (list(a), list(b))
        for key in b:
            assert_same_value(a[key], b[key])
        return
    if isinstance(b, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
        np.testing.assert_array_equal(a, b, strict=True)
    elif isinstance(b, float) and np.isnan(b):
        assert np.isnan(a)
    else:
        assert a == b, (a, b)


def check(name, *args, **kwargs):
    """assay.metrics.name(*args, **kwargs) behaves as sklearn.metrics.name; returns the value."""
    ours, our_warnings = outcome(getattr(am, name), *args, **kwargs)
    theirs, their_warnings = outcome(getattr(sk, name), *args, **kwargs)
    assert ours[0] == theirs[0], (name, ours, theirs)
    if theirs[0] == "value":
        assert_same_value(ours[1], theirs[1])
    else:
        assert ours[1] is theirs[1] or issubclass(ours[1], theirs[1]) or issubclass(theirs[1], ours[1]), (ours, theirs)
        assert ours[2] == theirs[2], (ours[2], theirs[2])
    assert our_warnings == their_warnings, (our_warnings, their_warnings)
    return theirs
