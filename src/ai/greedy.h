#pragma once
// The greedy player: the move whose resulting position has the best State::evaluate() for the
// mover (a win this turn first). Ties are broken at random.
#include "ai/search_result.h"
#include "core/random.h"
#include "core/state.h"

namespace plateau::ai {

// `state` must not be terminal.
SearchResult greedy_move(const State& state, Rng& rng);

}  // namespace plateau::ai
