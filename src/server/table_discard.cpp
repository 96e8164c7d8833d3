// Table::discard_if_unused: the set-up tables a guest leaves behind are deleted (issue 12,
// item 6). A guest name is never issued again (guest_names.h), so nobody could ever be that
// guest again to start the table; kept, such tables would pile up for ever.
#include <spdlog/spdlog.h>

#include "core/text.h"
#include "server/table.h"

namespace plateau::server {

void Table::discard_if_unused(const std::string& owner, std::function<void(bool)> done) {
  auto discarded = std::make_shared<bool>(false);
  post(
      Caller{},
      [this, owner, discarded](Tx& tx) {
        if (discarded_ || status_ != TableStatus::kSetup) return;
        for (const auto& s : seats_) {
          if (s.kind == SeatKind::kUser && to_lower(s.name) != to_lower(owner)) return;
        }
        discarded_ = true;
        stopped_ = true;  // no clock, no CPU player: nothing may write it back to the store
        timer_.cancel();
        *discarded = true;
        tx.batch.delete_table(id_);
        tx.all(ok_event(label() + " is closed: " + owner + " left before the game started."));
        spdlog::info("table {}: deleted, its creator {} left before the start", label(), owner);
      },
      [discarded, done = std::move(done)] {
        if (done) done(*discarded);
      });
}

}  // namespace plateau::server
