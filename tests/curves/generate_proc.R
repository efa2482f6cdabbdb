#!/usr/bin/Rscript
# Writes tests/curves/proc_partial_auc.json: R pROC's full and partial AUC (with and without the
# McClish correction, focus on specificity and on sensitivity) on examples/data/asah.csv.
# Run from the repository root: Rscript tests/curves/generate_proc.R
suppressMessages(library(pROC))
d <- read.csv("examples/data/asah.csv")
num <- function(x) sprintf("%.17g", x)
out <- c()
for (marker in c("s100b", "ndka", "wfns")) {
  r <- roc(d$outcome, d[[marker]], levels = c("Good", "Poor"), direction = "<", quiet = TRUE)
  rows <- c(sprintf('{"focus":"full","lo":0,"hi":1,"correct":false,"auc":%s}', num(as.numeric(auc(r)))))
  for (focus in c("specificity", "sensitivity")) {
    for (rg in list(c(1, 0.8), c(0.9, 0.6), c(0.5, 0.1))) {
      for (correct in c(FALSE, TRUE)) {
        a <- as.numeric(auc(r, partial.auc = rg, partial.auc.focus = focus, partial.auc.correct = correct))
        # In rate units: specificity range [a, b] is fpr [1 - a, 1 - b]; sensitivity is tpr itself.
        lo <- if (focus == "specificity") 1 - max(rg) else min(rg)
        hi <- if (focus == "specificity") 1 - min(rg) else max(rg)
        rows <- c(rows, sprintf('{"focus":"%s","lo":%s,"hi":%s,"correct":%s,"auc":%s}', focus, num(lo), num(hi),
                                tolower(correct), num(a)))
      }
    }
  }
  out <- c(out, sprintf('{"marker":"%s","results":[%s]}', marker, paste(rows, collapse = ",")))
}
cat(sprintf('{"generator":"tests/curves/generate_proc.R","proc_version":"%s","r_version":"%s","data":"examples/data/asah.csv","label":"outcome","positive":"Poor","cases":[%s]}\n',
            as.character(packageVersion("pROC")), R.version.string, paste(out, collapse = ",")),
    file = "tests/curves/proc_partial_auc.json")
