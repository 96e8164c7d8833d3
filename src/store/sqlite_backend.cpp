#include "store/sqlite_backend.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <variant>

#include "store/fence.h"
#include "store/migrations.h"
#include "store/savepoints.h"

namespace plateau::store {

// Prepared statements kept for the life of the connection: a move is two statements, and
// preparing them for every write would parse the SQL again each time.
class SqliteBackend::Statements {
 public:
  explicit Statements(SQLite::Database& db) : db_(db) {}
  // The statement of `sql`, a string literal (its address is the key), ready to bind and run.
  SQLite::Statement& get(const char* sql) {
    auto& slot = cache_[sql];
    if (!slot) slot = std::make_unique<SQLite::Statement>(db_, sql);
    return *slot;
  }

 private:
  SQLite::Database& db_;
  std::unordered_map<const void*, std::unique_ptr<SQLite::Statement>> cache_;
};

namespace {

// Binds every parameter of a cached statement, runs it, and resets it whatever happens (a
// statement left in its error state must not hold on to the transaction).
class Run {
 public:
  explicit Run(SQLite::Statement& q) : q_(q) {}
  ~Run() { q_.tryReset(); }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;
  SQLite::Statement& operator*() { return q_; }
  SQLite::Statement* operator->() { return &q_; }

 private:
  SQLite::Statement& q_;
};

// Runs one operation on the open transaction. Throws SQLite::Exception (a constraint, the disk).
class OpWriter {
 public:
  explicit OpWriter(SqliteBackend::Statements& statements) : statements_(statements) {}

  void operator()(const PutAccount& op) {
    insert_account(
        "INSERT OR REPLACE INTO accounts(name, password_hash, created_ms, "
        "challenge_limit, email, notify) VALUES (?, ?, ?, ?, ?, ?)",
        op.row);
  }

  void operator()(const PutRating& op) {
    Run q = statement(
        "INSERT OR REPLACE INTO ratings(game, player, rating, deviation, "
        "volatility, games) VALUES (?, ?, ?, ?, ?, ?)");
    q->bind(1, op.row.game);
    q->bind(2, op.row.player);
    q->bind(3, op.row.rating);
    q->bind(4, op.row.deviation);
    q->bind(5, op.row.volatility);
    q->bind(6, op.row.games);
    q->exec();
  }

  void operator()(const PutTable& op) {
    Run q = statement(
        "INSERT INTO tables(id, game, number, data, created_ms, owner, epoch) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET data = excluded.data");
    q->bind(1, static_cast<int64_t>(op.row.id));
    q->bind(2, op.row.game);
    q->bind(3, op.row.number);
    q->bind(4, op.row.data);
    q->bind(5, static_cast<int64_t>(op.row.created_ms));
    q->bind(6, op.row.owner);
    q->bind(7, static_cast<int64_t>(op.row.epoch));
    q->exec();
  }

  void operator()(const AddMove& op) {
    Run q = statement(
        "INSERT INTO moves(table_id, ply, move, seat, automatic, at_ms) "
        "VALUES (?, ?, ?, ?, ?, ?)");
    q->bind(1, static_cast<int64_t>(op.row.table_id));
    q->bind(2, op.row.ply);
    q->bind(3, op.row.move);
    q->bind(4, op.row.seat);
    q->bind(5, op.row.automatic ? 1 : 0);
    q->bind(6, static_cast<int64_t>(op.row.at_ms));
    q->exec();
  }

  void operator()(const DeleteMovesFrom& op) {
    Run q = statement("DELETE FROM moves WHERE table_id = ? AND ply >= ?");
    q->bind(1, static_cast<int64_t>(op.table_id));
    q->bind(2, op.from_ply);
    q->exec();
  }

  void operator()(const AddChat& op) {
    Run q = statement("INSERT INTO chat(table_id, at_ms, user, text) VALUES (?, ?, ?, ?)");
    q->bind(1, static_cast<int64_t>(op.row.table_id));
    q->bind(2, static_cast<int64_t>(op.row.at_ms));
    q->bind(3, op.row.user);
    q->bind(4, op.row.text);
    q->exec();
  }

  void operator()(const AddEvent& op) {
    Run q = statement("INSERT INTO table_events(table_id, seq, kind, body) VALUES (?, ?, ?, ?)");
    q->bind(1, static_cast<int64_t>(op.row.table_id));
    q->bind(2, static_cast<int64_t>(op.row.seq));
    q->bind(3, op.row.kind);
    q->bind(4, op.row.body);
    q->exec();
  }

  void operator()(const PutCounter& op) {
    Run q = statement(
        "INSERT INTO counters(name, value) VALUES (?, ?) "
        "ON CONFLICT(name) DO UPDATE SET value = max(value, excluded.value)");
    q->bind(1, op.name);
    q->bind(2, static_cast<int64_t>(op.value));
    q->exec();
  }

  void operator()(const DeleteTable& op) {
    for (const char* sql :
         {"DELETE FROM chat WHERE table_id = ?", "DELETE FROM moves WHERE table_id = ?",
          "DELETE FROM table_events WHERE table_id = ?", "DELETE FROM tables WHERE id = ?"}) {
      Run q = statement(sql);
      q->bind(1, static_cast<int64_t>(op.table_id));
      q->exec();
    }
  }

  void operator()(const PutToken& op) {
    Run q = statement(
        "INSERT OR REPLACE INTO resume_tokens(selector, verifier_hash, user, guest, created_ms, "
        "expires_ms) VALUES (?, ?, ?, ?, ?, ?)");
    q->bind(1, op.row.selector);
    q->bind(2, op.row.verifier_hash);
    q->bind(3, op.row.user);
    q->bind(4, op.row.guest ? 1 : 0);
    q->bind(5, static_cast<int64_t>(op.row.created_ms));
    q->bind(6, static_cast<int64_t>(op.row.expires_ms));
    q->exec();
  }

  void operator()(const DeleteToken& op) {
    Run q = statement("DELETE FROM resume_tokens WHERE selector = ?");
    q->bind(1, op.selector);
    q->exec();
  }

  void operator()(const AddMail& op) {
    Run q = statement(
        "INSERT INTO mail_outbox(key, recipient, message, created_ms) VALUES (?, ?, ?, ?)");
    q->bind(1, op.row.key);
    q->bind(2, op.row.recipient);
    q->bind(3, op.row.message);
    q->bind(4, static_cast<int64_t>(op.row.created_ms));
    q->exec();
  }

  void operator()(const DeleteMail& op) {
    Run q = statement("DELETE FROM mail_outbox WHERE key = ?");
    q->bind(1, op.key);
    q->exec();
  }

  void operator()(const PutVacation& op) {
    Run q = statement(
        "INSERT OR REPLACE INTO vacations(user, start_ms, end_ms) VALUES (?, ?, ?)");
    q->bind(1, op.row.user);
    q->bind(2, static_cast<int64_t>(op.row.start_ms));
    q->bind(3, static_cast<int64_t>(op.row.end_ms));
    q->exec();
  }

  void operator()(const PutMailSeen& op) {
    Run q = statement(
        "INSERT OR REPLACE INTO mail_seen(sender, message_id, seen_ms) VALUES (?, ?, ?)");
    q->bind(1, op.row.sender);
    q->bind(2, op.row.message_id);
    q->bind(3, static_cast<int64_t>(op.row.seen_ms));
    q->exec();
  }

  void operator()(const PruneMailSeen& op) {
    Run q = statement("DELETE FROM mail_seen WHERE seen_ms < ?");
    q->bind(1, static_cast<int64_t>(op.before_ms));
    q->exec();
  }

  void operator()(const AddAccount& op) {
    // A name another node registered meanwhile fails the batch instead of overwriting it.
    insert_account(
        "INSERT INTO accounts(name, password_hash, created_ms, challenge_limit, email, notify) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        op.row);
  }

  void operator()(const PutNode& op) {
    Run q = statement(
        "INSERT OR REPLACE INTO nodes(id, address, node_port, started_at, seen_at) "
        "VALUES (?, ?, ?, ?, ?)");
    q->bind(1, op.row.id);
    q->bind(2, op.row.address);
    q->bind(3, op.row.node_port);
    q->bind(4, static_cast<int64_t>(op.row.started_at));
    q->bind(5, static_cast<int64_t>(op.row.seen_at));
    q->exec();
  }

  // SQLite has one writer at a time: the read is the check (no row lock to take).
  void operator()(const FenceTable& op) {
    Run q = statement("SELECT owner, epoch FROM tables WHERE id = ?");
    q->bind(1, static_cast<int64_t>(op.table_id));
    if (!q->executeStep()) return;
    std::string owner = q->getColumn(0).getString();
    const std::int64_t epoch = q->getColumn(1).getInt64();
    if (owner != op.owner || epoch != op.epoch) {
      throw TableFenced(op.table_id, std::move(owner), epoch);
    }
  }

 private:
  Run statement(const char* sql) { return Run(statements_.get(sql)); }

  // `sql` is a literal (the statement cache is keyed by its address) with the six columns.
  void insert_account(const char* sql, const AccountRow& row) {
    Run q = statement(sql);
    q->bind(1, row.name);
    q->bind(2, row.password_hash);
    q->bind(3, static_cast<int64_t>(row.created_ms));
    q->bind(4, row.challenge_limit);
    q->bind(5, row.email);
    q->bind(6, row.notify);
    q->exec();
  }

  SqliteBackend::Statements& statements_;
};

}  // namespace

SqliteBackend::SqliteBackend(const std::filesystem::path& path) {
  try {
    db_ = std::make_unique<SQLite::Database>(path.string(),
                                             SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db_->exec("PRAGMA journal_mode=WAL");
    db_->exec("PRAGMA synchronous=FULL");
    db_->exec("PRAGMA foreign_keys=ON");
    db_->setBusyTimeout(5000);
    int version = db_->execAndGet("PRAGMA user_version").getInt();
    const auto& steps = migrations();
    if (version > static_cast<int>(steps.size())) {
      throw std::runtime_error("schema version " + std::to_string(version) +
                               " is newer than this program knows (" +
                               std::to_string(steps.size()) + ")");
    }
    for (int v = version; v < static_cast<int>(steps.size()); ++v) {
      SQLite::Transaction tx(*db_);
      db_->exec(steps[v]);
      db_->exec("PRAGMA user_version = " + std::to_string(v + 1));
      tx.commit();
    }
    version_ = db_->execAndGet("PRAGMA user_version").getInt();
    statements_ = std::make_unique<Statements>(*db_);
    // Read before the first commit: it overwrites it.
    SQLite::Statement alive(*db_, "SELECT value FROM server_state WHERE key = 'alive_ms'");
    if (alive.executeStep()) alive_at_open_ms_ = alive.getColumn(0).getInt64();
  } catch (const SQLite::Exception& e) {
    throw std::runtime_error("cannot open database " + path.string() + ": " + e.what());
  }
}

SqliteBackend::~SqliteBackend() = default;

Snapshot SqliteBackend::load(std::size_t events_per_table) {
  std::lock_guard lock(db_mutex_);
  Snapshot snap;
  SQLite::Transaction tx(*db_);
  {
    SQLite::Statement q(
        *db_,
        "SELECT name, password_hash, created_ms, challenge_limit, email, notify FROM accounts "
        "ORDER BY name");
    while (q.executeStep()) {
      snap.accounts.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(),
                               q.getColumn(2).getInt64(), q.getColumn(3).getInt(),
                               q.getColumn(4).getString(), q.getColumn(5).getString()});
    }
  }
  {
    SQLite::Statement q(*db_, "SELECT name, value FROM counters");
    while (q.executeStep()) {
      snap.counters[q.getColumn(0).getString()] = q.getColumn(1).getInt64();
    }
  }
  {
    SQLite::Statement q(*db_,
                        "SELECT game, player, rating, deviation, volatility, games FROM ratings "
                        "ORDER BY game, player");
    while (q.executeStep()) {
      snap.ratings.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(),
                              q.getColumn(2).getDouble(), q.getColumn(3).getDouble(),
                              q.getColumn(4).getDouble(), q.getColumn(5).getInt()});
    }
  }
  {
    SQLite::Statement q(
        *db_, "SELECT id, game, number, data, created_ms, owner, epoch FROM tables ORDER BY id");
    while (q.executeStep()) {
      snap.tables.push_back({q.getColumn(0).getInt64(), q.getColumn(1).getString(),
                             q.getColumn(2).getInt(), q.getColumn(3).getString(),
                             q.getColumn(4).getInt64(), q.getColumn(5).getString(),
                             q.getColumn(6).getInt64()});
    }
  }
  {
    SQLite::Statement q(*db_,
                        "SELECT table_id, ply, move, seat, automatic, at_ms FROM moves "
                        "ORDER BY table_id, ply");
    while (q.executeStep()) {
      MoveRow row{q.getColumn(0).getInt64(),    q.getColumn(1).getInt(),
                  q.getColumn(2).getString(),   q.getColumn(3).getInt(),
                  q.getColumn(4).getInt() != 0, q.getColumn(5).getInt64()};
      snap.moves[row.table_id].push_back(std::move(row));
    }
  }
  {
    SQLite::Statement q(*db_,
                        "SELECT table_id, at_ms, user, text FROM chat ORDER BY table_id, seq");
    while (q.executeStep()) {
      ChatRow row{q.getColumn(0).getInt64(), q.getColumn(1).getInt64(), q.getColumn(2).getString(),
                  q.getColumn(3).getString()};
      snap.chat[row.table_id].push_back(std::move(row));
    }
  }
  {
    // The last events_per_table of each table: seq counts 1, 2, 3, ... without gaps, so they
    // are those above the table's last seq minus the bound.
    SQLite::Statement q(*db_,
                        "SELECT e.table_id, e.seq, e.kind, e.body FROM table_events e "
                        "JOIN (SELECT table_id, MAX(seq) AS last FROM table_events "
                        "GROUP BY table_id) m ON m.table_id = e.table_id "
                        "WHERE e.seq > m.last - ? ORDER BY e.table_id, e.seq");
    q.bind(1, static_cast<int64_t>(std::min<std::size_t>(events_per_table, INT64_MAX)));
    while (q.executeStep()) {
      EventRow row{q.getColumn(0).getInt64(), q.getColumn(1).getInt64(), q.getColumn(2).getString(),
                   q.getColumn(3).getString()};
      snap.events[row.table_id].push_back(std::move(row));
    }
  }
  {
    SQLite::Statement q(*db_,
                        "SELECT selector, verifier_hash, user, guest, created_ms, expires_ms "
                        "FROM resume_tokens ORDER BY created_ms, selector");
    while (q.executeStep()) {
      snap.tokens.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(),
                             q.getColumn(2).getString(), q.getColumn(3).getInt() != 0,
                             q.getColumn(4).getInt64(), q.getColumn(5).getInt64()});
    }
  }
  {
    SQLite::Statement q(*db_,
                        "SELECT key, recipient, message, created_ms FROM mail_outbox "
                        "ORDER BY created_ms, key");
    while (q.executeStep()) {
      snap.outbox.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(),
                             q.getColumn(2).getString(), q.getColumn(3).getInt64()});
    }
  }
  {
    SQLite::Statement q(*db_, "SELECT user, start_ms, end_ms FROM vacations ORDER BY user, start_ms");
    while (q.executeStep()) {
      snap.vacations.push_back(
          {q.getColumn(0).getString(), q.getColumn(1).getInt64(), q.getColumn(2).getInt64()});
    }
  }
  {
    SQLite::Statement q(*db_,
                        "SELECT sender, message_id, seen_ms FROM mail_seen "
                        "ORDER BY seen_ms, sender, message_id");
    while (q.executeStep()) {
      snap.mail_seen.push_back(
          {q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getInt64()});
    }
  }
  {
    SQLite::Statement q(*db_,
                        "SELECT id, address, node_port, started_at, seen_at FROM nodes ORDER BY id");
    while (q.executeStep()) {
      snap.nodes.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(),
                            q.getColumn(2).getInt(), q.getColumn(3).getInt64(),
                            q.getColumn(4).getInt64()});
    }
  }
  tx.commit();
  snap.alive_ms = alive_at_open_ms_;
  return snap;
}

void SqliteBackend::note_alive(std::int64_t alive_ms) {
  try {
    db_->exec("SAVEPOINT alive");
    SQLite::Statement q(*db_,
                        "INSERT OR REPLACE INTO server_state(key, value) VALUES ('alive_ms', ?)");
    q.bind(1, static_cast<int64_t>(alive_ms));
    q.exec();
    db_->exec("RELEASE alive");
  } catch (...) {
    try {
      db_->exec("ROLLBACK TO alive");
      db_->exec("RELEASE alive");
    } catch (...) {
    }
  }
}

void SqliteBackend::end_failed_transaction() noexcept {
  // SQLite rolls back by itself on some errors (SQLITE_FULL, SQLITE_IOERR may); when it did not,
  // the transaction would stay open and every later BEGIN would fail.
  sqlite3* handle = db_->getHandle();
  if (handle && !sqlite3_get_autocommit(handle))
    sqlite3_exec(handle, "ROLLBACK", nullptr, nullptr, nullptr);
}

GroupOutcome SqliteBackend::commit_group(std::span<const Batch* const> batches,
                                         std::int64_t alive_ms) {
  std::lock_guard lock(db_mutex_);
  GroupOutcome out;
  out.batch_errors.resize(batches.size());
  try {
    SQLite::Transaction tx(*db_);
    OpWriter writer(*statements_);
    apply_in_savepoints(
        batches, out, [&](const char* sql) { db_->exec(sql); },
        [&](const Batch& batch) {
          for (const Op& op : batch.ops()) std::visit(writer, op);
        });
    if (!out.commit_error) {
      note_alive(alive_ms);
      tx.commit();
    }
  } catch (...) {
    out.commit_error = std::current_exception();
  }
  if (out.commit_error) end_failed_transaction();
  return out;
}

}  // namespace plateau::store
