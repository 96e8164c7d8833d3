#pragma once
// The `analyse` answer (issue 17 item 7; docs/PROTOCOL.md "analysis"): a bot of a ladder level
// searches one position of a table and its result becomes an `analysis` event. The lobby
// (lobby_analyse.cpp) checks who may ask and runs analyse_position() on the workers pool.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/game.h"
#include "core/state.h"
#include "server/event.h"

namespace plateau::server {

// The level when `analyse` names none: fast (a few ms to ~50 ms on every game).
inline constexpr std::string_view kDefaultAnalysisLevel = "3";
// The longest principal line an answer carries (moves).
inline constexpr std::size_t kMaxAnalysisLine = 12;

// The canonical level of `word` for `game` ("3" for "3" or "level3"; a game's own player, e.g.
// Biloba's "classic"), or throws CommandError naming the accepted ones:
// "bad level 'x' for phutball: levels are 1 to 5".
std::string analysis_level(std::string_view word, const Game& game);

struct AnalysisRequest {
  std::shared_ptr<const State> position;  // not terminal
  std::string game;                       // "bohnduell"
  int board = 0;
  int ply = 0;                      // the plies played before `position`
  std::string level;                // canonical (analysis_level)
  std::int64_t movetime_ms = 1000;  // the search's cap (BotOptions::movetime_ms)
};

// Searches `r.position` with a bot of `r.level` (seed 0: the same position gives the same
// answer) and describes the result as an `analysis` event:
//   game, board, ply, level, seat (label of the side to move),
//   score  the bot's evaluation from the side to move's view, in `unit` ("expected return":
//          0 a sure loss, 1 a sure win; null for a player without an evaluation, `classic`),
//   bar    the same in [-1, 1] (2 × score − 1; 0 without a score), for an evaluation bar,
//   exact  the value is proven; exact_value the game's exact value when a solver gave it,
//   best   the move in notation, line [{ply, seat, move, position}] (at most kMaxAnalysisLine),
//   line_text as the records write it, nodes (the search's nodes or playouts), ms (wall time),
//   text   "Analysis of bohnduell 12 at ply 7 (level 3): A to move; best S4; score 0.679 ...".
// Throws what the bot throws (std::exception) on a failure.
Event analyse_position(const AnalysisRequest& r);

}  // namespace plateau::server
