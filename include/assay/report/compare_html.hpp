// assay: the self-contained HTML page of `assay compare --html`: the data and options with the
// command that reproduces the page, each model's AUC with its DeLong interval and accuracy with its
// Wilson interval, the tests of each pair (DeLong, McNemar with the agreement table, the paired
// bootstrap and permutation tests of each --metric; Cochran's Q and adjusted p-values with more
// than two models), and the verdict. Built on the document builder of html.hpp; no script, no
// network. Also the page of two independent samples (compare_samples.hpp). Section ids:
// docs/html-report.md.
#pragma once

#include <string>

#include "assay/stats/compare_models.hpp"
#include "assay/stats/compare_samples.hpp"

namespace assay::html {

/// The page of a model comparison. `command` is the command line shown in the setup section (the
/// front end builds it: it knows the options it was given).
std::string compare_page(const stats::model_comparison& c, const std::string& command);

/// The page of two independent samples (`assay compare A.csv B.csv --html`, or `--sample COL`): the
/// data and options with the command, each sample's error rate (Wilson) and AUC (DeLong), the
/// difference of error rates with the Wald and Newcombe intervals, the two-proportion z and Fisher
/// tests, the unpaired DeLong test, and the verdict. Section ids: docs/html-report.md.
std::string compare_samples_page(const stats::sample_comparison& c, const std::string& command);

}  // namespace assay::html
