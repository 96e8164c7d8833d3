#pragma once
// The named, stable bot levels 1-5 (DESIGN.md §4): for a game, which search and how large a
// budget. Each game lists its own ladder in its folder (Game::bot_ladder, core/bot_level.h);
// this file turns a rung into the options of a search and gives games without a ladder a
// generic MCTS one. It never names a game. Level 5 is tuned to think at most about 1 s per move
// on a 2-core machine (docs/AI.md lists the measurements).
#include <cstdint>
#include <string>

#include "ai/alphabeta.h"
#include "ai/mcts.h"
#include "core/bot_level.h"
#include "core/game.h"

namespace plateau::ai {

enum class Algorithm { kMcts, kAlphaBeta };

struct LevelSpec {
  Algorithm algorithm = Algorithm::kMcts;
  std::uint64_t budget = 1000;  // playouts (MCTS) or nodes (alpha-beta) per move
  MctsOptions mcts;
  AlphaBetaOptions alphabeta;
  std::string description;  // one line for people: "alpha-beta, 100 nodes"
};

inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 5;

// The search options of one rung of a ladder, with its one-line description ("alpha-beta, 800
// nodes", "best-reply search, 600 nodes", "exact solver, else alpha-beta, 300000 nodes",
// "alpha-beta, 50 nodes, 24 moves per node", "MCTS, 50 playouts").
LevelSpec level_spec(const BotLevel& level);

// The search of `level` (1..5) for `game` (with its options: a ladder may depend on the number
// of seats): the game's own ladder (Game::bot_ladder), or the generic MCTS ladder for a game
// without one. Throws std::out_of_range for a level outside 1..5, std::logic_error for a game
// whose ladder does not have exactly five rungs.
LevelSpec level_spec(const Game& game, int level);

}  // namespace plateau::ai
