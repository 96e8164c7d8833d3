// A table another node took over (issue 16 item 2; docs/CLUSTER.md): its write was fenced
// (store/fence.h), so this node drops it and sends its players to the new owner.
#include <spdlog/spdlog.h>

#include "server/table.h"

namespace plateau::server {

namespace {

std::string fenced_reason(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "fenced";
  }
}

}  // namespace

void Table::recheck_owner() {
  post(
      Caller{},
      [this](Tx& tx) {
        if (committed_.stored && !lost_ && !discarded_) tx.table_changed = true;
      },
      nullptr);
}

std::string Table::fenced_message() const {
  return label() + " is served by another node now: connect again and resync";
}

void Table::drop_fenced(Tx& tx, const std::exception_ptr& error) {
  spdlog::warn("table {}: {}; dropped from this node", label(), fenced_reason(error));
  // The table's own memory goes with it; what the action changed outside it (a rating in the
  // cache) goes back.
  for (auto it = tx.undo.rbegin(); it != tx.undo.rend(); ++it) {
    try {
      (*it)();
    } catch (const std::exception& e) {
      spdlog::error("table {}: roll-back step failed: {}", label(), e.what());
    }
  }
  tx.undo.clear();
  fenced_ = true;
  stopped_ = true;
  timer_.cancel();
  retry_timer_.cancel();
  // Out of the directory before anyone is told: a command a player sends once told (a chat
  // line, a move) must find no table here and go to the new owner over the node link, not
  // reach this dropped table and be refused again (cluster_freeze_test, 1 run in 6).
  services_.forget_table(game_name_, number_, this);
  Tx told;
  told.caller = tx.caller;
  told.reply(error_event(fenced_message()));
  told.others(error_event(fenced_message()));
  deliver(told);
}

}  // namespace plateau::server
