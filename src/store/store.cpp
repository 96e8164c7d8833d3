#include "store/store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "store/migrations.h"

namespace plateau::store {

void Batch::put_account(const AccountRow& row) {
  ops_.push_back([row](SQLite::Database& db) {
    SQLite::Statement q(db,
                        "INSERT OR REPLACE INTO accounts(name, password_hash, created_ms, "
                        "challenge_limit) VALUES (?, ?, ?, ?)");
    q.bind(1, row.name);
    q.bind(2, row.password_hash);
    q.bind(3, static_cast<int64_t>(row.created_ms));
    q.bind(4, row.challenge_limit);
    q.exec();
  });
}

void Batch::put_rating(const RatingRow& row) {
  ops_.push_back([row](SQLite::Database& db) {
    SQLite::Statement q(db,
                        "INSERT OR REPLACE INTO ratings(game, player, rating, deviation, "
                        "volatility, games) VALUES (?, ?, ?, ?, ?, ?)");
    q.bind(1, row.game);
    q.bind(2, row.player);
    q.bind(3, row.rating);
    q.bind(4, row.deviation);
    q.bind(5, row.volatility);
    q.bind(6, row.games);
    q.exec();
  });
}

void Batch::put_table(const TableRow& row) {
  ops_.push_back([row](SQLite::Database& db) {
    SQLite::Statement q(
        db,
        "INSERT INTO tables(id, game, number, data, created_ms) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET data = excluded.data");
    q.bind(1, static_cast<int64_t>(row.id));
    q.bind(2, row.game);
    q.bind(3, row.number);
    q.bind(4, row.data);
    q.bind(5, static_cast<int64_t>(row.created_ms));
    q.exec();
  });
}

void Batch::add_move(const MoveRow& row) {
  ops_.push_back([row](SQLite::Database& db) {
    SQLite::Statement q(db,
                        "INSERT INTO moves(table_id, ply, move, seat, automatic, at_ms) "
                        "VALUES (?, ?, ?, ?, ?, ?)");
    q.bind(1, static_cast<int64_t>(row.table_id));
    q.bind(2, row.ply);
    q.bind(3, row.move);
    q.bind(4, row.seat);
    q.bind(5, row.automatic ? 1 : 0);
    q.bind(6, static_cast<int64_t>(row.at_ms));
    q.exec();
  });
}

void Batch::delete_moves_from(std::int64_t table_id, int from_ply) {
  ops_.push_back([table_id, from_ply](SQLite::Database& db) {
    SQLite::Statement q(db, "DELETE FROM moves WHERE table_id = ? AND ply >= ?");
    q.bind(1, static_cast<int64_t>(table_id));
    q.bind(2, from_ply);
    q.exec();
  });
}

void Batch::add_chat(const ChatRow& row) {
  ops_.push_back([row](SQLite::Database& db) {
    SQLite::Statement q(db, "INSERT INTO chat(table_id, at_ms, user, text) VALUES (?, ?, ?, ?)");
    q.bind(1, static_cast<int64_t>(row.table_id));
    q.bind(2, static_cast<int64_t>(row.at_ms));
    q.bind(3, row.user);
    q.bind(4, row.text);
    q.exec();
  });
}

void Batch::put_counter(const std::string& name, std::int64_t value) {
  ops_.push_back([name, value](SQLite::Database& db) {
    SQLite::Statement q(db,
                        "INSERT INTO counters(name, value) VALUES (?, ?) "
                        "ON CONFLICT(name) DO UPDATE SET value = max(value, excluded.value)");
    q.bind(1, name);
    q.bind(2, static_cast<int64_t>(value));
    q.exec();
  });
}

void Batch::delete_table(std::int64_t table_id) {
  ops_.push_back([table_id](SQLite::Database& db) {
    for (const char* sql :
         {"DELETE FROM chat WHERE table_id = ?", "DELETE FROM moves WHERE table_id = ?",
          "DELETE FROM tables WHERE id = ?"}) {
      SQLite::Statement q(db, sql);
      q.bind(1, static_cast<int64_t>(table_id));
      q.exec();
    }
  });
}

void Batch::put_token(const TokenRow& row) {
  ops_.push_back([row](SQLite::Database& db) {
    SQLite::Statement q(db,
                        "INSERT OR REPLACE INTO resume_tokens(selector, verifier_hash, user, "
                        "guest, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?)");
    q.bind(1, row.selector);
    q.bind(2, row.verifier_hash);
    q.bind(3, row.user);
    q.bind(4, row.guest ? 1 : 0);
    q.bind(5, static_cast<int64_t>(row.created_ms));
    q.bind(6, static_cast<int64_t>(row.expires_ms));
    q.exec();
  });
}

void Batch::delete_token(const std::string& selector) {
  ops_.push_back([selector](SQLite::Database& db) {
    SQLite::Statement q(db, "DELETE FROM resume_tokens WHERE selector = ?");
    q.bind(1, selector);
    q.exec();
  });
}

void Batch::apply(SQLite::Database& db) const {
  for (const auto& op : ops_) op(db);
}

namespace {

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Store::Store(const std::filesystem::path& path, int heartbeat_ms) : heartbeat_ms_(heartbeat_ms) {
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
    // Read before the writer starts: its first heartbeat overwrites it.
    SQLite::Statement alive(*db_, "SELECT value FROM server_state WHERE key = 'alive_ms'");
    if (alive.executeStep()) alive_at_open_ms_ = alive.getColumn(0).getInt64();
  } catch (const SQLite::Exception& e) {
    throw std::runtime_error("cannot open database " + path.string() + ": " + e.what());
  }
  writer_ = std::thread([this] { writer_loop(); });
}

Store::~Store() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (writer_.joinable()) writer_.join();
}

int Store::schema_version() const {
  std::lock_guard lock(mutex_);
  return db_->execAndGet("PRAGMA user_version").getInt();
}

Snapshot Store::load() {
  std::lock_guard lock(mutex_);
  Snapshot snap;
  SQLite::Transaction tx(*db_);
  {
    SQLite::Statement q(
        *db_,
        "SELECT name, password_hash, created_ms, challenge_limit FROM accounts ORDER BY name");
    while (q.executeStep()) {
      snap.accounts.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(),
                               q.getColumn(2).getInt64(), q.getColumn(3).getInt()});
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
    SQLite::Statement q(*db_, "SELECT id, game, number, data, created_ms FROM tables ORDER BY id");
    while (q.executeStep()) {
      snap.tables.push_back({q.getColumn(0).getInt64(), q.getColumn(1).getString(),
                             q.getColumn(2).getInt(), q.getColumn(3).getString(),
                             q.getColumn(4).getInt64()});
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
    SQLite::Statement q(*db_,
                        "SELECT selector, verifier_hash, user, guest, created_ms, expires_ms "
                        "FROM resume_tokens ORDER BY created_ms, selector");
    while (q.executeStep()) {
      snap.tokens.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(),
                             q.getColumn(2).getString(), q.getColumn(3).getInt() != 0,
                             q.getColumn(4).getInt64(), q.getColumn(5).getInt64()});
    }
  }
  tx.commit();
  snap.alive_ms = alive_at_open_ms_;
  return snap;
}

void Store::submit(Batch batch, Done done) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(batch), std::move(done)});
    ++submitted_;
  }
  wake_.notify_one();
}

void Store::flush() {
  std::unique_lock lock(mutex_);
  const std::uint64_t target = submitted_;
  drained_.wait(lock, [&] { return written_ >= target; });
}

StoreStats Store::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void Store::writer_loop() {
  for (;;) {
    std::vector<Pending> group;
    bool stop = false;
    {
      std::unique_lock lock(mutex_);
      auto ready = [&] { return stopping_ || !queue_.empty(); };
      if (heartbeat_ms_ > 0) {
        wake_.wait_for(lock, std::chrono::milliseconds(heartbeat_ms_), ready);
      } else {
        wake_.wait(lock, ready);
      }
      stop = stopping_ && queue_.empty();
      group.reserve(queue_.size());
      while (!queue_.empty()) {
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    // An empty group is a heartbeat (idle for heartbeat_ms, or the last one when stopping).
    write_group(group);
    if (stop) return;
  }
}

void Store::note_alive() {
  try {
    db_->exec("SAVEPOINT alive");
    SQLite::Statement q(*db_,
                        "INSERT OR REPLACE INTO server_state(key, value) VALUES ('alive_ms', ?)");
    q.bind(1, static_cast<int64_t>(wall_ms()));
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

void Store::end_failed_transaction() noexcept {
  // SQLite rolls back by itself on some errors (SQLITE_FULL, SQLITE_IOERR may); when it did not,
  // the transaction would stay open and every later BEGIN would fail.
  sqlite3* handle = db_->getHandle();
  if (handle && !sqlite3_get_autocommit(handle))
    sqlite3_exec(handle, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Store::write_group(std::vector<Pending>& group) {
  std::vector<std::exception_ptr> errors(group.size());
  std::exception_ptr commit_error;
  {
    // The database is used only by this thread once load() has returned; the mutex guards the
    // queue and counters, so it is not held during the fsync.
    try {
      SQLite::Transaction tx(*db_);
      for (std::size_t i = 0; i < group.size(); ++i) {
        try {
          db_->exec("SAVEPOINT batch");
          group[i].batch.apply(*db_);
          db_->exec("RELEASE batch");
        } catch (...) {
          errors[i] = std::current_exception();
          try {
            db_->exec("ROLLBACK TO batch");
            db_->exec("RELEASE batch");
          } catch (...) {
            commit_error = std::current_exception();
            break;
          }
        }
      }
      if (!commit_error) {
        note_alive();
        tx.commit();
      }
    } catch (...) {
      commit_error = std::current_exception();
    }
    if (commit_error) end_failed_transaction();
  }
  {
    std::lock_guard lock(mutex_);
    stats_.batches += group.size();
    if (!commit_error && !group.empty()) ++stats_.commits;  // not heartbeats
  }
  for (std::size_t i = 0; i < group.size(); ++i) {
    std::exception_ptr e = commit_error ? commit_error : errors[i];
    // A callback that throws must not take the writer (and the server) down, nor keep the
    // other callbacks from running.
    try {
      if (group[i].done) group[i].done(e);
    } catch (const std::exception& x) {
      std::fprintf(stderr, "store: a commit callback failed: %s\n", x.what());
    } catch (...) {
      std::fprintf(stderr, "store: a commit callback failed\n");
    }
  }
  // The callbacks are destroyed here too, with whatever they hold (a table's pending events, a
  // connection): once flush() has returned, the server may tear down the I/O those need.
  const std::size_t count = group.size();
  group.clear();
  {
    // flush() returns only after the callbacks of everything it waited for have run.
    std::lock_guard lock(mutex_);
    written_ += count;
  }
  drained_.notify_all();
}

}  // namespace plateau::store
