#pragma once
// Durable storage of accounts, ratings, tables, moves and chat in SQLite (DESIGN.md §1, §5).
//
// The database runs in WAL mode with synchronous=FULL: a commit returns only once it is on disk.
// Reads happen once, at start-up (load()); afterwards the server keeps everything in memory and
// the store only writes. Writes are grouped: submit() queues a Batch, a single writer thread
// takes every batch queued so far, runs them in ONE transaction (each inside its own savepoint,
// so a failing batch does not spoil the others), commits once, then calls each batch's callback.
// Concurrent moves of many tables therefore share one fsync, and each caller still learns only
// after its own writes are durable.
//
// Liveness: every commit also records the time (server_state.alive_ms); while idle the writer
// commits a heartbeat every `heartbeat_ms`, and once more when it stops. After a crash, the
// stored time is at most one heartbeat before the crash (Snapshot::alive_ms).
//
// Failures: a batch that fails (a constraint, a full disk, an I/O error) is rolled back, alone
// (inside its savepoint) or with its whole group (if the commit fails); its callback gets the
// error and the writer goes on with the next group. A callback that throws is contained too.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "store/store_types.h"

namespace SQLite {
class Database;
}

namespace plateau::store {

// Writes to apply atomically (all or none).
class Batch {
 public:
  void put_account(const AccountRow& row);
  void put_rating(const RatingRow& row);
  // Inserts or replaces the table row (id is the key).
  void put_table(const TableRow& row);
  // Inserts a move; fails the batch if (table_id, ply) is already stored.
  void add_move(const MoveRow& row);
  // Deletes the moves of `table_id` with ply >= `from_ply` (undo).
  void delete_moves_from(std::int64_t table_id, int from_ply);
  void add_chat(const ChatRow& row);
  // Raises counter `name` to `value` (a counter never goes down: a lower value is ignored).
  void put_counter(const std::string& name, std::int64_t value);
  // Deletes the table `table_id` with its moves and chat (a table nobody will ever use).
  void delete_table(std::int64_t table_id);

  // Inserts or replaces a resume token (selector is the key).
  void put_token(const TokenRow& row);
  // Deletes the resume token `selector` (logout, expiry); nothing if there is none.
  void delete_token(const std::string& selector);
  // Registers `undo`, which reverts an in-memory change made along with this batch (a rating in
  // the lobby's cache). The store never runs it: the submitter takes them (take_rollbacks) and
  // runs them, in reverse order, if the batch fails.
  void on_rollback(std::function<void()> undo) { rollbacks_.push_back(std::move(undo)); }
  std::vector<std::function<void()>> take_rollbacks() { return std::exchange(rollbacks_, {}); }

  bool empty() const { return ops_.empty(); }
  std::size_t size() const { return ops_.size(); }
  // Runs the writes on `db` (inside the caller's transaction). Throws SQLite::Exception.
  void apply(SQLite::Database& db) const;

 private:
  std::vector<std::function<void(SQLite::Database&)>> ops_;
  std::vector<std::function<void()>> rollbacks_;
};

struct StoreStats {
  std::uint64_t commits = 0;  // transactions committed
  std::uint64_t batches = 0;  // batches written
};

class Store {
 public:
  // Called on the writer thread once the batch is durable (nullptr) or failed (the error; the
  // batch's writes were rolled back).
  using Done = std::function<void(std::exception_ptr)>;

  // Opens (creating if needed) the database at `path`, sets WAL and synchronous=FULL, applies the
  // missing migrations and starts the writer thread. Throws std::runtime_error (with the path)
  // if the file cannot be opened or is not a Plateau database of a known version.
  explicit Store(const std::filesystem::path& path, int heartbeat_ms = 1000);
  // Writes every batch already submitted, then stops the writer.
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Everything stored, read in one transaction. Call before the first submit().
  Snapshot load();
  // Queues `batch`; `done` runs on the writer thread after the commit (or failure).
  void submit(Batch batch, Done done);
  // Blocks until every batch submitted before the call is committed, and its `done` has run and
  // been destroyed (with everything it captured).
  void flush();
  StoreStats stats() const;
  // The schema version (number of migrations applied).
  int schema_version() const;

 private:
  struct Pending {
    Batch batch;
    Done done;
  };
  void writer_loop();
  void write_group(std::vector<Pending>& group);
  // Records "alive now" in the open transaction (never throws: a failure is left to the commit).
  void note_alive();
  // After a failure: makes sure no transaction is left open on the connection.
  void end_failed_transaction() noexcept;

  std::unique_ptr<SQLite::Database> db_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable drained_;
  std::deque<Pending> queue_;
  std::uint64_t submitted_ = 0;
  std::uint64_t written_ = 0;
  bool stopping_ = false;
  int heartbeat_ms_;
  std::int64_t alive_at_open_ms_ = 0;  // server_state.alive_ms as found when opened
  StoreStats stats_;
  std::thread writer_;
};

}  // namespace plateau::store
