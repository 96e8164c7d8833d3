#include "ai/levels.h"

#include <stdexcept>

namespace plateau::ai {

LevelSpec level_spec(const BotLevel& level) {
  LevelSpec s;
  s.budget = level.budget;
  const std::string budget = std::to_string(level.budget);
  if (level.search == BotLevel::Search::kMcts) {
    s.algorithm = Algorithm::kMcts;
    s.mcts.playout_depth = level.playout_depth;
    s.mcts.exploration = level.exploration;
    s.description = "MCTS, " + budget + " playouts";
    if (level.playout_depth > 0) {
      s.description += " of " + std::to_string(level.playout_depth) + " plies";
    }
    return s;
  }
  s.algorithm = Algorithm::kAlphaBeta;
  s.alphabeta.use_exact = level.use_exact;
  s.alphabeta.max_moves = level.max_moves;
  const bool best_reply = level.search == BotLevel::Search::kBestReply;
  if (best_reply) s.alphabeta.multi_seat = MultiSeatMode::kBestReply;
  s.description = std::string(level.use_exact ? "exact solver, else " : "") +
                  (best_reply ? "best-reply search, " : "alpha-beta, ") + budget + " nodes";
  if (level.max_moves > 0) {
    s.description += ", " + std::to_string(level.max_moves) + " moves per node";
  }
  return s;
}

LevelSpec level_spec(const Game& game, int level) {
  if (level < kMinLevel || level > kMaxLevel) {
    throw std::out_of_range("bot levels are 1 to 5, not " + std::to_string(level));
  }
  const std::size_t i = static_cast<std::size_t>(level - 1);
  const std::vector<BotLevel> ladder = game.bot_ladder();
  if (ladder.empty()) {
    // The generic ladder: plain UCT with playouts to the end.
    static constexpr std::uint64_t kPlayouts[] = {50, 300, 1'500, 6'000, 20'000};
    return level_spec(BotLevel::mcts(kPlayouts[i], 0, 0.7));
  }
  if (ladder.size() != static_cast<std::size_t>(kMaxLevel)) {
    throw std::logic_error(game.name() + "'s bot ladder has " + std::to_string(ladder.size()) +
                           " levels, not 5");
  }
  return level_spec(ladder[i]);
}

}  // namespace plateau::ai
