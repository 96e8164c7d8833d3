// Reconnection (issue 13, items 5 and 7): `resync BOARD SEQ` replays the table events after SEQ,
// and a move re-sent with its #n by the player who made that ply is acknowledged again.
#include "core/error.h"
#include "server/table.h"

namespace plateau::server {

void Table::cmd_resync(Tx& tx, const Command& c) {
  const std::int64_t from = std::stoll(c.args.at(0));  // digits only (parse_command)
  if (from > seq_) {
    throw CommandError("no event " + std::to_string(from) + " at " + label() +
                       " yet; the last is " + std::to_string(seq_));
  }
  auto events = log_.after(from, seq_);
  if (!events) {
    // Older than what is kept: the client starts again from the whole state (/watch).
    throw CommandError("the events of " + label() + " before " + std::to_string(log_.first_seq()) +
                       " are no longer kept; /watch " + std::to_string(number_) +
                       " for the whole board, then resync from its seq");
  }
  // On the strand, and no batch is in flight while an action runs: every committed event is in
  // the log, and the next one reaches this connection live (it watches from now on).
  const std::size_t count = events->size();
  tx.replay(std::move(*events));
  const bool added = add_watcher(tx.caller.client, tx.caller.user);
  tx.reply(Event{"resync",
                 {{"game", game_name_},
                  {"board", number_},
                  {"from", from},
                  {"seq", seq_},
                  {"count", count},
                  {"text", "Resynced " + label() + ": " + std::to_string(count) + " events after " +
                               std::to_string(from) + "; now at " + std::to_string(seq_) + "."}},
                 {}});
  if (added) announce_spectator(tx);
}

bool Table::repeated_move(Tx& tx, const Command& c) {
  if (!c.ply_check || !initial_) return false;
  const int n = *c.ply_check;
  if (n < 1 || n > static_cast<int>(moves_.size())) return false;
  const int mine = table_seat_of(tx.caller.user);
  const Played& p = moves_[static_cast<std::size_t>(n - 1)];
  const int by = order_.empty() ? p.seat : order_[static_cast<std::size_t>(p.seat)];
  if (mine < 0 || by != mine) return false;
  // The same move means the same canonical notation in the position it was played from.
  auto before = initial_->clone();
  for (int i = 0; i + 1 < n; ++i) before->apply(moves_[static_cast<std::size_t>(i)].move);
  try {
    if (before->move_to_string(before->parse_move(c.args.at(0))) != p.text) return false;
  } catch (const RuleError&) {
    return false;
  }
  if (auto original = log_.move_of_ply(n)) {
    tx.resend(original, true);  // the same bytes as the first time (a reply: same "re" rule)
  } else {
    tx.reply(ok_event(label() + ": move #" + std::to_string(n) + " (" + p.text +
                      ") was already played."));
  }
  return true;
}

}  // namespace plateau::server
