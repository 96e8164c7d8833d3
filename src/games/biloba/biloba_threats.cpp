#include "games/biloba/biloba_threats.h"

namespace plateau::biloba {

Bits threat_squares(const CellSets& sets, int e) {
  if (sets.colour[e] == 0) return 0;
  std::array<Bits, kDirections> next_to;
  for_each_direction([&](auto d) { next_to[d] = reaching_by<d>(sets.colour[e]); });
  return threat_squares(sets, e, next_to);
}

Bits threat_squares(const CellSets& sets, int e, const std::array<Bits, kDirections>& next_to) {
  const Bits enemy = sets.colour[e];
  if (enemy == 0) return 0;
  const Bits grid = (Bits{1} << kSquares) - 1;
  const Bits no_pawn = sets.empty | sets.wall;
  const Bits centre = bit(kCentre);
  const Bits ring = neighbours_of(kCentre);  // the 8 neighbours of e5, all playable
  const bool open = (sets.empty & ring) != 0;
  // Grid squares (walls included) with a neighbour of colour e: the union over the directions
  // of the squares next to a pawn of e.
  Bits near_enemy = 0;
  for (int d = 0; d < kDirections; ++d) near_enemy |= next_to[d];
  const bool centre_helps = open && (near_enemy & centre) != 0;
  // The squares T that complete the threat from the far side.
  Bits far = enemy | (no_pawn & (near_enemy | (centre_helps ? ring : Bits{0})));
  far &= grid & ~centre;
  Bits threatened = 0;
  for_each_direction([&](auto d) {
    // X with S = X + d an enemy pawn and T = X - d in `far`.
    threatened |= next_to[d] & reaching_by<7 - d>(far);
  });
  return threatened;
}

int threatened_count_fast(const Position& pos, int colour) {
  const CellSets sets = cell_sets(pos.cell);
  const Bits own = sets.colour[colour];
  if (own == 0) return 0;
  Bits threatened = 0;
  for (int e = 0; e < pos.players; ++e) {
    if (e != colour) threatened |= threat_squares(sets, e);
  }
  return count_of(own & threatened);
}

}  // namespace plateau::biloba
