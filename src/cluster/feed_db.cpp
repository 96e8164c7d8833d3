#include "cluster/feed_db.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/text.h"

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

// A PostgreSQL array literal of `values`, each quoted: {"a","b\\"c"}.
template <typename Range, typename Get>
std::string array_literal(const Range& values, Get get) {
  std::string out = "{";
  for (const auto& v : values) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (char c : get(v)) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

std::string text_array(const std::vector<std::string>& values) {
  return array_literal(values, [](const std::string& v) -> const std::string& { return v; });
}

// Runs `statements` (BEGIN ... COMMIT) in one round trip; a failed one rolls the transaction
// back before the error goes on.
void run_transaction(Connection& db, const std::vector<store::pg::Statement>& statements) {
  try {
    db.run_pipeline(statements);
  } catch (const store::pg::Error&) {
    try {
      db.exec("ROLLBACK");
    } catch (...) {
    }
    throw;
  }
}

}  // namespace

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

std::vector<store::EventRow> events_after_tables(
    Connection& db, const std::vector<std::pair<std::int64_t, std::int64_t>>& cursors, int limit) {
  if (cursors.size() > kTablesPerRead) {
    throw std::invalid_argument("events_after_tables: more than kTablesPerRead tables");
  }
  std::vector<store::EventRow> out;
  if (cursors.empty()) return out;
  std::string ids = "{", afters = "{";
  for (const auto& [id, after] : cursors) {
    if (ids.size() > 1) {
      ids += ',';
      afters += ',';
    }
    ids += std::to_string(id);
    afters += std::to_string(after);
  }
  ids += '}';
  afters += '}';
  // One index range per table (the primary key (table_id, seq)), each cut at `limit`.
  Result r = db.run(
      "SELECT e.table_id, e.seq, e.kind, e.body FROM unnest($1::bigint[], $2::bigint[]) AS "
      "c(id, after) CROSS JOIN LATERAL (SELECT table_id, seq, kind, body FROM table_events "
      "WHERE table_id = c.id AND seq > c.after ORDER BY seq LIMIT $3) e ORDER BY e.table_id, e.seq",
      Params().text(ids).text(afters).integer(limit));
  out.reserve(static_cast<std::size_t>(r.rows()));
  for (int i = 0; i < r.rows(); ++i) {
    out.push_back({r.integer(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3)});
  }
  return out;
}

namespace {

constexpr const char* kInsertPresence =
    "INSERT INTO plateau_presence(node, name, since) SELECT $1, n, " PLATEAU_NOW_MS
    " FROM unnest($2::text[]) AS n ON CONFLICT (node, name) DO NOTHING";

}  // namespace

void set_present(Connection& db, const std::string& node, const std::vector<std::string>& online,
                 const std::vector<std::string>& offline) {
  if (online.empty() && offline.empty()) return;
  run_transaction(db, {{"BEGIN", {}},
                       {"SET LOCAL synchronous_commit = off", {}},
                       {"DELETE FROM plateau_presence WHERE node = $1 AND name = ANY($2::text[])",
                        Params().text(node).text(text_array(offline))},
                       {kInsertPresence, Params().text(node).text(text_array(online))},
                       {"COMMIT", {}}});
}

void reset_presence(Connection& db, const std::string& node,
                    const std::vector<std::string>& names) {
  run_transaction(db, {{"BEGIN", {}},
                       {"SET LOCAL synchronous_commit = off", {}},
                       {"DELETE FROM plateau_presence WHERE node = $1", Params().text(node)},
                       {kInsertPresence, Params().text(node).text(text_array(names))},
                       {"COMMIT", {}}});
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
      "DELETE FROM plateau_listings WHERE node NOT IN (SELECT id FROM nodes);"
      "DELETE FROM plateau_seats WHERE node NOT IN (SELECT id FROM nodes)");
}

void put_seats(Connection& db, const std::string& node, const std::vector<SeatRow>& added,
               const std::vector<SeatRow>& removed, bool reset) {
  if (!reset && added.empty() && removed.empty()) return;
  auto ids = [](const std::vector<SeatRow>& rows) {
    std::string out = "{";
    for (const auto& r : rows) {
      if (out.size() > 1) out += ',';
      out += std::to_string(r.table_id);
    }
    return out + "}";
  };
  auto names = [](const std::vector<SeatRow>& rows) {
    return array_literal(rows, [](const SeatRow& r) { return to_lower(r.name); });
  };
  std::vector<store::pg::Statement> st{{"BEGIN", {}}, {"SET LOCAL synchronous_commit = off", {}}};
  if (reset) {
    st.push_back({"DELETE FROM plateau_seats WHERE node = $1", Params().text(node)});
  } else if (!removed.empty()) {
    st.push_back(
        {"DELETE FROM plateau_seats WHERE node = $1 AND (table_id, name) IN "
         "(SELECT * FROM unnest($2::bigint[], $3::text[]))",
         Params().text(node).text(ids(removed)).text(names(removed))});
  }
  if (!added.empty()) {
    st.push_back(
        {"INSERT INTO plateau_seats(node, table_id, name) SELECT $1, t, n FROM "
         "unnest($2::bigint[], $3::text[]) AS x(t, n) ON CONFLICT DO NOTHING",
         Params().text(node).text(ids(added)).text(names(added))});
  }
  st.push_back({"COMMIT", {}});
  run_transaction(db, st);
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

std::vector<SeatedTable> seated_tables(Connection& db, const std::string& self,
                                       const std::string& name, int limit) {
  // The candidates by index (plateau_seats, the owner's rows), each owned by the node that
  // wrote the row; the row's snapshot (tables.data, Table::data_json) then says whether the
  // game is still on and the user really sits there (a seat row lags its table by up to a
  // second). Read as text and parsed here: one damaged row does not fail the others.
  Result r = db.run(
      "SELECT t.id, t.game, t.number, "
      "COALESCE((SELECT max(seq) FROM table_events e WHERE e.table_id = t.id), 0), t.data "
      "FROM plateau_seats s JOIN tables t ON t.id = s.table_id AND t.owner = s.node "
      "WHERE s.name = $2 AND s.node <> $1 AND s.node IN " PLATEAU_LIVE_NODES
      " ORDER BY t.id LIMIT $3",
      Params().text(self).text(to_lower(name)).integer(4 * static_cast<std::int64_t>(limit)));
  const std::string want = to_lower(name);
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
                          to_lower(seat["name"].get<std::string>()) == want);
    }
    if (seated) {
      out.push_back(
          {r.integer(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)), r.integer(i, 3)});
    }
  }
  return out;
}

}  // namespace plateau::cluster
