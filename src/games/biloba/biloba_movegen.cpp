#include "games/biloba/biloba_movegen.h"

namespace plateau::biloba {

bool start_capture_pending(const Position& pos, int colour) {
  // Every sandwich P–S–T is seen from one of its flankers in one of the directions 0..3
  // (from the other flanker it lies in the opposite direction 7 - d), so half the lines do.
  // Pawns never stand on the centre between turns, so P is never e5.
  for (int sq = 0; sq < kSquares; ++sq) {
    if (pos.cell[sq] != colour) continue;
    for (int d = 0; d < kDirections / 2; ++d) {
      const int s = neighbour(sq, d);
      if (s < 0 || pos.cell[s] >= kMaxColours || pos.cell[s] == colour) continue;
      const int t = beyond(sq, d);
      if (t >= 0 && t != kCentre && pos.cell[t] == colour) return true;
    }
  }
  return false;
}

TurnBoard::TurnBoard(const Position& pos, int colour)
    : own(cells_equal(pos.cell, static_cast<std::uint8_t>(colour))),
      empty(cells_equal(pos.cell, kEmpty)) {
  // Every cell is a pawn, empty or a wall.
  occupied = ~(empty | cells_equal(pos.cell, kWall)) & ((Bits{1} << kSquares) - 1);
  const Bits enemy = occupied & ~own;
  for (int d = 0; d < kDirections; ++d) {
    // X with an enemy pawn one square and an own pawn two squares away in direction d.
    const Bits flanked = reaching(enemy, d, 1) & reaching(own, d, 2);
    if (d < kDirections / 2 && (flanked & own) != 0) sandwich_now = true;
    for (Bits a = flanked & empty; a != 0; a &= a - 1) {
      arrivals[lowest(a)] |= static_cast<std::uint8_t>(1u << d);
    }
  }
}

bool plain_turn_start(const Position& pos, const TurnBoard& board) {
  const int p = pos.to_move;
  // (A pawn on e5, which no position between turns has, is left to the Turn as well.)
  if (pos.count[p] == 0 || pos.cell[kCentre] != kEmpty || board.sandwich_now ||
      game_ended(pos)) {
    return false;
  }
  return pos.count[p] > 2 || can_eat_soon(pos, p);
}

}  // namespace plateau::biloba
