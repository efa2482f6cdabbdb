"""The one input layer of the Python package: every public function that takes arrays (assay.metrics,
assay.report and the numbers with intervals, assay.curves, assay.stats, detection and text where
they take arrays) turns its array arguments into NumPy arrays here, and nowhere else.

What it accepts, and how (docs/getting-started-python.md, "Arrays from any library"):

- NumPy arrays as they are; lists, tuples and other sequences through ``np.asarray``.
- pandas Series, Index, DataFrames and extension arrays through ``to_numpy`` (no copy for a
  column backed by NumPy). Nullable extension dtypes (``Int64``, ``UInt8``, ``Float32``,
  ``boolean``, ...) become float64 with NaN for ``pd.NA``, the conversion scikit-learn's
  ``check_array`` makes (so that ``assay.metrics`` names classes and returns dtypes as scikit-learn
  does); string dtypes become object arrays of str.
- Arrow columns through the Arrow PyCapsule interface (``__arrow_c_array__`` /
  ``__arrow_c_stream__``: pyarrow Array and ChunkedArray, polars Series, ...): a numeric column
  without nulls in one chunk is a view of the producer's buffer (no copy); see :func:`from_arrow`.
  Tables (polars and pyarrow DataFrames, Tables, RecordBatches) become 2-D arrays, one column each.
- Any other object with ``__dlpack__`` (the DLPack protocol) or ``__array_namespace__`` (the
  Python array API standard): JAX arrays, PyTorch tensors, CuPy arrays, array-api-strict arrays,
  Dask-free NumPy-like arrays. An array in host memory whose dtype NumPy has is read through
  ``np.from_dlpack`` without a copy (the NumPy array is a read-only view of the same buffer); an
  array on a device (GPU, TPU) is copied to the host once, as a whole, by the producer (DLPack's
  ``copy=True`` to the CPU, or the library's own host copy: ``.get()`` for CuPy, ``.cpu()`` for
  PyTorch, ``np.asarray`` for JAX). A PyTorch tensor that requires grad is read through
  ``.detach()`` (an evaluation needs no gradient; the tensor itself is untouched).

The layer converts; it does not judge. The checks of each front end (scikit-learn's messages in
assay.metrics, assay's own elsewhere) run on the NumPy arrays that come out, so every library's
array meets the same checks.
"""

from __future__ import annotations

import numpy as np

from assay import _core

# DLPack device types whose memory the CPU reads directly (dlpack.h: kDLCPU, kDLCUDAHost,
# kDLCUDAManaged, kDLROCMHost).
_HOST_DEVICES = (1, 3, 13, 11)


def _module(y):
    return type(y).__module__.partition(".")[0]


def is_arrow(y):
    """An object to read through the Arrow PyCapsule interface: it exports __arrow_c_array__ or
    __arrow_c_stream__ and is not a NumPy array or a pandas object (pandas' own to_numpy is the
    zero-copy route there; its Arrow export converts)."""
    if isinstance(y, np.ndarray) or _module(y) == "pandas":
        return False
    return hasattr(y, "__arrow_c_array__") or hasattr(y, "__arrow_c_stream__")


def _is_table(y):
    """A data frame or table of several columns (polars DataFrame, pyarrow Table or RecordBatch)."""
    return _module(y) in ("polars", "pyarrow") and hasattr(y, "columns") and (
        hasattr(y, "schema") or hasattr(y, "column_names"))


def _arrow_chunk(c):
    if isinstance(c, np.ndarray):
        return c
    kind = c[0]
    if kind == "bool":
        return c[1].view(np.bool_)
    if kind == "strings":
        return np.array(c[1], dtype=str) if c[1] else np.array([], dtype=str)
    indices, values = _arrow_chunk(c[1]), _arrow_chunk(c[2])  # dictionary (categorical)
    return values[indices]


def arrow_chunks(col, where="", name="y"):
    """The chunks of an Arrow array through the Arrow PyCapsule interface (python/src/arrow.cpp): a
    numeric chunk without nulls as a NumPy view of its buffer; otherwise ("bool", uint8),
    ("strings", [str]) or ("dictionary", indices, values). ``where`` and ``name`` word the errors
    (a null, an unsupported type)."""
    return _core.arrow_chunks(col, where, name)


def from_arrow(y, name="y"):
    """A column exported through the Arrow PyCapsule interface (pyarrow Array / ChunkedArray, polars
    Series, ...) as a 1-D numpy array: a numeric column without nulls in one chunk is the producer's
    buffer itself (no copy), several chunks are concatenated; booleans are unpacked; strings and
    dictionary (categorical) columns become arrays of their values (str). Nulls raise ValueError."""
    chunks = [_arrow_chunk(c) for c in arrow_chunks(y, "", name)]
    if len(chunks) == 1:
        return chunks[0]
    if not chunks:
        return np.array([], dtype=np.float64)
    return np.concatenate(chunks)


def _from_table(y, name):
    """A polars DataFrame or an Arrow table as a 2-D array, one column per column (as
    ``np.asarray`` of a pandas DataFrame: the columns' common dtype)."""
    if _module(y) == "polars":
        return np.asarray(y.to_numpy())
    cols = [from_arrow(y.column(i), f"{name}[{c!r}]") for i, c in enumerate(y.column_names)]
    if not cols:
        return np.empty((y.num_rows, 0))
    return np.column_stack(cols)


def _pandas_needs_float(dtype):
    """A pandas extension dtype that scikit-learn converts to float64 before anything else: the
    nullable integers, floats and booleans (their pd.NA becomes NaN)."""
    if isinstance(dtype, np.dtype):
        return False
    import pandas as pd

    api = pd.api.types
    return api.is_extension_array_dtype(dtype) and not isinstance(dtype, pd.SparseDtype) and (
        api.is_bool_dtype(dtype) or api.is_float_dtype(dtype) or api.is_integer_dtype(dtype))


def _from_pandas(y):
    if hasattr(y, "dtypes") and not hasattr(y, "dtype"):  # DataFrame
        if any(_pandas_needs_float(d) for d in y.dtypes):
            return y.to_numpy(dtype=np.float64, na_value=np.nan)
        return np.asarray(y.to_numpy())
    dtype = getattr(y, "dtype", None)
    if _pandas_needs_float(dtype):
        return np.asarray(y.to_numpy(dtype=np.float64, na_value=np.nan))
    if hasattr(y, "to_numpy"):
        try:
            return np.asarray(y.to_numpy())
        except TypeError:
            pass
    return np.asarray(y)


def _host_copy(y, name):
    """A device array (GPU, TPU) copied to the host once: DLPack 1.0's copy to the CPU where the
    producer offers it, else the library's own host copy."""
    try:
        return np.from_dlpack(y, device="cpu", copy=True)
    except (BufferError, TypeError, ValueError, RuntimeError, NotImplementedError):
        pass
    for method in ("get", "cpu"):  # CuPy's ndarray.get(), PyTorch's Tensor.cpu()
        f = getattr(y, method, None)
        if callable(f):
            host = f()
            return host if isinstance(host, np.ndarray) else as_numpy(host, name)
    try:
        return np.asarray(y)  # JAX (and others) copy to the host in __array__
    except Exception as e:
        raise ValueError(f"{name}: an array on device {y.__dlpack_device__()} that assay could not copy to the "
                         f"host ({type(y).__name__}: {e}); copy it to the CPU first") from None


def _from_dlpack(y, name):
    """An array of another library (DLPack and/or the array API standard) as a NumPy array: a view
    of its buffer when it is in host memory and NumPy has its dtype, else one copy."""
    if _module(y) == "torch" and getattr(y, "requires_grad", False):
        y = y.detach()
    if hasattr(y, "__dlpack__"):
        try:
            device = tuple(y.__dlpack_device__())[0]
        except Exception:
            device = 1
        if device not in _HOST_DEVICES:
            return _host_copy(y, name)
        try:
            return _native(np.from_dlpack(y))
        except (BufferError, TypeError, ValueError, RuntimeError, NotImplementedError):
            pass  # a dtype NumPy lacks (bfloat16, ...) or an old producer: the library's own export
    widened = _widened(y)
    if widened is not None:
        return widened
    try:
        return np.asarray(y)
    except Exception as e:
        raise ValueError(f"{name}: assay could not read the {type(y).__name__} array ({e}); give a NumPy array, "
                         "a list, or an array with __dlpack__ in host memory") from None


def _native(a):
    """A NumPy array of a float dtype NumPy knows only through an extension (ml_dtypes' bfloat16 and
    float8 types, kind 'V') as float32, which holds each of their values exactly; others as they are."""
    if a.dtype.kind == "V" and a.dtype.names is None:
        try:
            return a.astype(np.float32)
        except (TypeError, ValueError):
            return a
    return a


def _widened(y):
    """A floating array of a dtype NumPy lacks (bfloat16, float8: narrower than float32) as float32,
    which holds each of their values exactly, cast by its own library through the array API standard
    (``xp.astype``), then read through DLPack; None when the array is not such an array or the
    library offers no namespace."""
    try:
        xp = y.__array_namespace__()
        if not xp.isdtype(y.dtype, "real floating") or y.dtype in (xp.float64, xp.float32):
            return None
        return np.from_dlpack(xp.astype(y, xp.float32))
    except Exception:
        return None


def _needs_host_copy(y):
    """An array NumPy cannot read in place: on a device (DLPack device not host memory), or a
    PyTorch tensor that requires grad (its DLPack export and __array__ refuse it)."""
    if isinstance(y, np.ndarray) or not hasattr(y, "__dlpack__"):
        return False
    if _module(y) == "torch" and getattr(y, "requires_grad", False):
        return True
    try:
        return tuple(y.__dlpack_device__())[0] not in _HOST_DEVICES
    except Exception:
        return False


def on_host(y, name="y"):
    """``y`` itself, unless it is an array NumPy cannot read in place (a device array, a tensor
    that requires grad): then its host copy, made once, so that a function that reads an argument
    several times copies it once. Everything else is left to the checks that follow (their dtype
    rules and messages depend on the object as given)."""
    return as_numpy(y, name) if _needs_host_copy(y) else y


def on_host_args(**arrays):
    """on_host of each keyword argument, in order: ``a, b = on_host_args(y_true=a, y_score=b)``."""
    return tuple(on_host(value, name) for name, value in arrays.items())


def array_view(y, name="y"):
    """as_numpy of an array object (pandas, Arrow, polars, DLPack or array API), which converts
    without a copy where the dtype fits; ``y`` itself when it is a NumPy array already or not an
    array object (a list, a scalar, None: the checks that follow read those as given). For the fast
    paths that take NumPy arrays only."""
    if isinstance(y, (np.ndarray, list, tuple, str, bytes)) or y is None or not (
            _module(y) == "pandas" or is_arrow(y) or hasattr(y, "__dlpack__") or hasattr(y, "__array_namespace__")):
        return y
    try:
        return as_numpy(y, name)
    except (TypeError, ValueError):
        return y  # the full checks below word the error


def as_numpy(y, name="y"):
    """Any array-like as a NumPy array, without a copy where the source allows it (see the module's
    docstring for each library); ``name`` is the argument's name for error messages."""
    if isinstance(y, np.ndarray):
        return y
    module = _module(y)
    if module == "pandas":
        return _from_pandas(y)
    if _is_table(y):
        return _from_table(y, name)
    if is_arrow(y):
        return from_arrow(y, name)
    if hasattr(y, "__dlpack__") or hasattr(y, "__array_namespace__"):
        return _from_dlpack(y, name)
    if hasattr(y, "to_numpy"):  # other data frame libraries (modin, cuDF's host side, ...)
        try:
            return np.asarray(y.to_numpy())
        except TypeError:
            pass
    return np.asarray(y)


def numpy_dtype(y):
    """The dtype scikit-learn's check_array starts from (its ``dtype_orig``): a NumPy dtype the
    object carries itself (NumPy, JAX, pandas columns backed by NumPy; a DataFrame's columns' common
    dtype), or None for everything else (lists, Arrow, polars, array-api-strict, PyTorch, pandas
    extension dtypes). scikit-learn converts an input without one to the first dtype it accepts
    (float64 for probabilities), where a NumPy float32 array stays float32."""
    dtype = getattr(y, "dtype", None)
    if isinstance(dtype, np.dtype):
        return dtype
    if _module(y) == "pandas" and hasattr(y, "columns"):  # a DataFrame: its columns' common dtype
        dtypes = list(y.dtypes)
        if dtypes and all(isinstance(d, np.dtype) for d in dtypes):
            return np.result_type(*dtypes)
    return None


def refuse_complex(a):
    """scikit-learn's check_array refuses complex values in every array it checks (targets, scores,
    sample weights), before any conversion (a cast to float would drop the imaginary part)."""
    if a.dtype.kind == "c":
        raise ValueError(f"Complex data not supported\n{a}\n")


def as_array(y, name="y"):
    """An array-like as a numpy array (as_numpy), refusing strings, scalars and complex values with
    scikit-learn's messages: the conversion of every function of assay.metrics."""
    if isinstance(y, str) or not (hasattr(y, "__array__") or hasattr(y, "__len__") or is_arrow(y)
                                  or hasattr(y, "__dlpack__") or hasattr(y, "__array_namespace__")):
        raise ValueError(f"Expected array-like (array or non-string sequence), got {y!r}")
    a = as_numpy(y, name)
    refuse_complex(a)
    return a
