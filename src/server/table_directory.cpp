#include "server/table_directory.h"

#include <algorithm>
#include <limits>

#include "core/text.h"

namespace plateau::server {

void TableDirectory::reserve(const std::string& game, int number, std::int64_t id) {
  std::lock_guard lock(mutex_);
  next_number_[game] = std::max(next_number_[game], number + 1);
  next_id_ = std::max(next_id_, id + 1);
}

void TableDirectory::insert(const std::shared_ptr<Table>& table) {
  std::lock_guard lock(mutex_);
  tables_[{table->game_name(), table->number()}] = table;
}

std::shared_ptr<Table> TableDirectory::create(
    const std::string& game, const std::function<void(const TableIndex&)>& check,
    const std::function<std::shared_ptr<Table>(int number, std::int64_t id)>& make) {
  std::function<std::pair<int, std::int64_t>(const std::string&)> allocate;
  {
    std::lock_guard lock(mutex_);
    allocate = allocate_;
  }
  if (allocate) {
    // One database round trip, outside the lock: lookups of other tables never wait for it.
    // A table refused by `check` leaves its number unused.
    const auto [number, id] = allocate(game);
    std::lock_guard lock(mutex_);
    if (check) check(tables_);
    auto table = make(number, id);
    tables_[{game, number}] = table;
    return table;
  }
  std::lock_guard lock(mutex_);
  if (check) check(tables_);
  int& next = next_number_[game];
  if (next < 101) next = 101;  // pbmserv: board numbers per game type start at 101
  const int number = next++;
  const std::int64_t id = next_id_++;
  auto table = make(number, id);
  tables_[{game, number}] = table;
  return table;
}

std::shared_ptr<Table> TableDirectory::find(const std::string& game, int number) const {
  std::lock_guard lock(mutex_);
  auto it = tables_.find({game, number});
  return it == tables_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<Table>> TableDirectory::with_number(int number) const {
  std::vector<std::shared_ptr<Table>> out;
  std::lock_guard lock(mutex_);
  // One lookup per game present (the index is by game, then number), not a walk through every
  // table: every board command without a game name asks this.
  for (auto it = tables_.begin(); it != tables_.end();) {
    const std::string& game = it->first.first;
    if (auto t = tables_.find({game, number}); t != tables_.end()) out.push_back(t->second);
    it = tables_.upper_bound({game, std::numeric_limits<int>::max()});
  }
  return out;
}

void TableDirectory::forget(const std::string& game, int number, const Table* table) {
  std::lock_guard lock(mutex_);
  auto it = tables_.find({game, number});
  if (it != tables_.end() && it->second.get() == table) tables_.erase(it);
}

std::vector<std::shared_ptr<Table>> TableDirectory::all() const {
  std::vector<std::shared_ptr<Table>> out;
  std::lock_guard lock(mutex_);
  out.reserve(tables_.size());
  for (const auto& [key, t] : tables_) out.push_back(t);
  return out;
}

std::size_t TableDirectory::size() const {
  std::lock_guard lock(mutex_);
  return tables_.size();
}

nlohmann::json listing_json(const TableSummary& s) {
  nlohmann::json seats = nlohmann::json::array();
  for (const auto& o : s.seats)
    seats.push_back({{"kind", seat_kind_word(o.kind)}, {"name", o.name}});
  return {{"game", s.game},
          {"board", s.number},
          {"status", status_name(s.status)},
          {"seats", std::move(seats)},
          {"ply", s.ply},
          {"options", s.options},
          {"kind", s.board ? "board" : "table"},
          // Whose move it is, so that a player's "your games" list needs no table of its own.
          {"next_user", s.next_user}};
}

std::string listing_line(const TableSummary& s) {
  std::vector<std::string> seats;
  for (const auto& o : s.seats) {
    seats.push_back(o.free() ? "-" : (o.kind == SeatKind::kCpu ? "cpu:" + o.name : o.name));
  }
  return s.game + " " + std::to_string(s.number) + " " + status_name(s.status) + " ply " +
         std::to_string(s.ply) + ": " + join(seats, ", ") +
         (s.options.empty() ? "" : " (" + s.options + ")");
}

}  // namespace plateau::server
