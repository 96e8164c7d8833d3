// `plateau analyse GAME [--record FILE] [--bot B]`: the bot's best move in a position, its
// evaluation and the line it expects.
#include <cstdio>
#include <iostream>

#include "ai/analysis_line.h"
#include "ai/bot.h"
#include "cli/cli_checks.h"
#include "cli/cli_common.h"
#include "core/text.h"

namespace plateau::cli {

namespace {

// The longest principal line printed (a search's line is rarely longer).
constexpr std::size_t kMaxLineMoves = 64;

struct AnalyseOptions {
  std::string game;
  std::string record;
  std::string bot = "5";
  std::int64_t movetime = 0;
  std::uint64_t seed = 0;
};

void run_analyse(const AnalyseOptions& opt) {
  ReplayedGame g = load_position(opt.game, opt.record);
  const State& state = *g.state;
  if (state.is_terminal()) {
    std::cout << "The game is over. " << state.result_text() << "\n";
    return;
  }
  if (!is_bot_for(opt.bot, *g.game)) {
    throw UsageError("unknown bot '" + opt.bot + "' for " + g.game->name() + "; its bots are " +
                     bot_names_for(*g.game));
  }
  BotOptions bo;
  bo.seed = opt.seed;
  bo.movetime_ms = opt.movetime;
  auto bot = make_bot(opt.bot, bo);
  ai::SearchResult r = bot->analyse(state);
  const std::string seat = g.game->seat_label(state.current_seat());
  std::cout << "Position after " << g.moves.size() << " moves, " << seat << " to move.\n";
  std::cout << "Best move: " << state.move_to_string(r.best) << "\n";
  char value[64];
  std::snprintf(value, sizeof value, "%.3f", r.value);
  std::cout << "Evaluation: " << value << " expected return for " << seat;
  if (r.exact) {
    std::cout << " (exact";
    if (r.exact_value != 0 || r.info.rfind("exact", 0) == 0) {
      std::cout << ", value " << r.exact_value;
    }
    std::cout << ")";
  }
  std::cout << "\n";
  // Written as the game's records write moves ("1. H11 2. H9" or "A:S4 B:S4"), as the server's
  // `analyse` does.
  const auto line = ai::principal_line(state, r.pv, kMaxLineMoves);
  std::cout << "Principal line: " << ai::line_text(*g.game, line) << "\n";
  if (!r.info.empty()) std::cout << "Search: " << r.info << " (bot " << bot->name() << ")\n";
}

}  // namespace

void add_analyse_command(CLI::App& app) {
  auto opt = std::make_shared<AnalyseOptions>();
  auto* cmd = app.add_subcommand("analyse", "Best move, evaluation and principal line of a bot");
  cmd->alias("analyze");
  cmd->add_option("GAME", opt->game, "Game spec, e.g. bohnduell")->required();
  cmd->add_option("--record", opt->record, "Record of the position ('-' = standard input)");
  cmd->add_option("--bot", opt->bot, "Bot that analyses: greedy, 1..5, ...")->capture_default_str();
  cmd->add_option("--movetime", opt->movetime, "Cap in milliseconds (0 = none)")
      ->check(whole_number_in(0, 86400000));
  cmd->add_option("--seed", opt->seed, "Bot seed")->capture_default_str();
  cmd->footer("Example: plateau analyse bohnduell --record game.record --bot 5");
  cmd->callback([opt] { run_analyse(*opt); });
}

}  // namespace plateau::cli
