#include "store/postgres_backend.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>

#include "store/fence.h"
#include "store/migrations.h"
#include "store/pg_connection.h"
#include "store/postgres_ops.h"
#include "store/savepoints.h"

namespace plateau::store {

namespace {

using pg::Params;

// Runs each statement at once, one round trip each: the path that finds the failing batches of
// a group (each in its savepoint).
class DirectSink final : public PgSink {
 public:
  explicit DirectSink(pg::Connection& db) : db_(db) {}
  void run(const char* sql, Params params) override { db_.run(sql, params); }
  void fence(const FenceTable& op) override {
    check_fence(op, db_.run(kFenceSql, Params().integer(op.table_id)));
  }

 private:
  pg::Connection& db_;
};

// Queues a group's statements for one pipeline, and where each fence's answer will be.
class PipelineSink final : public PgSink {
 public:
  void run(const char* sql, Params params) override {
    statements.push_back({sql, std::move(params)});
  }
  void fence(const FenceTable& op) override {
    fences.emplace_back(statements.size(), op);
    statements.push_back({kFenceSql, Params().integer(op.table_id)});
  }
  void notify(std::string payload) override { notifications.push_back(std::move(payload)); }
  std::vector<pg::Statement> statements;
  std::vector<std::pair<std::size_t, FenceTable>> fences;
  std::vector<std::string> notifications;  // sent at the end, in one statement
};

constexpr const char* kAliveSql =
    "INSERT INTO server_state(key, value) VALUES ($2, $1) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value";

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

bool PostgresBackend::commit_pipelined(std::span<const Batch* const> batches, std::int64_t alive_ms,
                                       GroupOutcome& out) {
  // No savepoints: if anything fails, all of it is rolled back and the slow path runs (each
  // savepoint would also be a subtransaction for the server to track).
  PipelineSink sink;
  sink.run("BEGIN", Params());
  for (std::size_t i = 0; i < batches.size(); ++i) {
    const std::size_t statements = sink.statements.size(), fences = sink.fences.size(),
                      notifications = sink.notifications.size();
    try {
      write_batch(sink, *batches[i]);
    } catch (...) {
      // A value that cannot be sent (a NUL byte): the batch fails alone, nothing of it sent.
      out.batch_errors[i] = std::current_exception();
      sink.statements.resize(statements);
      sink.fences.resize(fences);
      sink.notifications.resize(notifications);
    }
  }
  notify_all(sink, sink.notifications);
  sink.run(kAliveSql, Params().integer(alive_ms).text(alive_key_));
  std::vector<pg::Result> results;
  for (int attempt = 0;; ++attempt) {
    try {
      if (!db_->ok()) db_->reconnect();
      results = db_->run_pipeline(sink.statements);
      break;
    } catch (const pg::ConnectionLost&) {
      // No COMMIT was sent, so nothing of it is stored: once more on a new connection (the
      // server restarted, the idle session was ended), as begin() does.
      if (attempt > 0) throw;
    } catch (const pg::Error&) {
      end_failed_transaction();
      return false;
    }
  }
  for (const auto& [at, op] : sink.fences) {
    try {
      check_fence(op, results[at]);
    } catch (const TableFenced&) {
      end_failed_transaction();
      return false;
    }
  }
  db_->exec("COMMIT");
  return true;
}

GroupOutcome PostgresBackend::commit_group(std::span<const Batch* const> batches,
                                           std::int64_t alive_ms) {
  std::lock_guard lock(mutex_);
  GroupOutcome out;
  out.batch_errors.resize(batches.size());
  try {
    if (commit_pipelined(batches, alive_ms, out)) return out;
  } catch (...) {
    out.commit_error = std::current_exception();
    end_failed_transaction();
    return out;
  }
  // A batch failed (a constraint, a fence): statement by statement, each batch in its
  // savepoint, so that only the failing ones are undone.
  std::fill(out.batch_errors.begin(), out.batch_errors.end(), nullptr);
  try {
    begin("BEGIN");
    DirectSink sink(*db_);
    // A lost connection fails the batch and then its ROLLBACK TO: the whole group fails.
    apply_in_savepoints(
        batches, out, [&](const char* sql) { db_->exec(sql); },
        [&](const Batch& batch) { write_batch(sink, batch); });
    if (!out.commit_error) {
      db_->run(kAliveSql, Params().integer(alive_ms).text(alive_key_));
      db_->exec("COMMIT");
    }
  } catch (...) {
    out.commit_error = std::current_exception();
  }
  if (out.commit_error) end_failed_transaction();
  return out;
}

}  // namespace plateau::store
