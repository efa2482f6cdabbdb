// assay: corrections of p-values for multiple comparisons (a family of tests, e.g. DeLong's test on
// every pair of k models). Same numbers as statsmodels.stats.multitest.multipletests (methods
// "bonferroni", "holm", "fdr_bh"), which the tests replay.
//
// References: Holm, "A simple sequentially rejective multiple test procedure", Scandinavian Journal
// of Statistics 6 (1979) 65-70; Benjamini & Hochberg, JRSS B 57 (1995) 289-300.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace assay::stats {

enum class p_adjust_method {
  holm,        ///< Holm's step-down (family-wise error rate); assay's default
  bonferroni,  ///< min(1, m p): family-wise, more conservative than Holm
  fdr_bh,      ///< Benjamini-Hochberg step-up (false discovery rate, independent or positively dependent tests)
  none,        ///< the p-values as they are
};

/// "holm", "bonferroni", "fdr_bh", "none" (statsmodels' names).
std::string_view to_string(p_adjust_method m);
/// Parses the names above; throws a usage error naming `what` and the value otherwise.
p_adjust_method parse_p_adjust(std::string_view text, std::string_view what = "p_adjust");

/// Adjusted p-values in the input order; H0_i is rejected at family level alpha when adjusted_i <= alpha.
/// With m tests and p_(1) <= ... <= p_(m) the sorted p-values (ties kept in input order):
/// - bonferroni: min(1, m p_i);
/// - holm:       p~_(j) = max_{i <= j} min(1, (m - i + 1) p_(i));
/// - fdr_bh:     p~_(j) = min_{i >= j} min(1, m p_(i) / i).
/// Every p must be in [0, 1] (a usage error naming the index and value otherwise); NaN is not accepted.
std::vector<double> adjust_p_values(std::span<const double> p, p_adjust_method method = p_adjust_method::holm);

}  // namespace assay::stats
