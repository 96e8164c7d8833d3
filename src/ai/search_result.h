#pragma once
// What a search returns: the move, how good it is, and the line it expects.
#include <cstdint>
#include <string>
#include <vector>

#include "core/move.h"

namespace plateau::ai {

struct SearchResult {
  Move best;                     // a move of distinct_moves() of the searched state
  double value = 0.5;            // expected return of the seat to move, in [0, 1]
  std::vector<Move> pv;          // principal line starting with `best` (may be just `best`)
  std::uint64_t iterations = 0;  // playouts (MCTS) or nodes (alpha-beta) spent
  std::uint64_t work = 0;        // positions visited by bounded move lists and win searches
  int depth = 0;                 // deepest completed iteration (alpha-beta), 0 for MCTS
  bool exact = false;            // value proven (a forced win/loss/draw or an exact solver)
  int exact_value = 0;           // the game's exact move value when `exact` came from a solver
  std::string info;              // one line for people: "depth 7, 12345 nodes, 80 ms"
};

}  // namespace plateau::ai
