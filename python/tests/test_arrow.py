"""Arrow inputs through the PyCapsule interface: pyarrow arrays and chunked arrays and polars
Series reach the core without a copy when numeric without nulls, labels may be strings or
dictionary (categorical) arrays, and the numbers equal those of the same data as NumPy arrays."""

import numpy as np
import pytest
from sklearn import metrics as skm

import assay
from assay import _core
from assay import metrics
from assay._targets import as_array

pa = pytest.importorskip("pyarrow")
pl = pytest.importorskip("polars")


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "int8", "uint16"])
def test_numeric_pyarrow_array_is_not_copied(rng, dtype):
    values = (rng.random(1000) * 100).astype(dtype)
    arr = pa.array(values)
    a = as_array(arr)
    assert a.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(a, values)
    # The NumPy array is a view of the Arrow buffer itself.
    assert a.__array_interface__["data"][0] == arr.buffers()[1].address
    if dtype == "float64":  # and the core reads that same memory
        assert _core.address_of(a) == arr.buffers()[1].address


def test_sliced_and_chunked_arrays(rng):
    values = rng.random(100)
    arr = pa.array(values)
    s = as_array(arr.slice(10, 30))
    assert s.__array_interface__["data"][0] == arr.buffers()[1].address + 10 * 8  # the offset, no copy
    np.testing.assert_array_equal(s, values[10:40])
    one = pa.chunked_array([arr])
    assert as_array(one).__array_interface__["data"][0] == arr.buffers()[1].address
    many = pa.chunked_array([values[:40], values[40:]])
    np.testing.assert_array_equal(as_array(many), values)  # several chunks: concatenated (a copy)


def test_polars_series_is_not_copied(rng):
    values = rng.random(500)
    s = pl.Series("score", values)
    a = as_array(s)
    np.testing.assert_array_equal(a, values)
    assert a.__array_interface__["data"][0] == s.to_numpy().__array_interface__["data"][0]


def test_memory_does_not_grow_for_a_large_column():
    resource = pytest.importorskip("resource")
    n = 20_000_000  # 160 MB of float64
    arr = pa.array(np.ones(n))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    a = as_array(arr)
    assert float(a[::1_000_000].sum()) == 20.0
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 20_000, grown  # a copy would add ~156,000 KiB to the peak


def test_labels_as_strings_and_dictionaries(rng):
    y = np.array(["cat", "dog", "fish"])[rng.integers(0, 3, 300)]
    p = np.array(["cat", "dog", "fish"])[rng.integers(0, 3, 300)]
    expected = skm.f1_score(y, p, average="macro")
    for make in (pa.array, lambda v: pa.array(v, type=pa.large_string()), lambda v: pa.array(v).dictionary_encode(),
                 lambda v: pl.Series(v), lambda v: pl.Series(v, dtype=pl.Categorical),
                 lambda v: pa.chunked_array([v[:100], v[100:]])):
        assert metrics.f1_score(make(y), make(p), average="macro") == expected
    np.testing.assert_array_equal(as_array(pa.array(y).dictionary_encode()), y)


def test_booleans_and_scores_in_metrics(rng):
    y = rng.integers(0, 2, 400).astype(bool)
    s = np.round(rng.random(400), 2)
    assert metrics.roc_auc_score(pa.array(y), pa.array(s)) == skm.roc_auc_score(y, s)
    assert metrics.roc_auc_score(pl.Series(y), pl.Series(s)) == skm.roc_auc_score(y, s)
    r = assay.report(pa.array(y.astype(int)), y_score=pa.chunked_array([s[:200], s[200:]]))
    assert r.to_dict() == assay.report(y.astype(int), y_score=s).to_dict()


def test_nulls_and_unsupported_types_are_refused():
    with pytest.raises(ValueError, match="y holds a null .* at index 2"):
        as_array(pa.array([1.0, 2.0, None, 4.0]), "y")
    with pytest.raises(ValueError, match="y_score holds a null .* at index 3"):
        as_array(pa.chunked_array([[1.0, 2.0], [3.0, None]]), "y_score")
    with pytest.raises(ValueError, match="has the Arrow type 'tsu:UTC'|has the Arrow type"):
        as_array(pa.array([1, 2], type=pa.timestamp("us", tz="UTC")), "y")
