#pragma once
// The storage backend behind a Store (DESIGN.md §1, store layer): what a database must do for
// Plateau. The Store (store.h) owns the queue, the writer thread, group commit and the
// callbacks; a backend only reads the snapshot and applies groups of batches durably.
// SqliteBackend (sqlite_backend.h) is the embedded default; PostgresBackend
// (postgres_backend.h) the shared one; store_url.h opens either by URL.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <vector>

#include "store/batch.h"
#include "store/store_types.h"

namespace plateau::store {

// What became of one group (commit_group).
struct GroupOutcome {
  // One slot per batch, in order: nullptr if the batch's writes are in the transaction, else why
  // the batch failed (its writes were undone, alone; the others went on).
  std::vector<std::exception_ptr> batch_errors;
  // Set if the transaction itself failed (commit, disk, lost connection): then nothing of the
  // group is stored and every batch failed with this error.
  std::exception_ptr commit_error;
};

class Backend {
 public:
  virtual ~Backend() = default;

  // Everything stored, read consistently (one transaction). Snapshot::alive_ms is the liveness
  // time found when the backend was opened (before this process's first commit_group).
  // Of each table's events only the last `events_per_table` are read. Throws
  // std::runtime_error if the read fails.
  virtual Snapshot load(std::size_t events_per_table = SIZE_MAX) = 0;

  // Applies `batches` in ONE transaction, each atomically on its own (a savepoint per batch: a
  // failing batch is undone alone and reported in its slot), records `alive_ms` (wall clock, ms
  // since the epoch) as the last time the server was known alive, and commits durably: when it
  // returns without commit_error, every batch without an error is on stable storage. An empty
  // group is a heartbeat (only alive_ms). Called from one thread at a time (the Store's writer).
  // Should not throw; the Store treats an exception as a commit_error.
  virtual GroupOutcome commit_group(std::span<const Batch* const> batches,
                                    std::int64_t alive_ms) = 0;

  // The schema version of the open database (number of migrations applied).
  virtual int schema_version() const = 0;
};

}  // namespace plateau::store
