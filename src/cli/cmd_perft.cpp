// `plateau perft GAME DEPTH [--record FILE|-]`: leaf counts for depths 1..DEPTH.
#include <chrono>
#include <iostream>

#include "cli/cli_checks.h"
#include "cli/cli_common.h"
#include "core/perft.h"

namespace plateau::cli {

void add_perft_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("perft", "Count move sequences (leaf nodes) for depths 1..DEPTH");
  auto game = std::make_shared<std::string>();
  auto record = std::make_shared<std::string>();
  auto depth = std::make_shared<int>(0);
  auto timing = std::make_shared<bool>(false);
  cmd->add_option("GAME", *game, "Game spec, e.g. 'bohnduell(supply=20)'")->required();
  cmd->add_option("DEPTH", *depth, "Deepest ply count (1..64)")
      ->required()
      ->check(whole_number_in(1, 64));
  cmd->add_option("--record", *record, "Record file to replay first ('-' = standard input)");
  cmd->add_flag("--time", *timing, "Also print the time of each depth in ms (stderr)");
  cmd->footer("Example: plateau perft 'bohnduell(supply=20)' 6\nPrints 'DEPTH COUNT' lines.");
  cmd->callback([game, record, depth, timing] {
    ReplayedGame g = load_position(*game, *record);
    for (int d = 1; d <= *depth; ++d) {
      auto start = std::chrono::steady_clock::now();
      std::uint64_t n = perft(*g.state, d);
      auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start);
      std::cout << d << " " << n << std::endl;
      if (*timing) std::cerr << "depth " << d << ": " << ms.count() << " ms\n";
    }
  });
}

}  // namespace plateau::cli
