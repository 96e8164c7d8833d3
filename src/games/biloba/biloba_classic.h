#pragma once
// The `classic` bot (specs/biloba.md §14): biloba 0.9.3's own computer player, a greedy one-move
// heuristic with a random fallback, replicated step by step: attack now, defend now, attack
// later, defend again, random pawn; then its clicks, which may be wasted (an occupied entry of the
// candidate list deselects and the bot plans again; a random centre exit may be the forbidden
// origin and the bot is asked again). Plateau plays whole turns, so the clicks drive a Turn and
// only the completed turn is returned.
#include <vector>

#include "core/move.h"
#include "core/random.h"
#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

// The candidate list of the pawn on `from` (§3.1), occupied entries included: empty step
// targets (the centre only when open), and for each allowed jump the jumped square then the
// landing.
std::vector<int> candidate_list(const Position& pos, int from);

// §14 step 3: the own pawn on `square` has an adjacent enemy S such that the square T on the
// other side of it from S holds a pawn of S's colour, or is empty (a decorative cell counts)
// and adjacent to a pawn of S's colour, or is next to an open centre with a pawn of S's colour
// next to the centre (canEatSoon's clause b, §6.2).
bool is_threatened(const Position& pos, int square);
// Own pawns of `colour` that are threatened.
int threatened_count(const Position& pos, int colour);

// The classic bot's full turn for the seat to move of `pos` (which must have a turn to play:
// the game not over). `pass_when_stuck` as in Turn. Randomness from `rng`.
Move classic_turn(const Position& pos, bool pass_when_stuck, Rng& rng);

}  // namespace plateau::biloba
