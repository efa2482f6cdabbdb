# The pROC side of bench/compare_proc.sh: times pROC 1.18 on the same `label,a,b` CSV.
#   Rscript bench/compare_proc.R FILE RUNS BOOT_RUNS SMALL_ROWS
# Prints one line per run: <what> <rows> <seconds> (elapsed time; the CSV reading is not timed).
suppressMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
file <- args[1]
runs <- as.integer(args[2])
boot_runs <- as.integer(args[3])
small <- as.integer(args[4])
d <- read.csv(file)
n <- nrow(d)
say <- function(what, rows, secs) cat(sprintf("%s %d %.6f\n", what, rows, secs))
for (i in seq_len(runs)) {
  t <- system.time(ci.auc(roc(d$label, d$a, levels = c(0, 1), direction = "<", quiet = TRUE), method = "delong"))
  say("delong_ci", n, t[["elapsed"]])
}
for (i in seq_len(runs)) {
  t <- system.time({
    r1 <- roc(d$label, d$a, levels = c(0, 1), direction = "<", quiet = TRUE)
    r2 <- roc(d$label, d$b, levels = c(0, 1), direction = "<", quiet = TRUE)
    roc.test(r1, r2, method = "delong", paired = TRUE)
  })
  say("delong_paired", n, t[["elapsed"]])
}
s <- d[seq_len(min(small, n)), ]
for (i in seq_len(boot_runs)) {
  set.seed(i)
  t <- system.time(ci.auc(roc(s$label, s$a, levels = c(0, 1), direction = "<", quiet = TRUE),
                          method = "bootstrap", boot.n = 2000, boot.stratified = TRUE, progress = "none"))
  say("bootstrap_auc_2000", nrow(s), t[["elapsed"]])
}
