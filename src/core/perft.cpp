#include "core/perft.h"

#include <vector>

namespace plateau {

std::uint64_t perft(const State& state, int depth) {
  if (depth == 0) return 1;
  std::vector<Move> moves = state.legal_moves();
  if (depth == 1) return moves.size();  // bulk counting at the frontier
  std::uint64_t total = 0;
  for (const Move& move : moves) {
    auto child = state.clone();
    child->apply(move);
    total += perft(*child, depth - 1);
  }
  return total;
}

}  // namespace plateau
