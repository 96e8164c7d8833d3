#pragma once
// Which finished games change ratings. Ratings exist per game for two-player games whose seats
// are all accounts or CPU levels (no guests), started as rated (`/start`, or a challenge).
// Some games rate only some option values: the game says so (Game::rated()).
// A game decided before every seat has moved (resignation, time, a failing CPU player) has no
// result at all and changes no rating (Table::end_without_result, issue 12's consent rule):
// any new way of ending a game early must go through it.
#include "core/game.h"

namespace plateau::server {

// True if a game created with these options may be rated: two seats and Game::rated()
// (Phutball: only handicaps 0 and +0.5, specs/phutball.md §2.3).
bool options_are_rated(const Game& game);

}  // namespace plateau::server
