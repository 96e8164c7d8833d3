#include "cluster/cluster_db.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace plateau::cluster {

namespace {

using store::pg::Params;
using store::pg::Result;
using store::pg::Transaction;

// The class key of the nodes' advisory locks (two-key form: this, hashtext(node id)). It is not
// the migration lock's one-key form (postgres_backend.cpp), so they never meet.
#define PLATEAU_NODE_LOCK "1886151029, hashtext($1)"

// A PostgreSQL array literal of integers: {1,2,3}.
std::string int_array(const std::vector<std::int64_t>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(values[i]);
  }
  return out + "}";
}

// A PostgreSQL array literal of node ids (bad_node_id() checked: no quote, no backslash; ""
// for "no owner").
std::string text_array(const std::vector<std::string>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ',';
    out += '"' + values[i] + '"';
  }
  return out + "}";
}

}  // namespace

std::int64_t db_now_ms(Connection& db) {
  return db.run("SELECT (extract(epoch FROM statement_timestamp()) * 1000)::bigint").integer(0, 0);
}

bool register_node(Connection& db, const store::NodeRow& row) {
  if (db.run("SELECT pg_try_advisory_lock(" PLATEAU_NODE_LOCK ")", Params().text(row.id))
          .text(0, 0) != "t") {
    return false;
  }
  db.run(
      "INSERT INTO nodes(id, address, node_port, started_at, seen_at) VALUES ($1, $2, $3, "
      "(extract(epoch FROM statement_timestamp()) * 1000)::bigint, "
      "(extract(epoch FROM statement_timestamp()) * 1000)::bigint) "
      "ON CONFLICT (id) DO UPDATE SET address = excluded.address, "
      "node_port = excluded.node_port, started_at = excluded.started_at, "
      "seen_at = excluded.seen_at",
      Params().text(row.id).text(row.address).integer(row.node_port));
  return true;
}

bool heartbeat(Connection& db, const std::string& id) {
  return db.run(
               "UPDATE nodes SET seen_at = (extract(epoch FROM statement_timestamp()) * "
               "1000)::bigint "
               "WHERE id = $1 RETURNING id",
               Params().text(id))
             .rows() > 0;
}

std::vector<std::pair<std::string, std::int64_t>> stale_nodes(Connection& db,
                                                              const std::string& self,
                                                              std::int64_t unseen_ms) {
  Result r = db.run(
      "SELECT id, now_ms - seen_at FROM nodes, "
      "(SELECT (extract(epoch FROM statement_timestamp()) * 1000)::bigint AS now_ms) c "
      "WHERE id <> $1 AND seen_at <= now_ms - $2 ORDER BY id",
      Params().text(self).integer(unseen_ms));
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (int i = 0; i < r.rows(); ++i) out.emplace_back(r.text(i, 0), r.integer(i, 1));
  return out;
}

std::vector<std::string> orphan_owners(Connection& db, const std::string& self) {
  Result r = db.run(
      "SELECT DISTINCT owner FROM tables WHERE owner <> '' AND owner <> $1 "
      "AND NOT EXISTS (SELECT 1 FROM nodes WHERE nodes.id = tables.owner) ORDER BY owner",
      Params().text(self));
  std::vector<std::string> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
  return out;
}

bool try_lock_node(Connection& db, const std::string& id) {
  return db.run("SELECT pg_try_advisory_lock(" PLATEAU_NODE_LOCK ")", Params().text(id))
             .text(0, 0) == "t";
}

void unlock_node(Connection& db, const std::string& id) {
  db.run("SELECT pg_advisory_unlock(" PLATEAU_NODE_LOCK ")", Params().text(id));
}

int terminate_node(Connection& db, const std::string& id) {
  // pg_locks shows a two-key advisory lock as classid = key 1, objid = key 2 (as oid), objsubid
  // 2. The node's store connection goes too (its application_name): frozen inside a commit, it
  // would hold its tables' rows locked and keep the takeover waiting.
  Result r = db.run(
      "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
      "WHERE pid <> pg_backend_pid() AND (application_name = $2 OR pid IN (SELECT pid FROM "
      "pg_locks WHERE locktype = 'advisory' AND classid = 1886151029 "
      "AND objid = hashtext($1)::oid AND objsubid = 2 AND granted))",
      Params().text(id).text(application_name(id)));
  return static_cast<int>(r.integer(0, 0));
}

std::string application_name(const std::string& id) { return "plateau-node-" + id; }

std::string url_for_node(const std::string& url, const std::string& id) {
  if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0) {
    return url + (url.find('?') == std::string::npos ? "?" : "&") +
           "application_name=" + application_name(id);
  }
  return url + " application_name=" + application_name(id);  // a key=value string
}

std::vector<std::int64_t> claim_tables(Connection& db, const std::string& self,
                                       const std::vector<std::string>& from) {
  Transaction tx(db, "BEGIN");
  // A row held by a commit that never ends (its node frozen) must not hold the monitor: it
  // gives up and tries again at its next round.
  db.exec("SET LOCAL lock_timeout = '2s'");
  // Each row's lock waits for a commit of its old owner in flight (its FenceTable holds the
  // row FOR UPDATE): the epoch is raised after that commit, never under it.
  Result r = db.run(
      "UPDATE tables SET owner = $1, epoch = epoch + 1 WHERE owner = ANY($2::text[]) "
      "RETURNING id",
      Params().text(self).text(text_array(from)));
  db.run("DELETE FROM nodes WHERE id = ANY($2::text[]) AND id <> $1",
         Params().text(self).text(text_array(from)));
  tx.commit();
  std::vector<std::int64_t> ids;
  for (int i = 0; i < r.rows(); ++i) ids.push_back(r.integer(i, 0));
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<LoadedTable> load_tables(Connection& db, const std::vector<std::int64_t>& ids,
                                     std::size_t events_per_table) {
  std::vector<LoadedTable> out;
  if (ids.empty()) return out;
  Transaction tx(db, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  const std::string list = int_array(ids);
  std::map<std::int64_t, std::size_t> at;
  Result r = db.run(
      "SELECT id, game, number, data, created_ms, owner, epoch FROM tables "
      "WHERE id = ANY($1::bigint[]) ORDER BY id",
      Params().text(list));
  for (int i = 0; i < r.rows(); ++i) {
    at[r.integer(i, 0)] = out.size();
    out.push_back({{r.integer(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)), r.text(i, 3),
                    r.integer(i, 4), r.text(i, 5), r.integer(i, 6)},
                   {},
                   {},
                   {}});
  }
  r = db.run(
      "SELECT table_id, ply, move, seat, automatic, at_ms FROM moves "
      "WHERE table_id = ANY($1::bigint[]) ORDER BY table_id, ply",
      Params().text(list));
  for (int i = 0; i < r.rows(); ++i) {
    auto it = at.find(r.integer(i, 0));
    if (it == at.end()) continue;
    out[it->second].moves.push_back({r.integer(i, 0), static_cast<int>(r.integer(i, 1)),
                                     r.text(i, 2), static_cast<int>(r.integer(i, 3)),
                                     r.integer(i, 4) != 0, r.integer(i, 5)});
  }
  r = db.run(
      "SELECT table_id, at_ms, \"user\", text FROM chat WHERE table_id = ANY($1::bigint[]) "
      "ORDER BY table_id, seq",
      Params().text(list));
  for (int i = 0; i < r.rows(); ++i) {
    auto it = at.find(r.integer(i, 0));
    if (it == at.end()) continue;
    out[it->second].chat.push_back({r.integer(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3)});
  }
  r = db.run(
      "SELECT e.table_id, e.seq, e.kind, e.body FROM table_events e "
      "JOIN (SELECT table_id, MAX(seq) AS last FROM table_events "
      "WHERE table_id = ANY($1::bigint[]) GROUP BY table_id) m ON m.table_id = e.table_id "
      "WHERE e.seq > m.last - $2 ORDER BY e.table_id, e.seq",
      Params().text(list).integer(
          static_cast<std::int64_t>(std::min<std::size_t>(events_per_table, INT64_MAX))));
  for (int i = 0; i < r.rows(); ++i) {
    auto it = at.find(r.integer(i, 0));
    if (it == at.end()) continue;
    out[it->second].events.push_back(
        {r.integer(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3)});
  }
  tx.commit();
  return out;
}

std::pair<int, std::int64_t> allocate_table(Connection& db, const std::string& game) {
  // One transaction that waits for no WAL flush of its own (it runs on a node's I/O thread, and
  // holds the counters' rows that every node's new tables wait for: two flushed commits made a
  // challenge's p99 2.5 s with three nodes under load, docs/PERFORMANCE.md "Server on
  // PostgreSQL"). Still never handed out twice: a table stored with these numbers commits after
  // this, and its flush covers every earlier commit; numbers lost in a database crash belonged
  // to no stored table (a node still holding such a table in memory is refused by its fence).
  Transaction tx(db, "BEGIN");
  db.exec("SET LOCAL synchronous_commit = off");
  // GREATEST with what is stored: a database that had tables before its first node (a copy
  // of a single server's) numbers on from them.
  const std::int64_t id =
      db.run(
            "INSERT INTO counters(name, value) VALUES ('cluster_table_id', "
            "(SELECT COALESCE(MAX(id), 0) FROM tables) + 1) ON CONFLICT (name) DO UPDATE SET "
            "value = GREATEST(counters.value, (SELECT COALESCE(MAX(id), 0) FROM tables)) + 1 "
            "RETURNING value")
          .integer(0, 0);
  const std::int64_t number =
      db.run(
            "INSERT INTO counters(name, value) VALUES ('cluster_number:' || $1, "
            "GREATEST(100, (SELECT COALESCE(MAX(number), 0) FROM tables WHERE game = $1)) + 1) "
            "ON CONFLICT (name) DO UPDATE SET value = GREATEST(counters.value, 100, "
            "(SELECT COALESCE(MAX(number), 0) FROM tables WHERE game = $1)) + 1 RETURNING value",
            Params().text(game))
          .integer(0, 0);
  if (number > INT32_MAX) throw std::runtime_error("board numbers of " + game + " are used up");
  tx.commit();
  return {static_cast<int>(number), id};
}

std::int64_t reserve_counter(Connection& db, const std::string& name, std::int64_t floor,
                             std::int64_t count) {
  return db
      .run(
          "INSERT INTO counters(name, value) VALUES ($1, $2::bigint + $3::bigint) ON CONFLICT "
          "(name) DO UPDATE SET value = GREATEST(counters.value, $2::bigint) + $3::bigint "
          "RETURNING value",
          Params().text(name).integer(floor).integer(count))
      .integer(0, 0);
}

std::optional<store::NodeRow> owner_of(Connection& db, const std::string& game, int number) {
  Result r = db.run(
      "SELECT n.id, n.address, n.node_port, n.started_at, n.seen_at FROM tables t "
      "JOIN nodes n ON n.id = t.owner WHERE t.game = $1 AND t.number = $2",
      Params().text(game).integer(number));
  if (r.rows() == 0) return std::nullopt;
  return store::NodeRow{r.text(0, 0), r.text(0, 1), static_cast<int>(r.integer(0, 2)),
                        r.integer(0, 3), r.integer(0, 4)};
}

std::vector<std::pair<std::string, store::NodeRow>> owners_of_number(Connection& db, int number) {
  Result r = db.run(
      "SELECT t.game, n.id, n.address, n.node_port, n.started_at, n.seen_at FROM tables t "
      "JOIN nodes n ON n.id = t.owner WHERE t.number = $1 ORDER BY t.game COLLATE \"C\"",
      Params().integer(number));
  std::vector<std::pair<std::string, store::NodeRow>> out;
  for (int i = 0; i < r.rows(); ++i) {
    out.push_back(
        {r.text(i, 0), store::NodeRow{r.text(i, 1), r.text(i, 2), static_cast<int>(r.integer(i, 3)),
                                      r.integer(i, 4), r.integer(i, 5)}});
  }
  return out;
}

std::vector<std::pair<store::NodeRow, std::int64_t>> node_loads(Connection& db,
                                                                std::int64_t alive_ms) {
  Result r = db.run(
      "SELECT n.id, n.address, n.node_port, n.started_at, n.seen_at, "
      "(SELECT count(*) FROM tables t WHERE t.owner = n.id) FROM nodes n "
      "WHERE n.seen_at >= (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $1 "
      "ORDER BY n.id COLLATE \"C\"",
      Params().integer(alive_ms));
  std::vector<std::pair<store::NodeRow, std::int64_t>> out;
  for (int i = 0; i < r.rows(); ++i) {
    out.push_back({store::NodeRow{r.text(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)),
                                  r.integer(i, 3), r.integer(i, 4)},
                   r.integer(i, 5)});
  }
  return out;
}

std::optional<store::AccountRow> fetch_account(Connection& db, const std::string& name) {
  Result r = db.run(
      "SELECT name, password_hash, created_ms, challenge_limit, email, notify FROM accounts "
      "WHERE plateau_nocase(name) = plateau_nocase($1)",
      Params().text(name));
  if (r.rows() == 0) return std::nullopt;
  return store::AccountRow{r.text(0, 0),    r.text(0, 1),
                           r.integer(0, 2), static_cast<int>(r.integer(0, 3)),
                           r.text(0, 4),    r.text(0, 5)};
}

std::optional<store::TokenRow> fetch_token(Connection& db, const std::string& selector) {
  Result r = db.run(
      "SELECT selector, verifier_hash, \"user\", guest, created_ms, expires_ms "
      "FROM resume_tokens WHERE selector = $1",
      Params().text(selector));
  if (r.rows() == 0) return std::nullopt;
  return store::TokenRow{r.text(0, 0),         r.text(0, 1),    r.text(0, 2),
                         r.integer(0, 3) != 0, r.integer(0, 4), r.integer(0, 5)};
}

std::vector<store::VacationRow> fetch_vacations(Connection& db, std::int64_t since_ms) {
  Result r = db.run("SELECT \"user\", start_ms, end_ms FROM vacations WHERE end_ms > $1",
                    Params().integer(since_ms));
  std::vector<store::VacationRow> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back({r.text(i, 0), r.integer(i, 1), r.integer(i, 2)});
  return out;
}

std::vector<store::RatingRow> fetch_ratings(Connection& db, const std::string& game,
                                            const std::vector<std::string>& players) {
  Params params;
  params.text(game);
  std::string sql =
      "SELECT game, player, rating, deviation, volatility, games FROM ratings WHERE game = $1";
  if (!players.empty()) {
    sql += " AND plateau_nocase(player) IN (";
    for (std::size_t i = 0; i < players.size(); ++i) {
      params.text(players[i]);
      sql += (i ? ", " : "") + std::string("plateau_nocase($") + std::to_string(i + 2) + ")";
    }
    sql += ")";
  }
  Result r = db.run(sql.c_str(), params);
  std::vector<store::RatingRow> out;
  for (int i = 0; i < r.rows(); ++i) {
    out.push_back({r.text(i, 0), r.text(i, 1), r.real(i, 2), r.real(i, 3), r.real(i, 4),
                   static_cast<int>(r.integer(i, 5))});
  }
  return out;
}

std::vector<store::NodeRow> nodes(Connection& db) {
  Result r = db.run(
      "SELECT id, address, node_port, started_at, seen_at FROM nodes ORDER BY id COLLATE \"C\"");
  std::vector<store::NodeRow> out;
  for (int i = 0; i < r.rows(); ++i) {
    out.push_back({r.text(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)), r.integer(i, 3),
                   r.integer(i, 4)});
  }
  return out;
}

std::string bad_node_id(const std::string& id) {
  if (id.empty() || id.size() > 48) return "a node id has 1 to 48 characters";
  for (unsigned char c : id) {
    if (!std::isalnum(c) && c != '.' && c != '_' && c != '-') {
      return "a node id is made of letters, digits, '.', '_' and '-'";
    }
  }
  return "";
}

std::string bad_node_address(const std::string& address) {
  const std::size_t colon = address.rfind(':');
  const char* why = "HOST:PORT expected (a host name or address, a port from 1 to 65535)";
  if (colon == std::string::npos || colon == 0 || address.size() > 255) return why;
  const std::string host = address.substr(0, colon);
  for (unsigned char c : host) {
    if (!std::isalnum(c) && c != '.' && c != '-' && c != '[' && c != ']' && c != ':') return why;
  }
  int port = 0;
  const char* begin = address.data() + colon + 1;
  const char* end = address.data() + address.size();
  auto [p, ec] = std::from_chars(begin, end, port);
  if (ec != std::errc() || p != end || begin == end || port < 1 || port > 65535) return why;
  return "";
}

}  // namespace plateau::cluster
