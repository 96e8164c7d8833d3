#pragma once
// Bot matches (DESIGN.md §4, `plateau match`): many games of one game between bots, with the
// seats rotated from game to game, optionally on several threads. Each game's bots are seeded
// from (match seed, game number, seat), so results do not depend on the thread count.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ai/elo.h"
#include "core/game.h"

namespace plateau::ai {

struct GameOutcome;

struct MatchConfig {
  std::shared_ptr<const Game> game;
  std::vector<std::string> bots;  // one bot name per seat (game g seats bots[(s + g) % n] at s)
  int games = 100;
  int threads = 1;
  std::uint64_t seed = 1;
  std::int64_t movetime_ms = 0;  // per-move cap for every bot (0 = none)
  int max_plies = 5000;          // a game still running after this many plies counts as a draw
  // Plies of uniformly random moves before the bots take over (varied openings for bots that
  // are deterministic). The n games of one seat rotation share their opening, so every opening
  // is played from every seat.
  int opening_plies = 0;
  // Called after each finished game with (games finished, games total), from any thread but
  // never concurrently.
  std::function<void(int, int)> progress;
  // Called with each finished game as soon as it ends (same threading guarantee), e.g. to save
  // its record at once so that an interrupted match keeps its games.
  std::function<void(const GameOutcome&)> on_game;
};

struct GameOutcome {
  int index = 0;                       // 0-based game number
  std::vector<std::string> seat_bots;  // bot name at each seat
  std::vector<double> returns;         // per seat; equal shares if the ply cap was hit
  int plies = 0;
  bool finished = true;  // false when stopped by max_plies
  std::string record;    // the game record (core/record.h)
};

struct BotStats {
  std::string name;
  int games = 0;   // seats played (a bot in two seats of one game counts twice)
  int wins = 0;    // return 1
  int draws = 0;   // return strictly between 0 and 1
  int losses = 0;  // return 0
  double points = 0.0;
};

struct MatchResult {
  std::vector<GameOutcome> games;  // in game order
  std::vector<BotStats> stats;     // one per distinct bot name, in order of first appearance
  // With exactly two distinct bot names: the first one's Elo against the second from its
  // per-game pairwise score (every pair of seats held by the two bots: 1 if the first got the
  // larger return, ½ if equal, 0 otherwise; averaged within the game).
  bool has_elo = false;
  EloEstimate elo;
};

// Plays the match. Throws OptionError for an unknown bot name or a bot list whose length is not
// the game's seat count.
MatchResult run_match(const MatchConfig& config);

// Statistics of finished games (used by run_match; exposed for tests).
MatchResult summarize(std::vector<GameOutcome> games);

}  // namespace plateau::ai
