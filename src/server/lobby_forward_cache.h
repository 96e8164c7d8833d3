#pragma once
// Which node serves a board number, as the client's node remembers it for forwarding
// (lobby_forward.cpp; docs/CLUSTER.md "Forwarding"). An answer read from the tables and nodes
// rows is kept kOwnerCacheTime (a miss kMissCacheTime), and kept again from each time its owner
// answers a forwarded command with the table: a board being played is not read again every
// few seconds on the I/O threads. It is dropped as soon as its owner answers a command for it
// without the table (taken over, or gone) or cannot be reached, so that the next command reads
// the rows again. Not thread-safe: its user holds a lock.
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/store_types.h"

namespace plateau::server::forwarding {

constexpr auto kOwnerCacheTime = std::chrono::seconds(2);
constexpr auto kMissCacheTime = std::chrono::seconds(1);
constexpr std::size_t kMaxCached = 10000;  // board numbers; beyond, the cache starts again

class OwnerCache {
 public:
  using Clock = std::chrono::steady_clock;
  // (game, node) for each table with that number (several games may use one number).
  using Owners = std::vector<std::pair<std::string, store::NodeRow>>;

  // The owners of board `number` if known at `now` (possibly none: a miss), else nullopt.
  std::optional<Owners> find(int number, Clock::time_point now) const {
    auto it = entries_.find(number);
    if (it == entries_.end() || it->second.until <= now) return std::nullopt;
    return it->second.owners;
  }
  // `found`: board `number`'s owners as just read at `now`.
  void remember(int number, Owners found, Clock::time_point now) {
    if (entries_.size() >= kMaxCached && !entries_.count(number)) entries_.clear();
    const auto ttl =
        found.empty() ? Clock::duration(kMissCacheTime) : Clock::duration(kOwnerCacheTime);
    entries_[number] = {std::move(found), now + ttl};
  }
  // Node `peer` answered a command for board `number` at `now`, with the table or without.
  // Counts only while `peer` is the board's one owner here.
  void answered(int number, const std::string& peer, bool with_table, Clock::time_point now) {
    auto it = entries_.find(number);
    if (it == entries_.end() || it->second.owners.size() != 1 ||
        it->second.owners.front().second.id != peer) {
      return;
    }
    if (with_table) {
      it->second.until = std::max(it->second.until, now + Clock::duration(kOwnerCacheTime));
    } else {
      entries_.erase(it);
    }
  }
  // Node `peer` could not be reached for board `number`: its entry is dropped if `peer` is
  // among its owners.
  void unreachable(int number, const std::string& peer) {
    auto it = entries_.find(number);
    if (it == entries_.end()) return;
    for (const auto& o : it->second.owners) {
      if (o.second.id == peer) {
        entries_.erase(it);
        return;
      }
    }
  }
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    Owners owners;
    Clock::time_point until;
  };
  std::map<int, Entry> entries_;
};

}  // namespace plateau::server::forwarding
