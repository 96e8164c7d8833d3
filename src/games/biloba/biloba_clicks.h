#pragma once
// The click-level turn machine of specs/biloba.md §5: the original's TURN(p) and REPLACE(p)
// loops fed with raw board clicks, useless ones included. Every peer of a network game (and a
// replay) runs this machine on the same click stream, so it must read every click exactly as
// biloba 0.9.3 does: a click on another own pawn only deselects, clicks on unplayable cells
// inside the grid are valid and ignored, on the centre only a free exit other than the origin
// counts, during refills a click on any pawn restarts the choice, and so on (§5.4).
//
// Turns that need no click (forced captures without a refill to choose, eliminations, passes,
// seats without pawns) run as soon as they come up. The machine records every completed turn
// with its §7.2 token, so a click stream converts to turn tokens; the minimal click sequence of a
// token (State::steps_of) drives the machine to exactly that turn.
#include <optional>
#include <vector>

#include "core/move.h"
#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

// What one click did (for user interfaces and logs).
enum class ClickEffect {
  kIgnored,        // nothing changed (not a square the machine acts on now)
  kSelected,       // an own pawn (or a capturer with a gap, during refills) is now selected
  kDeselected,     // the selection was dropped; a new selection is needed
  kEnteredCentre,  // the pawn stepped onto e5 and must leave it with the next accepted click
  kMoved,          // the move was made (captures, refills to choose or the turn end follow)
  kRefilled,       // a capturer filled a gap
  kGameOver,       // the game has ended: the click is not consumed (§5.1)
};

// A completed turn.
struct ClickTurn {
  int seat = 0;
  Move token;      // the full turn (biloba_notation.h turn_token writes it)
  Position after;  // the board when the turn ended (to_move = the next seat)
  int clicks = 0;  // clicks consumed by this turn, ignored and deselecting ones included
};

class ClickMachine {
 public:
  // Starts at `start` with start.to_move asked first (seats without pawns are passed over).
  // `pass_when_stuck`: true = Plateau's pass (§3.4), false = the original's endless wait, which
  // the original network protocol requires.
  ClickMachine(const Position& start, bool pass_when_stuck);

  // The seat whose click is awaited, or -1 once the game has ended (§6.1).
  int asked() const { return over_ ? -1 : turn_->seat(); }
  bool over() const { return over_; }

  // Feeds one click of the asked seat on cell (x, y), 0 <= x, y <= 8 (clicks outside the
  // grid are never produced by the original; they throw std::out_of_range).
  ClickEffect click(int x, int y);
  ClickEffect click_square(int square);

  // The board now, including a pawn standing on the centre in the middle of a walk.
  const Position& board() const { return over_ ? final_ : turn_->position(); }
  // The selected square (pawn, capturer or the centre during a walk), or -1.
  int selected() const;
  // Completed turns, in order.
  const std::vector<ClickTurn>& turns() const { return turns_; }
  // Clicks consumed by the turn in progress.
  int pending_clicks() const { return clicks_; }

 private:
  void settle();  // records finished turns and starts the next ones until a click is needed

  std::optional<Turn> turn_;  // the turn in progress (none once the game has ended)
  Position final_;            // the board once the game has ended
  bool pass_when_stuck_;
  bool over_ = false;
  int selected_ = -1;  // SELECT_START/R_START chosen square not yet fed to turn_
  int clicks_ = 0;
  std::vector<ClickTurn> turns_;
};

}  // namespace plateau::biloba
