#!/usr/bin/env Rscript
# Writes tests/stats/proc_asah.json: DeLong AUC variance, interval and tests from R's pROC, the peer
# that assay::stats::delong* must equal to 1e-9 (tests/stats/delong_test.cpp replays the JSON; CI
# never runs this script).
#
# Run from the repository root:  Rscript tests/stats/generate_proc.R [path/to/asah.csv]
# Needs Debian's r-cran-proc (apt-get install r-cran-proc); not part of scripts/install-deps.sh.
# Data: ../shared/data/asah.csv (the aSAH data shipped with pROC; outcome "Poor" is the positive
# class) and random cases with many ties drawn here with a fixed seed. The data go into the JSON
# with the results, so the test needs nothing else. Numbers are printed with 17 significant digits,
# which round-trip doubles exactly.
suppressMessages(library(pROC))

args <- commandArgs(trailingOnly = TRUE)
csv <- if (length(args) >= 1) args[1] else "../shared/data/asah.csv"
out_path <- "tests/stats/proc_asah.json"

num <- function(x) {
  if (is.na(x)) return("\"nan\"")
  if (is.infinite(x)) return(if (x > 0) "\"inf\"" else "\"-inf\"")
  sprintf("%.17g", x)
}
vec <- function(x) paste0("[", paste(vapply(x, num, ""), collapse = ", "), "]")
obj <- function(fields) paste0("{", paste(sprintf("\"%s\": %s", names(fields), unlist(fields)), collapse = ", "), "}")
str <- function(s) sprintf("\"%s\"", s)

# controls = label 0, cases = label 1; higher scores indicate cases.
make_roc <- function(label, score) roc(label, score, levels = c(0, 1), direction = "<", quiet = TRUE)

single <- function(name, label, score, level = 0.95) {
  r <- make_roc(label, score)
  ci <- ci.auc(r, method = "delong", conf.level = level)
  obj(list(name = str(name), labels = vec(label), scores = vec(score), level = num(level),
           auc = num(as.numeric(auc(r))), var = num(var(r, method = "delong")),
           ci_lower = num(ci[1]), ci_upper = num(ci[3])))
}

paired <- function(name, label, a, b, alternative = "two.sided", level = 0.95) {
  ra <- make_roc(label, a)
  rb <- make_roc(label, b)
  t <- suppressWarnings(roc.test(ra, rb, method = "delong", paired = TRUE, alternative = alternative,
                                 conf.level = level))
  obj(list(name = str(name), labels = vec(label), a = vec(a), b = vec(b), alternative = str(alternative),
           level = num(level), auc_a = num(as.numeric(auc(ra))), auc_b = num(as.numeric(auc(rb))),
           z = num(unname(t$statistic)), p_value = num(t$p.value),
           diff_lower = num(t$conf.int[1]), diff_upper = num(t$conf.int[2])))
}

unpaired <- function(name, label_a, a, label_b, b, alternative = "two.sided") {
  ra <- make_roc(label_a, a)
  rb <- make_roc(label_b, b)
  t <- suppressWarnings(roc.test(ra, rb, method = "delong", paired = FALSE, alternative = alternative))
  obj(list(name = str(name), labels_a = vec(label_a), a = vec(a), labels_b = vec(label_b), b = vec(b),
           alternative = str(alternative), statistic = num(unname(t$statistic)),
           df = num(unname(t$parameter)), p_value = num(t$p.value)))
}

d <- read.csv(csv)
y <- d$label
stopifnot(all(y == as.integer(d$outcome == "Poor")))

singles <- c(single("asah_s100b", y, d$s100b), single("asah_ndka", y, d$ndka), single("asah_wfns", y, d$wfns),
             single("asah_s100b_90", y, d$s100b, 0.90), single("asah_wfns_99", y, d$wfns, 0.99))
pairs <- c(paired("asah_s100b_ndka", y, d$s100b, d$ndka), paired("asah_s100b_wfns", y, d$s100b, d$wfns),
           paired("asah_ndka_wfns", y, d$ndka, d$wfns),
           paired("asah_s100b_ndka_greater", y, d$s100b, d$ndka, "greater"),
           paired("asah_wfns_ndka_less", y, d$wfns, d$ndka, "less"),
           paired("asah_s100b_wfns_90", y, d$s100b, d$wfns, "two.sided", 0.90))
# Unpaired: the first 60 patients scored by s100b against the other 53 scored by ndka / wfns.
i1 <- 1:60
i2 <- 61:nrow(d)
unpaireds <- c(unpaired("asah_s100b_first60_vs_ndka_rest", y[i1], d$s100b[i1], y[i2], d$ndka[i2]),
               unpaired("asah_wfns_first60_vs_s100b_rest", y[i1], d$wfns[i1], y[i2], d$s100b[i2]),
               unpaired("asah_s100b_vs_wfns_all_greater", y, d$s100b, y, d$wfns, "greater"))

# Random cases with many ties: scores on a coarse grid, correlated between the two models.
set.seed(20240601)
for (k in 1:6) {
  n <- c(20, 35, 50, 80, 150, 400)[k]
  lab <- rbinom(n, 1, c(0.3, 0.5, 0.2, 0.4, 0.1, 0.35)[k])
  if (sum(lab) < 2) lab[1:2] <- 1
  if (sum(1 - lab) < 2) lab[3:4] <- 0
  latent <- rnorm(n) + lab * 0.8
  a <- round(latent + rnorm(n, sd = 0.5), 0) / 2
  b <- round(latent + rnorm(n, sd = 0.8), 1)
  singles <- c(singles, single(sprintf("random%d_a", k), lab, a), single(sprintf("random%d_b", k), lab, b))
  pairs <- c(pairs, paired(sprintf("random%d", k), lab, a, b))
  if (k > 1) {
    lab2 <- rbinom(n, 1, 0.4)
    lab2[1:2] <- c(0, 1)
    lab2[3:4] <- c(0, 1)
    c2 <- round(rnorm(n) + lab2 * 0.5, 1)
    unpaireds <- c(unpaireds, unpaired(sprintf("random%d_unpaired", k), lab, a, lab2, c2))
  }
}

json <- paste0("{\n",
  "\"generator\": \"tests/stats/generate_proc.R\",\n",
  "\"pROC\": ", str(as.character(packageVersion("pROC"))), ",\n",
  "\"R\": ", str(R.version.string), ",\n",
  "\"data\": ", str("../shared/data/asah.csv (aSAH from pROC; label 1 = outcome Poor) and seeded random ties"), ",\n",
  "\"ci_auc\": [\n", paste(singles, collapse = ",\n"), "\n],\n",
  "\"paired\": [\n", paste(pairs, collapse = ",\n"), "\n],\n",
  "\"unpaired\": [\n", paste(unpaireds, collapse = ",\n"), "\n]\n}\n")
writeLines(json, out_path, sep = "")
cat("wrote", out_path, "\n")
