// BohnDuell's bot ladder (DESIGN.md §4, docs/AI.md): alpha-beta over the store-margin
// evaluation; level 5 plays perfectly (the exact solver first, alpha-beta if it cannot answer).
#include "games/bohnduell/bohnduell_game.h"

namespace plateau::bohnduell {

std::vector<BotLevel> BohnDuellGame::bot_ladder() const {
  static constexpr std::uint64_t kNodes[] = {30, 300, 3'000, 30'000, 300'000};
  std::vector<BotLevel> ladder;
  for (std::uint64_t nodes : kNodes) ladder.push_back(BotLevel::alpha_beta(nodes));
  ladder.back().use_exact = true;
  return ladder;
}

}  // namespace plateau::bohnduell
