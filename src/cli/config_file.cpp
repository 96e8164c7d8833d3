#include "cli/config_file.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace plateau::cli {

void apply_config_file(CLI::App& cmd, const std::string& path) {
  const auto items = CLI::ConfigINI().from_file(path);
  // Every key is checked before any value is set; a repeated key adds to the same option, as a
  // repeated flag does, hence the values gathered per option first (in the file's order).
  std::vector<std::pair<CLI::Option*, std::vector<std::string>>> values;
  for (const auto& item : items) {
    // A section [serve] reads as parents {"serve"}; its "++"/"--" markers open and close it.
    const bool top = item.parents.empty() ||
                     (item.parents.size() == 1 && item.parents.front() == cmd.get_name());
    if (item.name == "++" || item.name == "--") {
      if (top) continue;
      throw CLI::ConfigError("unknown section '" + CLI::detail::join(item.parents, ".") + "' in " +
                             path);
    }
    CLI::Option* option = top ? cmd.get_option_no_throw("--" + item.name) : nullptr;
    if (option == nullptr || !option->get_configurable() || option->get_expected_min() == 0 ||
        option->get_name() == "--help" || option->get_name() == "--config") {
      throw CLI::ConfigError("unknown key '" + item.fullname() + "' in " + path);
    }
    if (option->count() > 0) continue;  // set on the command line, which wins
    auto it = std::find_if(values.begin(), values.end(),
                           [option](const auto& entry) { return entry.first == option; });
    if (it == values.end()) it = values.insert(values.end(), {option, {}});
    it->second.insert(it->second.end(), item.inputs.begin(), item.inputs.end());
  }
  for (auto& [option, inputs] : values) {
    option->add_result(inputs);
    option->run_callback();  // the option's checks, as on the command line
  }
  // CLI11 checked needs() before the file was read: check them again over both sources.
  for (const auto* option : cmd.get_options()) {
    if (option->count() == 0) continue;
    for (const auto* needed : option->get_needs()) {
      if (needed->count() == 0) throw CLI::RequiresError(option->get_name(), needed->get_name());
    }
  }
}

}  // namespace plateau::cli
