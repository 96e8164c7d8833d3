#pragma once
// The SQL of the events, presence and listings shared across nodes (issue 16 item 3;
// docs/CLUSTER.md, "Events across nodes"): what the event feed (event_feed.h) reads and writes
// besides its LISTEN connection.
//
// Three tables of the cluster alone (PostgreSQL schema version 11, postgres_migrations.cpp; they
// hold only what is live, so `plateau store copy` leaves them out, and SQLite has none):
//   plateau_presence (node, name, since): who is logged in on which node;
//   plateau_listings (node, body, at): each node's table listing, a JSON array it rewrites
//     when its tables change (at most once a second);
//   plateau_seats (node, table_id, name), indexed by name: the users seated at each node's
//     tables not over, so that a login finds its tables on other nodes by an index lookup.
// A row of a node that is no longer live (no `nodes` row, or unseen for 2 s) is never read: a
// dead node's users and tables vanish from the others' answers at once, and the node's own
// rows are replaced when it registers again. They are written with synchronous_commit off:
// nothing in them outlives the node that wrote them.
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

// The events of table `table_id` with seq > `after`, by seq, at most `limit` of them.
std::vector<store::EventRow> events_after(Connection& db, std::int64_t table_id, std::int64_t after,
                                          int limit);
// The same for several tables in one round trip: `cursors` (table id, after), each table's
// events with seq > its `after`, at most `limit` per table, by table id then seq. At most
// kTablesPerRead tables (std::invalid_argument beyond).
inline constexpr std::size_t kTablesPerRead = 256;
std::vector<store::EventRow> events_after_tables(
    Connection& db, const std::vector<std::pair<std::int64_t, std::int64_t>>& cursors, int limit);

// Presence of node `node`: the names of `online` online (since now, if they were not), those
// of `offline` not; in one transaction, one round trip.
void set_present(Connection& db, const std::string& node, const std::vector<std::string>& online,
                 const std::vector<std::string>& offline);
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

// A seat of a user (any case: stored in ASCII lower case) at table `table_id`.
struct SeatRow {
  std::int64_t table_id = 0;
  std::string name;
  auto operator<=>(const SeatRow&) const = default;
};
// Node `node`'s seat rows: `added` written, `removed` deleted; or, with `reset`, every row of
// the node replaced by `added`. One transaction, one round trip.
void put_seats(Connection& db, const std::string& node, const std::vector<SeatRow>& added,
               const std::vector<SeatRow>& removed, bool reset);

// A table where a user sits, served by another live node: what a node needs to follow it.
struct SeatedTable {
  std::int64_t id = 0;
  std::string game;
  int number = 0;
  std::int64_t last_seq = 0;
};
// The tables not over (status setup or playing) where `name` (any case) holds a seat, served
// by live nodes other than `self`, by id; at most `limit`. Found through plateau_seats (the
// owner's rows, by name), each confirmed from its table's row: a row that is not JSON is left
// out and logged.
std::vector<SeatedTable> seated_tables(Connection& db, const std::string& self,
                                       const std::string& name, int limit);

}  // namespace plateau::cluster
