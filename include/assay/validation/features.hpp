// assay: turning data-set columns into a numeric matrix for learners, with every statistic
// (category levels, means for imputation, scaling) fitted on the training rows only, so that
// nothing about the test part leaks into training.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "assay/validation/dataset.hpp"

namespace assay::validation {

/// A dense row-major matrix of doubles.
struct matrix {
  std::size_t rows = 0, cols = 0;
  std::vector<double> data;

  matrix() = default;
  matrix(std::size_t r, std::size_t c) : rows(r), cols(c), data(r * c, 0.0) {}
  double& operator()(std::size_t r, std::size_t c) { return data[r * cols + c]; }
  double operator()(std::size_t r, std::size_t c) const { return data[r * cols + c]; }
  [[nodiscard]] std::span<const double> row(std::size_t r) const { return {data.data() + r * cols, cols}; }
};

/// What to do with missing cells.
enum class impute_kind {
  refuse,  ///< a missing value is a data error naming the column and row (the default)
  mean,    ///< numeric: the training mean; categorical: the most frequent training level
  median,  ///< numeric: the training median; categorical: the most frequent training level
};

struct encoder_options {
  impute_kind impute = impute_kind::refuse;
  /// Scale numeric columns to mean 0, standard deviation 1 (population, as scikit-learn's
  /// StandardScaler; a constant column is only centred). One-hot columns are left 0/1.
  bool standardize = false;
  /// Add x^2 ... x^degree of every numeric column (after scaling), for polynomial regression.
  std::size_t degree = 1;
};

/// Fitted preprocessing. Numeric columns pass through (imputed, optionally standardised); a
/// categorical column becomes one 0/1 column per level seen in the training rows (levels first
/// seen in test rows encode as all zeros, scikit-learn's handle_unknown="ignore").
class feature_encoder {
 public:
  /// Learns levels, imputation values and scaling from `rows` of `d` only.
  void fit(const dataset& d, std::span<const std::size_t> rows, const encoder_options& options);
  /// The encoded matrix of `rows` of `d`. Throws a data error for a missing value under
  /// impute_kind::refuse, naming the column and the (1-based data) row.
  [[nodiscard]] matrix transform(const dataset& d, std::span<const std::size_t> rows) const;
  /// The same as fit / transform when every feature is numeric without missing cells and
  /// `full` = dense_features(d): rows are copied whole from the row-major matrix (faster).
  void fit(const dataset& d, const matrix& full, std::span<const std::size_t> rows, const encoder_options& options);
  [[nodiscard]] matrix transform(const matrix& full, std::span<const std::size_t> rows) const;
  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
  /// Per numeric input column: the centre and scale used (for tests: they come from training rows).
  [[nodiscard]] const std::vector<double>& centres() const noexcept { return centre_; }
  [[nodiscard]] const std::vector<double>& scales() const noexcept { return scale_; }

 private:
  encoder_options opt_;
  std::vector<std::size_t> feature_;              // input column of each numeric/categorical block
  std::vector<std::vector<std::int32_t>> level_;  // categorical: training levels in order
  std::vector<double> fill_, centre_, scale_;     // per input column
  std::vector<std::int32_t> fill_code_;
  std::vector<std::string> names_;
};

/// All features of `d` as a row-major matrix when every one is numeric with no missing cell (the
/// case the fast fit / transform overloads serve); an empty matrix otherwise.
matrix dense_features(const dataset& d);

}  // namespace assay::validation
