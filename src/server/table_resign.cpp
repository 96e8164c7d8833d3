// Resignation in a game of 3+ seats, and seats whose turns never come (issue 14): a Biloba
// player whose colour has no pawns left is skipped for ever, so nothing may wait for its turn.
#include <spdlog/spdlog.h>


#include "core/error.h"
#include "server/table.h"
#include "server/table_util.h"

namespace plateau::server {

bool Table::computer_plays(int table_seat) const {
  if (table_seat < 0 || table_seat >= static_cast<int>(seats_.size())) return false;
  return seats_[static_cast<std::size_t>(table_seat)].kind == SeatKind::kCpu ||
         resigned_.count(table_seat) > 0;
}

void Table::require_turns_left(int table_seat) const {
  if (resigned_.count(table_seat)) {
    throw CommandError("you have resigned at " + label() +
                       "; the computer plays your pawns until the game ends");
  }
  if (state_ && !state_->is_terminal() &&
      !state_->seat_in_play(game_seat_of_table_seat(table_seat))) {
    throw CommandError("you have no turn left at " + label() +
                       ": your side is out of the game (you may leave, or resign to end "
                       "your part at once)");
  }
}

bool Table::has_turns_left(int table_seat) const {
  return !resigned_.count(table_seat) &&
         (!state_ || state_->is_terminal() ||
          state_->seat_in_play(game_seat_of_table_seat(table_seat)));
}

void Table::resign_from_many(Tx& tx, int table_seat) {
  if (resigned_.count(table_seat)) {
    throw CommandError("you have already resigned at " + label() +
                       "; the game goes on until it ends");
  }
  resigned_.insert(table_seat);
  const std::string user = owner_name(table_seat);
  queued_.erase(to_lower(user));
  queued_resign_.erase(to_lower(user));
  if (request_) request_.reset();
  tx.table_changed = true;
  spdlog::info("table {}: {} resigns ({} contenders left)", label(), user, contenders().size());
  if (contenders().size() <= 1) {
    extra_entries_.push_back({"Resign", game_seat_of_table_seat(table_seat), false});
    end_if_contest_over(tx);
    return;
  }
  tx.reply(ok_event("You resign at " + label() +
                    ": the others play on, the computer plays your pawns, and your result is 0."));
  tx.others(ok_event(label() + ": " + user +
                     " resigns; the computer plays their pawns until the game ends."));
}

std::vector<int> Table::contenders() const {
  std::vector<int> seats;  // game seats
  for (int g = 0; g < game_->num_seats(); ++g) {
    const int ts = order_.empty() ? g : order_[static_cast<std::size_t>(g)];
    if (state_->seat_in_play(g) && !resigned_.count(ts)) seats.push_back(g);
  }
  return seats;
}

bool Table::end_if_contest_over(Tx& tx) {
  if (resigned_.empty() || !state_ || state_->is_terminal()) return false;
  const std::vector<int> left = contenders();
  if (left.size() > 1) return false;
  const auto n = static_cast<std::size_t>(game_->num_seats());
  std::vector<double> returns(n, 0.0);
  if (left.size() == 1) {
    returns[static_cast<std::size_t>(left[0])] = 1.0;
  } else {
    // Nobody contends any more (every other seat is out or resigned): the seats that did not
    // resign share the game.
    returns = without_resigned(std::vector<double>(n, 1.0 / static_cast<double>(n)));
  }
  end_game(tx, returns, "resign");
  return true;
}

std::vector<double> Table::without_resigned(std::vector<double> returns) const {
  if (resigned_.empty()) return returns;
  double freed = 0.0;
  double kept = 0.0;
  int others = 0;
  for (int g = 0; g < static_cast<int>(returns.size()); ++g) {
    const int ts = order_.empty() ? g : order_[static_cast<std::size_t>(g)];
    if (resigned_.count(ts)) {
      freed += returns[static_cast<std::size_t>(g)];
      returns[static_cast<std::size_t>(g)] = 0.0;
    } else {
      kept += returns[static_cast<std::size_t>(g)];
      ++others;
    }
  }
  if (freed == 0.0 || others == 0) return returns;
  for (int g = 0; g < static_cast<int>(returns.size()); ++g) {
    const int ts = order_.empty() ? g : order_[static_cast<std::size_t>(g)];
    if (resigned_.count(ts)) continue;
    double& r = returns[static_cast<std::size_t>(g)];
    r = kept > 0.0 ? r + freed * r / kept : r + freed / others;
  }
  return returns;
}

}  // namespace plateau::server
