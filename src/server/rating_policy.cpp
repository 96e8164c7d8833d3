#include "server/rating_policy.h"

namespace plateau::server {

bool options_are_rated(const Game& game) {
  if (game.num_seats() != 2) return false;
  for (const auto& [name, value] : game.options().items()) {
    if (name == "handicap") return value == "0" || value == "0.5" || value == "+0.5";
  }
  return true;
}

}  // namespace plateau::server
