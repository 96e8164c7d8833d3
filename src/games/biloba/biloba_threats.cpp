#include "games/biloba/biloba_threats.h"

#include "games/biloba/biloba_bits.h"

namespace plateau::biloba {

int threatened_count_fast(const Position& pos, int colour) {
  const Bits own = cells_equal(pos.cell, static_cast<std::uint8_t>(colour));
  if (own == 0) return 0;
  const Bits grid = (Bits{1} << kSquares) - 1;
  const Bits empty = cells_equal(pos.cell, kEmpty);
  const Bits no_pawn = empty | cells_equal(pos.cell, kWall);
  const Bits centre = bit(kCentre);
  const Bits ring = neighbours_of(kCentre);  // the 8 neighbours of e5, all playable
  const bool open = (empty & ring) != 0;
  Bits threatened = 0;
  for (int e = 0; e < pos.players; ++e) {
    if (e == colour) continue;
    const Bits enemy = cells_equal(pos.cell, static_cast<std::uint8_t>(e));
    if (enemy == 0) continue;
    Bits near_enemy = 0;  // grid squares (walls included) with a neighbour of colour e
    for (int d = 0; d < kDirections; ++d) near_enemy |= shifted(enemy, d, 1);
    const bool centre_helps = open && (near_enemy & centre) != 0;
    // The squares T that complete the threat from the far side.
    Bits far = enemy | (no_pawn & (near_enemy | (centre_helps ? ring : Bits{0})));
    far &= grid & ~centre;
    for (int d = 0; d < kDirections; ++d) {
      // X with S = X + d an enemy pawn and T = X - d in `far`.
      threatened |= own & reaching(enemy, d, 1) & reaching(far, opposite(d), 1);
    }
  }
  const auto lo = static_cast<std::uint64_t>(threatened);
  const auto hi = static_cast<std::uint64_t>(threatened >> 64);
  return __builtin_popcountll(lo) + __builtin_popcountll(hi);
}

}  // namespace plateau::biloba
