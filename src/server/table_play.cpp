// Game commands (pbmserv style): move, queue, resign, draw and undo requests, show, steps.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "server/table.h"
#include "server/table_util.h"

namespace plateau::server {

using nlohmann::json;
using table_detail::same_name;
using table_detail::utc_date;
using table_detail::utc_time;

void Table::cmd_move(Tx& tx, const Command& c) {
  require_user(tx);
  // A retry of a move already played (its acknowledgement was lost): the same answer again.
  if (repeated_move(tx, c)) return;
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  require_turns_left(mine);
  const int to_move = seat_to_move();
  if (to_move != mine)
    throw CommandError("it is not your turn: it is " + owner_name(to_move) + "'s turn");
  const int next_ply = static_cast<int>(moves_.size()) + 1;
  if (c.ply_check && *c.ply_check != next_ply) {
    throw CommandError("move #" + std::to_string(*c.ply_check) +
                       " does not match: the next move is #" + std::to_string(next_ply));
  }
  if (clock_.enabled() &&
      TableServices::now_ms() >
          turn_started_ms_ + turn_allowance_ms(clock_, bank_ms_[state_->current_seat()])) {
    on_clock(tx);
    tx.reply(error_event("your time has run out"));
    return;
  }
  Move move;
  try {
    move = state_->parse_move(c.args.at(0));
  } catch (const RuleError& e) {
    throw CommandError("illegal move '" + c.args.at(0).substr(0, 60) + "': " + e.what());
  }
  play(tx, move, state_->current_seat(), false);
  after_move(tx);
}

void Table::cmd_queue(Tx& tx, const Command& c) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  // A move queued for a turn that never comes would wait for ever: refused at once.
  require_turns_left(mine);
  if (seat_to_move() == mine) return cmd_move(tx, c);
  if (c.args.at(0).size() > 200) throw CommandError("queued move too long");
  // The #n stays with the move: play_queued() plays it only at ply n.
  const std::string text =
      c.args.at(0) + (c.ply_check ? "#" + std::to_string(*c.ply_check) : std::string());
  queued_[to_lower(tx.caller.user)] = text;
  tx.table_changed = true;
  tx.reply(Event{
      "queued",
      {{"game", game_name_},
       {"board", number_},
       {"move", text},
       {"text", "Queued " + text + " at " + label() + "; it will be played when your turn comes."}},
      {}});
}

void Table::cmd_resign(Tx& tx) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  if (!everyone_moved()) {
    resign_seat(tx, mine, "Resign");
    return;
  }
  // With 3+ seats a resignation never waits, in turn or not: the others play on without it.
  if (game_->num_seats() >= 3) return resign_from_many(tx, mine);
  if (seat_to_move() == mine) {
    resign_seat(tx, mine, "Resign");
    return;
  }
  // A seat that will never move again (its side is out) cannot wait for its turn either.
  if (!state_->seat_in_play(game_seat_of_table_seat(mine))) {
    resign_seat(tx, mine, "Resign");
    return;
  }
  // Out of turn: queued until the sender's next turn; sending it again cancels it.
  const std::string key = to_lower(tx.caller.user);
  tx.table_changed = true;
  if (queued_resign_.erase(key)) {
    tx.reply(ok_event("Your resignation at " + label() + " is cancelled."));
  } else {
    queued_resign_.insert(key);
    tx.reply(ok_event("Your resignation at " + label() +
                      " takes effect at your next turn (resign again to cancel)."));
  }
}

void Table::cmd_request(Tx& tx, RequestKind kind) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  require_turns_left(mine);  // a resigned or eliminated seat neither asks nor is asked
  if (request_) {
    throw CommandError(std::string("a ") + request_word(request_->kind) +
                       " request is already pending");
  }
  if (kind == RequestKind::kUndo && moves_.empty()) throw CommandError("there is no move to undo");
  if (human_seats_except(mine).empty()) {
    throw CommandError("no one can accept: the other seats are computer players");
  }
  request_ = Request{kind, mine, {mine}};
  tx.table_changed = true;
  tx.all(RequestMade{game_name_, number_, kind, tx.caller.user, status_line()});
}

void Table::cmd_answer(Tx& tx, bool accept) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  require_turns_left(mine);  // a resigned or eliminated seat neither asks nor is asked
  if (!request_) throw CommandError("there is no draw offer or undo request to answer");
  if (request_->by == mine) throw CommandError("you cannot answer your own request");
  const RequestKind kind = request_->kind;
  tx.table_changed = true;
  if (!accept) {
    request_.reset();
    tx.all(RequestAnswered{game_name_, number_, kind, false, tx.caller.user, ""});
    return;
  }
  request_->accepted.insert(mine);
  for (int s : human_seats_except(request_->by)) {
    if (!request_->accepted.count(s)) {
      tx.all(RequestAnswered{game_name_, number_, kind, true, tx.caller.user, status_line()});
      return;
    }
  }
  request_.reset();
  if (kind == RequestKind::kDraw) {
    // Shared by the seats still in the game: a side already out has lost (3+ seats).
    std::vector<double> shares(static_cast<std::size_t>(game_->num_seats()), 0.0);
    const std::vector<int> left = contenders();
    for (int g : left) shares[static_cast<std::size_t>(g)] = 1.0 / static_cast<double>(left.size());
    end_game(tx, shares, "agreement");
    return;
  }
  undo_last(tx);
  tx.all(MoveUndone{board_view("Summary")});
  clear_queued(tx, "the last move was taken back");
}

void Table::cmd_show(Tx& tx, const Command& c) {
  if (!state_) {
    tx.reply(TableShown{table_view(), label() + ": " + status_line()});
    return;
  }
  if (c.ply_check) {
    const int n = *c.ply_check;
    if (n < 0 || n > static_cast<int>(moves_.size())) {
      throw CommandError("no ply " + std::to_string(n) + " at " + label() + "; plies are 0.." +
                         std::to_string(moves_.size()));
    }
    auto shown = initial_->clone();
    for (int i = 0; i < n; ++i) shown->apply(moves_[static_cast<std::size_t>(i)].move);
    tx.reply(PlyShown{game_name_, number_, n, shown->serialize(), page("Summary", *shown, n)});
    return;
  }
  tx.reply(BoardShown{board_view("Summary"), ""});
}

void Table::cmd_steps(Tx& tx, const Command& c) {
  require_playing();
  StepChoices choices;
  std::string move;
  try {
    choices = state_->next_steps(c.args);
    if (choices.complete) move = state_->move_to_string(state_->move_from_steps(c.args));
  } catch (const RuleError& e) {
    throw CommandError("bad steps '" + join(c.args, " ").substr(0, 80) + "': " + e.what());
  }
  std::string text =
      label() + ": after '" + join(c.args, " ") + "': " +
      (choices.next.empty() ? std::string("no further step") : "next " + join(choices.next, " "));
  if (choices.complete) text += "; complete: " + move;
  json data = {{"game", game_name_}, {"board", number_},     {"ply", moves_.size()},
               {"prefix", c.args},   {"next", choices.next}, {"complete", choices.complete},
               {"text", text}};
  if (choices.complete) data["move"] = move;
  tx.reply(Event{"steps", std::move(data), {}});
}

}  // namespace plateau::server
