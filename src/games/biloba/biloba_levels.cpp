// Biloba's bot ladder (DESIGN.md §4, docs/AI.md): alpha-beta with 2 seats, best-reply search
// with 3-4 seats, over pawns and threats (biloba_ai.cpp).
#include "games/biloba/biloba_game.h"

namespace plateau::biloba {

std::vector<BotLevel> BilobaGame::bot_ladder() const {
  static constexpr std::uint64_t kNodes2[] = {100, 800, 4'000, 12'000, 80'000};
  static constexpr std::uint64_t kNodes4[] = {100, 600, 3'000, 10'000, 30'000};
  std::vector<BotLevel> ladder;
  for (int i = 0; i < 5; ++i) {
    ladder.push_back(players_ <= 2
                         ? BotLevel::alpha_beta(kNodes2[i])
                         : BotLevel::alpha_beta(kNodes4[i], BotLevel::Search::kBestReply));
  }
  return ladder;
}

}  // namespace plateau::biloba
