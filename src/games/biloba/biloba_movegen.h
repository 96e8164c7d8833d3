#pragma once
// Fast turn generation for Biloba (specs/biloba.md §3–§5), the engine's hot path. It lists the
// same turns in the same order as walking a Turn (for_each_turn), but most turns never touch
// the Turn machine: a turn that starts without forced captures or an elimination (§5.2) and
// whose move sandwiches nothing is just its move body {from, to} or {from, e5, exit}, found from
// the board with the line tables of biloba_board.h and one O(8) capture test at the arrival
// square. Only the rest (turn-start captures, eliminations, passes, moves that capture and
// their refill choices, §4.2) is handed to a Turn, started once per position and only if needed.
// Tests: biloba_movegen_test.cpp compares every list with the Turn walk on random games.
#include <optional>

#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

// True when a sandwich P–S–T of `colour` (§4.1) stands on the board: the turn of `colour` would
// start with forced captures. Does not look at whether the game has ended.
bool start_capture_pending(const Position& pos, int colour);

// Where a pawn of `colour` arriving by its move would sandwich something (§4.1), from the board
// before the move: for every empty square A, the pawns T of `colour` such that A–S–T is a line
// with an enemy pawn S in the middle. A move body from → A captures iff such a T other than
// `from` exists (the vacated `from` no longer flanks; a vacated square cannot make a sandwich,
// and the arriving pawn can only be a flanker, so nothing else changes). T is never the centre,
// which is empty between turns, as A is never the centre at the end of a move.
struct ArrivalCaptures {
  std::array<std::uint8_t, kSquares> flankers{};  // how many such T (at most 8)
  std::array<std::uint8_t, kSquares> flanker{};   // one of them, when there is one
  bool sandwich_now = false;  // some P–S–T of `colour` already stands (start_capture_pending)

  ArrivalCaptures(const Position& pos, int colour);
  bool captures(int from, int to) const {
    return flankers[to] > 1 || (flankers[to] == 1 && flanker[to] != from);
  }
};

// True when the turn of pos.to_move starts plainly (§5.2): the game has not ended, the seat has
// pawns, nothing is sandwiched at the start and the elimination test (≤ 2 pawns) is passed.
// Such a turn goes straight to the choice of a pawn, if the seat has a legal move.
// `arrivals` is ArrivalCaptures(pos, pos.to_move).
bool plain_turn_start(const Position& pos, const ArrivalCaptures& arrivals);

// True when a pawn of `colour` standing on `square` of `cell` sandwiches an enemy pawn with
// another pawn of `colour` (§4.1: P–S–T, T not the centre). `cell` is the board after the move.
inline bool sandwiches(const std::array<std::uint8_t, kSquares>& cell, int square, int colour) {
  for (int d = 0; d < kDirections; ++d) {
    const int s = neighbour(square, d);
    if (s < 0 || cell[s] >= kMaxColours || cell[s] == colour) continue;
    const int t = beyond(square, d);
    if (t >= 0 && t != kCentre && cell[t] == colour) return true;
  }
  return false;
}

// True when the move body from → to (to = the exit square of a centre walk) captures: the board
// after it, `from` emptied and `to` taken, has a sandwich through `to` (the only pawn that
// arrived, so the only possible flanker of a new sandwich).
inline bool body_captures(std::array<std::uint8_t, kSquares>& cell, int from, int to, int colour) {
  const std::uint8_t was_from = cell[from];
  cell[from] = kEmpty;
  cell[to] = static_cast<std::uint8_t>(colour);
  const bool found = sandwiches(cell, to, colour);
  cell[to] = kEmpty;
  cell[from] = was_from;
  return found;
}

// The turn token of a move body alone: {from, to}, or {from, kCentre, exit} when exit >= 0.
inline Move body_token(int from, int to, int exit) {
  const auto f = static_cast<Move::Code>(from), t = static_cast<Move::Code>(to);
  return exit < 0 ? Move{f, t} : Move{f, t, static_cast<Move::Code>(exit)};
}

namespace movegen_detail {

// A pawn's candidates (§3.1) sorted by landing square, the order in which a Turn offers
// destinations: direction d as a jump (offset 2·δ) or a step (offset δ), where the square
// offsets of directions 0..7 are -10 -1 +8 -9 +9 -8 +1 +10.
struct Candidate {
  std::uint8_t direction;
  bool jump;
};
inline constexpr std::array<Candidate, 16> kByLanding = {{
    {0, true}, {3, true}, {5, true},     // -20 -18 -16
    {0, false}, {3, false}, {5, false},  // -10 -9 -8
    {1, true}, {1, false},               // -2 -1
    {6, false}, {6, true},               // +1 +2
    {2, false}, {4, false}, {7, false},  // +8 +9 +10
    {2, true}, {4, true}, {7, true},     // +16 +18 +20
}};

// Legal destinations of the pawn of `colour` on `from` (§3.1), ascending. `centre_open` is
// §3.3's test on this board.
inline int sorted_destinations(const std::array<std::uint8_t, kSquares>& cell, int from,
                               std::uint8_t jumps, bool centre_open,
                               std::array<std::uint8_t, 8>& out) {
  int n = 0;
  for (const Candidate c : kByLanding) {
    const int nb = neighbour(from, c.direction);
    if (nb < 0) continue;
    if (!c.jump) {
      if (cell[nb] == kEmpty && (nb != kCentre || centre_open)) out[n++] = static_cast<std::uint8_t>(nb);
      continue;
    }
    if (cell[nb] >= kMaxColours || !(jumps & (1u << c.direction))) continue;  // jumps a pawn
    const int landing = beyond(from, c.direction);
    if (landing >= 0 && landing != kCentre && cell[landing] == kEmpty) {
      out[n++] = static_cast<std::uint8_t>(landing);
    }
  }
  return n;
}

}  // namespace movegen_detail

// Calls, for every complete turn of pos.to_move in for_each_turn's order (a pawn, then its
// destination, then the centre exit, then refills; squares ascending at each choice, exits in
// direction order), either
//   quiet(from, to, exit): a turn that is only a move body capturing nothing; exit is -1, or the
//     exit square of the centre walk {from, kCentre, exit};
//   full(const Turn&): any other turn, as the finished Turn.
// `choices` decides which alternatives are tried (AllChoices, or BoundedChoices to spend and
// stop exactly as for_each_turn_bounded). Precondition: the game has not ended and the seat
// to move has pawns (as for a Turn).
template <class Choices, class Quiet, class Full>
void for_each_turn_fast(const Position& pos, bool pass_when_stuck, Choices& choices, Quiet&& quiet,
                        Full&& full) {
  const int p = pos.to_move;
  const ArrivalCaptures arrivals(pos, p);
  if (!plain_turn_start(pos, arrivals)) {
    choices.walk(Turn(pos, pass_when_stuck), full);
    return;
  }
  const std::uint8_t jumps = jump_directions(pos.players, p);
  const bool open = centre_open(pos);
  const std::array<std::uint8_t, kSquares>& cell = pos.cell;
  std::optional<Turn> start;  // the Turn at its first choice, made when a move captures
  auto through_turn = [&](int from, int to, int exit) {
    if (!start) start.emplace(Turn::at_first_choice(pos, pass_when_stuck));
    Turn t = *start;
    t.choose(from);
    t.choose(to);
    if (exit >= 0) t.choose(exit);
    choices.walk(t, full);
  };
  std::array<std::uint8_t, 8> dest;
  int pawn = 0;  // pawns with a destination so far: the select choice's alternative index
  for (int from = 0; from < kSquares; ++from) {
    if (pos.cell[from] != p) continue;
    const int n = movegen_detail::sorted_destinations(cell, from, jumps, open, dest);
    if (n == 0) continue;
    if (!choices.next(pawn++)) return;
    for (int j = 0; j < n; ++j) {
      if (!choices.next(j)) break;
      const int to = dest[j];
      if (to != kCentre) {
        if (arrivals.captures(from, to)) {
          through_turn(from, to, -1);
        } else {
          quiet(from, to, -1);
        }
        continue;
      }
      // The centre walk's exits: empty neighbours of e5 but the origin, in direction order.
      int k = 0;
      for (int d = 0; d < kDirections; ++d) {
        const int exit = neighbour(kCentre, d);
        if (exit == from || cell[exit] != kEmpty) continue;
        if (!choices.next(k++)) break;
        if (arrivals.captures(from, exit)) {
          through_turn(from, kCentre, exit);
        } else {
          quiet(from, kCentre, exit);
        }
      }
    }
  }
  if (pawn == 0) choices.walk(Turn(pos, pass_when_stuck), full);  // no legal move: §3.4
}

}  // namespace plateau::biloba
