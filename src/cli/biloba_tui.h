#pragma once
// The terminal user interface of the `biloba` command (specs/biloba.md §15 adapted to a text
// terminal): help pages, the board, and a person's clicks typed as squares or whole turns.
#include <functional>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "games/biloba/biloba_clicks.h"
#include "compat/biloba/click_game.h"

namespace plateau::cli::biloba_tui {

// The six help pages (1-based); an out-of-range page gives page 1.
int help_page_count();
std::string help_page(int page);

// The §8 board of the machine now, with "Up to <name>" and the selection, if any.
std::string board_view(const biloba::ClickMachine& machine, const std::vector<std::string>& names);

// Prints each completed turn ("O: f3-e4/c4-d4") once, with what happened without a click
// ("  Blue takes at the start of the turn (forced)", captures, "  Orange is out"); call from
// GameHooks::on_click. `start` is the board the game started from.
class TurnPrinter {
 public:
  TurnPrinter(std::ostream& out, std::vector<std::string> names, bool boards,
              const biloba::Position& start)
      : out_(out), names_(std::move(names)), boards_(boards), start_(start) {}
  void update(const biloba::ClickMachine& machine);

 private:
  std::ostream& out_;
  std::vector<std::string> names_;
  bool boards_;
  biloba::Position start_;
  std::size_t printed_ = 0;
};

// A person at the terminal. A typed line is split at spaces, '-' and '/' into squares, each
// one click (so "f3-e4/c4-d4" is the four clicks of that turn). Other lines are commands:
// help [N], board, moves, t TEXT (chat, network games), end (end the game), quit.
class HumanInput : public biloba::net::SeatInput {
 public:
  HumanInput(std::istream& in, std::ostream& out, std::vector<std::string> names,
             const biloba::Position& start, std::function<void(const std::string&)> talk = {})
      : in_(in), out_(out), names_(std::move(names)), start_(start), talk_(std::move(talk)) {}
  int next_click(const biloba::ClickMachine& machine) override;

 private:
  std::istream& in_;
  std::ostream& out_;
  std::vector<std::string> names_;
  biloba::Position start_;
  std::function<void(const std::string&)> talk_;
  std::vector<int> queued_;
};

// Why the clicks `squares` fed to `machine` would not play (a click the machine ignores, or
// one that drops the selection, except a lone click on the selected pawn), or nullopt when
// every click acts. The message names the square and what would be accepted.
std::optional<std::string> check_clicks(const biloba::ClickMachine& machine,
                                        const std::vector<int>& squares);

// Squares of a script file or line: names separated by spaces, '-', '/', ',' or newlines;
// '#' starts a comment. Throws plateau::RuleError naming a word that is not a square.
std::vector<int> parse_squares(const std::string& text);

}  // namespace plateau::cli::biloba_tui
