#!/usr/bin/env Rscript
# Writes tests/report/caret_reference.json: what R's caret confusionMatrix prints for binary and
# multiclass predictions (overall: accuracy, no-information rate, the one-sided binomial p-value of
# accuracy > NIR, McNemar's test p-value; per class: sensitivity, specificity, PPV, NPV, F1,
# prevalence, detection rate, detection prevalence, balanced accuracy), replayed against
# assay::evaluate by tests/report/caret_replay_test.cpp (CI never runs this script).
#
# Run from the repository root:  Rscript tests/report/generate_caret.R [path/to/data/dir]
# Needs Debian's r-cran-caret (scripts/install-deps.sh). Data: ../shared/data/asah.csv (pROC's aSAH)
# and ../shared/data/iris.csv, with hard predictions made here by fixed rules, and random cases drawn
# with a fixed seed. The labels go into the JSON, so the test needs nothing else. Numbers are
# printed with 17 significant digits (exact round trip); NA / NaN are written as null.
suppressMessages(library(caret))

args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args) >= 1) args[1] else "../shared/data"
out_path <- "tests/report/caret_reference.json"

num <- function(x) if (is.na(x) || is.nan(x)) "null" else sprintf("%.17g", x)
str <- function(s) sprintf("\"%s\"", s)
strs <- function(x) paste0("[", paste(vapply(x, str, ""), collapse = ", "), "]")
obj <- function(fields) paste0("{", paste(sprintf("\"%s\": %s", names(fields), unlist(fields)), collapse = ", "), "}")

by_class_keys <- c(sensitivity = "Sensitivity", specificity = "Specificity", ppv = "Pos Pred Value",
                   npv = "Neg Pred Value", f1 = "F1", prevalence = "Prevalence",
                   detection_rate = "Detection Rate", detection_prevalence = "Detection Prevalence",
                   balanced_accuracy = "Balanced Accuracy")

# One case: caret's numbers for predicted classes `pred` against the truth `truth` (character
# vectors) with class levels `levels`. Binary: confusionMatrix once per class as `positive`, so
# every class gets its one-against-the-rest statistics, as for more than two classes.
one_case <- function(name, truth, pred, levels) {
  ref <- factor(truth, levels = levels)
  prd <- factor(pred, levels = levels)
  cm <- confusionMatrix(prd, ref, mode = "everything", positive = levels[1])
  o <- cm$overall
  per <- list()
  for (k in seq_along(levels)) {
    st <- if (length(levels) == 2) confusionMatrix(prd, ref, mode = "everything", positive = levels[k])$byClass
          else cm$byClass[k, ]
    per[[levels[k]]] <- obj(lapply(by_class_keys, function(key) num(unname(st[key]))))
  }
  obj(list(name = str(name), levels = strs(levels), truth = strs(truth), pred = strs(pred),
           accuracy = num(o[["Accuracy"]]), accuracy_lower = num(o[["AccuracyLower"]]),
           accuracy_upper = num(o[["AccuracyUpper"]]), kappa = num(o[["Kappa"]]),
           no_information_rate = num(o[["AccuracyNull"]]), accuracy_p_value = num(o[["AccuracyPValue"]]),
           mcnemar_p_value = num(o[["McnemarPValue"]]),
           by_class = obj(per)))
}

asah <- read.csv(file.path(dir, "asah.csv"), stringsAsFactors = FALSE)
iris <- read.csv(file.path(dir, "iris.csv"), stringsAsFactors = FALSE)
cases <- list()
# aSAH: outcome predicted "Poor" when s100b >= 0.2 (binary, FP != FN: R's continuity correction).
cases[[1]] <- one_case("asah_s100b", asah$outcome, ifelse(asah$s100b >= 0.2, "Poor", "Good"), c("Good", "Poor"))
# aSAH with wfns >= 3 as the rule.
cases[[2]] <- one_case("asah_wfns", asah$outcome, ifelse(asah$wfns >= 3, "Poor", "Good"), c("Good", "Poor"))
# iris: species from petal length (multiclass; some pairs never confused, so Bowker's test is NA).
iris_pred <- ifelse(iris$petal_length < 2.5, "setosa", ifelse(iris$petal_length < 4.8, "versicolor", "virginica"))
cases[[3]] <- one_case("iris_petal_length", iris$species, iris_pred, c("setosa", "versicolor", "virginica"))
# iris from sepal width and length: every pair confused both ways (Bowker defined).
iris_pred2 <- ifelse(iris$sepal_length < 5.5, "setosa", ifelse(iris$sepal_width < 2.9, "versicolor", "virginica"))
cases[[4]] <- one_case("iris_sepal", iris$species, iris_pred2, c("setosa", "versicolor", "virginica"))
set.seed(20261126)
# Random 4 classes, one never predicted (PPV NA, F1 NA in caret).
lv <- c("a", "b", "c", "d")
truth <- sample(lv, 80, replace = TRUE, prob = c(0.4, 0.3, 0.2, 0.1))
pred <- ifelse(runif(80) < 0.5 & truth != "d", truth, sample(lv[1:3], 80, replace = TRUE))
cases[[5]] <- one_case("random_never_predicted", truth, pred, lv)
# Binary with FP = FN (R drops the continuity correction: statistic 0, p = 1).
truth <- c(rep("no", 30), rep("yes", 20))
pred <- c(rep("no", 25), rep("yes", 5), rep("no", 5), rep("yes", 15))
cases[[6]] <- one_case("binary_fp_equals_fn", truth, pred, c("no", "yes"))
# Binary where accuracy is below the NIR (p-value near 1).
truth <- c(rep("no", 40), rep("yes", 10))
pred <- c(rep("no", 25), rep("yes", 15), rep("no", 6), rep("yes", 4))
cases[[7]] <- one_case("binary_below_nir", truth, pred, c("no", "yes"))

json <- paste0("{\n \"generator\": \"tests/report/generate_caret.R\",\n",
               " \"versions\": ", obj(list(caret = str(as.character(packageVersion("caret"))),
                                            R = str(paste(R.version$major, R.version$minor, sep = ".")))), ",\n",
               " \"cases\": [\n  ", paste(unlist(cases), collapse = ",\n  "), "\n ]\n}\n")
writeLines(json, out_path, sep = "")
cat("wrote", out_path, "\n")
