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
  if (argc < 2 || argv[1][0] == '-') return std::nullopt;
  const std::string word = argv[1];
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == word) return std::nullopt;
    names.push_back(sub->get_name());
  }
  // The word is echoed back: keep a hostile or mistaken 10 kB argument out of the message.
  const std::string shown = std::string(utf8_prefix(word, 40)) + (word.size() > 40 ? "..." : "");
  const std::string near = closest_word(word, names);
  if (!near.empty()) return "unknown command '" + shown + "'; did you mean '" + near + "'?";
  return "unknown command '" + shown + "'; the commands are " + join(names, ", ");
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
