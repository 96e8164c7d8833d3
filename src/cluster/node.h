#pragma once
// One `plateau serve` node among several on one PostgreSQL database (issue 16, items 2 and 4;
// docs/CLUSTER.md). It owns the node's control connection (cluster_db.h): registration and the
// session advisory lock that says it is alive, the heartbeat, the watch over the other nodes,
// and the takeover of a dead node's tables; and a second connection that hands out the ids and
// board numbers of new tables.
//
// Timing (NodeTiming): a heartbeat every 0.5 s; a node unseen for 2 s whose lock is free is
// dead and its tables are claimed (epoch + 1) and handed to `adopt`; a node unseen for 5 s that
// still holds its lock is frozen and its sessions are ended, so that its lock goes (the next
// round finds it dead). After its own control connection comes back (the database restarted)
// a node waits `grace_ms` before judging others, so that they have reconnected too.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cluster/cluster_db.h"

namespace plateau::cluster {

struct NodeTiming {
  int heartbeat_ms = 500;
  int dead_after_ms = 2000;
  int frozen_after_ms = 5000;
  int grace_ms = 2500;
};

struct NodeOptions {
  std::string url;      // the store's PostgreSQL URL
  std::string id;       // --node-id
  std::string address;  // --node-address HOST:PORT
  int node_port = 0;    // --node-port
  NodeTiming timing;
  std::size_t events_per_table = 1000;  // events loaded with a taken-over table (resync)
};

class Node {
 public:
  // Tables taken over from a dead node: their rows, and how long the node had been unseen
  // (the clocks get that time back). Called on the node's thread; must not block for long.
  using Adopt = std::function<void(std::vector<LoadedTable> tables, std::int64_t downtime_ms)>;

  // Connects, registers the node and takes its lock, then claims back the tables that are still
  // its own (and those no node owns) with a new epoch (claimed_at_start()). Throws
  // std::runtime_error if the database cannot be reached or another process runs as this id.
  explicit Node(NodeOptions options);
  // stop().
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const std::string& id() const { return options_.id; }
  // The ids claimed by the constructor: the tables this node serves from the start.
  const std::vector<std::int64_t>& claimed_at_start() const { return claimed_; }
  // Starts the heartbeat and watch thread; `adopt` receives taken-over tables; `recheck` runs
  // each time the node registers again after losing its control connection or its row (the
  // database restarted, or the node was frozen and taken over): the tables it serves should
  // check they are still its own (Lobby::recheck_tables). Both run on the node's thread.
  void start(Adopt adopt, std::function<void()> recheck = nullptr);
  // Accounts are cached per node: `changed` gets, about once a second, the stored rows of the
  // accounts changed since the last call on any node (a password, `notify`, an address: a
  // trigger records each change, cluster/mail_db.h), so that a change made on one node holds on
  // every node within about a second. Call before start(); runs on the node's thread.
  using AccountsChanged = std::function<void(std::vector<store::AccountRow> rows)>;
  void set_accounts_changed(AccountsChanged changed) { accounts_changed_ = std::move(changed); }
  // Stops the thread and, if the database is reachable, marks the node as gone (seen_at = 0)
  // and releases its lock: the other nodes take its tables over at their next round instead
  // of after dead_after_ms. Idempotent.
  void stop();

  // The id and board number of a new table of `game` (allocate_table). Thread-safe; blocks for
  // one round trip. Throws std::runtime_error when the database cannot be reached.
  std::pair<int, std::int64_t> allocate(const std::string& game);
  // Reserves `count` numbers of counter `name` above `floor` (reserve_counter): returns the
  // end of the block. Thread-safe; blocks for one round trip. Throws std::runtime_error when
  // the database cannot be reached.
  std::int64_t reserve(const std::string& name, std::int64_t floor, std::int64_t count);
  // The node serving (game, number), or nullopt (unknown, or the database unreachable).
  // Thread-safe; blocks for one round trip.
  std::optional<store::NodeRow> owner_of(const std::string& game, int number);
  // The stored account `name` / resume token `selector` (cluster_db.h fetch_account,
  // fetch_token), or nullopt (not stored, or the database unreachable: logged). Thread-safe;
  // blocks for one round trip.
  std::optional<store::AccountRow> account(const std::string& name);
  // The node link's lookups (cluster_db.h owners_of_number, node_loads: the nodes seen within
  // dead_after_ms and their table counts), or nullopt (the database unreachable: logged).
  // Thread-safe; one round trip each.
  std::optional<std::vector<std::pair<std::string, store::NodeRow>>> owners_of_number(int number);
  std::optional<std::vector<std::pair<store::NodeRow, std::int64_t>>> loads();
  std::optional<store::TokenRow> token(const std::string& selector);
  // The stored ratings of `game` (fetch_ratings: of `players`, or all when empty), or nullopt
  // (the database unreachable: logged). Thread-safe; blocks for one round trip.
  // The stored vacations ending after `since_ms` (fetch_vacations), or nullopt (the database
  // unreachable: logged). Thread-safe; blocks for one round trip.
  std::optional<std::vector<store::VacationRow>> vacations(std::int64_t since_ms);
  // Whether inbound mail (sender, Message-ID) was run on any node (mail_db.h mail_seen), or
  // nullopt (the database unreachable: logged). Thread-safe; blocks for one round trip.
  std::optional<bool> mail_seen(const std::string& sender, const std::string& message_id);
  std::optional<std::vector<store::RatingRow>> ratings(const std::string& game,
                                                       const std::vector<std::string>& players);

 private:
  void loop();
  // One round: reconnect if needed, heartbeat, judge the others. Throws on database errors.
  void round();
  void take_over(const std::string& dead, std::int64_t unseen_ms);
  // Loads and hands to adopt_ the tables claimed but not adopted yet (pending_): a load that
  // failed after its claim had committed is tried again at the next round, so no claimed table
  // is left unserved.
  void adopt_pending();
  std::int64_t steady_ms() const;
  // Runs f(side connection) under side_mutex_; nullopt (logged, the connection dropped) if it
  // throws.
  template <typename F>
  auto on_side(const char* what, F f) -> decltype(f(std::declval<Connection&>()));

  NodeOptions options_;
  std::string url_;                      // with the node's application_name
  std::unique_ptr<Connection> control_;  // the loop's only
  std::mutex side_mutex_;
  std::unique_ptr<Connection> side_;  // allocate, owner_of
  std::vector<std::int64_t> claimed_;
  Adopt adopt_;
  std::function<void()> recheck_;
  AccountsChanged accounts_changed_;
  // The database's clock at the last read of account changes (0: none yet), and the steady
  // time of that read.
  std::int64_t accounts_read_db_ms_ = 0;
  std::int64_t accounts_read_at_ms_ = 0;
  void read_account_changes();
  struct Claimed {
    std::string from;  // the dead node
    std::vector<std::int64_t> ids;
    std::int64_t unseen_ms = 0;
    std::chrono::steady_clock::time_point since;  // when the takeover began
  };
  std::vector<Claimed> pending_;     // the loop's only
  std::int64_t judge_after_ms_ = 0;  // steady clock: no judging before
  bool registered_ = true;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace plateau::cluster
