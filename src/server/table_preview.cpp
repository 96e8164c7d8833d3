// The table's preview commands (specs/phutball.md §10.2, §10.4; issue 15 item 2): `preview BOARD
// MOVE...` shows the board after the moves, `submit BOARD MOVE[#n]` shows it after one move and
// keeps that move for `confirm BOARD`, which plays it. Nothing of a preview is stored or told.
// Also `subscribe BOARD` / `unsubscribe BOARD`: the board's mail to an account that does not play.
#include "core/text.h"
#include "server/preview.h"
#include "server/limits.h"
#include "server/table.h"

namespace plateau::server {

namespace {

// The page's surroundings without what belongs to the real board only (comments, the closing
// block, rating lines).
PageInput preview_input(const PageView& view) {
  PageInput in = view.input;
  in.comments.clear();
  in.closing_lines.clear();
  in.rating_lines.clear();
  return in;
}

}  // namespace

void Table::cmd_preview(Tx& tx, const Command& c) {
  require_playing();
  auto scratch = state_->clone();
  const PagePtr now = page("Preview", *state_, static_cast<int>(moves_.size()));
  const std::string text = preview_page(*scratch, preview_input(*now), c.args, title());
  tx.reply(preview_event(game_name_, number_,
                         "Preview of " + label() + " after " + join(c.args, " ").substr(0, 200) +
                             " (nothing played).",
                         text));
}

void Table::cmd_submit(Tx& tx, const Command& c) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  if (seat_to_move() != mine) {
    throw CommandError("it is not your turn: it is " + owner_name(seat_to_move()) + "'s turn");
  }
  const int next_ply = static_cast<int>(moves_.size()) + 1;
  if (c.ply_check && *c.ply_check != next_ply) {
    throw CommandError("move #" + std::to_string(*c.ply_check) +
                       " does not match: the next move is #" + std::to_string(next_ply));
  }
  auto scratch = state_->clone();
  const PagePtr now = page("Preview", *state_, static_cast<int>(moves_.size()));
  const std::string text = preview_page(*scratch, preview_input(*now), c.args, title());
  const std::string move = state_->move_to_string(state_->parse_move(c.args.at(0)));
  submitted_[to_lower(tx.caller.user)] = {move, next_ply};
  tx.reply(preview_event(game_name_, number_,
                         "Submitted " + move + " at " + label() + " as move #" +
                             std::to_string(next_ply) + "; send confirm " +
                             std::to_string(number_) + " to play it.",
                         text));
}

void Table::cmd_confirm(Tx& tx, const Command& /*c*/) {
  require_user(tx);
  auto it = submitted_.find(to_lower(tx.caller.user));
  if (it == submitted_.end()) {
    throw CommandError("nothing submitted at " + label() + ": submit " +
                       std::to_string(number_) + " MOVE first");
  }
  // Played as `move BOARD MOVE#n` with the ply it was previewed for: if the board changed since
  // (an undo, a queued move), the move is refused rather than played on another position. A
  // comment sent with confirm joins the action in on_command, as for move.
  Command m;
  m.verb = Verb::kMove;
  m.game = game_name_;
  m.board = number_;
  m.args = {it->second.move};
  m.ply_check = it->second.ply;
  cmd_move(tx, m);
  submitted_.erase(to_lower(tx.caller.user));
}

void Table::cmd_subscribe(Tx& tx, bool on) {
  require_user(tx);
  if (tx.caller.guest) throw CommandError("guests have no address; register an account");
  const std::string user = tx.caller.user;
  if (!on) {
    if (!subscribers_.erase(user)) throw CommandError("you are not subscribed to " + label());
    tx.table_changed = true;
    tx.reply(ok_event("You are no longer subscribed to " + label() + "."));
    return;
  }
  if (table_seat_of(user) >= 0) {
    throw CommandError("you play at " + label() + ": its pages come to you already");
  }
  if (subscribers_.count(user)) throw CommandError("you are already subscribed to " + label());
  if (subscribers_.size() >= kMaxSubscribersPerBoard) {
    throw CommandError(label() + " has " + std::to_string(kMaxSubscribersPerBoard) +
                       " subscribers already");
  }
  subscribers_.insert(user);
  tx.table_changed = true;
  tx.reply(ok_event("You are subscribed to " + label() +
                    ": its pages come to you by mail as to its players."));
}

}  // namespace plateau::server
