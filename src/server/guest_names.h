#pragma once
// Guest names (guest1, guest2, ...) that are never handed out twice, not even after a restart
// or a crash (issue 12, item 9): a table created by guest7 with `host` gives guest7 rights, so a
// stranger must never become guest7 again. The store keeps the counter "guest": the numbers
// below it may have been issued. Numbers are reserved in blocks: before the first name of a
// block is handed out, the block's end is durable in the store (one write per `block` guests);
// after a restart, the rest of the last block is skipped. Thread-safe.
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "store/store.h"

namespace plateau::server {

class GuestNames {
 public:
  // The store counter's name.
  static constexpr const char* kCounter = "guest";

  // `block`: numbers reserved per store write (at least 1).
  GuestNames(store::Store& store, std::int64_t block);

  // At start-up, before issue(): the store's counters and the highest guest number still
  // referenced anywhere (e.g. by a restored table's seat, for a database older than the
  // counter), 0 if none. The next name is above both.
  void restore(const std::map<std::string, std::int64_t>& counters, std::int64_t highest_used);

  // A result: the name, or "" and the reason it could not be issued (the store failed).
  using Ready = std::function<void(std::string name, std::string error)>;
  // Calls `ready` once a fresh name is safe to use: at once (on the caller's thread) when the
  // current block has room, else from the store's writer thread once the next block is durable.
  void issue(Ready ready);

  // Several nodes on one database (docs/CLUSTER.md): blocks are reserved by `reserve(floor,
  // count)` instead (cluster::Node::reserve: atomic in the database, so two nodes never issue
  // the same name), which returns the block's end: [end - count, end) is this server's. It may
  // throw (no name is issued then). Call before issue().
  void set_reserver(std::function<std::int64_t(std::int64_t floor, std::int64_t count)> reserve) {
    std::lock_guard lock(mutex_);
    reserve_ = std::move(reserve);
  }

  // The next number that would be issued (for tests and logs).
  std::int64_t next() const;

 private:
  void reserve_locked();  // submits the next block's end; mutex_ held
  void reserved(std::int64_t until, bool ok);

  store::Store& store_;
  const std::int64_t block_;
  mutable std::mutex mutex_;
  std::int64_t next_ = 1;       // the next number to hand out
  std::int64_t durable_ = 1;    // numbers below this are reserved in the store
  bool reserving_ = false;      // a reservation is being written
  std::vector<Ready> waiting_;  // callers waiting for that write, in order
  std::function<std::int64_t(std::int64_t, std::int64_t)> reserve_;  // several nodes
};

}  // namespace plateau::server
