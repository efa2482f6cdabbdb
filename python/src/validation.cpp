// assay._core: resampling splits by scheme name, the same function `assay split` calls, and the
// bias-variance decomposition of predictions made in Python (the kernel of `assay bias-variance`).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <numeric>

#include "assay/validation/bias_variance.hpp"
#include "assay/validation/split_plan.hpp"
#include "common.hpp"

namespace assay::python {

void bind_validation(nb::module_& m) {
  m.def(
      "make_splits",
      [](std::string method, std::size_t n, std::size_t folds, std::size_t repeats, std::uint64_t seed, bool shuffle,
         bool stratify, double train_fraction, double validation_fraction, std::size_t p, std::size_t max_splits,
         std::size_t test_size, std::size_t gap, std::size_t max_train, std::size_t bins,
         std::optional<in_array<std::int32_t>> classes, std::optional<in_array<double>> values,
         std::optional<in_array<std::int32_t>> groups) {
        validation::split_request q;
        q.method = std::move(method);
        q.folds = folds;
        q.repeats = repeats;
        q.seed = seed;
        q.shuffle = shuffle;
        q.stratify = stratify;
        q.train_fraction = train_fraction;
        q.validation_fraction = validation_fraction;
        q.p = p;
        q.max_splits = max_splits;
        q.test_size = test_size;
        q.gap = gap;
        q.max_train = max_train;
        q.bins = bins;
        validation::split_list splits;
        {
          nb::gil_scoped_release release;
          splits = validation::make_splits(q, n, view(classes), view(values), view(groups), "split");
        }
        nb::list out;
        for (auto& s : splits) {
          std::vector<std::int64_t> train(s.train.begin(), s.train.end());
          std::vector<std::int64_t> validation(s.validation.begin(), s.validation.end());
          std::vector<std::int64_t> test(s.test.begin(), s.test.end());
          out.append(nb::make_tuple(to_numpy(std::move(train)), to_numpy(std::move(validation)),
                                    to_numpy(std::move(test)), s.repeat));
        }
        return out;
      },
      nb::arg("method"), nb::arg("n"), nb::arg("folds"), nb::arg("repeats"), nb::arg("seed"), nb::arg("shuffle"),
      nb::arg("stratify"), nb::arg("train_fraction"), nb::arg("validation_fraction"), nb::arg("p"),
      nb::arg("max_splits"), nb::arg("test_size"), nb::arg("gap"), nb::arg("max_train"), nb::arg("bins"),
      nb::arg("classes").none(), nb::arg("values").none(), nb::arg("groups").none(),
      "[(train, validation, test, repeat)] row indices of every split, as `assay split` makes them.");
  m.def(
      "bias_variance_samples",
      [](std::size_t n, std::size_t rounds, std::uint64_t seed) {
        std::vector<std::size_t> rows(n);
        std::iota(rows.begin(), rows.end(), std::size_t{0});
        nb::list out;
        for (std::size_t r = 0; r < rounds; ++r) {
          const auto s = validation::bias_variance_sample(rows, seed, r);
          out.append(to_numpy(std::vector<std::int64_t>(s.begin(), s.end())));
        }
        return out;
      },
      nb::arg("n"), nb::arg("rounds"), nb::arg("seed"),
      "The bootstrap samples (row indices into 0..n-1) of `assay bias-variance` for a seed.");

  m.def(
      "bias_variance_decompose",
      [](in_array<double> predictions, std::size_t rounds, in_array<double> target, std::size_t k) {
        validation::bias_variance_result r;
        {
          nb::gil_scoped_release release;
          r = validation::decompose_bias_variance(view(predictions), rounds, view(target), k);
        }
        nb::dict d;
        d["loss"] = r.loss;
        d["expected_loss"] = r.expected_loss;
        d["bias"] = r.bias;
        d["variance"] = r.variance;
        d["net_variance"] = r.net_variance;
        return d;
      },
      nb::arg("predictions"), nb::arg("rounds"), nb::arg("target"), nb::arg("k"),
      "The decomposition of rounds x n predictions (row-major) of the same test cases; k = 0: squared loss.");
}

}  // namespace assay::python
