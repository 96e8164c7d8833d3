#pragma once
// A game (DESIGN.md §2): an immutable description created by name with options, e.g.
// `bohnduell(supply=20)`. It knows its seats, its option schema with defaults, and makes states.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/bot_level.h"
#include "core/options.h"
#include "core/state.h"

namespace plateau {

// What a registered game is, independent of options.
struct GameInfo {
  std::string name;         // registry name, lower case: "bohnduell"
  std::string title;        // display name: "BohnDuell"
  std::string summary;      // one line
  int min_seats = 2;
  int max_seats = 2;
  std::vector<OptionSpec> options;
  std::vector<OptionPreset> presets;
  // The option that sets the number of seats (an kInt option over min_seats..max_seats), or ""
  // when the game always has min_seats == max_seats seats. Forms ask it first: the seats shown
  // follow it (Biloba: "players").
  std::string seat_count_option;
  // The table option that says who sits in game seat 0, which moves first in every state, or
  // "" when the table seats people in the order they sat down. Its values are "random" or a
  // table seat number 1..num_seats (BohnDuell: "start", specs/bohnduell.md §2). Game::first_seat
  // reads it; the table asks that, never the option by name.
  std::string seat_order_option;
  // Names of the game's own built-in players (State::builtin_player_move), e.g. Biloba's
  // replica of the original computer player "classic"; bots of these names play only here.
  std::vector<std::string> builtin_players;
};

// How a record writes its move text (DESIGN.md §3 and each game's notation section).
enum class RecordStyle {
  kNumbered,       // "1. H11 2. J12" (Phutball, pbmserv ply numbers)
  kSeatPrefixed,   // "A:S4 B:S1 A:pass" (BohnDuell, Biloba)
};

class Game : public std::enable_shared_from_this<Game> {
 public:
  virtual ~Game() = default;

  virtual const GameInfo& info() const = 0;
  const std::string& name() const { return info().name; }
  // The validated options this game was created with (every option, canonical values).
  virtual const OptionValues& options() const = 0;
  // Non-default options as "name=value,..." ("" for all defaults).
  std::string options_string() const { return format_options(options(), info().options); }
  // Canonical spec: "bohnduell" or "phutball(handicap=2)"; make_game(spec()) recreates it.
  std::string spec() const {
    std::string opts = options_string();
    return opts.empty() ? name() : name() + "(" + opts + ")";
  }

  // Number of seats with these options.
  virtual int num_seats() const = 0;
  // Short seat label used in records and print-outs ("A", "O"), and a display name ("Orange").
  virtual std::string seat_label(int seat) const = 0;
  virtual std::string seat_name(int seat) const = 0;
  virtual RecordStyle record_style() const = 0;
  // Whether a game with these options may change ratings (the server still requires accounts
  // or CPU levels in every seat and a rated start). Default: two-player games are rated. A game
  // whose spec rates only some option values overrides it (Phutball: specs/phutball.md §2.3).
  virtual bool rated() const { return num_seats() == 2; }

  // Which table seat (0-based) takes game seat 0 when a game starts: the value of the
  // info().seat_order_option — "random" draws it as `random % num_seats()`, a number N names
  // table seat N-1 — and 0 for a game without one. The other seats follow in table order
  // (game seat g is table seat (first + g) % num_seats()).
  int first_seat(std::uint64_t random) const;

  // The bot ladder of this game with these options (DESIGN.md §4): levels 1 to 5, in order,
  // exactly five entries; src/ai/levels.h turns a rung into a search. Empty (the default): the
  // generic MCTS ladder of src/ai/levels.cpp.
  virtual std::vector<BotLevel> bot_ladder() const { return {}; }

  // The start position.
  virtual std::unique_ptr<State> initial_state() const = 0;
  // Inverse of State::serialize(); throws RuleError naming what is wrong with `text`.
  virtual std::unique_ptr<State> parse_state(std::string_view text) const = 0;
};

}  // namespace plateau
