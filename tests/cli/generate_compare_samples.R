#!/usr/bin/env Rscript
# Writes tests/cli/compare_samples_proc.json: what `assay compare` on two independent samples must
# print for the aSAH data split in two (patients 1-60 and 61-113, marker s100b, positive "Poor"):
# pROC's unpaired DeLong test (roc.test(paired = FALSE, method = "delong")), each sample's AUC, and the
# error counts at threshold 0.2 (counted here, independently of assay). Replayed by
# tests/cli/compare_samples_cli_test.cpp; CI never runs this script.
#
# Run from the repository root:  Rscript tests/cli/generate_compare_samples.R
# Needs Debian's r-cran-proc. Data: examples/data/asah.csv (aSAH from pROC; label 1 = outcome Poor).
suppressMessages(library(pROC))
d <- read.csv("examples/data/asah.csv")
y <- as.integer(d$outcome == "Poor")
i1 <- 1:60
i2 <- 61:nrow(d)
num <- function(x) sprintf("%.17g", x)
ra <- roc(y[i1], d$s100b[i1], levels = c(0, 1), direction = "<", quiet = TRUE)
rb <- roc(y[i2], d$s100b[i2], levels = c(0, 1), direction = "<", quiet = TRUE)
t <- roc.test(ra, rb, method = "delong", paired = FALSE)
threshold <- 0.2
errors <- function(i) sum(as.integer(d$s100b[i] >= threshold) != y[i])
json <- paste0("{\n",
  "\"generator\": \"tests/cli/generate_compare_samples.R\",\n",
  "\"pROC\": \"", as.character(packageVersion("pROC")), "\",\n",
  "\"R\": \"", R.version.string, "\",\n",
  "\"threshold\": ", threshold, ",\n",
  "\"n_a\": ", length(i1), ", \"n_b\": ", length(i2), ",\n",
  "\"errors_a\": ", errors(i1), ", \"errors_b\": ", errors(i2), ",\n",
  "\"auc_a\": ", num(as.numeric(auc(ra))), ", \"auc_b\": ", num(as.numeric(auc(rb))), ",\n",
  "\"t\": ", num(unname(t$statistic)), ", \"df\": ", num(unname(t$parameter)), ", \"p_value\": ", num(t$p.value), "\n}\n")
writeLines(json, "tests/cli/compare_samples_proc.json", sep = "")
cat("wrote tests/cli/compare_samples_proc.json\n")
