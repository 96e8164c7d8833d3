#include "ai/levels.h"

#include <stdexcept>

namespace plateau::ai {

namespace {

LevelSpec mcts_level(std::uint64_t playouts, int playout_depth, double exploration) {
  LevelSpec s;
  s.algorithm = Algorithm::kMcts;
  s.budget = playouts;
  s.mcts.playout_depth = playout_depth;
  s.mcts.exploration = exploration;
  s.description = "MCTS, " + std::to_string(playouts) + " playouts";
  if (playout_depth > 0) s.description += " of " + std::to_string(playout_depth) + " plies";
  return s;
}

LevelSpec alphabeta_level(std::uint64_t nodes, bool exact) {
  LevelSpec s;
  s.algorithm = Algorithm::kAlphaBeta;
  s.budget = nodes;
  s.alphabeta.use_exact = exact;
  s.description = std::string(exact ? "exact solver, else " : "") + "alpha-beta, " +
                  std::to_string(nodes) + " nodes";
  return s;
}

}  // namespace

LevelSpec level_spec(const std::string& game_name, int num_seats, int level) {
  if (level < kMinLevel || level > kMaxLevel) {
    throw std::out_of_range("bot levels are 1 to 5, not " + std::to_string(level));
  }
  const int i = level - 1;
  (void)num_seats;
  if (game_name == "bohnduell") {
    // Alpha-beta over the store-margin evaluation; level 5 plays perfectly (exact solver).
    static constexpr std::uint64_t kNodes[] = {30, 300, 3'000, 30'000, 300'000};
    return alphabeta_level(kNodes[i], level == 5);
  }
  static constexpr std::uint64_t kPlayouts[] = {50, 300, 1'500, 6'000, 20'000};
  return mcts_level(kPlayouts[i], 0, 0.7);
}

}  // namespace plateau::ai
