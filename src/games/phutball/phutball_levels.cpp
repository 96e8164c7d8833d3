// Phutball's bot ladder (DESIGN.md §4, docs/AI.md): alpha-beta over the 24 best-ordered moves
// (jumps, placements near the ball), with the exact win-in-one search at every node
// (phutball_ai.cpp).
#include "games/phutball/phutball_game.h"

namespace plateau::phutball {

std::vector<BotLevel> PhutballGame::bot_ladder() const {
  static constexpr std::uint64_t kNodes[] = {50, 400, 2'000, 8'000, 25'000};
  std::vector<BotLevel> ladder;
  for (std::uint64_t nodes : kNodes) {
    BotLevel level = BotLevel::alpha_beta(nodes);
    level.max_moves = 24;
    ladder.push_back(level);
  }
  return ladder;
}

}  // namespace plateau::phutball
