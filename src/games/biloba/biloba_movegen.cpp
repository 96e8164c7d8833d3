#include "games/biloba/biloba_movegen.h"

namespace plateau::biloba {

TurnBoard::TurnBoard(const Position& pos, int colour)
    : own(cells_equal(pos.cell, static_cast<std::uint8_t>(colour))),
      empty(cells_equal(pos.cell, kEmpty)) {
  // Every cell is a pawn, empty or a wall.
  occupied = ~(empty | cells_equal(pos.cell, kWall)) & ((Bits{1} << kSquares) - 1);
  const Bits enemy = occupied & ~own;
  for_each_direction([&](auto d) {
    // X with an enemy pawn one square and an own pawn two squares away in direction d.
    const Bits flanked = reaching_by<d>(enemy) & reaching_by<d, 2>(own);
    if (d < kDirections / 2 && (flanked & own) != 0) sandwich_now = true;
    for_each_square(flanked & empty,
                    [&](int a) { arrivals[a] |= static_cast<std::uint8_t>(1u << d); });
  });
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
