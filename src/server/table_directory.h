#pragma once
// The table directory (issue 13, item 3): every live table by (game, board number), the
// numbering (per game from 101, as pbmserv; ids never reused, not even for a table start-up
// skipped), and the one serialiser of a table's listing, used by the `tables` command and by
// /api/tables alike. Thread-safe.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "server/table.h"
#include "server/table_quota.h"

namespace plateau::server {

class TableDirectory {
 public:
  // At start-up, for every stored table (replayed or not): its number and id stay taken.
  void reserve(const std::string& game, int number, std::int64_t id);
  // At start-up: a replayed table (and a table taken over from another node).
  void insert(const std::shared_ptr<Table>& table);
  // Several nodes on one database (docs/CLUSTER.md): new tables take their board number and
  // id from `allocate(game)` (cluster::Node::allocate) instead of this directory's counters,
  // so that two nodes never make the same table, called before `check` and outside the lock (a
  // refused table leaves its number unused). It may throw: no table is made.
  void set_allocator(std::function<std::pair<int, std::int64_t>(const std::string&)> allocate) {
    std::lock_guard lock(mutex_);
    allocate_ = std::move(allocate);
  }

  // Makes a new table of `game`: under the directory's lock, `check(index)` may throw to
  // refuse (quotas, consent: nothing is made), then `make(number, id)` builds it with the next
  // number and id, and it is listed.
  std::shared_ptr<Table> create(
      const std::string& game, const std::function<void(const TableIndex&)>& check,
      const std::function<std::shared_ptr<Table>(int number, std::int64_t id)>& make);

  std::shared_ptr<Table> find(const std::string& game, int number) const;
  // The tables numbered `number`, any game, in game order.
  std::vector<std::shared_ptr<Table>> with_number(int number) const;
  // Removes (game, number) if it is still `table`.
  void forget(const std::string& game, int number, const Table* table);
  std::vector<std::shared_ptr<Table>> all() const;
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  TableIndex tables_;
  std::map<std::string, int> next_number_;  // per game
  std::int64_t next_id_ = 1;
  std::function<std::pair<int, std::int64_t>(const std::string&)> allocate_;
};

// The listing of one table, the same for every transport: {"game", "board", "status", "seats":
// [{"kind" ("" free, "user", "cpu", "legacy"), "name"}], "ply", "options", "kind" ("board" for a
// pbmserv board, "table")}.
nlohmann::json listing_json(const TableSummary& s);
// Its text line: "bohnduell 101 setup ply 0: alice, cpu:1 (supply=7)" ("-" for a free seat).
std::string listing_line(const TableSummary& s);

}  // namespace plateau::server
