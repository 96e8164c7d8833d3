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

ArrivalCaptures::ArrivalCaptures(const Position& pos, int colour) {
  for (int t = 0; t < kSquares; ++t) {
    if (pos.cell[t] != colour) continue;
    for (int d = 0; d < kDirections; ++d) {
      const int s = neighbour(t, d);
      if (s < 0 || pos.cell[s] >= kMaxColours || pos.cell[s] == colour) continue;
      const int a = beyond(t, d);
      if (a < 0) continue;
      if (pos.cell[a] == kEmpty) {
        ++flankers[a];
        flanker[a] = static_cast<std::uint8_t>(t);
      } else if (pos.cell[a] == colour) {
        sandwich_now = true;
      }
    }
  }
}

bool plain_turn_start(const Position& pos, const ArrivalCaptures& arrivals) {
  const int p = pos.to_move;
  // (A pawn on e5, which no position between turns has, is left to the Turn as well.)
  if (pos.count[p] == 0 || pos.cell[kCentre] != kEmpty || arrivals.sandwich_now ||
      game_ended(pos)) {
    return false;
  }
  return pos.count[p] > 2 || can_eat_soon(pos, p);
}

}  // namespace plateau::biloba
