#pragma once
// The positions the AI benchmarks search (bench/ai_bench.cpp), shared with the test that pins
// those searches' trees (tests/ai/search_tree_test.cpp): the start of `spec` after `plies` moves
// of a fixed random game (uniform over legal_moves(), seed 12345), a typical middle game.
#include <memory>

#include "core/random.h"
#include "core/registry.h"
#include "games/register.h"

namespace plateau {

inline std::unique_ptr<State> middle_position(const char* spec, int plies) {
  register_builtin_games();
  auto s = make_game(spec)->initial_state();
  Rng rng(12345);
  for (int i = 0; i < plies && !s->is_terminal(); ++i) {
    auto moves = s->legal_moves();
    s->apply(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
  }
  return s;
}

}  // namespace plateau
