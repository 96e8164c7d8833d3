// `plateau match GAME BOT BOT... [--games N] [--threads T] [--seed S]`: bots against each other
// with seats rotated; wins, draws and losses per bot, the Elo difference with its 95% interval,
// and every game's record in a directory.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>

#include "ai/bot.h"
#include "ai/match.h"
#include "cli/cli_checks.h"
#include "cli/cli_common.h"
#include "cli/progress.h"
#include "core/registry.h"
#include "core/text.h"

namespace plateau::cli {

namespace {

struct MatchOptions {
  std::string game;
  std::vector<std::string> bots;
  int games = 100;
  int threads = 1;
  std::uint64_t seed = 1;
  std::int64_t movetime = 0;
  int max_plies = 5000;
  int opening_plies = 0;
  std::string records = "match-records";
};

void run_match_command(const MatchOptions& opt) {
  ai::MatchConfig config;
  config.game = make_game(opt.game);
  const Game& game = *config.game;
  if (opt.bots.size() != static_cast<std::size_t>(game.num_seats())) {
    throw UsageError(seat_count_message("BOTS", opt.bots.size(), game));
  }
  for (const std::string& b : opt.bots) {
    if (!is_bot_for(b, game)) {
      throw UsageError("unknown bot '" + b + "' for " + game.name() + "; its bots are " +
                       bot_names_for(game));
    }
    config.bots.push_back(to_lower(trim(b)));
  }
  config.games = opt.games;
  config.threads = opt.threads;
  config.seed = opt.seed;
  config.movetime_ms = opt.movetime;
  config.max_plies = opt.max_plies;
  config.opening_plies = opt.opening_plies;
  std::cout << "Match " << config.game->spec() << ": " << join(config.bots, " vs ") << ", "
            << opt.games << " games, seats rotated, seed " << opt.seed;
  if (opt.opening_plies > 0) std::cout << ", " << opt.opening_plies << " random opening plies";
  std::cout << "\n" << std::flush;
  // Records are written as games end, so that an interrupted match keeps them.
  if (!opt.records.empty()) std::filesystem::create_directories(opt.records);
  config.on_game = [&opt](const ai::GameOutcome& g) {
    if (opt.records.empty()) return;
    char name[32];
    std::snprintf(name, sizeof name, "game-%04d.record", g.index + 1);
    std::ofstream out(std::filesystem::path(opt.records) / name);
    out << g.record;
    if (!out) throw UsageError("cannot write records into '" + opt.records + "'");
  };
  ProgressBar bar("playing", static_cast<std::uint64_t>(opt.games), "games");
  config.progress = [&bar](int done, int) { bar.update(static_cast<std::uint64_t>(done)); };
  ai::MatchResult result = ai::run_match(config);
  bar.finish(static_cast<std::uint64_t>(opt.games));

  std::printf("%-10s %6s %6s %6s %6s %8s %7s\n", "bot", "seats", "wins", "draws", "losses",
              "points", "score");
  for (const ai::BotStats& s : result.stats) {
    std::printf("%-10s %6d %6d %6d %6d %8.1f %6.1f%%\n", s.name.c_str(), s.games, s.wins, s.draws,
                s.losses, s.points, s.games ? 100.0 * s.points / s.games : 0.0);
  }
  int unfinished = 0;
  for (const ai::GameOutcome& g : result.games) unfinished += g.finished ? 0 : 1;
  if (unfinished)
    std::printf("%d games stopped at %d plies (counted as draws)\n", unfinished, opt.max_plies);
  if (result.has_elo) {
    std::printf("Elo %s - %s: %s (95%%), score %.1f%% over %d games\n",
                result.stats[0].name.c_str(), result.stats[1].name.c_str(),
                ai::format_elo(result.elo).c_str(), 100.0 * result.elo.score, result.elo.games);
  }
  if (!opt.records.empty()) {
    std::cout << "Records: " << opt.records << "/game-0001.record .. game-"
              << (opt.games < 10000 ? std::string(4 - std::to_string(opt.games).size(), '0')
                                    : std::string())
              << opt.games << ".record\n";
  }
}

}  // namespace

void add_match_command(CLI::App& app) {
  auto opt = std::make_shared<MatchOptions>();
  auto* cmd = app.add_subcommand("match", "Play bots against each other and rate them");
  cmd->add_option("GAME", opt->game, "Game spec, e.g. bohnduell or 'biloba(players=4)'")
      ->required();
  cmd->add_option("BOTS", opt->bots, "One bot per seat: random, greedy, 1..5, classic")->required();
  cmd->add_option("--games", opt->games, "Number of games")
      ->capture_default_str()
      ->check(whole_number_in(1, 1000000));
  cmd->add_option("--threads", opt->threads, "Games played at the same time")
      ->capture_default_str()
      ->check(whole_number_in(1, 256));
  cmd->add_option("--seed", opt->seed, "Match seed (bots are seeded per game and seat)")
      ->capture_default_str();
  cmd->add_option("--movetime", opt->movetime, "Cap per move in milliseconds (0 = none)")
      ->capture_default_str()
      ->check(whole_number_in(0, 86400000));
  cmd->add_option("--max-plies", opt->max_plies, "Stop a game after this many plies (a draw)")
      ->capture_default_str()
      ->check(whole_number_in(1, 10000000));
  cmd->add_option("--opening-plies", opt->opening_plies,
                  "Random plies before the bots play (the same opening from every seat)")
      ->capture_default_str()
      ->check(whole_number_in(0, 1000));
  cmd->add_option("--records", opt->records, "Directory for the game records ('' = none)")
      ->capture_default_str();
  cmd->footer("Example: plateau match bohnduell 5 greedy --games 100 --threads 2");
  cmd->callback([opt] { run_match_command(*opt); });
}

}  // namespace plateau::cli
