// assay._core: columns handed over through the Arrow PyCapsule interface (__arrow_c_array__ and
// __arrow_c_stream__: pyarrow arrays and chunked arrays, polars Series, ...), read with the Arrow C
// data interface (https://arrow.apache.org/docs/format/CDataInterface.html and
// .../PyCapsuleInterface.html). A numeric chunk without nulls becomes a NumPy array over the
// producer's own buffer (no copy; the array keeps the Arrow data alive and releases it when it is
// freed); booleans are unpacked from their bitmap, strings become Python str, dictionary
// (categorical) columns their indices plus their values. Nulls are refused with the index of the
// first one. This is the one conversion of Arrow data in the package: the label arrays of
// assay.metrics / assay.report (_targets.from_arrow) and the columns of tables and record batch
// streams fed to the mergeable state (_scale.update) both go through it.
#include <nanobind/stl/string.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "assay/error.hpp"
#include "common.hpp"

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
extern "C" {
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};
struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};
}
#endif
#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE
extern "C" {
struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};
}
#endif

namespace assay::python {
namespace {

/// "fn: " or nothing when the caller gave no function name.
std::string pre(std::string_view fn) { return fn.empty() ? std::string() : fmt::format("{}: ", fn); }

/// One chunk and its schema, owned: released when the last NumPy view of it goes.
struct owned_chunk {
  ArrowSchema schema{};
  ArrowArray array{};
  ~owned_chunk() {
    if (array.release) array.release(&array);
    if (schema.release) schema.release(&schema);
  }
};

/// Moves the struct out of a PyCapsule (the capsule's own release is then a no-op, as the
/// interface prescribes for a consumer that takes ownership).
template <class T>
T take(nb::handle capsule, const char* name, std::string_view fn) {
  auto* p = static_cast<T*>(PyCapsule_GetPointer(capsule.ptr(), name));
  if (!p) {
    PyErr_Clear();
    throw_usage(fmt::format("{}the object's Arrow export is not a PyCapsule named '{}'", pre(fn), name));
  }
  T out = *p;
  p->release = nullptr;
  return out;
}

bool valid_at(const ArrowArray& a, std::int64_t i) {
  const auto* bits = static_cast<const std::uint8_t*>(a.buffers[0]);
  const std::int64_t j = a.offset + i;
  return !bits || ((bits[j >> 3] >> (j & 7)) & 1);
}

void refuse_nulls(const ArrowArray& a, std::string_view fn, std::string_view name, std::int64_t start) {
  if (a.null_count == 0 || a.n_buffers < 1 || !a.buffers[0]) return;
  for (std::int64_t i = 0; i < a.length; ++i) {
    if (!valid_at(a, i)) {
      throw_usage(fmt::format("{}{} holds a null (missing value) at index {}; drop or fill it first", pre(fn), name,
                              start + i));
    }
  }
}

/// A NumPy array of `length` elements of the dtype (kind code, bits) at `data`, owned by `owner`.
nb::object numpy_view(const void* data, std::int64_t length, nb::dlpack::dtype dt, nb::handle owner) {
  const std::size_t shape[1] = {static_cast<std::size_t>(length)};
  return nb::cast(nb::ndarray<nb::numpy, nb::ndim<1>>(const_cast<void*>(data), 1, shape, owner, nullptr, dt),
                  nb::rv_policy::reference);
}

nb::object convert(owned_chunk* chunk, const ArrowSchema& schema, const ArrowArray& a, nb::handle owner,
                   std::string_view fn, std::string_view name, std::int64_t start);

/// Fixed-width numbers: the NumPy dtype of an Arrow format string, or bits = 0.
nb::dlpack::dtype numeric_dtype(std::string_view f) {
  using nb::dlpack::dtype_code;
  auto d = [](dtype_code c, int bits) { return nb::dlpack::dtype{static_cast<std::uint8_t>(c), static_cast<std::uint8_t>(bits), 1}; };
  if (f == "c") return d(dtype_code::Int, 8);
  if (f == "C") return d(dtype_code::UInt, 8);
  if (f == "s") return d(dtype_code::Int, 16);
  if (f == "S") return d(dtype_code::UInt, 16);
  if (f == "i") return d(dtype_code::Int, 32);
  if (f == "I") return d(dtype_code::UInt, 32);
  if (f == "l") return d(dtype_code::Int, 64);
  if (f == "L") return d(dtype_code::UInt, 64);
  if (f == "e") return d(dtype_code::Float, 16);
  if (f == "f") return d(dtype_code::Float, 32);
  if (f == "g") return d(dtype_code::Float, 64);
  return nb::dlpack::dtype{0, 0, 0};
}

nb::object convert(owned_chunk* chunk, const ArrowSchema& schema, const ArrowArray& a, nb::handle owner,
                   std::string_view fn, std::string_view name, std::int64_t start) {
  const std::string_view f = schema.format ? schema.format : "";
  if (schema.dictionary) {  // categorical: indices (the format) into the dictionary's values
    if (!a.dictionary) throw_usage(fmt::format("{}{} is a dictionary column without its dictionary", pre(fn), name));
    ArrowSchema index_schema = schema;
    index_schema.dictionary = nullptr;
    nb::object indices = convert(chunk, index_schema, a, owner, fn, name, start);
    nb::object values = convert(chunk, *schema.dictionary, *a.dictionary, owner, fn, name, 0);
    return nb::make_tuple(nb::str("dictionary"), indices, values);
  }
  refuse_nulls(a, fn, name, start);
  if (const auto dt = numeric_dtype(f); dt.bits) {
    const auto* base = static_cast<const std::uint8_t*>(a.buffers[1]);
    return numpy_view(base + a.offset * (dt.bits / 8), a.length, dt, owner);
  }
  if (f == "b") {  // bit-packed booleans: unpacked (a copy, 1 byte per value)
    std::vector<std::uint8_t> out(static_cast<std::size_t>(a.length));
    const auto* bits = static_cast<const std::uint8_t*>(a.buffers[1]);
    for (std::int64_t i = 0; i < a.length; ++i) {
      const std::int64_t j = a.offset + i;
      out[static_cast<std::size_t>(i)] = (bits[j >> 3] >> (j & 7)) & 1;
    }
    return nb::make_tuple(nb::str("bool"), nb::cast(to_numpy(std::move(out))));
  }
  if (f == "u" || f == "U") {  // utf8 (int32 offsets) and large utf8 (int64 offsets): Python str
    nb::list out;
    const char* data = static_cast<const char*>(a.buffers[2]);
    for (std::int64_t i = 0; i < a.length; ++i) {
      const std::int64_t j = a.offset + i;
      std::int64_t lo, hi;
      if (f == "u") {
        const auto* off = static_cast<const std::int32_t*>(a.buffers[1]);
        lo = off[j], hi = off[j + 1];
      } else {
        const auto* off = static_cast<const std::int64_t*>(a.buffers[1]);
        lo = off[j], hi = off[j + 1];
      }
      out.append(nb::str(data + lo, static_cast<std::size_t>(hi - lo)));
    }
    return nb::make_tuple(nb::str("strings"), out);
  }
  if (f == "vu") {  // utf8 view (16-byte views: length, then inline data or buffer index + offset)
    nb::list out;
    const auto* views = static_cast<const std::uint8_t*>(a.buffers[1]);
    for (std::int64_t i = 0; i < a.length; ++i) {
      const std::uint8_t* v = views + 16 * (a.offset + i);
      std::int32_t len;
      std::memcpy(&len, v, 4);
      if (len <= 12) {
        out.append(nb::str(reinterpret_cast<const char*>(v + 4), static_cast<std::size_t>(len)));
      } else {
        std::int32_t buffer, offset;
        std::memcpy(&buffer, v + 8, 4);
        std::memcpy(&offset, v + 12, 4);
        const char* data = static_cast<const char*>(a.buffers[2 + buffer]);
        out.append(nb::str(data + offset, static_cast<std::size_t>(len)));
      }
    }
    return nb::make_tuple(nb::str("strings"), out);
  }
  (void)chunk;
  throw_usage(fmt::format("{}{} has the Arrow type '{}'; assay takes numbers, booleans, strings and dictionary "
                          "(categorical) columns",
                          pre(fn), name, f));
}

/// The chunk as a Python object (see bind_arrow), consuming `schema` and `array`.
nb::object chunk_object(ArrowSchema schema, ArrowArray array, std::string_view fn, std::string_view name,
                        std::int64_t start) {
  auto* chunk = new owned_chunk{schema, array};
  nb::capsule owner(chunk, [](void* p) noexcept { delete static_cast<owned_chunk*>(p); });
  return convert(chunk, chunk->schema, chunk->array, owner, fn, name, start);
}

ArrowSchema copy_schema_of_stream(ArrowArrayStream& s, std::string_view fn) {
  ArrowSchema schema{};
  if (s.get_schema(&s, &schema) != 0) {
    const char* e = s.get_last_error ? s.get_last_error(&s) : nullptr;
    throw_usage(fmt::format("{}reading the Arrow stream's schema failed: {}", pre(fn), e ? e : "no message"));
  }
  return schema;
}

}  // namespace

void bind_arrow(nb::module_& m) {
  m.def(
      "address_of", [](in_array<double> a) { return reinterpret_cast<std::uintptr_t>(a.data()); }, nb::arg("a"),
      "The address of the float64 data the core reads for `a` (tests show it is the caller's buffer: no copy).");
  m.def(
      "arrow_chunks",
      [](nb::object obj, std::string fn, std::string name) {
        // Each chunk is a NumPy array (fixed-width numbers, a view of the Arrow buffer), or a tuple
        // ("bool", uint8 array), ("strings", [str]) or ("dictionary", indices, values).
        nb::list out;
        if (nb::hasattr(obj, "__arrow_c_array__")) {
          nb::tuple caps = nb::cast<nb::tuple>(obj.attr("__arrow_c_array__")());
          ArrowSchema schema = take<ArrowSchema>(caps[0], "arrow_schema", fn);
          ArrowArray array{};
          try {
            array = take<ArrowArray>(caps[1], "arrow_array", fn);
          } catch (...) {
            if (schema.release) schema.release(&schema);
            throw;
          }
          out.append(chunk_object(schema, array, fn, name, 0));
          return out;
        }
        nb::object cap = obj.attr("__arrow_c_stream__")();
        ArrowArrayStream stream = take<ArrowArrayStream>(cap, "arrow_array_stream", fn);
        struct closer {
          ArrowArrayStream* s;
          ~closer() {
            if (s->release) s->release(s);
          }
        } close{&stream};
        std::int64_t start = 0;
        for (;;) {
          ArrowArray array{};
          if (stream.get_next(&stream, &array) != 0) {
            const char* e = stream.get_last_error ? stream.get_last_error(&stream) : nullptr;
            throw_usage(fmt::format("{}reading the Arrow stream failed: {}", pre(fn), e ? e : "no message"));
          }
          if (!array.release) break;  // end of stream
          ArrowSchema schema{};
          try {
            schema = copy_schema_of_stream(stream, fn);
          } catch (...) {
            array.release(&array);
            throw;
          }
          const std::int64_t length = array.length;
          out.append(chunk_object(schema, array, fn, name, start));
          start += length;
        }
        return out;
      },
      nb::arg("obj"), nb::arg("fn"), nb::arg("name"),
      "The chunks of an object exporting __arrow_c_array__ or __arrow_c_stream__ (zero-copy NumPy views of "
      "numeric chunks without nulls).");
}

}  // namespace assay::python
