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
  if (game_name == "biloba") {
    // Alpha-beta (2 seats) or best-reply search (3-4 seats) over pawns and threats.
    static constexpr std::uint64_t kNodes2[] = {100, 800, 4'000, 12'000, 40'000};
    static constexpr std::uint64_t kNodes4[] = {100, 600, 3'000, 10'000, 30'000};
    if (num_seats <= 2) return alphabeta_level(kNodes2[i], false);
    LevelSpec spec = alphabeta_level(kNodes4[i], false);
    spec.alphabeta.multi_seat = MultiSeatMode::kBestReply;
    spec.description = "best-reply search, " + std::to_string(kNodes4[i]) + " nodes";
    return spec;
  }
  if (game_name == "phutball") {
    // Alpha-beta over the 24 best-ordered moves (jumps, placements near the ball), with the
    // exact win-in-one search at every node.
    static constexpr std::uint64_t kNodes[] = {50, 400, 2'000, 8'000, 25'000};
    LevelSpec spec = alphabeta_level(kNodes[i], false);
    spec.alphabeta.max_moves = 24;
    spec.description += ", 24 moves per node";
    return spec;
  }
  static constexpr std::uint64_t kPlayouts[] = {50, 300, 1'500, 6'000, 20'000};
  return mcts_level(kPlayouts[i], 0, 0.7);
}

}  // namespace plateau::ai
