#include "cluster/feed_db.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

namespace plateau::cluster {

namespace {

using store::pg::Params;
using store::pg::Result;

// The nodes that count as live: a row seen within kLiveWithinMs (the database's clock).
#define PLATEAU_LIVE_NODES                                                                   \
  "(SELECT id FROM nodes WHERE seen_at > (extract(epoch FROM statement_timestamp()) * 1000)" \
  "::bigint - 2000)"
static_assert(kLiveWithinMs == 2000, "PLATEAU_LIVE_NODES says 2000");

#define PLATEAU_NOW_MS "(extract(epoch FROM statement_timestamp()) * 1000)::bigint"

}  // namespace

void ensure_feed_tables(Connection& db) {
  // Two nodes starting at once may both try: the second CREATE fails on the catalog's unique
  // index; the tables are there then.
  try {
    db.exec(
        "CREATE TABLE IF NOT EXISTS plateau_presence (node TEXT NOT NULL, name TEXT NOT NULL, "
        "since BIGINT NOT NULL, PRIMARY KEY (node, name));"
        "CREATE TABLE IF NOT EXISTS plateau_listings (node TEXT PRIMARY KEY, body TEXT NOT NULL, "
        "at BIGINT NOT NULL)");
  } catch (const store::pg::Error& e) {
    if (e.sqlstate() != "23505" && e.sqlstate() != "42P07") throw;
  }
}

std::vector<store::EventRow> events_after(Connection& db, std::int64_t table_id, std::int64_t after,
                                          int limit) {
  Result r = db.run(
      "SELECT seq, kind, body FROM table_events WHERE table_id = $1 AND seq > $2 "
      "ORDER BY seq LIMIT $3",
      Params().integer(table_id).integer(after).integer(limit));
  std::vector<store::EventRow> out;
  out.reserve(static_cast<std::size_t>(r.rows()));
  for (int i = 0; i < r.rows(); ++i) {
    out.push_back({table_id, r.integer(i, 0), r.text(i, 1), r.text(i, 2)});
  }
  return out;
}

void set_present(Connection& db, const std::string& node, const std::string& name, bool online) {
  if (online) {
    db.run("INSERT INTO plateau_presence(node, name, since) VALUES ($1, $2, " PLATEAU_NOW_MS
           ") ON CONFLICT (node, name) DO NOTHING",
           Params().text(node).text(name));
  } else {
    db.run("DELETE FROM plateau_presence WHERE node = $1 AND name = $2",
           Params().text(node).text(name));
  }
}

void reset_presence(Connection& db, const std::string& node,
                    const std::vector<std::string>& names) {
  db.exec("BEGIN");
  try {
    db.run("DELETE FROM plateau_presence WHERE node = $1", Params().text(node));
    for (const auto& n : names) {
      db.run("INSERT INTO plateau_presence(node, name, since) VALUES ($1, $2, " PLATEAU_NOW_MS
             ") ON CONFLICT (node, name) DO NOTHING",
             Params().text(node).text(n));
    }
    db.exec("COMMIT");
  } catch (...) {
    if (db.ok()) {
      try {
        db.exec("ROLLBACK");
      } catch (...) {
      }
    }
    throw;
  }
}

std::vector<std::string> remote_presence(Connection& db, const std::string& self) {
  Result r = db.run(
      "SELECT min(name) FROM plateau_presence WHERE node <> $1 AND node IN " PLATEAU_LIVE_NODES
      " GROUP BY lower(name) ORDER BY 1",
      Params().text(self));
  std::vector<std::string> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(r.text(i, 0));
  return out;
}

void forget_gone_nodes(Connection& db) {
  db.exec(
      "DELETE FROM plateau_presence WHERE node NOT IN (SELECT id FROM nodes);"
      "DELETE FROM plateau_listings WHERE node NOT IN (SELECT id FROM nodes)");
}

void put_listing(Connection& db, const std::string& node, const std::string& body) {
  db.run("INSERT INTO plateau_listings(node, body, at) VALUES ($1, $2, " PLATEAU_NOW_MS
         ") ON CONFLICT (node) DO UPDATE SET body = excluded.body, at = excluded.at",
         Params().text(node).text(body));
}

std::vector<std::pair<std::string, std::string>> remote_listings(Connection& db,
                                                                 const std::string& self) {
  Result r = db.run(
      "SELECT node, body FROM plateau_listings WHERE node <> $1 AND node IN " PLATEAU_LIVE_NODES
      " ORDER BY node COLLATE \"C\"",
      Params().text(self));
  std::vector<std::pair<std::string, std::string>> out;
  for (int i = 0; i < r.rows(); ++i) out.emplace_back(r.text(i, 0), r.text(i, 1));
  return out;
}

namespace {

std::string ascii_lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// seated_tables when a row is not JSON (damaged: the database refuses the whole query): the
// rows that name the user ("name":"NAME"), read here one by one, a damaged one left out.
std::vector<SeatedTable> seated_tables_checked(Connection& db, const std::string& self,
                                               const std::string& name, int limit) {
  Result r = db.run(
      "SELECT t.id, t.game, t.number, "
      "COALESCE((SELECT max(seq) FROM table_events e WHERE e.table_id = t.id), 0), t.data "
      "FROM tables t WHERE t.owner <> $1 AND t.owner IN " PLATEAU_LIVE_NODES
      " AND strpos(lower(t.data), lower($2)) > 0 ORDER BY t.id",
      Params().text(self).text("\"name\":\"" + name + "\""));
  const std::string want = ascii_lower(name);
  std::vector<SeatedTable> out;
  for (int i = 0; i < r.rows() && static_cast<int>(out.size()) < limit; ++i) {
    const auto data = nlohmann::json::parse(r.text(i, 4), nullptr, false);
    if (!data.is_object()) {
      spdlog::warn("table id {}: its row is not JSON; left out of {}'s seats", r.integer(i, 0),
                   name);
      continue;
    }
    const std::string status =
        data.value("status", nlohmann::json()).is_string() ? data["status"].get<std::string>() : "";
    if (status != "setup" && status != "playing") continue;
    const auto seats = data.find("seats");
    if (seats == data.end() || !seats->is_array()) continue;
    bool seated = false;
    for (const auto& seat : *seats) {
      seated = seated || (seat.is_object() && seat.value("kind", nlohmann::json()) == "user" &&
                          seat.value("name", nlohmann::json()).is_string() &&
                          ascii_lower(seat["name"].get<std::string>()) == want);
    }
    if (seated) {
      out.push_back(
          {r.integer(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)), r.integer(i, 3)});
    }
  }
  return out;
}

}  // namespace

std::vector<SeatedTable> seated_tables(Connection& db, const std::string& self,
                                       const std::string& name, int limit) {
  // The seats are in the table's snapshot (tables.data, Table::data_json): read as jsonb, but
  // only for the rows whose text names the user at all (compact JSON: "name":"NAME"), so that
  // a login does not parse every table of the other nodes (OFFSET 0 keeps that filter first).
  try {
    Result r = db.run(
        "SELECT t.id, t.game, t.number, "
        "COALESCE((SELECT max(seq) FROM table_events e WHERE e.table_id = t.id), 0) "
        "FROM (SELECT id, game, number, data FROM tables WHERE owner <> $1 AND owner "
        "IN " PLATEAU_LIVE_NODES
        " AND strpos(lower(data), lower($4)) > 0 OFFSET 0) t "
        "WHERE t.data::jsonb->>'status' IN ('setup', 'playing') AND EXISTS (SELECT 1 FROM "
        "jsonb_array_elements(t.data::jsonb->'seats') s WHERE s->>'kind' = 'user' "
        "AND lower(s->>'name') = lower($2)) ORDER BY t.id LIMIT $3",
        Params().text(self).text(name).integer(limit).text("\"name\":\"" + name + "\""));
    std::vector<SeatedTable> out;
    for (int i = 0; i < r.rows(); ++i) {
      out.push_back(
          {r.integer(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)), r.integer(i, 3)});
    }
    return out;
  } catch (const store::pg::Error& e) {
    if (e.sqlstate() != "22P02") throw;  // not a row that is not JSON
    return seated_tables_checked(db, self, name, limit);
  }
}

}  // namespace plateau::cluster
