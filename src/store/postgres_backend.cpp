#include "store/postgres_backend.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>

#include "store/fence.h"
#include "store/migrations.h"
#include "store/pg_connection.h"
#include "store/savepoints.h"

namespace plateau::store {

namespace {

using pg::Params;

// Runs one operation on the open transaction; the SQL of each is SqliteBackend's, in
// PostgreSQL's words (INSERT OR REPLACE is an upsert on the same key). Throws pg::Error (a
// constraint), pg::ConnectionLost, or std::invalid_argument (a NUL byte in a text).
// The six account columns in the order of both account statements below.
Params account_params(const AccountRow& row) {
  return Params()
      .text(row.name)
      .text(row.password_hash)
      .integer(row.created_ms)
      .integer(row.challenge_limit)
      .text(row.email)
      .text(row.notify);
}

class OpWriter {
 public:
  explicit OpWriter(pg::Connection& db) : db_(db) {}

  void operator()(const PutAccount& op) {
    db_.run(
        "INSERT INTO accounts(name, password_hash, created_ms, challenge_limit, email, notify) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT ((plateau_nocase(name))) DO UPDATE SET "
        "name = excluded.name, password_hash = excluded.password_hash, "
        "created_ms = excluded.created_ms, challenge_limit = excluded.challenge_limit, "
        "email = excluded.email, notify = excluded.notify",
        account_params(op.row));
  }

  void operator()(const PutRating& op) {
    db_.run(
        "INSERT INTO ratings(game, player, rating, deviation, volatility, games) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game, (plateau_nocase(player))) "
        "DO UPDATE SET player = excluded.player, rating = excluded.rating, "
        "deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games",
        Params()
            .text(op.row.game)
            .text(op.row.player)
            .real(op.row.rating)
            .real(op.row.deviation)
            .real(op.row.volatility)
            .integer(op.row.games));
  }

  void operator()(const PutTable& op) {
    db_.run(
        "INSERT INTO tables(id, game, number, data, created_ms, owner, epoch) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO UPDATE SET data = excluded.data",
        Params()
            .integer(op.row.id)
            .text(op.row.game)
            .integer(op.row.number)
            .text(op.row.data)
            .integer(op.row.created_ms)
            .text(op.row.owner)
            .integer(op.row.epoch));
  }

  void operator()(const AddMove& op) {
    db_.run(
        "INSERT INTO moves(table_id, ply, move, seat, automatic, at_ms) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        Params()
            .integer(op.row.table_id)
            .integer(op.row.ply)
            .text(op.row.move)
            .integer(op.row.seat)
            .integer(op.row.automatic ? 1 : 0)
            .integer(op.row.at_ms));
  }

  void operator()(const DeleteMovesFrom& op) {
    db_.run("DELETE FROM moves WHERE table_id = $1 AND ply >= $2",
            Params().integer(op.table_id).integer(op.from_ply));
  }

  void operator()(const AddChat& op) {
    db_.run("INSERT INTO chat(table_id, at_ms, \"user\", text) VALUES ($1, $2, $3, $4)",
            Params().integer(op.row.table_id).integer(op.row.at_ms).text(op.row.user).text(
                op.row.text));
  }

  void operator()(const AddEvent& op) {
    db_.run("INSERT INTO table_events(table_id, seq, kind, body) VALUES ($1, $2, $3, $4)",
            Params().integer(op.row.table_id).integer(op.row.seq).text(op.row.kind).text(
                op.row.body));
  }

  void operator()(const PutCounter& op) {
    db_.run(
        "INSERT INTO counters(name, value) VALUES ($1, $2) "
        "ON CONFLICT (name) DO UPDATE SET value = GREATEST(counters.value, excluded.value)",
        Params().text(op.name).integer(op.value));
  }

  void operator()(const DeleteTable& op) {
    for (const char* sql :
         {"DELETE FROM chat WHERE table_id = $1", "DELETE FROM moves WHERE table_id = $1",
          "DELETE FROM table_events WHERE table_id = $1", "DELETE FROM tables WHERE id = $1"}) {
      db_.run(sql, Params().integer(op.table_id));
    }
  }

  void operator()(const PutToken& op) {
    db_.run(
        "INSERT INTO resume_tokens(selector, verifier_hash, \"user\", guest, created_ms, "
        "expires_ms) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (selector) DO UPDATE SET "
        "verifier_hash = excluded.verifier_hash, \"user\" = excluded.\"user\", "
        "guest = excluded.guest, created_ms = excluded.created_ms, "
        "expires_ms = excluded.expires_ms",
        Params()
            .text(op.row.selector)
            .text(op.row.verifier_hash)
            .text(op.row.user)
            .integer(op.row.guest ? 1 : 0)
            .integer(op.row.created_ms)
            .integer(op.row.expires_ms));
  }

  void operator()(const DeleteToken& op) {
    db_.run("DELETE FROM resume_tokens WHERE selector = $1", Params().text(op.selector));
  }

  void operator()(const AddMail& op) {
    db_.run(
        "INSERT INTO mail_outbox(key, recipient, message, created_ms) VALUES ($1, $2, $3, $4)",
        Params().text(op.row.key).text(op.row.recipient).text(op.row.message).integer(
            op.row.created_ms));
  }

  void operator()(const DeleteMail& op) {
    db_.run("DELETE FROM mail_outbox WHERE key = $1", Params().text(op.key));
  }

  void operator()(const PutVacation& op) {
    db_.run(
        "INSERT INTO vacations(\"user\", start_ms, end_ms) VALUES ($1, $2, $3) "
        "ON CONFLICT (\"user\", start_ms) DO UPDATE SET end_ms = excluded.end_ms",
        Params().text(op.row.user).integer(op.row.start_ms).integer(op.row.end_ms));
  }

  void operator()(const PutMailSeen& op) {
    db_.run(
        "INSERT INTO mail_seen(sender, message_id, seen_ms) VALUES ($1, $2, $3) "
        "ON CONFLICT (sender, message_id) DO UPDATE SET seen_ms = excluded.seen_ms",
        Params().text(op.row.sender).text(op.row.message_id).integer(op.row.seen_ms));
  }

  void operator()(const PruneMailSeen& op) {
    db_.run("DELETE FROM mail_seen WHERE seen_ms < $1", Params().integer(op.before_ms));
  }

  void operator()(const AddAccount& op) {
    db_.run(
        "INSERT INTO accounts(name, password_hash, created_ms, challenge_limit, email, notify) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        account_params(op.row));
  }

  void operator()(const PutNode& op) {
    db_.run(
        "INSERT INTO nodes(id, address, node_port, started_at, seen_at) "
        "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET address = excluded.address, "
        "node_port = excluded.node_port, started_at = excluded.started_at, "
        "seen_at = excluded.seen_at",
        Params()
            .text(op.row.id)
            .text(op.row.address)
            .integer(op.row.node_port)
            .integer(op.row.started_at)
            .integer(op.row.seen_at));
  }

  // FOR UPDATE: the row stays locked until this transaction ends, so a takeover's UPDATE
  // (cluster_db.cpp, claim) waits for this commit and raises the epoch after it, never before.
  void operator()(const FenceTable& op) {
    pg::Result r = db_.run("SELECT owner, epoch FROM tables WHERE id = $1 FOR UPDATE",
                           Params().integer(op.table_id));
    if (r.rows() == 0) return;
    std::string owner = r.text(0, 0);
    const std::int64_t epoch = r.integer(0, 1);
    if (owner != op.owner || epoch != op.epoch) {
      throw TableFenced(op.table_id, std::move(owner), epoch);
    }
  }

 private:
  pg::Connection& db_;
};

// Announces the table events of `batch` to the other nodes (issue 16 item 3): one
// pg_notify('plateau_events', 'TABLE,FIRST_SEQ,LAST_SEQ,EPOCH') per table of the batch, in its
// transaction (sent at the commit, dropped with a rolled-back savepoint). The epoch is the
// batch's fence (0 on a single server, which has no fence).
void notify_events(pg::Connection& db, const Batch& batch) {
  struct Range {
    std::int64_t first = INT64_MAX, last = 0, epoch = 0;
  };
  std::vector<std::pair<std::int64_t, Range>> tables;
  auto range_of = [&](std::int64_t id) -> Range& {
    for (auto& [t, r] : tables) {
      if (t == id) return r;
    }
    return tables.emplace_back(id, Range{}).second;
  };
  for (const Op& op : batch.ops()) {
    if (const auto* e = std::get_if<AddEvent>(&op)) {
      Range& r = range_of(e->row.table_id);
      r.first = std::min(r.first, e->row.seq);
      r.last = std::max(r.last, e->row.seq);
    } else if (const auto* f = std::get_if<FenceTable>(&op)) {
      range_of(f->table_id).epoch = f->epoch;
    }
  }
  for (const auto& [id, r] : tables) {
    if (r.last == 0) continue;  // fenced, but no event
    db.run("SELECT pg_notify('plateau_events', $1)",
           Params().text(std::to_string(id) + "," + std::to_string(r.first) + "," +
                         std::to_string(r.last) + "," + std::to_string(r.epoch)));
  }
}

// Any key of pg_advisory_xact_lock, the same in every Plateau: "plat" in ASCII.
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(1886151028)";

}  // namespace

PostgresBackend::PostgresBackend(const std::string& url) : url_(url) {
  try {
    db_ = std::make_unique<pg::Connection>(url_);
    // Names, chat and boards are UTF-8: a database in another encoding would refuse some of
    // them at the first write, long after the start.
    const std::string encoding =
        db_->run("SELECT current_setting('server_encoding')").text(0, 0);
    if (encoding != "UTF8") {
      throw std::runtime_error("the database's encoding is " + encoding +
                               ", not UTF8 (createdb -E UTF8 -T template0)");
    }
    migrate();
    // A node of several (cluster/cluster_db.h url_for_node names its sessions
    // "plateau-node-ID") keeps its own sign of life: its restart is charged its own downtime,
    // and the nodes' commits do not all wait for one row's lock.
    const std::string app = db_->run("SELECT current_setting('application_name')").text(0, 0);
    if (app.starts_with("plateau-node-")) alive_key_ = "alive_ms:" + app.substr(13);
    pg::Result alive = db_->run(
        "SELECT value FROM server_state WHERE key = $1 OR key = 'alive_ms' "
        "ORDER BY key = $1 DESC LIMIT 1",
        Params().text(alive_key_));
    if (alive.rows() > 0) alive_at_open_ms_ = alive.integer(0, 0);
  } catch (const pg::ConnectionLost&) {
    throw;  // its text names the (redacted) URL already
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot open database " + pg::redact_url(url_) + ": " + e.what());
  }
}

PostgresBackend::~PostgresBackend() = default;

void PostgresBackend::migrate() {
  const auto& steps = postgres_migrations();
  for (;;) {
    db_->exec("BEGIN");
    try {
      db_->run(kMigrationLock);
      db_->exec("CREATE TABLE IF NOT EXISTS plateau_schema (version INTEGER NOT NULL)");
      pg::Result r = db_->run("SELECT version FROM plateau_schema");
      int version = 0;
      if (r.rows() == 0) {
        db_->run("INSERT INTO plateau_schema(version) VALUES (0)");
      } else {
        version = static_cast<int>(r.integer(0, 0));
      }
      if (version > static_cast<int>(steps.size())) {
        throw std::runtime_error("schema version " + std::to_string(version) +
                                 " is newer than this program knows (" +
                                 std::to_string(steps.size()) + ")");
      }
      if (version == static_cast<int>(steps.size())) {
        db_->exec("COMMIT");
        version_ = version;
        return;
      }
      db_->exec(steps[version]);
      db_->run("UPDATE plateau_schema SET version = $1", Params().integer(version + 1));
      db_->exec("COMMIT");
    } catch (...) {
      end_failed_transaction();
      throw;
    }
  }
}

void PostgresBackend::begin(const char* sql) {
  if (!db_->ok()) db_->reconnect();
  try {
    db_->exec(sql);
  } catch (const pg::ConnectionLost&) {
    // Lost while idle (the server restarted, the session was ended): nothing of the
    // transaction was sent yet, so once more on a new connection.
    db_->reconnect();
    db_->exec(sql);
  }
}

void PostgresBackend::end_failed_transaction() noexcept {
  if (!db_->ok()) return;  // the server ends the transaction of a closed session itself
  try {
    db_->exec("ROLLBACK");
  } catch (...) {
  }
}

Snapshot PostgresBackend::load(std::size_t events_per_table) {
  std::lock_guard lock(mutex_);
  Snapshot snap;
  begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  try {
    // ORDER BY ... COLLATE "C": byte order, as SQLite's (its NOCASE on ASCII-folded bytes).
    pg::Result r = db_->run(
        "SELECT name, password_hash, created_ms, challenge_limit, email, notify FROM accounts "
        "ORDER BY plateau_nocase(name) COLLATE \"C\"");
    for (int i = 0; i < r.rows(); ++i) {
      snap.accounts.push_back({r.text(i, 0), r.text(i, 1), r.integer(i, 2),
                               static_cast<int>(r.integer(i, 3)), r.text(i, 4), r.text(i, 5)});
    }
    r = db_->run("SELECT name, value FROM counters");
    for (int i = 0; i < r.rows(); ++i) snap.counters[r.text(i, 0)] = r.integer(i, 1);
    r = db_->run(
        "SELECT game, player, rating, deviation, volatility, games FROM ratings "
        "ORDER BY game COLLATE \"C\", plateau_nocase(player) COLLATE \"C\"");
    for (int i = 0; i < r.rows(); ++i) {
      snap.ratings.push_back({r.text(i, 0), r.text(i, 1), r.real(i, 2), r.real(i, 3),
                              r.real(i, 4), static_cast<int>(r.integer(i, 5))});
    }
    r = db_->run(
        "SELECT id, game, number, data, created_ms, owner, epoch FROM tables ORDER BY id");
    for (int i = 0; i < r.rows(); ++i) {
      snap.tables.push_back({r.integer(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)),
                             r.text(i, 3), r.integer(i, 4), r.text(i, 5), r.integer(i, 6)});
    }
    r = db_->run(
        "SELECT table_id, ply, move, seat, automatic, at_ms FROM moves ORDER BY table_id, ply");
    for (int i = 0; i < r.rows(); ++i) {
      MoveRow row{r.integer(i, 0),      static_cast<int>(r.integer(i, 1)),
                  r.text(i, 2),         static_cast<int>(r.integer(i, 3)),
                  r.integer(i, 4) != 0, r.integer(i, 5)};
      snap.moves[row.table_id].push_back(std::move(row));
    }
    r = db_->run("SELECT table_id, at_ms, \"user\", text FROM chat ORDER BY table_id, seq");
    for (int i = 0; i < r.rows(); ++i) {
      ChatRow row{r.integer(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3)};
      snap.chat[row.table_id].push_back(std::move(row));
    }
    // The last events_per_table of each table (seq counts 1, 2, 3, ... without gaps).
    r = db_->run(
        "SELECT e.table_id, e.seq, e.kind, e.body FROM table_events e "
        "JOIN (SELECT table_id, MAX(seq) AS last FROM table_events GROUP BY table_id) m "
        "ON m.table_id = e.table_id WHERE e.seq > m.last - $1 ORDER BY e.table_id, e.seq",
        Params().integer(
            static_cast<std::int64_t>(std::min<std::size_t>(events_per_table, INT64_MAX))));
    for (int i = 0; i < r.rows(); ++i) {
      EventRow row{r.integer(i, 0), r.integer(i, 1), r.text(i, 2), r.text(i, 3)};
      snap.events[row.table_id].push_back(std::move(row));
    }
    r = db_->run(
        "SELECT selector, verifier_hash, \"user\", guest, created_ms, expires_ms "
        "FROM resume_tokens ORDER BY created_ms, selector COLLATE \"C\"");
    for (int i = 0; i < r.rows(); ++i) {
      snap.tokens.push_back({r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3) != 0,
                             r.integer(i, 4), r.integer(i, 5)});
    }
    r = db_->run(
        "SELECT key, recipient, message, created_ms FROM mail_outbox "
        "ORDER BY created_ms, key COLLATE \"C\"");
    for (int i = 0; i < r.rows(); ++i) {
      snap.outbox.push_back({r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3)});
    }
    // By user, then start, in SQLite's byte order.
    r = db_->run(
        "SELECT \"user\", start_ms, end_ms FROM vacations "
        "ORDER BY \"user\" COLLATE \"C\", start_ms");
    for (int i = 0; i < r.rows(); ++i) {
      snap.vacations.push_back({r.text(i, 0), r.integer(i, 1), r.integer(i, 2)});
    }
    r = db_->run(
        "SELECT sender, message_id, seen_ms FROM mail_seen "
        "ORDER BY seen_ms, sender COLLATE \"C\", message_id COLLATE \"C\"");
    for (int i = 0; i < r.rows(); ++i) {
      snap.mail_seen.push_back({r.text(i, 0), r.text(i, 1), r.integer(i, 2)});
    }
    r = db_->run(
        "SELECT id, address, node_port, started_at, seen_at FROM nodes ORDER BY id COLLATE \"C\"");
    for (int i = 0; i < r.rows(); ++i) {
      snap.nodes.push_back({r.text(i, 0), r.text(i, 1), static_cast<int>(r.integer(i, 2)),
                            r.integer(i, 3), r.integer(i, 4)});
    }
    db_->exec("COMMIT");
  } catch (...) {
    end_failed_transaction();
    throw;
  }
  snap.alive_ms = alive_at_open_ms_;
  return snap;
}

GroupOutcome PostgresBackend::commit_group(std::span<const Batch* const> batches,
                                           std::int64_t alive_ms) {
  std::lock_guard lock(mutex_);
  GroupOutcome out;
  out.batch_errors.resize(batches.size());
  try {
    begin("BEGIN");
    OpWriter writer(*db_);
    // A lost connection fails the batch and then its ROLLBACK TO: the whole group fails.
    apply_in_savepoints(
        batches, out, [&](const char* sql) { db_->exec(sql); },
        [&](const Batch& batch) {
          for (const Op& op : batch.ops()) std::visit(writer, op);
          notify_events(*db_, batch);
        });
    if (!out.commit_error) {
      db_->run(
          "INSERT INTO server_state(key, value) VALUES ($2, $1) "
          "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          Params().integer(alive_ms).text(alive_key_));
      db_->exec("COMMIT");
    }
  } catch (...) {
    out.commit_error = std::current_exception();
  }
  if (out.commit_error) end_failed_transaction();
  return out;
}

}  // namespace plateau::store
