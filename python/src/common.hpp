// assay._core: helpers shared by the binding files (arrays in and out, without copies).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <csignal>
#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <vector>

#include "assay/detail/buffer.hpp"
#include "assay/validation/cancel.hpp"

namespace assay::python {

namespace nb = nanobind;

/// A 1-D C-contiguous CPU array of T, taken without a copy (the Python layer converts first).
template <typename T>
using in_array = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

template <typename T>
std::span<const T> view(const in_array<T>& a) {
  return {a.data(), a.shape(0)};
}

/// An optional array: None gives an empty span.
template <typename T>
std::span<const T> view(const std::optional<in_array<T>>& a) {
  return a ? view(*a) : std::span<const T>{};
}

/// Moves a vector into a new NumPy array that owns it (no copy of the elements).
template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> to_numpy(std::vector<T>&& v) {
  auto* heap = new std::vector<T>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(heap->data(), {heap->size()}, owner);
}

/// Moves an owned buffer of n elements into a new NumPy array that owns it (no copy).
template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> to_numpy(detail::buffer_ptr<T>&& b, std::size_t n) {
  T* data = b.release();
  nb::capsule owner(data, [](void* p) noexcept { std::free(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {n}, owner);
}

/// As to_numpy, shaped rows x cols (row-major).
template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<2>> to_numpy_2d(std::vector<T>&& v, std::size_t rows, std::size_t cols) {
  auto* heap = new std::vector<T>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<2>>(heap->data(), {rows, cols}, owner);
}

}  // namespace assay::python

#include <string_view>

#include "assay/data/predictions.hpp"
#include "assay/metrics/classification.hpp"
#include "assay/report/report.hpp"

namespace assay::python {

/// The core's zero_division of the Python spelling ("0", "1" or "nan"); assay::error otherwise.
assay::zero_division zero_division_of(std::string_view s);
/// The core's ci_method of the Python spelling ("auto", "wilson", ..., "bootstrap"); assay::error otherwise.
assay::ci_method ci_method_of(std::string_view s);
/// The evaluate_options of assay.report's keywords (Python spellings of zero_division and ci_method);
/// the one place both the in-memory report and the mergeable state's finish() build them.
evaluate_options evaluate_options_of(double threshold, std::optional<double> beta, std::size_t top_k,
                                     std::string_view zero_division, std::optional<double> ci_level,
                                     std::string_view ci_method, std::size_t replicates, std::uint64_t seed,
                                     bool keep_curves);
/// The core's task_kind of the Python spelling ("auto", "binary", "multiclass", "regression").
assay::task_kind task_of(std::string_view s);

/// Python's thread identifier of the interpreter's main thread (set when the module is imported);
/// SIGINT is delivered to Python there only.
inline unsigned long main_thread_ident = 0;

extern "C" inline void assay_sigint_cancels(int) { validation::request_cancel(); }

/// Makes Ctrl-C stop a long core call (bootstraps, permutation tests): while alive, on the main
/// thread, SIGINT sets the core's cancellation flag (validation/cancel.hpp), which the replicate
/// loops poll between replicates, instead of running Python's handler. Construct it with the GIL
/// held, before releasing the GIL. The call then throws validation::interrupted, which the module's
/// exception translator turns into KeyboardInterrupt. If SIGINT arrived after the last poll the
/// call returns normally and the signal is handed back to Python (PyErr_SetInterrupt), which
/// raises KeyboardInterrupt (or runs the user's handler) as soon as control returns to Python.
/// Off the main thread, or when SIGINT is ignored, nothing is installed.
class sigint_cancels {
 public:
  sigint_cancels() : unwinding_(std::uncaught_exceptions()) {
    if (PyThread_get_thread_ident() != main_thread_ident) return;
    struct sigaction ours {};
    ours.sa_handler = assay_sigint_cancels;
    sigemptyset(&ours.sa_mask);
    if (sigaction(SIGINT, nullptr, &previous_) != 0 || previous_.sa_handler == SIG_IGN) return;
    validation::reset_cancel();
    active_ = sigaction(SIGINT, &ours, nullptr) == 0;
  }
  ~sigint_cancels() {
    if (!active_) return;
    sigaction(SIGINT, &previous_, nullptr);
    if (validation::cancel_requested()) {
      validation::reset_cancel();
      // Returning normally: give the signal back to Python; unwinding (interrupted): the translator
      // raises KeyboardInterrupt.
      if (std::uncaught_exceptions() == unwinding_) PyErr_SetInterrupt();
    }
  }
  sigint_cancels(const sigint_cancels&) = delete;
  sigint_cancels& operator=(const sigint_cancels&) = delete;

 private:
  struct sigaction previous_ {};
  bool active_ = false;
  int unwinding_ = 0;
};

void bind_metrics(nb::module_& m);
void bind_curves(nb::module_& m);
void bind_stats(nb::module_& m);
void bind_validation(nb::module_& m);
void bind_report(nb::module_& m);
void bind_threads(nb::module_& m);
void bind_ranking(nb::module_& m);
void bind_detection(nb::module_& m);
void bind_text(nb::module_& m);
void bind_text_ter(nb::module_& m);
void bind_curve_objects(nb::module_& m);
void bind_scale(nb::module_& m);
void bind_arrow(nb::module_& m);

}  // namespace assay::python
