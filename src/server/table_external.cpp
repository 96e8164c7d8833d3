// External tables: a game played elsewhere (a compatibility server's game) mirrored live as an
// ordinary table. The table is the record: each turn is stored as it is played, like any move;
// the external side alone moves its seats; users watch, chat and download the record.
#include <spdlog/spdlog.h>

#include "core/error.h"
#include "server/table.h"

namespace plateau::server {

void Table::open_external(std::string orphan_reason, ChatListener on_chat, Done done) {
  post(
      Caller{},
      [this, orphan_reason = std::move(orphan_reason), on_chat = std::move(on_chat)](Tx& tx) {
        external_ = orphan_reason.empty() ? "the external game was lost" : orphan_reason;
        chat_listener_ = on_chat;
        rated_ = false;
        tx.table_changed = true;
      },
      nullptr);
  create(Caller{}, std::move(done));
}

void Table::external_move(std::string move, Done done) {
  post(
      Caller{},
      [this, move = std::move(move)](Tx& tx) {
        if (external_.empty() || status_ != TableStatus::kPlaying) return;
        Move parsed;
        try {
          parsed = state_->parse_move(move);
        } catch (const RuleError& e) {
          spdlog::error("table {}: external move {} refused: {}", label(), move, e.what());
          return;
        }
        play(tx, parsed, state_->current_seat(), false);
        after_move(tx);
      },
      std::move(done));
}

void Table::external_say(std::string name, std::string text, Done done) {
  Caller speaker{std::move(name), false, nullptr};
  post(
      std::move(speaker),
      [this, text = std::move(text)](Tx& tx) {
        if (external_.empty() || tx.caller.user.empty()) return;
        cmd_say(tx, text);
      },
      std::move(done));
}

void Table::end_external(std::string reason, Done done) {
  post(
      Caller{},
      [this, reason = std::move(reason)](Tx& tx) {
        chat_listener_ = nullptr;
        if (external_.empty() || status_ != TableStatus::kPlaying) return;
        end_unfinished(tx, reason);
      },
      std::move(done));
}

bool Table::end_if_orphaned(Tx& tx) {
  if (external_.empty() || status_ != TableStatus::kPlaying) return false;
  end_unfinished(tx, external_);
  return true;
}

void Table::relay_chat(Tx& tx, const std::string& text) {
  // A line from the external side itself (external_say: no connection) is not sent back.
  if (!chat_listener_ || !tx.caller.client) return;
  tx.after_commit.push_back(
      [listener = chat_listener_, user = tx.caller.user, text] { listener(user, text); });
}

void Table::end_unfinished(Tx& tx, const std::string& reason) {
  status_ = TableStatus::kOver;
  ended_ms_ = TableServices::now_ms();
  reason_ = reason;
  result_ = "*";
  returns_.clear();
  request_.reset();
  rating_lines_.clear();
  tx.table_changed = true;
  spdlog::info("table {}: ended without a result ({})", label(), reason_);
  tx.all(GameEnded{board_view("Summary"), false, "", reason_, {}, rating_lines_});
  clear_queued(tx, "the game is over");
}

}  // namespace plateau::server
