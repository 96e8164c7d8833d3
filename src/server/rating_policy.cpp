#include "server/rating_policy.h"

namespace plateau::server {

bool options_are_rated(const Game& game) { return game.num_seats() == 2 && game.rated(); }

}  // namespace plateau::server
