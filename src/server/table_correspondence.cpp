// Correspondence time at a table (issue 15, item 5; correspondence_clock.h, docs/MAIL.md): the
// nag once the player to move has let the nag time pass, the forfeit at the forfeit time.
// Both are written in one transaction with their mail (the outbox row), so a nag is sent once
// and a forfeit is never without its mail; the nag's ply is in the snapshot (nagged_), so a
// restart does not nag the same turn again.
#include <spdlog/spdlog.h>

#include "server/table.h"

namespace plateau::server {

std::string Table::correspondence_info() const {
  std::string out;
  if (clock_.corr.nag_days > 0) out += "; nagtime " + std::to_string(clock_.corr.nag_days) + " days";
  if (clock_.corr.forfeit_days > 0) {
    out += "; forfeittime " + std::to_string(clock_.corr.forfeit_days) + " days";
  }
  return out;
}

void Table::check_correspondence() {
  post(Caller{}, [this](Tx& tx) { on_correspondence(tx); }, nullptr);
}

void Table::on_correspondence(Tx& tx) {
  if (stopped_ || discarded_ || status_ != TableStatus::kPlaying || !clock_.corr.any() ||
      !state_ || state_->is_terminal() || !external_.empty()) {
    return;
  }
  const std::int64_t now = TableServices::now_ms();
  if (now < retry_after_ms_) return;  // the store failed a moment ago
  const int ts = seat_to_move();
  if (ts < 0 || computer_plays(ts)) return;
  const SeatOwner& owner = seats_[static_cast<std::size_t>(ts)];
  if (owner.kind != SeatKind::kUser) return;
  const std::vector<VacationPeriod> vacations = services_.vacations_of(owner.name);
  const CorrespondenceDue due = correspondence_due(clock_.corr, turn_started_ms_, now, vacations);
  if (due == CorrespondenceDue::kForfeit) {
    spdlog::info("table {}: {} forfeits: no move in {} days", label(), owner.name,
                 clock_.corr.forfeit_days);
    // As a resignation (cmd_resign): with 3+ seats, once everyone has moved, the seat leaves
    // the contest and the others play on; otherwise the game ends (with no result before
    // every player has moved: the consent rule).
    if (game_->num_seats() >= 3 && everyone_moved()) return resign_from_many(tx, ts);
    resign_seat(tx, ts, "Forfeit", "forfeit time");
    return;
  }
  const std::int64_t turn = static_cast<std::int64_t>(moves_.size()) + 1;
  if (due != CorrespondenceDue::kNag || nagged_ == turn) return;
  nagged_ = turn;
  tx.table_changed = true;
  tx.nag_user = owner.name;
  std::string text = "Reminder: " + owner.name + " has not moved at " + label() + " for " +
                     std::to_string(clock_.corr.nag_days) + " days.";
  if (clock_.corr.forfeit_days > 0) {
    text += " " + owner.name + " forfeits on " +
            utc_minute(deadline_ms(turn_started_ms_, clock_.corr.forfeit_days * kDayMs,
                                   vacations)) +
            " without a move.";
  }
  spdlog::info("table {}: nag to {}", label(), owner.name);
  store::ChatRow row{id_, now, "server", text};
  tx.batch.add_chat(row);
  chat_.push_back(row);
  if (chat_.size() > kChatKept) chat_.erase(chat_.begin());
  tx.all(ChatSaid{game_name_, number_, "server", text});
}

}  // namespace plateau::server
