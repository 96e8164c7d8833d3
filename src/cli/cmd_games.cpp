// `plateau games`: the registered games and their options with defaults.
#include <iostream>

#include "cli/cli_common.h"
#include "core/registry.h"

namespace plateau::cli {

void add_games_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("games", "List the games and their options with defaults");
  cmd->callback([] {
    for (const GameInfo* info : registered_games()) {
      std::cout << info->name << " - " << info->title << ": " << info->summary << "\n";
      std::cout << "  seats: " << info->min_seats;
      if (info->max_seats != info->min_seats) std::cout << ".." << info->max_seats;
      std::cout << "\n";
      for (const OptionSpec& o : info->options) {
        std::cout << "  " << o.name << "=" << o.default_value << "  (" << o.accepted << ") "
                  << o.help << "\n";
      }
      for (const OptionPreset& p : info->presets) {
        std::cout << "  preset " << p.name << ": " << p.help << "\n";
      }
    }
  });
}

}  // namespace plateau::cli
