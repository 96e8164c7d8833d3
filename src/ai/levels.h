#pragma once
// The named, stable bot levels 1-5 (DESIGN.md §4): for each game, which search and how large a
// budget. Budgets are counted in playouts or nodes, never in time, so that the same seed plays
// the same game on any machine and ratings of levels mean something. Level 5 is tuned to think
// at most about 1 s per move on a 2-core machine (docs/AI.md lists the measurements).
#include <cstdint>
#include <string>

#include "ai/alphabeta.h"
#include "ai/mcts.h"

namespace plateau::ai {

enum class Algorithm { kMcts, kAlphaBeta };

struct LevelSpec {
  Algorithm algorithm = Algorithm::kMcts;
  std::uint64_t budget = 1000;  // playouts (MCTS) or nodes (alpha-beta) per move
  MctsOptions mcts;
  AlphaBetaOptions alphabeta;
  std::string description;  // one line for people: "alpha-beta, 100k nodes"
};

inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 5;

// The search of `level` (1..5) for the game named `game_name` played with `num_seats` seats.
// Games without their own table get a generic MCTS ladder. Throws std::out_of_range for a level
// outside 1..5.
LevelSpec level_spec(const std::string& game_name, int num_seats, int level);

}  // namespace plateau::ai
