#pragma once
// The threat test of the classic player (biloba_classic.h, is_threatened / threatened_count,
// specs/biloba.md §14) on bitboards (biloba_bits.h): the same count for a whole colour in a few
// dozen whole-board shifts instead of a loop over pawns, lines and neighbours. For evaluation
// functions that count threatened pawns at every node; biloba_threats_test.cpp checks it equals
// threatened_count on random positions of 2, 3 and 4 players.
#include "games/biloba/biloba_bits.h"
#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

// The number of pawns of `colour` for which is_threatened(pos, square) holds: a pawn X with an
// enemy pawn S (colour e) on one side and, on the opposite side, a square T (in the grid, not
// the centre) that holds a pawn of e, or holds no pawn (decorative cells included) and has a
// neighbour of colour e, or is next to an open centre that has a neighbour of colour e.
int threatened_count_fast(const Position& pos, int colour);

// The squares X (whatever they hold) that colour e threatens as above: S = X + d a pawn of e and
// T = X − d a square completing the sandwich for e. The threatened pawns of `colour` are its
// pawns in the union of threat_squares over the other colours e. Empty set when e has no pawn.
Bits threat_squares(const CellSets& sets, int e);
// The same given next_to[d] = reaching_by<d>(sets.colour[e]) (the squares X with a pawn of e
// on X + d), which the evaluation also needs for its flanks.
Bits threat_squares(const CellSets& sets, int e, const std::array<Bits, kDirections>& next_to);

}  // namespace plateau::biloba
