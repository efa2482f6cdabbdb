// assay._core: the compiled half of the Python package. Every function here is a thin call into the
// C++ core; names, defaults, argument checking and scikit-learn's conventions live in python/assay/.
#include <nanobind/stl/string.h>

#include "assay/error.hpp"
#include "assay/validation/cancel.hpp"
#include "common.hpp"

namespace assay::python { void bind_text_rouge(nb::module_& m); }  // python/src/text_rouge.cpp

NB_MODULE(_core, m) {
  m.doc() = "Bindings of the assay C++ core (internal: use the assay package).";
  m.attr("__version__") = ASSAY_VERSION;
  assay::python::main_thread_ident =
      nanobind::cast<unsigned long>(nanobind::module_::import_("threading").attr("main_thread")().attr("ident"));
  // assay::error is bad input (usage or data): Python's ValueError, with the core's message.
  nanobind::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const assay::validation::interrupted&) {  // Ctrl-C during a call (sigint_cancels)
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const assay::error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  assay::python::bind_metrics(m);
  assay::python::bind_curves(m);
  assay::python::bind_stats(m);
  assay::python::bind_validation(m);
  assay::python::bind_report(m);
  assay::python::bind_threads(m);
  assay::python::bind_ranking(m);
  assay::python::bind_detection(m);
  assay::python::bind_text(m);
  assay::python::bind_text_ter(m);
  assay::python::bind_curve_objects(m);
  assay::python::bind_scale(m);
  assay::python::bind_arrow(m);
  assay::python::bind_text_rouge(m);
}
