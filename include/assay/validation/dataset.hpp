// assay: a tabular data set for resampling and learning: feature columns (numeric or categorical,
// possibly missing), a target (classes or real values) and an optional group column, read from a
// delimited file with io::csv_reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "assay/io/csv.hpp"

namespace assay::validation {

/// One input feature. A column is numeric when every non-missing cell parses as a finite number,
/// categorical otherwise. Missing cells ("", "NA", "N/A", "NaN", "nan", "?", "null") are NaN in
/// `numbers` and -1 in `codes`.
struct feature_column {
  std::string name;
  bool categorical = false;
  std::vector<double> numbers;      ///< numeric columns
  std::vector<std::int32_t> codes;  ///< categorical columns: index into levels, -1 = missing
  std::vector<std::string> levels;  ///< categorical levels in sorted order
  std::size_t missing = 0;          ///< number of missing cells
};

enum class task_type { automatic, classification, regression };

struct dataset {
  std::string source;
  std::size_t rows = 0;
  std::vector<feature_column> features;
  std::string target_name;
  task_type task = task_type::classification;
  std::vector<std::int32_t> y_class;  ///< classification: index into `classes`
  std::vector<std::string> classes;   ///< sorted as scikit-learn's np.unique (numeric labels numerically)
  std::vector<double> y_value;        ///< regression target
  std::string group_name;
  std::vector<std::int32_t> groups;       ///< group codes (index into group_levels), empty when no group column
  std::vector<std::string> group_levels;  ///< sorted like class labels

  [[nodiscard]] bool classification() const noexcept { return task == task_type::classification; }
};

struct dataset_request {
  std::string path;                       ///< "-" for standard input
  std::string target;                     ///< name or 1-based index; empty = no target (split only)
  std::vector<std::string> features;      ///< empty = every column but target and group
  std::vector<std::string> drop;          ///< columns to leave out
  std::optional<std::string> group;       ///< group column
  task_type task = task_type::automatic;  ///< automatic: classification when the target has a
                                          ///< non-numeric value or only integer values with at most
                                          ///< 10 distinct ones, otherwise regression
  std::string command = "assay";          ///< for messages
  io::csv_options csv;
};

/// Reads the file. Throws assay::error naming file, line and column for a missing target value,
/// an unknown column, or a file without data rows.
dataset read_dataset(const dataset_request& request);

/// True for the spellings of a missing cell listed above.
bool is_missing_cell(std::string_view cell) noexcept;

}  // namespace assay::validation
