#pragma once
// Durable storage of accounts, ratings, tables, moves and chat (DESIGN.md §1, §5).
//
// The Store is backend-independent: callers describe writes as a Batch of typed operations
// (batch.h) and a Backend (backend.h) applies them; SQLite (sqlite_backend.h, WAL with
// synchronous=FULL: a commit returns only once it is on disk) is the embedded default.
// Reads happen once, at start-up (load()); afterwards the server keeps everything in memory and
// the store only writes. Writes are grouped: submit() queues a Batch, a single writer thread
// takes every batch queued so far, hands them to the backend as ONE transaction (each inside its
// own savepoint, so a failing batch does not spoil the others), which commits once; only then
// does the writer call each batch's callback. Concurrent moves of many tables therefore share
// one fsync, and each caller learns only after its own writes are durable.
//
// Liveness: every commit also records the time (server_state.alive_ms); while idle the writer
// commits a heartbeat every `heartbeat_ms`, and once more when it stops. After a crash, the
// stored time is at most one heartbeat before the crash (Snapshot::alive_ms).
//
// Failures: a batch that fails (a constraint, a full disk, an I/O error) is rolled back, alone
// (inside its savepoint) or with its whole group (if the commit fails); its callback gets the
// error and the writer goes on with the next group. A backend that throws fails its group; a
// callback that throws is contained too.
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

#include "store/backend.h"
#include "store/batch.h"
#include "store/store_types.h"

namespace plateau::store {

struct StoreStats {
  std::uint64_t commits = 0;  // transactions committed
  std::uint64_t batches = 0;  // batches written
};

class Store {
 public:
  // Called on the writer thread once the batch is durable (nullptr) or failed (the error; the
  // batch's writes were rolled back).
  using Done = std::function<void(std::exception_ptr)>;

  // Opens (creating if needed) the SQLite database at `path` (see SqliteBackend: WAL,
  // synchronous=FULL, missing migrations applied) and starts the writer thread. Throws
  // std::runtime_error (with the path) if the file cannot be opened or is not a Plateau database
  // of a known version.
  explicit Store(const std::filesystem::path& path, int heartbeat_ms = 1000);
  // Uses `backend` (already open; must not be null) and starts the writer thread.
  explicit Store(std::unique_ptr<Backend> backend, int heartbeat_ms = 1000);
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

  std::unique_ptr<Backend> backend_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable drained_;
  std::deque<Pending> queue_;
  std::uint64_t submitted_ = 0;
  std::uint64_t written_ = 0;
  bool stopping_ = false;
  int heartbeat_ms_;
  StoreStats stats_;
  std::thread writer_;
};

}  // namespace plateau::store
