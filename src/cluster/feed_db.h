#pragma once
// The SQL of the events, presence and listings shared across nodes (issue 16 item 3;
// docs/CLUSTER.md, "Events across nodes"): what the event feed (event_feed.h) reads and writes
// besides its LISTEN connection.
//
// Two tables of the cluster alone, made by ensure_feed_tables() (IF NOT EXISTS: they hold only
// what is live, so they are no part of the store's migrations or of `plateau store copy`):
//   plateau_presence (node, name, since): who is logged in on which node;
//   plateau_listings (node, body, at): each node's table listing, a JSON array it rewrites
//     when its tables change (at most once a second).
// A row of a node that is no longer live (no `nodes` row, or unseen for 2 s) is never read: a
// dead node's users and tables vanish from the others' answers at once, and the node's own
// rows are replaced when it registers again.
//
// Every function throws store::pg::Error or store::pg::ConnectionLost (the caller reconnects).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/pg_connection.h"
#include "store/store_types.h"

namespace plateau::cluster {

using store::pg::Connection;

// A node unseen for this long is not live: its presence and listing rows are not read (the
// failover's own "dead" threshold, node.h NodeTiming::dead_after_ms).
inline constexpr std::int64_t kLiveWithinMs = 2000;

// Creates plateau_presence and plateau_listings if missing (safe from several nodes at once).
void ensure_feed_tables(Connection& db);

// The events of table `table_id` with seq > `after`, by seq, at most `limit` of them.
std::vector<store::EventRow> events_after(Connection& db, std::int64_t table_id, std::int64_t after,
                                          int limit);

// Presence of node `node`: `name` online (since now) or not.
void set_present(Connection& db, const std::string& node, const std::string& name, bool online);
// Replaces every presence row of `node` by `names` (start, reconnection), in one transaction.
void reset_presence(Connection& db, const std::string& node, const std::vector<std::string>& names);
// The names logged in on live nodes other than `self`, each once (any case), sorted.
std::vector<std::string> remote_presence(Connection& db, const std::string& self);

// Deletes the presence and listing rows of nodes that have no `nodes` row any more (taken over
// and gone for good).
void forget_gone_nodes(Connection& db);

// Writes node `node`'s listing (a JSON array, bounded by the caller).
void put_listing(Connection& db, const std::string& node, const std::string& body);
// The listings of live nodes other than `self`: (node, body), by node.
std::vector<std::pair<std::string, std::string>> remote_listings(Connection& db,
                                                                 const std::string& self);

// A table where a user sits, served by another live node: what a node needs to follow it.
struct SeatedTable {
  std::int64_t id = 0;
  std::string game;
  int number = 0;
  std::int64_t last_seq = 0;
};
// The tables not over (status setup or playing) where `name` (any case) holds a seat, served
// by live nodes other than `self`, by id; at most `limit`.
std::vector<SeatedTable> seated_tables(Connection& db, const std::string& self,
                                       const std::string& name, int limit);

}  // namespace plateau::cluster
