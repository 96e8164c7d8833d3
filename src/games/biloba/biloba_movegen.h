#pragma once
// Fast turn generation for Biloba (specs/biloba.md §3–§5), the engine's hot path. It lists the
// same turns in the same order as walking a Turn (for_each_turn), but most turns never touch
// the Turn machine: a turn that starts without forced captures or an elimination (§5.2) and
// whose move sandwiches nothing is just its move body {from, to} or {from, e5, exit}, found from
// the board read as bitboards (biloba_bits.h: destinations as sets, already in ascending order)
// and one table lookup telling whether the arrival square sandwiches something. Only the rest
// (turn-start captures, eliminations, passes, moves that capture and their refill choices,
// §4.2) is handed to a Turn, made once per position at its first choice and only if needed.
// Tests: biloba_movegen_test.cpp compares every list with the Turn walk on random games.
#include <cstring>
#include <initializer_list>
#include <optional>
#include <vector>

#include "games/biloba/biloba_bits.h"
#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

// The board of one turn as sets of squares (biloba_bits.h), for the seat to move: its pawns,
// every pawn, the empty squares; and where a pawn of the seat arriving by its move would
// sandwich something (§4.1): arrivals[A] has bit d when A–S–T is a line in direction d with an
// enemy pawn S and a pawn T of the seat. A move body from → A captures iff such a T other than
// `from` exists (the vacated `from` no longer flanks; a vacated square cannot make a sandwich,
// and the arriving pawn can only be a flanker, so nothing else changes). T is never the centre,
// which is empty between turns, as A is never the centre at the end of a move.
struct TurnBoard {
  Bits own = 0, occupied = 0, empty = 0;
  std::array<std::uint8_t, kSquares> arrivals{};
  bool sandwich_now = false;  // some P–S–T of the seat stands: the turn starts with captures

  TurnBoard(const Position& pos, int colour);
  bool captures(int from, int to) const { return (arrivals[to] & ~two_away(to, from)) != 0; }
};

// True when the turn of pos.to_move starts plainly (§5.2): the game has not ended, the seat has
// pawns, nothing is sandwiched at the start and the elimination test (≤ 2 pawns) is passed.
// Such a turn goes straight to the choice of a pawn, if the seat has a legal move.
// `board` is TurnBoard(pos, pos.to_move).
bool plain_turn_start(const Position& pos, const TurnBoard& board);

// True when a pawn of `colour` standing on `square` of `cell` sandwiches an enemy pawn with
// another pawn of `colour` (§4.1: P–S–T, T not the centre). `cell` is the board after the move.
inline bool sandwiches(const std::array<std::uint8_t, kSquares>& cell, int square, int colour) {
  return sandwich_directions(cell, square, colour) != 0;
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

// Appends the turn token of a move body alone to `moves`: {from, to}, or {from, kCentre, exit}
// when exit >= 0 (built in place: no temporary Move to copy).
inline void push_body(std::vector<Move>& moves, int from, int to, int exit) {
  // One range construction (a push_back each is an out-of-line call of the small vector). The
  // codes go through one integer so that the list is written by one store: written code by
  // code, the copy that reads them back as one word stalls on store forwarding.
  const auto packed = static_cast<std::uint64_t>(from) | static_cast<std::uint64_t>(to) << 16 |
                      static_cast<std::uint64_t>(exit < 0 ? 0 : exit) << 32;
  std::array<Move::Code, 4> c;
  std::memcpy(c.data(), &packed, sizeof packed);
  if (exit < 0) {
    moves.emplace_back(std::initializer_list<Move::Code>{c[0], c[1]});
  } else {
    moves.emplace_back(std::initializer_list<Move::Code>{c[0], c[1], c[2]});
  }
}

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
  const TurnBoard board(pos, p);
  if (!plain_turn_start(pos, board)) {
    choices.walk(Turn(pos, pass_when_stuck), full);
    return;
  }
  // Steps go to empty neighbours, e5 only when open (§3.3); a jump needs a pawn to jump and an
  // empty landing that is not e5, and goes only in the colour's directions (§3.2). jumpers[d]:
  // the pawns that can jump in direction d.
  const Bits centre = bit(kCentre);
  const Bits step_to = (board.empty & neighbours_of(kCentre)) != 0 ? board.empty : board.empty & ~centre;
  const Bits land = board.empty & ~centre;
  const std::uint8_t jumps = jump_directions(pos.players, p);
  std::array<Bits, kDirections> jumpers{};
  Bits any_jumper = 0;
  for_each_direction([&](auto d) {
    if (!(jumps & (1u << d))) return;
    jumpers[d] = board.own & reaching_by<d>(board.occupied) & reaching_by<d, 2>(land);
    any_jumper |= jumpers[d];
  });
  std::optional<Turn> start;  // the Turn at its first choice, made when a move captures
  auto through_turn = [&](int from, int to, int exit) {
    if (!start) start.emplace(Turn::at_first_choice(pos, pass_when_stuck));
    Turn t = *start;
    t.choose(from);
    t.choose(to);
    if (exit >= 0) t.choose(exit);
    choices.walk(t, full);
  };
  int pawn = 0;  // pawns with a destination so far: the select choice's alternative index
  for (Bits pawns = board.own; pawns != 0; pawns &= pawns - 1) {
    const int from = lowest(pawns);
    Bits dest = neighbours_of(from) & step_to;
    if (any_jumper & bit(from)) {
      for (int d = 0; d < kDirections; ++d) {
        if (jumpers[d] & bit(from)) dest |= bit(beyond(from, d));
      }
    }
    if (dest == 0) continue;
    if (!choices.next(pawn++)) return;
    // Ascending squares, the order in which a Turn offers destinations.
    int j = 0;
    for (; dest != 0; dest &= dest - 1) {
      if (!choices.next(j++)) break;
      const int to = lowest(dest);
      if (to != kCentre) {
        if (board.captures(from, to)) {
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
        if (exit == from || pos.cell[exit] != kEmpty) continue;
        if (!choices.next(k++)) break;
        if (board.captures(from, exit)) {
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
