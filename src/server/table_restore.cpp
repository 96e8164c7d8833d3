// After a restart: clocks and CPU players are re-armed, and a running clock is not charged for
// the time the server was down (issue 12, item 9).
#include <spdlog/spdlog.h>

#include "server/table.h"

namespace plateau::server {

void Table::resume(std::int64_t downtime_ms) {
  post(
      Caller{},
      [this, downtime_ms](Tx& tx) {
        if (end_if_orphaned(tx)) return;  // its external game is gone (table_external.cpp)
        if (downtime_ms <= 0 || status_ != TableStatus::kPlaying ||
            !(clock_.enabled() || clock_.corr.any()) || !state_ ||
            state_->is_terminal()) {
          return;
        }
        // The turn's clock started at turn_started_ms_ and ran (in the server's view) through
        // the downtime: moving its start forward by the downtime gives the player back exactly
        // that time. It never moves past now (a turn that began during the downtime, which
        // cannot happen, would get back only what it used).
        const std::int64_t now = TableServices::now_ms();
        const std::int64_t credit = std::min(downtime_ms, now - turn_started_ms_);
        if (credit <= 0) return;
        turn_started_ms_ += credit;
        tx.table_changed = true;  // durably: a second restart must not charge it again
        spdlog::info("table {}: {} ms of downtime given back to the clock", label(), credit);
        const std::int64_t seconds = (downtime_ms + 500) / 1000;
        if (seconds < 1) return;  // a quick restart is not worth a line in the chat
        // Correspondence time alone counts days: a line (and on a mail board a mail to every
        // player after every restart) about seconds would be noise.
        if (!clock_.enabled()) return;
        const std::string text =
            "Server was down for " + std::to_string(seconds) + " s; clocks were stopped.";
        store::ChatRow row{id_, now, "server", text};
        tx.batch.add_chat(row);
        chat_.push_back(row);
        if (chat_.size() > kChatKept) chat_.erase(chat_.begin());
        tx.all(ChatSaid{game_name_, number_, "server", text});
      },
      nullptr);
}

}  // namespace plateau::server
