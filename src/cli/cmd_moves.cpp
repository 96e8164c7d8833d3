// `plateau moves GAME [--record FILE|-]`: legal moves, one per line, canonical, sorted.
#include <algorithm>
#include <iostream>

#include "cli/cli_common.h"

namespace plateau::cli {

void add_moves_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("moves", "Print the legal moves of a position, one per line");
  auto game = std::make_shared<std::string>();
  auto record = std::make_shared<std::string>();
  cmd->add_option("GAME", *game, "Game spec, e.g. bohnduell or 'bohnduell(supply=12)'")
      ->required();
  cmd->add_option("--record", *record, "Record file to replay first ('-' = standard input)");
  cmd->footer("Example: plateau moves bohnduell --record game.txt");
  cmd->callback([game, record] {
    ReplayedGame g = load_position(*game, *record);
    std::vector<std::string> lines;
    for (const Move& m : g.state->legal_moves()) lines.push_back(g.state->move_to_string(m));
    std::sort(lines.begin(), lines.end());
    for (const auto& l : lines) std::cout << l << "\n";
  });
}

}  // namespace plateau::cli
