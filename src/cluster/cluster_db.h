#pragma once
// The SQL of several `plateau serve` nodes on one PostgreSQL database (issue 16, items 2 and 4;
// docs/CLUSTER.md), on a connection of the node's own (not the store's writer):
//   - a node registers (a row of `nodes`) and holds a SESSION advisory lock keyed by its id
//     for as long as its control connection lives: the lock is its liveness, PostgreSQL's own;
//   - it heartbeats `seen_at` (the database's clock, so the nodes' clocks never matter);
//   - a node unseen for a while whose lock is free is dead: another node claims its tables in
//     one transaction (owner = self, epoch + 1: the fencing token, batch.h FenceTable) and
//     deletes its row; a node that holds its lock but stopped heartbeating (frozen) has its
//     session ended (pg_terminate_backend), which frees the lock;
//   - new tables take their id and board number from the database (counters), so two nodes
//     never make the same table.
// Every function throws store::pg::Error or store::pg::ConnectionLost (the caller reconnects).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/pg_connection.h"
#include "store/store_types.h"

namespace plateau::cluster {

using store::pg::Connection;

// The database's clock: ms since the epoch.
std::int64_t db_now_ms(Connection& db);

// Inserts or updates node `row.id` (address, node_port; started_at and seen_at = now) and takes
// its session advisory lock. False (and nothing changed) if the lock is held: another process
// runs as this node id.
bool register_node(Connection& db, const store::NodeRow& row);

// seen_at = now for `id`. False if the row is gone (another node found it dead and took its
// tables): the caller registers again.
bool heartbeat(Connection& db, const std::string& id);

// Nodes other than `self` not seen for `unseen_ms` or more: (id, ms since last seen).
std::vector<std::pair<std::string, std::int64_t>> stale_nodes(Connection& db,
                                                              const std::string& self,
                                                              std::int64_t unseen_ms);

// Owners of tables that have no node row (a node deleted by hand, a database copied from a
// cluster), other than `self` and "": their tables are claimed like a dead node's.
std::vector<std::string> orphan_owners(Connection& db, const std::string& self);

// Tries to take node `id`'s lock: true if it was free (the node's session is gone: it is dead),
// and this session then holds it until unlock_node(). False if the node still holds it.
bool try_lock_node(Connection& db, const std::string& id);
void unlock_node(Connection& db, const std::string& id);

// Ends the database sessions of node `id` (a frozen node): the one holding its lock (the lock
// goes with it) and those named by its application_name. Returns how many were ended.
int terminate_node(Connection& db, const std::string& id);

// One table's rows, as a node loads it to serve it.
struct LoadedTable {
  store::TableRow row;
  std::vector<store::MoveRow> moves;    // by ply
  std::vector<store::ChatRow> chat;     // in order
  std::vector<store::EventRow> events;  // the last `events_per_table`, by seq
};

// In one transaction: every table owned by one of `from` becomes `self`'s with epoch + 1, and
// the node rows of `from` other than `self` are deleted. Returns the claimed table ids.
// At a takeover `from` is the dead node; at start-up it is {self, ""}: a node that restarts
// takes back what is still its own (and tables no node owns), with a new epoch, so that
// anything its previous process still had in flight is fenced.
std::vector<std::int64_t> claim_tables(Connection& db, const std::string& self,
                                       const std::vector<std::string>& from);

// The rows of tables `ids` (in one read-only transaction), by id.
std::vector<LoadedTable> load_tables(Connection& db, const std::vector<std::int64_t>& ids,
                                     std::size_t events_per_table);

// The id and board number of a new table of `game`: above every stored one and every one
// handed out before (counters "cluster_table_id" and "cluster_number:GAME"; numbers from 101).
std::pair<int, std::int64_t> allocate_table(Connection& db, const std::string& game);

// Reserves `count` numbers of counter `name` for this node alone: the counter becomes
// max(its value, `floor`) + count, atomically, and the numbers [result - count, result) are
// this caller's (the guest names of several nodes never meet).
std::int64_t reserve_counter(Connection& db, const std::string& name, std::int64_t floor,
                             std::int64_t count);

// The node serving table (game, number), if it is stored with a registered owner.
std::optional<store::NodeRow> owner_of(Connection& db, const std::string& game, int number);

// The tables numbered `number` (of any game) whose owner is registered: (game, owner) pairs,
// by game. For a command that names a board by its number alone (the node link).
std::vector<std::pair<std::string, store::NodeRow>> owners_of_number(Connection& db, int number);

// The nodes seen within `alive_ms` and how many tables each owns, by id: where a new table goes
// (the least loaded; the node link).
std::vector<std::pair<store::NodeRow, std::int64_t>> node_loads(Connection& db,
                                                                 std::int64_t alive_ms);

// What another node may have written since this one started (its caches were read then): the
// account `name` (any case), the resume token `selector`. nullopt if not stored.
std::optional<store::AccountRow> fetch_account(Connection& db, const std::string& name);
std::optional<store::TokenRow> fetch_token(Connection& db, const std::string& selector);
// The stored ratings of `game`: of `players` (names in any case; those without a row are left
// out), or of every player when `players` is empty. Throws PgError.
// The stored vacations that end after `since_ms` (ms since the epoch), of every user. Throws
// PgError.
std::vector<store::VacationRow> fetch_vacations(Connection& db, std::int64_t since_ms);
std::vector<store::RatingRow> fetch_ratings(Connection& db, const std::string& game,
                                            const std::vector<std::string>& players);

// Every registered node, by id.
std::vector<store::NodeRow> nodes(Connection& db);

// The application_name of node `id`'s database sessions ("plateau-node-ID"), by which
// terminate_node() finds them all.
std::string application_name(const std::string& id);
// The store URL `url` (a libpq URI or key=value string) with node `id`'s application_name.
std::string url_for_node(const std::string& url, const std::string& id);

// A node id: 1 to 48 characters of [A-Za-z0-9._-]. "" if `id` is one, else why not.
std::string bad_node_id(const std::string& id);
// HOST:PORT (HOST a name or address, PORT 1-65535). "" if `address` is one, else why not.
std::string bad_node_address(const std::string& address);

}  // namespace plateau::cluster
