#pragma once
// Bots: something that picks a move for the seat to move (DESIGN.md §4). A bot is a search plus
// settings: `random`, `greedy` (best immediate evaluation), levels `1`..`5` (per-game searches
// of fixed budgets, see levels.h), and `classic` where a game provides a replica of an
// original program's computer player.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ai/limits.h"
#include "ai/search_result.h"
#include "core/state.h"

namespace plateau {

class Bot {
 public:
  virtual ~Bot() = default;
  // The bot's name as given to make_bot, lower case ("random", "3").
  virtual std::string name() const = 0;
  // A move for the seat to move; `state` must not be terminal. Deterministic for a given seed
  // and sequence of calls (unless a movetime cap cuts a search short).
  virtual Move choose_move(const State& state) = 0;
  // The move with the bot's evaluation and expected line (plateau analyse). Default: the move
  // of choose_move with no evaluation.
  virtual ai::SearchResult analyse(const State& state) {
    ai::SearchResult r;
    r.best = choose_move(state);
    r.pv = {r.best};
    return r;
  }
};

struct BotOptions {
  std::uint64_t seed = 0;
  // Wall-clock cap per move in milliseconds (0 = none): the bot answers within it plus 50 ms.
  std::int64_t movetime_ms = 0;
  // Clock for the cap (default: the steady clock); tests inject their own.
  ai::Clock clock;
};

// Creates a bot by name: "random" (uniform over the distinct resulting positions, or a random
// walk over step input where those are too many), "greedy", "1".."5" (also
// "level1".."level5"), "classic". Every bot but "classic" works within the bounds of
// ai/limits.h on any position and honours `movetime_ms`. Throws OptionError listing the accepted names for anything
// else.
std::unique_ptr<Bot> make_bot(std::string_view name, std::uint64_t seed);
std::unique_ptr<Bot> make_bot(std::string_view name, const BotOptions& options);

// True if `name` is a bot make_bot accepts.
bool is_bot_name(std::string_view name);

// The accepted bot names, for messages: "random, greedy, classic, 1, 2, 3, 4, 5".
std::string bot_names();

// True if `name` is a bot that plays `game`: random, greedy, 1..5 for every game; a game's own
// player (GameInfo::builtin_players, e.g. Biloba's `classic`) only for that game.
bool is_bot_for(std::string_view name, const Game& game);

// The bots that play `game`, for messages: "random, greedy, 1, 2, 3, 4, 5 (or level1..level5)",
// with its own players after greedy ("random, greedy, classic, 1, ...").
std::string bot_names_for(const Game& game);

}  // namespace plateau
