// assay curve: the rows a curve is drawn from, as src/curves/curve_report.cpp loads them (one model per
// score column, or per class of a probability matrix) and the writers in src/render/ read them.
// Private to the library.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "assay/curves/sweep.hpp"

namespace assay::curves::detail {

// One curve to draw: a model (score column) or, for --proba, one class against the rest.
struct model {
  std::string name;
  std::vector<std::int32_t> y;  // 0/1
  std::vector<double> score;
  std::optional<score_sweep> swept;  // instead of y and score: the sweep (write_curve_of_sweeps)
  std::vector<double> negatives;     // with `swept`: the negative cases' scores (threshold's umbrella)
};

struct loaded {
  std::string source, label_column;
  std::vector<std::string> labels;  // sorted classes
  std::string positive;             // binary only
  bool multiclass = false;
  std::vector<model> models;
  std::vector<std::int32_t> y_class;  // multiclass: class index per row
  std::vector<double> proba;          // multiclass: n x K, class order of `labels`
  std::vector<double> weight;         // empty = unweighted
  bool weighted = false;              // weights given (even when `weight` is not held: swept models)
  std::optional<std::uint64_t> missing;  // rows skipped for an empty cell (read with csv.drop_missing)
};

// The curves' view of a prediction table (data/predictions.hpp, where the class rules live): one

}  // namespace assay::curves::detail
