#pragma once
// A game (DESIGN.md §2): an immutable description created by name with options, e.g.
// `bohnduell(supply=20)`. It knows its seats, its option schema with defaults, and makes states.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

  // The start position.
  virtual std::unique_ptr<State> initial_state() const = 0;
  // Inverse of State::serialize(); throws RuleError naming what is wrong with `text`.
  virtual std::unique_ptr<State> parse_state(std::string_view text) const = 0;
};

}  // namespace plateau
