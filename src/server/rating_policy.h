#pragma once
// Which finished games change ratings. Ratings exist per game for two-player games whose seats
// are all accounts or CPU levels (no guests), started as rated (`/start`, or a challenge).
// Some games rate only some option values: the game says so (Game::rated()).
#include "core/game.h"

namespace plateau::server {

// True if a game created with these options may be rated: two seats and Game::rated()
// (Phutball: only handicaps 0 and +0.5, specs/phutball.md §2.3).
bool options_are_rated(const Game& game);

}  // namespace plateau::server
