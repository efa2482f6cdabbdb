// assay learners: the built-in learners and their parameters.
#include "assay/validation/learners.hpp"

#include <fmt/format.h>

#include "commands.hpp"

namespace assay::cli {

void register_learners(CLI::App& app) {
  auto* ls = app.add_subcommand("learners", "List the built-in learners and their parameters");
  ls->footer("Example:\n  assay learners");
  ls->callback([] {
    current_command = "assay learners";
    std::string out;
    for (const auto& i : validation::learner_catalog()) {
      out += fmt::format("{}  ({}{}{})\n  {}\n", i.name, i.classification ? "classification" : "",
                         i.classification && i.regression ? ", " : "", i.regression ? "regression" : "", i.description);
      for (const auto& p : i.params) out += fmt::format("    {}={:<8} {}\n", p.name, p.default_value, p.description);
    }
    write_output("", out);
  });
}

}  // namespace assay::cli
