// assay._core: the thread cap of the core's parallel kernels (assay/threads.hpp).
#include "assay/threads.hpp"
#include "common.hpp"

namespace assay::python {

void bind_threads(nb::module_& m) {
  m.def("max_threads", &max_threads, "Threads a parallel call of the core may use now (>= 1).");
  m.def("set_max_threads", &set_max_threads, nb::arg("n"),
        "Process-wide cap on the core's threads; 0 restores the default (ASSAY_NUM_THREADS, else the cores).");
  nb::class_<thread_limit>(m, "ThreadLimit",
                           "Limits the core's parallel calls made by this thread while the object lives.")
      .def(nb::init<unsigned>(), nb::arg("n"));
}

}  // namespace assay::python
