"""Numbers with their uncertainty: Estimate (a float with a confidence interval) and TestResult."""

from __future__ import annotations

import math

import numpy as np


class Estimate(float):
    """A metric value that prints, compares and formats as the float it is, and carries its
    confidence interval.

    Attributes
    ----------
    ci : tuple of float or None
        (low, high) at confidence ``level``; None when no interval was asked for.
    level : float or None
    method : str or None
        How the interval was computed, e.g. ``"wilson"`` or ``"delong"``.
    reason : str
        Why the value is undefined (then the value is NaN); empty when it is defined.
    """

    __slots__ = ("ci", "level", "method", "reason")

    def __new__(cls, value, ci=None, level=None, method=None, reason=""):
        self = super().__new__(cls, math.nan if reason else value)
        self.ci = None if ci is None else (float(ci[0]), float(ci[1]))
        self.level = level
        self.method = method
        self.reason = reason
        return self

    @property
    def defined(self):
        return not self.reason

    def __repr__(self):
        if self.reason:
            return f"Estimate(nan, reason={self.reason!r})"
        if self.ci is None:
            return f"Estimate({float(self)!r})"
        return (f"Estimate({float(self)!r}, ci=({self.ci[0]!r}, {self.ci[1]!r}), level={self.level!r}, "
                f"method={self.method!r})")

    def __reduce__(self):
        return (Estimate, (float(self), self.ci, self.level, self.method, self.reason))


class TestResult:
    """The result of a hypothesis test, shaped like SciPy's result objects: ``statistic`` and
    ``pvalue`` (also unpackable as ``stat, p = result``), ``df`` where the reference distribution
    has degrees of freedom, ``method`` naming the exact variant, and ``ci`` where the test comes
    with an interval of the effect."""

    __test__ = False  # not a pytest test class

    def __init__(self, method, statistic, pvalue, df=math.nan, df2=math.nan, ci=None, level=None, **extra):
        self.method = method
        self.statistic = float(statistic)
        self.pvalue = float(pvalue)
        self.df = float(df)
        self.df2 = float(df2)
        self.ci = ci
        self.level = level
        for name, value in extra.items():
            setattr(self, name, value)
        self._extra = tuple(extra)

    def __iter__(self):
        return iter((self.statistic, self.pvalue))

    def __repr__(self):
        parts = [f"method={self.method!r}", f"statistic={self.statistic!r}", f"pvalue={self.pvalue!r}"]
        if not math.isnan(self.df):
            parts.append(f"df={self.df!r}")
        if self.ci is not None:
            parts.append(f"ci={self.ci!r}")
        parts += [f"{name}={getattr(self, name)!r}" for name in self._extra]
        return f"TestResult({', '.join(parts)})"


def check_bootstrap_args(fn, ci, n_boot, seed):
    """(level, replicates, seed) of a bootstrap interval asked for with ci=level, checked; (nan, 0, 0)
    when ci is None. Messages name the function `fn` and the parameter."""
    if ci is None:
        return math.nan, 0, 0
    if isinstance(ci, bool) or not isinstance(ci, (int, float)) or not 0 < float(ci) < 1:
        raise ValueError(f"{fn}: ci is {ci!r}; it must be None or a level in (0, 1), e.g. 0.95")
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or not 1 <= n_boot <= 1_000_000:
        raise ValueError(f"{fn}: n_boot is {n_boot!r}; it must be a whole number in [1, 1000000]")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"{fn}: seed is {seed!r}; it must be a whole number >= 0")
    return float(ci), int(n_boot), int(seed)
