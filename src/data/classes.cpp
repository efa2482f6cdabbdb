// The class rules; see include/assay/data/classes.hpp.
#include "assay/data/classes.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/io/csv.hpp"
#include "assay/metrics/labels.hpp"

namespace assay {

const char* task_name(task_kind t) {
  switch (t) {
    case task_kind::automatic: return "auto";
    case task_kind::binary: return "binary";
    case task_kind::multiclass: return "multiclass";
    case task_kind::regression: return "regression";
  }
  return "?";
}

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::int32_t index_of(const std::vector<std::string>& v, const std::string& s) {
  return static_cast<std::int32_t>(std::find(v.begin(), v.end(), s) - v.begin());
}

// How messages name the inputs (label_source): a file's columns and the options that chose them, or
// an in-memory function's parameters.
struct naming {
  const label_source& src;

  [[nodiscard]] std::string label() const {
    return src.file ? fmt::format("column '{}'", src.truth_column) : std::string("y_true");
  }
  [[nodiscard]] std::string pos_label() const { return src.file ? param("pos_label") : src.name + ": pos_label"; }
  [[nodiscard]] std::string proba() const { return src.file ? param("proba") : src.name + ": y_proba"; }
};

// More than two classes where a binary task needs two: scores of one positive class, or task binary.
[[noreturn]] void refuse_more_than_two(const label_source& src, const class_plan& p, bool scores,
                                       bool predictions, const class_options& o) {
  if (o.classes == class_set::truth && src.file) {
    throw_usage(fmt::format("{}: column '{}' has {} classes ({}); {} compares binary classifiers: compare "
                            "multiclass models by their predicted classes with {} (compare does not take "
                            "class-probability columns)",
                            src.name, src.truth_column, p.classes.size(), join_labels(p.classes), param("scores"),
                            param("predictions")));
  }
  std::string what;
  if (src.file) {
    what = predictions ? "columns '" + src.truth_column + "' and '" + src.predicted_columns.at(0) + "' have"
                       : "column '" + src.truth_column + "' has";
  } else {
    what = predictions ? "y_true and y_pred have" : "y_true has";
  }
  const std::string fix =
      src.file ? (scores ? fmt::format("{} makes a binary task (use {} or {} for more than 2 classes)", param("scores"),
                                       param("predictions"), param("proba"))
                         : fmt::format("{} binary allows at most 2 (use {} multiclass)", param("task"), param("task")))
               : (scores ? "scores make a binary task (use predictions_from_labels or "
                           "predictions_from_proba for more than 2 classes)"
                         : "task binary allows at most 2 (use task multiclass)");
  throw_usage(fmt::format("{}: {} {} classes ({}), but {}", src.name, what, p.classes.size(), join_labels(p.classes),
                          fix));
}

// The class list (sorted) of the unified spellings; sets p.proba_column's order rule in `by_name`.
void list_classes(class_plan& p, const label_spellings& seen, const class_options& o, const naming& nm,
                  bool& by_name) {
  const std::vector<std::string> truth_sorted = sort_labels(seen.truth);
  std::vector<std::string> names = seen.truth;
  if (o.classes == class_set::truth_and_predictions) {
    for (const auto& lv : seen.predicted) names.insert(names.end(), lv.begin(), lv.end());
  }
  // Probability columns named after every true class define the class list (they may name classes
  // absent from the data); otherwise they are taken in sorted class order. Some named after classes
  // and not all is an error: a class would silently get another class's column.
  const auto& headers = seen.proba_columns;
  by_name = false;
  if (!headers.empty()) {
    by_name = std::all_of(seen.truth.begin(), seen.truth.end(), [&](const auto& l) { return contains(headers, l); });
    if (by_name) {
      names.insert(names.end(), headers.begin(), headers.end());
    } else if (std::any_of(headers.begin(), headers.end(), [&](const auto& h) { return contains(seen.truth, h); })) {
      for (const auto& l : truth_sorted) {
        if (contains(headers, l)) continue;
        throw_usage(fmt::format("{}: class \"{}\" of {} has no probability column (columns: {}; name them after the "
                                "classes or none of them)",
                                nm.proba(), l, nm.label(), join_labels(headers)));
      }
    }
  }
  if (o.pos_label) names.push_back(*o.pos_label);  // a positive class may be absent from the data
  p.classes = sort_labels(names);

  auto in_preds = [&](const std::string& c) {  // a predicted class is a class (class_set::truth_and_predictions)
    if (o.classes == class_set::truth) return false;
    return std::any_of(seen.predicted.begin(), seen.predicted.end(), [&](const auto& lv) { return contains(lv, c); });
  };
  if (o.pos_label && !contains(seen.truth, *o.pos_label) && !in_preds(*o.pos_label) && seen.truth.size() >= 2) {
    throw_usage(fmt::format("{}: class \"{}\" not found in {} (classes: {})", nm.pos_label(), *o.pos_label, nm.label(),
                            join_labels(truth_sorted)));
  }
}

// The task and, for a binary one, the positive class (adding the absent class when only one occurs).
void decide_task(class_plan& p, const label_spellings& seen, const class_options& o, const label_source& src,
                 const naming& nm) {
  const bool scores = seen.score_columns > 0;
  if ((scores || o.task == task_kind::binary) && p.classes.size() > 2) {
    refuse_more_than_two(src, p, scores, !seen.predicted.empty(), o);
  }
  if (!seen.proba_columns.empty() && p.classes.size() < 2) {
    throw_usage(fmt::format("{}: needs at least 2 classes, {} has {}", nm.proba(), nm.label(), p.classes.size()));
  }
  const bool binary = o.task != task_kind::multiclass && p.classes.size() <= 2;
  if (!binary && o.pos_label) {
    throw_usage(fmt::format("{}: {} has {} classes ({}); a positive class has no meaning for a multiclass task: "
                            "leave {} out",
                            nm.pos_label(), nm.label(), p.classes.size(), join_labels(p.classes),
                            src.file ? param("pos_label") : "pos_label"));
  }
  if (!binary) {
    p.task = task_kind::multiclass;
    return;
  }
  std::optional<std::string> pos = o.pos_label ? o.pos_label : default_positive(p.classes);
  if (!pos) {
    const bool hint = !scores && o.task != task_kind::binary;
    throw_usage(src.file ? fmt::format("{}: cannot tell which class is positive among {}: name it with {}{}", src.name,
                                       join_labels(p.classes), param("pos_label"),
                                       hint ? " (or use " + param("task") + " multiclass)" : "")
                         : fmt::format("{}: cannot tell which class is positive among {}: name it with pos_label{}",
                                       src.name, join_labels(p.classes), hint ? " (or set task to multiclass)" : ""));
  }
  if (p.classes.size() == 1) {  // one class present: add the other so both rates have a row
    double x;
    const bool numeric_one = labels_are_numeric(p.classes) && label_number(*pos, x) && x == 1;
    p.classes.push_back(*pos == p.classes[0] ? (numeric_one ? "0" : "not " + *pos) : *pos);
    p.classes = sort_labels(p.classes);
  }
  p.positive = static_cast<std::size_t>(index_of(p.classes, *pos));
  p.task = task_kind::binary;
}

// Where each spelling belongs: class indices, and predicted classes that are not classes after them.
void assign_codes(class_plan& p, const label_spellings& seen, const class_options& o) {
  const std::size_t K = p.classes.size();
  for (const auto& l : seen.truth) p.truth.push_back(index_of(p.classes, l));
  if (o.classes == class_set::truth) {
    for (const auto& lv : seen.predicted)
      for (const auto& l : lv)
        if (!contains(p.classes, l) && !contains(p.unknown_classes, l)) p.unknown_classes.push_back(l);
    p.unknown_classes = sort_labels(p.unknown_classes);
  }
  for (const auto& lv : seen.predicted) {
    std::vector<std::int32_t> codes;
    std::vector<std::string> unknown;
    for (const auto& l : lv) {
      if (contains(p.classes, l)) {
        codes.push_back(index_of(p.classes, l));
      } else {
        unknown.push_back(l);
        codes.push_back(static_cast<std::int32_t>(K) + index_of(p.unknown_classes, l));
      }
    }
    p.predicted.push_back(std::move(codes));
    p.predicted_unknown.push_back(sort_labels(std::move(unknown)));
  }
}

// The probability column of each class: by name, or in sorted class order; one per class.
void match_proba_columns(class_plan& p, const label_spellings& seen, bool by_name, const naming& nm) {
  const std::size_t n = seen.proba_columns.size();
  if (n == 0) return;
  const std::size_t K = p.classes.size();
  if (n != K) {
    throw_usage(by_name ? fmt::format("{}: {} probability columns for {} classes ({})", nm.proba(), n, K,
                                      join_labels(p.classes))
                        : fmt::format("{}: {} probability columns for {} classes ({}); give one per class, in sorted "
                                      "class order or named after the classes",
                                      nm.proba(), n, K, join_labels(p.classes)));
  }
  p.proba_column.resize(K);
  for (std::size_t c = 0; c < K; ++c) {
    p.proba_column[c] = by_name ? static_cast<std::size_t>(index_of(seen.proba_columns, p.classes[c])) : c;
  }
}

}  // namespace

class_plan decide_classes(label_spellings seen, const class_options& options, const label_source& source) {
  class_options o = options;
  {
    std::vector<std::vector<std::string>*> sets{&seen.truth};
    for (auto& lv : seen.predicted) sets.push_back(&lv);
    std::vector<std::string*> extra;
    for (auto& h : seen.proba_columns) extra.push_back(&h);
    if (o.pos_label) extra.push_back(&*o.pos_label);
    unify_numeric_labels(sets, extra);
  }
  const naming nm{source};
  class_plan p;
  bool by_name = false;
  list_classes(p, seen, o, nm, by_name);
  decide_task(p, seen, o, source, nm);
  assign_codes(p, seen, o);
  match_proba_columns(p, seen, by_name, nm);
  return p;
}

std::vector<std::uint8_t> positive_of_spellings(const std::vector<std::string>& truth, const class_options& options,
                                                const label_source& source) {
  label_spellings seen;
  seen.truth = truth;
  seen.score_columns = 1;
  const class_plan p = decide_classes(std::move(seen), options, source);
  std::vector<std::uint8_t> out(truth.size(), 0);
  for (std::size_t i = 0; i < truth.size(); ++i) out[i] = p.positive_truth(i) ? 1 : 0;
  return out;
}

}  // namespace assay
