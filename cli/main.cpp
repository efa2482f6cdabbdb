// assay: the command-line entry point. Parses the subcommand, runs it, maps errors to exit codes
// (docs/cli.md): 0 success, 1 internal error, 2 usage, 3 bad data, 4 file I/O.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "assay/error.hpp"
#include "assay/io/text.hpp"
#include "commands.hpp"
#include "mpi.hpp"

namespace assay::cli {

std::string current_command = "assay";
std::vector<std::string> arguments;
// The library parameters whose option is not named after them (prediction_file's column lists,
// report_request's interval level).
std::map<std::string, std::string, std::less<>> parameter_options{
    {"ci_level", "--ci"}, {"scores", "--score"}, {"predictions", "--pred"}, {"metrics", "--metric"},
    {"gt_path", "--gt"},  {"dt_path", "--dt"}};

std::string option_of(std::string_view parameter) {
  if (auto it = parameter_options.find(parameter); it != parameter_options.end()) return it->second;
  std::string flag = "--";
  for (char c : parameter) flag += c == '_' ? '-' : c;
  return flag;
}

void write_output(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return;
  }
  const std::string tmp = path + ".assay-tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) throw_io(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    f.close();
    if (!f) {
      std::remove(tmp.c_str());
      throw_io(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw_io(fmt::format("cannot write '{}': {}", path, ec.message()));
  }
}

}  // namespace assay::cli

int main(int argc, char** argv) {
  // Under mpirun (a build with MPI), every rank runs this main; rank 0 alone writes messages.
  const assay::cli::mpi::session mpi_session(argc, argv);
  const bool speak = assay::cli::mpi::rank() == 0;
  CLI::App app{"assay: how good is this model, really? Metrics, curves and honest uncertainty for predictions.",
               "assay"};
  app.set_version_flag("--version", std::string("assay ") + ASSAY_VERSION);
  app.require_subcommand(1);
  app.footer("Exit codes: 0 success, 1 internal error, 2 usage error, 3 bad input data, 4 file I/O error.\n"
             "Run 'assay COMMAND --help' for a command's options and an example.\n"
             "Example:\n  assay report preds.csv --label y --score p --ci --html report.html");
  assay::cli::register_report(app);
  assay::cli::register_curve(app);
  assay::cli::register_compare(app);
  assay::cli::register_detection(app);
  assay::cli::register_text(app);
  assay::cli::register_split(app);
  assay::cli::register_cv(app);
  assay::cli::register_learning_curve(app);
  assay::cli::register_permutation_test(app);
  assay::cli::register_bias_variance(app);
  assay::cli::register_lesion(app);
  assay::cli::register_compare_learners(app);
  assay::cli::register_validation_curve(app);
  assay::cli::register_nested_cv(app);
  assay::cli::register_learners(app);
  assay::cli::register_stats(app);
  try {
    // Arguments are text that may be echoed (a file name in "source", a --pos-label): the same
    // UTF-8 rule as for text read from files (include/assay/io/text.hpp).
    for (int i = 1; i < argc; ++i) {
      const std::string_view a = argv[i];
      if (i == 1) {
        for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
          if (sub->get_name() == a) assay::cli::current_command = "assay " + std::string(a);
        }
      }
      if (const std::size_t k = assay::io::utf8_valid_prefix(a); k < a.size()) {
        assay::throw_usage(fmt::format("argument {} {} is not valid UTF-8 (byte \\x{:02x} at offset {}); assay reads text as UTF-8",
                                       i, assay::io::quote_text(a), static_cast<unsigned char>(a[k]), k));
      }
    }
    assay::cli::mpi::check_command(argc > 1 ? argv[1] : "");
    assay::cli::arguments.assign(argv, argv + argc);
    if (!assay::cli::arguments.empty()) assay::cli::arguments[0] = "assay";
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return speak ? app.exit(e) : 0;
  } catch (const CLI::CallForAllHelp& e) {
    return speak ? app.exit(e) : 0;
  } catch (const CLI::CallForVersion& e) {
    return speak ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    if (speak) std::cerr << assay::cli::current_command << ": " << e.what() << "\n";
    return 2;
  } catch (const assay::error& e) {
    if (speak) std::cerr << assay::cli::current_command << ": " << e.render(assay::cli::option_of) << "\n";
    return e.exit_code();
  } catch (const std::bad_alloc&) {
    if (speak) std::cerr << assay::cli::current_command << ": out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    if (speak) std::cerr << assay::cli::current_command << ": internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
