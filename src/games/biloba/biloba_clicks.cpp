#include "games/biloba/biloba_clicks.h"

#include <stdexcept>

namespace plateau::biloba {

ClickMachine::ClickMachine(const Position& start, bool pass_when_stuck)
    : final_(start), pass_when_stuck_(pass_when_stuck) {
  // The turn loop stops before any turn of a game that has already ended (TV-16).
  if (game_ended(start)) {
    over_ = true;
    return;
  }
  Position pos = start;
  if (pos.count[pos.to_move] == 0) pos.to_move = next_seat(pos, pos.to_move);
  turn_.emplace(pos, pass_when_stuck_);
  settle();
}

int ClickMachine::selected() const {
  if (over_) return -1;
  return turn_->phase() == Turn::Phase::kCentreExit ? kCentre : selected_;
}

void ClickMachine::settle() {
  while (turn_->done()) {
    ClickTurn done;
    done.seat = turn_->seat();
    done.token = turn_->token();
    done.after = turn_->position();
    done.clicks = clicks_;
    turns_.push_back(std::move(done));
    clicks_ = 0;
    selected_ = -1;
    const Position& pos = turns_.back().after;
    if (game_ended(pos)) {
      final_ = pos;
      over_ = true;
      turn_.reset();
      return;
    }
    turn_.emplace(pos, pass_when_stuck_);
  }
}

ClickEffect ClickMachine::click(int x, int y) {
  if (x < 0 || x >= kSize || y < 0 || y >= kSize) {
    throw std::out_of_range("Biloba click outside the 9x9 grid");
  }
  return click_square(square_of(x, y));
}

ClickEffect ClickMachine::click_square(int c) {
  if (c < 0 || c >= kSquares) throw std::out_of_range("Biloba click outside the 9x9 grid");
  if (over_) return ClickEffect::kGameOver;
  ++clicks_;
  const Position& pos = turn_->position();
  const int p = turn_->seat();
  const bool holds_pawn = pos.cell[c] < kMaxColours;
  ClickEffect effect = ClickEffect::kIgnored;
  switch (turn_->phase()) {
    case Turn::Phase::kSelect:
      if (selected_ < 0) {  // SELECT_START: wait for an own pawn (with a move or not)
        if (pos.cell[c] == p) {
          selected_ = c;
          effect = ClickEffect::kSelected;
        }
      } else if (c == selected_ || holds_pawn) {  // SELECT_END: deselect
        selected_ = -1;
        effect = ClickEffect::kDeselected;
      } else if (turn_->is_target(selected_, c)) {
        turn_->choose(selected_);
        turn_->choose(c);
        selected_ = -1;
        effect = c == kCentre ? ClickEffect::kEnteredCentre : ClickEffect::kMoved;
      }
      break;
    case Turn::Phase::kCentreExit:
      // On the centre: the centre itself, pawns and the origin change nothing.
      if (turn_->accepts(c)) {
        turn_->choose(c);
        effect = ClickEffect::kMoved;
      }
      break;
    case Turn::Phase::kRefillFrom:
      if (selected_ < 0) {  // R_START: wait for a capturer with a gap
        if (turn_->accepts(c)) {
          selected_ = c;
          effect = ClickEffect::kSelected;
        }
      } else if (c == selected_ || holds_pawn) {  // R_END: back to R_START
        selected_ = -1;
        effect = ClickEffect::kDeselected;
      } else if (turn_->is_target(selected_, c)) {
        turn_->choose(selected_);
        turn_->choose(c);
        selected_ = -1;
        effect = ClickEffect::kRefilled;
      }
      break;
    case Turn::Phase::kStuck:  // the original asks for ever and ignores every click
    case Turn::Phase::kDestination:
    case Turn::Phase::kRefillTo:
    case Turn::Phase::kDone:
      break;
  }
  settle();
  return effect;
}

}  // namespace plateau::biloba
