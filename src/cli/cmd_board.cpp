// `plateau board GAME [--record FILE|-]`: the text board print-out of a position.
#include <iostream>

#include "cli/cli_common.h"

namespace plateau::cli {

void add_board_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("board", "Print the text board of a position");
  auto game = std::make_shared<std::string>();
  auto record = std::make_shared<std::string>();
  cmd->add_option("GAME", *game, "Game spec, e.g. bohnduell")->required();
  cmd->add_option("--record", *record, "Record file to replay first ('-' = standard input)");
  cmd->footer("Example: plateau board bohnduell --record game.txt");
  cmd->callback([game, record] {
    ReplayedGame g = load_position(*game, *record);
    std::cout << g.state->to_text(g.seats);
  });
}

}  // namespace plateau::cli
