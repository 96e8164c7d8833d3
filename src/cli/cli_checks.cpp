#include "cli/cli_checks.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "core/text.h"

#ifndef PLATEAU_VERSION
#error "PLATEAU_VERSION must be defined by the build (CMake's project version)"
#endif

namespace plateau::cli {

const char* version() { return PLATEAU_VERSION; }

namespace {

std::string format_number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

}  // namespace

CLI::Validator whole_number_in(long long lo, long long hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        long long value = 0;
        const char* end = text.data() + text.size();
        const char* begin = text.data();
        if (begin != end && *begin == '+') ++begin;
        const auto [ptr, ec] = std::from_chars(begin, end, value);
        if (begin == end || ec != std::errc() || ptr != end || value < lo || value > hi) {
          return "must be a whole number from " + range + ", got '" + text + "'";
        }
        return "";
      },
      "INT in " + range);
}

CLI::Validator number_in(double lo, double hi) {
  const std::string range = format_number(lo) + " to " + format_number(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        double value = 0;
        const char* end = text.data() + text.size();
        const char* begin = text.data();
        if (begin != end && *begin == '+') ++begin;
        const auto [ptr, ec] = std::from_chars(begin, end, value);
        if (begin == end || ec != std::errc() || ptr != end || !std::isfinite(value) ||
            value < lo || value > hi) {
          return "must be a number from " + range + ", got '" + text + "'";
        }
        return "";
      },
      "NUMBER in " + range);
}

std::optional<std::string> unknown_command(const CLI::App& app, int argc, char** argv) {
  // Walks down the subcommands named (`plateau store copy`) to the first word that names none
  // where the command above it has subcommands.
  const CLI::App* at = &app;
  std::string path;
  for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
    const auto subs = at->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) return std::nullopt;  // a positional argument of `at`
    const std::string word = argv[i];
    std::vector<std::string> names;
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : subs) {
      if (sub->get_name() == word) next = sub;
      names.push_back(sub->get_name());
    }
    if (next) {
      path += next->get_name() + " ";
      at = next;
      continue;
    }
    // The word is echoed back: keep a hostile or mistaken 10 kB argument out of the message.
    const std::string shown =
        path + std::string(utf8_prefix(word, 40)) + (word.size() > 40 ? "..." : "");
    const std::string near = closest_word(word, names);
    if (!near.empty()) {
      return "unknown command '" + shown + "'; did you mean '" + path + near + "'?";
    }
    return "unknown command '" + shown + "'; the commands are " + join(names, ", ");
  }
  return std::nullopt;
}

void add_version(CLI::App& app) {
  const std::string line = std::string("plateau ") + version();
  app.set_version_flag("--version", line, "Print the version and exit");
  app.footer(line);
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const std::string footer = sub->get_footer();
    sub->footer(footer.empty() ? line : footer + "\n\n" + line);
  }
}

}  // namespace plateau::cli
