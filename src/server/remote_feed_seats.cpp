// The seats of this node's tables in the database (remote_feed.h, "seats"; cluster/feed_db.h
// plateau_seats): what a login on another node looks up to follow its tables here.
#include <algorithm>
#include <iterator>

#include "core/text.h"
#include "server/lobby.h"
#include "server/remote_feed.h"

namespace plateau::server {

void RemoteFeed::write_seats(cluster::Connection& db) {
  std::set<cluster::SeatRow> now;
  for (const auto& s : lobby_.table_summaries()) {
    if (s.status != TableStatus::kSetup && s.status != TableStatus::kPlaying) continue;
    const auto table = lobby_.find_table(s.game, s.number);
    if (!table) continue;
    for (const auto& seat : s.seats) {
      if (seat.kind == SeatKind::kUser && !seat.name.empty()) {
        now.insert({table->id(), to_lower(seat.name)});
      }
    }
  }
  std::vector<cluster::SeatRow> added, removed;
  if (seats_reset_) {
    added.assign(now.begin(), now.end());
  } else {
    std::set_difference(now.begin(), now.end(), seats_written_.begin(), seats_written_.end(),
                        std::back_inserter(added));
    std::set_difference(seats_written_.begin(), seats_written_.end(), now.begin(), now.end(),
                        std::back_inserter(removed));
  }
  try {
    cluster::put_seats(db, feed_.node_id(), added, removed, seats_reset_);
  } catch (...) {
    seats_reset_ = true;  // whatever was written, all of it again next time
    throw;
  }
  seats_reset_ = false;
  seats_written_ = std::move(now);
}

void RemoteFeed::write_new_seats(cluster::Connection& db) {
  std::vector<std::pair<std::string, int>> made;
  {
    std::lock_guard lock(mutex_);
    made.swap(new_tables_);
  }
  std::vector<cluster::SeatRow> added;
  for (const auto& [game, number] : made) {
    const auto table = lobby_.find_table(game, number);
    if (!table) continue;
    const TableSummary s = table->summary();
    if (s.status != TableStatus::kSetup && s.status != TableStatus::kPlaying) continue;
    for (const auto& seat : s.seats) {
      cluster::SeatRow row{table->id(), to_lower(seat.name)};
      if (seat.kind == SeatKind::kUser && !seat.name.empty() && !seats_written_.count(row)) {
        added.push_back(std::move(row));
      }
    }
  }
  if (added.empty()) return;
  try {
    cluster::put_seats(db, feed_.node_id(), added, {}, false);
  } catch (...) {
    seats_reset_ = true;
    throw;
  }
  seats_written_.insert(added.begin(), added.end());
}

}  // namespace plateau::server
