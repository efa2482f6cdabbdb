"""pytest plugin: scikit-learn's own metrics tests, run against assay.metrics.

Load it with ``-p assay_swap`` (this directory on PYTHONPATH) when running the installed
scikit-learn's tests, e.g. ``pytest -p assay_swap --pyargs sklearn.metrics.tests``;
scripts/sklearn_suite.sh does that and compares the outcome with the run as shipped
(``--assay-swap=off``: the same tests, scikit-learn's objects).

Which tests run
---------------
The tests of the test modules whose code names (as a name or a string, anywhere in the module) at
least one of the objects assay replaces; the others (pairwise distances, the displays' common tests,
the clustering tests while assay has no clustering scores) run scikit-learn's code alone, the same
with and without assay, and are deselected. ``--assay-all-modules`` runs them all.

What is replaced, and where
---------------------------
The tests are the user here: every object a scikit-learn test module gets from an import of
scikit-learn (``from sklearn.metrics import f1_score``, ``from sklearn.metrics._classification
import d2_brier_score``, ``from sklearn.metrics import cluster as cluster_module`` followed by
``cluster_module.rand_score``, an import inside a test function) is assay's when it is one of the
objects that assay.metrics replaces. scikit-learn's own code is left alone: its scorers, displays,
``cross_val_score``, estimators' ``score`` methods and the metric functions assay does not define
keep calling scikit-learn's functions, as they do in a user's program that imports assay.metrics.
So a test fails with assay for what assay's functions do, not for what scikit-learn's internals do
after a function they call was changed under them.

"One of the objects that assay.metrics replaces" is decided by identity, from whatever
assay.metrics defines at the time of the run (nothing here lists names): for each name in
``assay.metrics.__all__`` that ``sklearn.metrics`` also has, scikit-learn's object is replaced by
assay's wherever a test module meets it, whatever module it is imported from (the public function
``d2_brier_score`` imported from ``sklearn.metrics._classification`` is the same object as
``sklearn.metrics.d2_brier_score``). A name that is a module in both (``cluster``) is not replaced
as a whole: the test gets scikit-learn's submodule, with the names that assay's submodule defines
replaced in turn. Private helpers (``_check_targets``) are never replaced: assay has none of them.

How
---
An import hook gives each test module (``sklearn.metrics.tests.*``, ``sklearn.metrics.cluster.tests.*``,
``sklearn.metrics._plot.tests.*``) its own builtins whose ``__import__`` hands back a read-through
view of ``sklearn`` and of the modules of ``sklearn.metrics``. The view is made before the module's
code runs, so the tables of metrics that test modules build at import time hold assay's functions.
Nothing in ``sys.modules`` changes and no attribute of scikit-learn is written.
"""

from __future__ import annotations

import builtins
import importlib.abc
import importlib.util
import re
import sys
import types

# The test modules whose imports see assay's objects.
_TEST_MODULE = re.compile(r"^sklearn\.metrics(\.[A-Za-z_]\w*)*\.tests(\.|$)")

_swaps: dict[int, object] = {}  # id(scikit-learn's object) -> assay's object
_kept: list[object] = []  # scikit-learn's objects, kept alive so that their ids stay theirs
_names: list[str] = []  # where each replaced object was found, "sklearn.metrics.f1_score"


def _collect(sk_module, assay_module, seen):
    """Fills _swaps with the objects assay_module defines in place of sk_module's."""
    if id(assay_module) in seen:
        return
    seen.add(id(assay_module))
    for name in getattr(assay_module, "__all__", ()):
        if not hasattr(sk_module, name):
            continue
        theirs, ours = getattr(sk_module, name), getattr(assay_module, name)
        if isinstance(theirs, types.ModuleType) or isinstance(ours, types.ModuleType):
            if isinstance(theirs, types.ModuleType) and isinstance(ours, types.ModuleType):
                _collect(theirs, ours, seen)
            continue
        if theirs is ours:  # a name assay forwards to scikit-learn
            continue
        _swaps[id(theirs)] = ours
        _kept.append(theirs)
        _names.append(f"{sk_module.__name__}.{name}")


def replaced_names():
    """The names (``sklearn.metrics.f1_score``) of scikit-learn's objects that the test modules get
    as assay's."""
    return sorted(_names)


def _is_viewed(module):
    name = getattr(module, "__name__", "")
    return isinstance(module, types.ModuleType) and (name == "sklearn" or name.startswith("sklearn.metrics"))


class _View:
    """A module of scikit-learn as the test modules see it: every attribute is the module's own,
    except the objects assay replaces (assay's instead) and modules of sklearn.metrics (their view).
    Writes and deletes go to the module itself."""

    __slots__ = ("_module",)

    def __init__(self, module):
        object.__setattr__(self, "_module", module)

    def __getattr__(self, name):
        value = getattr(object.__getattribute__(self, "_module"), name)
        return _seen(value)

    def __setattr__(self, name, value):
        setattr(object.__getattribute__(self, "_module"), name, value)

    def __delattr__(self, name):
        delattr(object.__getattribute__(self, "_module"), name)

    def __dir__(self):
        return dir(object.__getattribute__(self, "_module"))

    def __repr__(self):
        return f"<assay view of {object.__getattribute__(self, '_module')!r}>"


def _seen(value):
    """What a test module sees in place of value."""
    try:
        ours = _swaps.get(id(value))
    except TypeError:
        ours = None
    if ours is not None:
        return ours
    if _is_viewed(value):
        return _View(value)
    return value


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    # builtins.__import__ looked up at each call: a test that patches it (scikit-learn's
    # hide_available_pandas fixture) still takes effect.
    module = builtins.__import__(name, globals, locals, fromlist, level)
    return _View(module) if _is_viewed(module) else module


_test_builtins = dict(builtins.__dict__)
_test_builtins["__import__"] = _import


class _Loader(importlib.abc.Loader):
    """The loader of a test module (pytest's assertion rewriter, usually), with the module's
    builtins replaced before its code runs."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        module.__dict__["__builtins__"] = _test_builtins
        self._loader.exec_module(module)

    def __getattr__(self, name):  # get_source, get_filename, ... of the wrapped loader
        return getattr(self._loader, name)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if not _TEST_MODULE.match(fullname):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _Loader(spec.loader)
                return spec
        return None


_finder = _Finder()


def install(swap=True):
    """Collects what assay.metrics replaces and (with swap) puts the import hook first. Test modules
    that are already imported are not affected (the hook must be in place before collection)."""
    import assay.metrics
    import sklearn.metrics

    _swaps.clear()
    _kept.clear()
    _names.clear()
    _collect(sklearn.metrics, assay.metrics, set())
    if swap and _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    already = sorted(m for m in sys.modules if _TEST_MODULE.match(m) and not m.endswith(".tests"))
    if already:
        raise RuntimeError(f"assay_swap: test modules imported before the hook: {already}")


def uninstall():
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)


def names_used(path):
    """Every name and string constant in the code of the Python file at path (functions and classes
    included): what a test module can look up."""
    with open(path, encoding="utf-8") as f:
        code = compile(f.read(), path, "exec")
    found, todo = set(), [code]
    while todo:
        co = todo.pop()
        found.update(co.co_names)
        for const in co.co_consts:
            if isinstance(const, types.CodeType):
                todo.append(const)
            elif isinstance(const, str):
                found.add(const)
    return found


def pytest_addoption(parser):
    group = parser.getgroup("assay_swap", "scikit-learn's tests with assay's functions")
    group.addoption("--assay-swap", choices=("on", "off"), default="on",
                    help="off: scikit-learn's own objects (the run as shipped), with the same selection of tests")
    group.addoption("--assay-all-modules", action="store_true", default=False,
                    help="run every test module, also those that name none of the objects assay replaces")


def pytest_configure(config):
    install(swap=config.getoption("assay_swap") == "on")


def pytest_collection_modifyitems(session, config, items):
    """Keeps the tests of the modules whose code names at least one of the objects assay replaces
    (the others run scikit-learn's code alone, the same with and without the swap)."""
    if config.getoption("assay_all_modules"):
        return
    replaced = {name.rsplit(".", 1)[1] for name in _names}
    cache = {}
    kept, dropped = [], []
    for item in items:
        path = str(item.path)
        if path not in cache:
            cache[path] = bool(names_used(path) & replaced)
        (kept if cache[path] else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_report_header(config):
    names = replaced_names()
    state = "replaced by assay's" if config.getoption("assay_swap") == "on" else "NOT replaced (--assay-swap=off)"
    return [f"assay_swap: {len(names)} scikit-learn objects {state} in the test modules: " + ", ".join(names)]
