// The HTML report rendered in a real browser: Debian's headless Chromium (scripts/install-deps.sh
// installs it; without it these tests FAIL, they do not skip). For each bundled example the test
//  - checks the file itself: no external URL anywhere (no request can leave the page);
//  - loads it as written (its Content-Security-Policy on) with console logging, dumps the DOM and
//    fails on any console message (a blocked request or script error is logged there);
//  - loads an instrumented copy (policy removed, a measuring script appended) that writes the
//    rendered size of every section and plot into the DOM, so "present and non-empty" is measured
//    on the laid-out page, not guessed from the markup;
//  - takes light and dark screenshots and prints to PDF, kept in ./html-artifacts/ for a person to
//    look at (ctest runs in build/tests).
// Negative controls prove the console and URL checks can fail.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <regex>
#include <vector>

#include "html/html_test_util.hpp"

namespace assay::html::test {
namespace {

std::string chromium_path() {
  if (const char* env = std::getenv("ASSAY_CHROMIUM"); env && *env) return env;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin");
  for (std::string d; std::getline(dirs, d, ':');)
    for (const char* name : {"chromium", "chromium-browser"})
      if (fs::path p = fs::path(d) / name; !d.empty() && access(p.c_str(), X_OK) == 0) return p.string();
  return {};
}

fs::path artifacts() {
  fs::path p = fs::current_path() / "html-artifacts";
  fs::create_directories(p);
  return p;
}

struct browser_run {
  int status = -1;
  std::string out, log;
};

// One headless Chromium run with a fresh profile; `what` is e.g. "--dump-dom".
browser_run chromium(const fs::path& page, const std::vector<std::string>& what) {
  const std::string exe = chromium_path();
  temp_dir profile;
  std::string cmd = "timeout 120 " + sh_quote(exe) +
                    " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                    " --disable-background-networking --disable-component-update --disable-sync"
                    " --disable-default-apps --hide-scrollbars --enable-logging=stderr --v=0"
                    " --user-data-dir=" +
                    sh_quote(profile.path().string());
  for (const auto& w : what) cmd += " " + sh_quote(w);
  cmd += " " + sh_quote("file://" + fs::absolute(page).string());
  browser_run r;
  r.status = run_shell(cmd, profile / "out.txt", profile / "log.txt");
  r.out = read_file(profile / "out.txt");
  r.log = read_file(profile / "log.txt");
  return r;
}

// Console messages of the page (Chromium logs them as "...:CONSOLE(line)] ..." or ":CONSOLE:").
std::vector<std::string> console_lines(const std::string& log) {
  std::vector<std::string> out;
  std::stringstream ss(log);
  for (std::string line; std::getline(ss, line);)
    if (line.find(":CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos) out.push_back(line);
  return out;
}

// Everything in the markup that could make the browser fetch something.
std::vector<std::string> external_references(const std::string& html) {
  std::vector<std::string> out;
  static const std::regex attr(
      R"re(\b(src|href|srcset|action|poster|data|background|xlink:href)\s*=\s*["']?([^"'\s>]*))re", std::regex::icase);
  for (auto it = std::sregex_iterator(html.begin(), html.end(), attr); it != std::sregex_iterator(); ++it) {
    const std::string v = (*it)[2].str();
    if (!(v.starts_with("#") || v.starts_with("data:"))) out.push_back((*it)[0].str());
  }
  // url(#id) refers to an element of the page itself (SVG clip paths): not a request.
  static const std::regex other(R"re(url\s*\((?!\s*['"]?#)|@import|<\s*(script|link|iframe|object|embed|base)\b)re",
                                std::regex::icase);
  for (auto it = std::sregex_iterator(html.begin(), html.end(), other); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[0].str());
  return out;
}

// The instrumented copy: the policy removed (so the measuring script may run) and a script that
// writes "section <id> <w> <h> <text>", "svg <n> <w> <h> <shapes>", "figure <id> <w> <h> <shapes> <polyline
// points> <band polygons with an area>" and counters into <pre id="layout">.
std::string instrument(std::string html) {
  const std::regex csp("<meta http-equiv=\"Content-Security-Policy\"[^>]*>");
  html = std::regex_replace(html, csp, "");
  const std::string probe_head =
      "<script>window.__errors=[];window.addEventListener('error',function(e){__errors.push(String(e.message));});"
      "</script>";
  const std::string probe_tail = R"js(<script>(function(){var o=[];
document.querySelectorAll('section').forEach(function(s){var r=s.getBoundingClientRect();
 o.push('section '+s.id+' '+Math.round(r.width)+' '+Math.round(r.height)+' '+s.innerText.trim().length);});
document.querySelectorAll('svg').forEach(function(s,i){var r=s.getBoundingClientRect();
 var n=0;s.querySelectorAll('rect,path,line,polyline,circle').forEach(function(e){
  var b=e.getBBox();if(b.width>0||b.height>0)n++;});
 o.push('svg '+i+' '+Math.round(r.width)+' '+Math.round(r.height)+' '+n);});
document.querySelectorAll('figure').forEach(function(f){var s=f.querySelector('svg');
 var r=s?s.getBoundingClientRect():{width:0,height:0};
 var n=0,pts=0,bands=0;if(s)s.querySelectorAll('rect,path,line,polyline,circle').forEach(function(e){
  var b=e.getBBox();if(b.width>0||b.height>0)n++;if(e.points)pts+=e.points.numberOfItems;});
 if(s)s.querySelectorAll('polygon.band').forEach(function(e){var b=e.getBBox();if(b.width>0&&b.height>0)bands++;});
 o.push('figure '+f.id+' '+Math.round(r.width)+' '+Math.round(r.height)+' '+n+' '+pts+' '+bands);});
document.querySelectorAll('table').forEach(function(t,i){var r=t.getBoundingClientRect();
 o.push('table '+i+' '+Math.round(r.width)+' '+Math.round(r.height)+' '+t.rows.length);});
o.push('scripts '+document.scripts.length);o.push('imgs '+document.images.length);o.push('pwned '+(window.pwned||0));
o.push('errors '+__errors.length+' '+__errors.join(' | '));
var p=document.createElement('pre');p.id='layout';p.textContent=o.join('\n');
document.body.appendChild(p);})();</script>)js";
  html.insert(html.find("<head>") + 6, probe_head);
  html.insert(html.rfind("</body>"), probe_tail);
  return html;
}

// The lines of <pre id="layout"> in a dumped DOM.
std::vector<std::string> layout_lines(const std::string& dom) {
  std::vector<std::string> out;
  const auto a = dom.find("<pre id=\"layout\">");
  if (a == std::string::npos) return out;
  const auto b = dom.find("</pre>", a);
  std::stringstream ss(dom.substr(a + 17, b - a - 17));
  for (std::string line; std::getline(ss, line);) out.push_back(line);
  return out;
}

// Width and height from a PNG's IHDR chunk (0, 0 when the file is not a PNG).
std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& png) {
  if (png.size() < 24 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return {0, 0};
  auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

// Runs `assay <args> --html page` and loads the page as written: no external reference, no console
// message, every section of `section_ids` in the DOM the browser built. Sets `html` to the page and `dom`
// to that DOM. Call under ASSERT_NO_FATAL_FAILURE.
void write_and_load(const std::string& args, const fs::path& page, const temp_dir& tmp,
                    const std::vector<std::string>& section_ids, std::string& html, std::string& dom) {
  ASSERT_EQ(run_shell(sh_quote(ASSAY_CLI_PATH) + " " + args + " --html " + sh_quote(page.string()), tmp / "out",
                      tmp / "err"),
            0)
      << read_file(tmp / "err");
  html = read_file(page);
  EXPECT_TRUE(external_references(html).empty()) << ::testing::PrintToString(external_references(html));
  const auto plain = chromium(page, {"--dump-dom"});
  ASSERT_EQ(plain.status, 0) << plain.log;
  EXPECT_TRUE(console_lines(plain.log).empty()) << ::testing::PrintToString(console_lines(plain.log));
  for (const auto& id : section_ids)
    EXPECT_NE(plain.out.find("<section id=\"" + id + "\""), std::string::npos) << id;
  dom = plain.out;
}

// The instrumented page's layout lines (measured sizes of what was laid out). Call under ASSERT_NO_FATAL_FAILURE.
void measure(const std::string& html, const temp_dir& tmp, std::vector<std::string>& lines) {
  write_file(tmp / "probe.html", instrument(html));
  const auto probe = chromium(tmp / "probe.html", {"--window-size=1100,1400", "--dump-dom"});
  ASSERT_EQ(probe.status, 0) << probe.log;
  lines = layout_lines(probe.out);
  ASSERT_FALSE(lines.empty()) << "the measuring script did not run:\n" << probe.log;
}

// One layout line: "KIND ID N1 N2 ..." (what was measured, its id, its numbers).
struct layout_entry {
  std::string kind, id;
  std::vector<long> v;
};
layout_entry parse_layout_line(const std::string& line) {
  layout_entry e;
  std::stringstream ss(line);
  ss >> e.kind >> e.id;
  for (long x; ss >> x;) e.v.push_back(x);
  return e;
}

// Every section of `ids` laid out wider than 300 px, taller than `min_height` px, with visible text.
void expect_sections_laid_out(const std::map<std::string, std::vector<long>>& sections,
                              const std::vector<std::string>& ids, long min_height) {
  for (const auto& id : ids) {
    ASSERT_TRUE(sections.count(id)) << id;
    const auto& v = sections.at(id);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_GT(v[0], 300) << id << " width";
    EXPECT_GT(v[1], min_height) << id << " height";
    EXPECT_GT(v[2], 20) << id << " visible text";
  }
}

// Screenshots in light and dark mode, kept in `dir` for a person to look at: full size, not blank, and
// different from each other.
void expect_screenshots(const fs::path& page, const fs::path& dir, const std::string& name) {
  const fs::path light = dir / (name + "-light.png"), dark = dir / (name + "-dark.png");
  fs::remove(light);
  fs::remove(dark);
  ASSERT_EQ(chromium(page, {"--window-size=1100,2600", "--screenshot=" + light.string()}).status, 0);
  ASSERT_EQ(chromium(page, {"--window-size=1100,2600", "--force-dark-mode", "--blink-settings=preferredColorScheme=0",
                            "--screenshot=" + dark.string()})
                .status,
            0);
  const std::string light_png = read_file(light), dark_png = read_file(dark);
  EXPECT_EQ(png_size(light_png), std::make_pair(1100u, 2600u));
  EXPECT_EQ(png_size(dark_png), std::make_pair(1100u, 2600u));
  EXPECT_GT(light_png.size(), 30000u) << "a nearly blank screenshot compresses to a few kB";
  EXPECT_NE(light_png, dark_png) << "dark mode changed nothing";
}

class Browser : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(chromium_path().empty())
        << "headless Chromium is needed for the browser tests: run scripts/install-deps.sh (apt-get install chromium) "
           "or set ASSAY_CHROMIUM";
  }
};

TEST_F(Browser, NegativeControlsTheChecksCanFail) {
  temp_dir dir;
  // A script error and a blocked image request must appear as console messages.
  write_file(dir / "bad.html",
             "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" "
             "content=\"default-src 'none'\"><title>x</title></head><body><img src=\"https://example.invalid/x.png\">"
             "</body></html>");
  write_file(
      dir / "throws.html",
      "<!DOCTYPE html><html><head><title>x</title></head><body><script>undefined_function();</script></body></html>");
  const auto bad = chromium(dir / "bad.html", {"--dump-dom"});
  EXPECT_FALSE(console_lines(bad.log).empty()) << bad.log;
  const auto throws = chromium(dir / "throws.html", {"--dump-dom"});
  EXPECT_FALSE(console_lines(throws.log).empty()) << throws.log;
  EXPECT_EQ(external_references(read_file(dir / "bad.html")).size(), 1u);
  EXPECT_EQ(external_references("<style>body{background:url(x.png)}</style>").size(), 1u);
  EXPECT_EQ(external_references("<g clip-path=\"url(#plot)\"></g>").size(), 0u);
}

struct example {
  std::string name, args;
  std::size_t classes;
  std::size_t svgs;  // per-class bars, plus ROC, PR, threshold sweep and reliability for a score column
  std::vector<std::string> line_figures;  // figures drawn as lines: each must have a drawn polyline
  std::vector<std::string> band_figures = {};  // figures that must show a shaded interval band (--ci)
};

void PrintTo(const example& e, std::ostream* os) { *os << e.name; }

// Each curve figure (by id) is laid out at a readable size and draws lines with many points; the
// figures in `bands` (and only those) show one shaded interval band with an area.
void expect_line_figures(const std::map<std::string, std::vector<long>>& figures, const std::vector<std::string>& ids,
                         const std::vector<std::string>& bands) {
  for (const auto& id : ids) {
    ASSERT_TRUE(figures.count(id)) << id << " missing";
    const auto& v = figures.at(id);
    ASSERT_EQ(v.size(), 5u) << id;
    EXPECT_GT(v[0], 300) << id << " width";
    EXPECT_GT(v[1], 250) << id << " height";
    EXPECT_GE(v[2], 10) << id << " drawn shapes (grid, axes, lines)";
    EXPECT_GE(v[3], 6) << id << " polyline points";
    const bool band = std::find(bands.begin(), bands.end(), id) != bands.end();
    EXPECT_EQ(v[4], band ? 1 : 0) << id << " band polygons laid out with an area";
  }
}

class BrowserExample : public Browser, public ::testing::WithParamInterface<example> {};

TEST_P(BrowserExample, RendersEverySectionAndPlotWithoutErrorsOrRequests) {
  const example& ex = GetParam();
  const fs::path dir = artifacts();
  const fs::path page = dir / (ex.name + ".html");
  temp_dir tmp;
  const std::vector<std::string> section_ids{"setup", "metrics", "confusion", "per-class", "figures"};
  // As written: no console message at all, and the DOM the browser built has every section.
  std::string html, dom;
  ASSERT_NO_FATAL_FAILURE(write_and_load("report " + ex.args, page, tmp, section_ids, html, dom));
  // Bands add two polygons of twice the curve's drawn points (569 rows: about 13 kB each).
  EXPECT_LT(html.size(), ex.band_figures.empty() ? 100000u : 130000u);
  EXPECT_EQ(dom.find("<script"), std::string::npos);

  // Instrumented: measured sizes of what was laid out.
  std::vector<std::string> lines;
  ASSERT_NO_FATAL_FAILURE(measure(html, tmp, lines));
  std::map<std::string, std::vector<long>> sections;
  std::map<std::string, std::vector<long>> figures;
  std::size_t svgs = 0, tables = 0;
  for (const auto& l : lines) {
    const auto [kind, id, v] = parse_layout_line(l);
    if (kind == "section") sections[id] = v;
    if (kind == "figure") {
      figures[id] = v;
      continue;
    }
    if (kind == "svg") {
      ++svgs;
      ASSERT_EQ(v.size(), 3u) << l;
      EXPECT_GT(v[0], 200) << l;
      EXPECT_GT(v[1], 100) << l;
      EXPECT_GE(v[2], static_cast<long>(3 * ex.classes)) << "bars drawn: " << l;
    }
    if (kind == "table") {
      ++tables;
      ASSERT_EQ(v.size(), 3u) << l;
      EXPECT_GT(v[0], 50) << l;
      EXPECT_GT(v[1], 30) << l;
      EXPECT_GE(v[2], 2) << l;
    }
    if (kind == "scripts") EXPECT_EQ(id, "2") << "only the two probe scripts";
    if (kind == "errors") EXPECT_EQ(id, "0") << l;
  }
  EXPECT_EQ(svgs, GetParam().svgs);
  // Each curve figure is laid out at a readable size and draws lines with many points.
  expect_line_figures(figures, ex.line_figures, ex.band_figures);
  EXPECT_EQ(tables, 5u);  // setup, headline, confusion, per-class (WEKA-style, then caret's statistics by class)
  expect_sections_laid_out(sections, section_ids, 80);

  // Screenshots (light, dark) and a PDF print, for people to look at.
  ASSERT_NO_FATAL_FAILURE(expect_screenshots(page, dir, ex.name));
  const fs::path pdf = dir / (ex.name + ".pdf");
  fs::remove(pdf);
  ASSERT_EQ(chromium(page, {"--no-pdf-header-footer", "--print-to-pdf=" + pdf.string()}).status, 0);
  const std::string pdf_bytes = read_file(pdf);
  EXPECT_EQ(pdf_bytes.substr(0, 5), "%PDF-");
  EXPECT_GT(pdf_bytes.size(), 10000u);
}

// assay report --max-fpr --min-recall --html: the operating-points section renders as a table with one
// row per constraint and the umbrella threshold, no console message, no request.
TEST_F(Browser, OperatingPointsSection) {
  const fs::path page = artifacts() / "breast_cancer_operating_points.html";
  temp_dir tmp;
  std::string html, dom;
  ASSERT_NO_FATAL_FAILURE(write_and_load("report " + sh_quote(source_path("examples/breast_cancer_predictions.csv")) +
                                             " --label diagnosis --score p_malignant --pos-label malignant "
                                             "--max-fpr 0.05 --min-recall 0.95",
                                         page, tmp, {"setup", "metrics", "operating-points"}, html, dom));
  const auto at = dom.find("<section id=\"operating-points\"");
  ASSERT_NE(at, std::string::npos);
  const std::string section = dom.substr(at, dom.find("</section>", at) - at);
  EXPECT_NE(section.find("FPR \u2264 0.05"), std::string::npos) << section;
  EXPECT_NE(section.find("recall \u2265 0.95"), std::string::npos) << section;
  EXPECT_NE(section.find("NP umbrella (FPR \u2264 0.05 with probability 0.95)"), std::string::npos) << section;
  EXPECT_NE(html.find("--max-fpr 0.05 --min-recall 0.95"), std::string::npos) << "the command that reproduces the page";
}

// assay compare FILE --sample COL --html: the two-sample page loads with every section, no console
// message and no request.
TEST_F(Browser, TwoSamplesComparePage) {
  const fs::path page = artifacts() / "asah_two_samples.html";
  temp_dir tmp;
  std::string html, dom;
  ASSERT_NO_FATAL_FAILURE(write_and_load("compare " + sh_quote(source_path("examples/data/asah.csv")) +
                                             " --sample gender --label outcome --pos-label Poor --score s100b",
                                         page, tmp, {"setup", "samples", "errors", "delong", "verdict"}, html, dom));
  EXPECT_NE(dom.find("Newcombe hybrid score"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Examples, BrowserExample,
                         ::testing::Values(example{"breast_cancer",
                                                   sh_quote(source_path("examples/breast_cancer_predictions.csv")) +
                                                       " --label diagnosis --score p_malignant --pos-label malignant",
                                                   2, 5, {"fig-roc", "fig-pr", "fig-threshold", "fig-calibration"}},
                                           // --ci: pointwise Wilson bands on ROC and PR, nowhere else
                                           example{"breast_cancer_ci",
                                                   sh_quote(source_path("examples/breast_cancer_predictions.csv")) +
                                                       " --label diagnosis --score p_malignant --pos-label malignant "
                                                       "--ci --bootstrap-replicates 200",
                                                   2,
                                                   5,
                                                   {"fig-roc", "fig-pr", "fig-threshold", "fig-calibration"},
                                                   {"fig-roc", "fig-pr"}},
                                           example{"iris",
                                                   sh_quote(source_path("examples/iris_predictions.csv")) +
                                                       " --label species --proba setosa versicolor virginica",
                                                   3, 2, {"fig-calibration"}}),
                         [](const auto& info) { return info.param.name; });

// The pages of the validation commands (assay cv --html, assay learning-curve --html): rendered as
// written with no console message, every section laid out with visible text, every plot drawn with
// its shapes, screenshots in light and dark mode kept for a person to look at.
struct validation_example {
  std::string name, command;
  std::vector<std::string> sections;
  std::size_t svgs, tables;
  long min_shapes;  // drawn shapes per plot (grid lines, points, error bars, bands)
  std::vector<std::string> line_figures = {};  // figures (by id) that must be laid out with drawn polylines
};

void PrintTo(const validation_example& e, std::ostream* os) { *os << e.name; }

class BrowserValidation : public Browser, public ::testing::WithParamInterface<validation_example> {};

TEST_P(BrowserValidation, RendersEverySectionAndPlotWithoutErrors) {
  const auto& ex = GetParam();
  const fs::path dir = artifacts();
  const fs::path page = dir / (ex.name + ".html");
  temp_dir tmp;
  std::string html, dom;
  ASSERT_NO_FATAL_FAILURE(write_and_load(ex.command, page, tmp, ex.sections, html, dom));

  std::vector<std::string> lines;
  ASSERT_NO_FATAL_FAILURE(measure(html, tmp, lines));
  std::map<std::string, std::vector<long>> sections, figures;
  std::size_t svgs = 0, tables = 0;
  for (const auto& l : lines) {
    const auto [kind, id, v] = parse_layout_line(l);
    if (kind == "section") sections[id] = v;
    if (kind == "figure") figures[id] = v;
    if (kind == "svg") {
      ++svgs;
      ASSERT_EQ(v.size(), 3u) << l;
      EXPECT_GT(v[0], 300) << l;
      EXPECT_GT(v[1], 200) << l;
      EXPECT_GE(v[2], ex.min_shapes) << "shapes drawn: " << l;
    }
    if (kind == "table") {
      ++tables;
      ASSERT_EQ(v.size(), 3u) << l;
      EXPECT_GT(v[0], 50) << l;
      EXPECT_GE(v[2], 2) << l;
    }
    if (kind == "scripts") EXPECT_EQ(id, "2") << "only the two probe scripts";
    if (kind == "errors") EXPECT_EQ(id, "0") << l;
  }
  EXPECT_EQ(svgs, ex.svgs);
  EXPECT_EQ(tables, ex.tables);
  expect_line_figures(figures, ex.line_figures, {});
  expect_sections_laid_out(sections, ex.sections, 60);
  ASSERT_NO_FATAL_FAILURE(expect_screenshots(page, dir, ex.name));
}

INSTANTIATE_TEST_SUITE_P(
    Pages, BrowserValidation,
    ::testing::Values(
        validation_example{"cv",
                           "cv " + sh_quote(source_path("examples/data/iris.csv")) +
                               " --target species --learner gaussian_nb --folds 4 --repeats 2 --seed 7 --threads 1",
                           {"setup", "summary", "folds"},
                           0,
                           3,
                           0},
        validation_example{"learning_curve",
                           "learning-curve " + sh_quote(source_path("examples/data/breast_cancer.csv")) +
                               " --target diagnosis --pos-label malignant --learner logistic --folds 5 --seed 1 --threads 1",
                           {"setup", "summary", "plot", "table"},
                           4,
                           3,
                           // per plot: grid lines, frame, 2 lines, 10 points, 10 error bars, 2 bands
                           40},
        // assay detection --html (COCO, with intervals): sections, the per-class PR figure drawn
        validation_example{"detection",
                           "detection --gt " + sh_quote(source_path("tests/detection/data/fine_gt.json")) + " --dt " +
                               sh_quote(source_path("tests/detection/data/fine_dt.json")) + " --ci --bootstrap 20",
                           {"setup", "metrics", "per-class", "pr-curves"},
                           1,
                           3,
                           // grid lines, frame, legend and one curve per class
                           20,
                           {"pr"}},
        // assay report --by (the sliced report, with intervals): 7 headline metrics of a binary score
        // (accuracy, error rate, precision, recall, specificity, FPR, ROC AUC), each a table and a
        // forest plot; tables: setup, overall, 7 metric tables, one per slice (Female, Male) = 11;
        // per plot at least the frame, the reference line, 2 interval segments and 2 points.
        validation_example{"sliced",
                           "report " + sh_quote(source_path("examples/data/asah.csv")) +
                               " --label label --score s100b --by gender --ci --bootstrap-replicates 100",
                           {"setup", "overall", "metric-accuracy", "metric-roc_auc", "slices"},
                           7,
                           11,
                           6}),
    [](const auto& info) { return info.param.name; });

// Labels that are markup, rendered with the policy removed: escaping alone keeps them text.
TEST_F(Browser, ScriptLabelsAreShownNotRun) {
  temp_dir tmp;
  write_file(tmp / "hostile.csv",
             "y,p\n\"<script>window.pwned=1</script>\",\"<script>window.pwned=1</script>\"\n"
             "\"<img src=x onerror=\"\"window.pwned=2\"\">\",\"<script>window.pwned=1</script>\"\n"
             "\"<img src=x onerror=\"\"window.pwned=2\"\">\",\"<img src=x onerror=\"\"window.pwned=2\"\">\"\n");
  const fs::path page = artifacts() / "hostile.html";
  ASSERT_EQ(run_shell(sh_quote(ASSAY_CLI_PATH) + " report " + sh_quote((tmp / "hostile.csv").string()) +
                          " --label y --pred p --task multiclass --html " + sh_quote(page.string()),
                      tmp / "out", tmp / "err"),
            0)
      << read_file(tmp / "err");
  write_file(tmp / "probe.html", instrument(read_file(page)));
  const auto probe = chromium(tmp / "probe.html", {"--dump-dom"});
  ASSERT_EQ(probe.status, 0);
  const auto lines = layout_lines(probe.out);
  ASSERT_FALSE(lines.empty()) << probe.log;
  EXPECT_NE(std::find(lines.begin(), lines.end(), "scripts 2"), lines.end()) << ::testing::PrintToString(lines);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "pwned 0"), lines.end()) << ::testing::PrintToString(lines);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "imgs 0"), lines.end()) << ::testing::PrintToString(lines);
  // The DOM holds the label as text (the serializer escapes "<" again in text nodes).
  EXPECT_NE(probe.out.find("&lt;script&gt;window.pwned=1&lt;/script&gt;"), std::string::npos);
  ASSERT_EQ(
      chromium(page, {"--window-size=1100,1600", "--screenshot=" + (artifacts() / "hostile.png").string()}).status, 0);
}

}  // namespace
}  // namespace assay::html::test
