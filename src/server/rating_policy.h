#pragma once
// Which finished games change ratings. Ratings exist per game for two-player games whose seats
// are all accounts or CPU levels (no guests), started as rated (`/start`, or a challenge).
// Some games rate only some option values; that knowledge is a rule of the game's spec and
// belongs in the game: until the core interface can say it, the server reads it from the
// option schema by the conventions below.
#include "core/game.h"

namespace plateau::server {

// True if a game created with these options may be rated:
// * an option named `handicap` (Phutball, specs/phutball.md §2.3): only 0 and 0.5 are rated;
// * otherwise every option set is rated.
bool options_are_rated(const Game& game);

}  // namespace plateau::server
