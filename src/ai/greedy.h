#pragma once
// The greedy player: the move whose resulting position has the best State::evaluate() for the
// mover (a win this turn first). Ties are broken at random.
#include <cstddef>

#include "ai/limits.h"
#include "ai/search_result.h"
#include "core/random.h"
#include "core/state.h"

namespace plateau::ai {

// Positions greedy evaluates at most: when a (bounded) move list is longer, the first ones in
// the game's order_moves() order. Ordinary positions have fewer moves (Phutball about 280,
// Biloba a few hundred), so the cap never changes their play.
inline constexpr std::size_t kGreedyMaxEvaluations = 1000;

// `state` must not be terminal. The win search and the move list are bounded as the root of a
// search (limits.h), and `limits.movetime_ms` (if any) stops the evaluations: the best move
// seen so far is returned. `limits.budget` is not used.
SearchResult greedy_move(const State& state, Rng& rng, const SearchLimits& limits = {});

}  // namespace plateau::ai
