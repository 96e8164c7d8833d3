#pragma once
// perft: the number of distinct move sequences of `depth` plies from a position (leaf count),
// the correctness number every move generator is pinned by. Counts legal_moves(), so Phutball
// jump paths count one each (specs/phutball.md §13.1).
#include <cstdint>

#include "core/state.h"

namespace plateau {

// Leaf count at exactly `depth` plies (depth 0 gives 1). Sequences that end the game early are
// not counted at deeper plies (a finished game has no moves).
std::uint64_t perft(const State& state, int depth);

}  // namespace plateau
