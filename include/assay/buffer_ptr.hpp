// assay: the owned, uninitialised array that the kernels' scratch buffers are (detail/buffer.hpp
// allocates them, huge-page backed where the system allows). A public header of its own because
// public results hold such arrays (curves/class_sort.hpp), and installed headers include no
// internal (detail/) header.
#pragma once

#include <cstdlib>
#include <memory>

namespace assay::detail {

/// Frees what std::malloc or std::aligned_alloc gave.
struct free_delete {
  void operator()(void* p) const noexcept { std::free(p); }
};

/// An owned array of trivially constructible T, its elements not initialised.
template <typename T>
using buffer_ptr = std::unique_ptr<T[], free_delete>;

}  // namespace assay::detail
