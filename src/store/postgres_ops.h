#pragma once
// The SQL of each store operation (batch.h) on PostgreSQL, for the PostgreSQL backend
// (postgres_backend.h): the statements are SqliteBackend's, in PostgreSQL's words (INSERT OR
// REPLACE is an upsert on the same key). Values go only as parameters, never into SQL text.
#include <cstdint>
#include <string>

#include "store/batch.h"
#include "store/pg_connection.h"

namespace plateau::store {

// Where the statements of a batch go: run at once, one round trip each, or queued for one
// pipeline (pg::Connection::run_pipeline) with the whole group.
class PgSink {
 public:
  virtual ~PgSink() = default;
  // One statement; `sql` a string literal (it names the prepared statement).
  virtual void run(const char* sql, pg::Params params) = 0;
  // The fencing check of a batch (FenceTable, docs/CLUSTER.md): the table's row must say this
  // owner and epoch; the row stays locked (FOR UPDATE) until the transaction ends, so a
  // takeover's UPDATE waits for this commit and raises the epoch after it, never before.
  virtual void fence(const FenceTable& op) = 0;
  // Announces events to the other nodes (write_batch): by default one pg_notify statement.
  virtual void notify(std::string payload);
};

// Sends every payload of `payloads` (from a PgSink's notify) as one statement, in order: the
// same notifications as one pg_notify each, with one statement for a whole group.
void notify_all(PgSink& sink, const std::vector<std::string>& payloads);

// The fence's statement and the check of its result (one row: owner, epoch; none if the table
// row is gone, which passes). Throws TableFenced if the row names another owner or epoch.
inline constexpr const char* kFenceSql = "SELECT owner, epoch FROM tables WHERE id = $1 FOR UPDATE";
void check_fence(const FenceTable& op, const pg::Result& row);

// Sends every operation of `batch` to `sink`, in order, then its announcement to the other
// nodes (issue 16 item 3): one pg_notify('plateau_events', 'TABLE,FIRST_SEQ,LAST_SEQ,EPOCH')
// per table with events in the batch (delivered at the commit, dropped with a rolled-back
// savepoint; the epoch is the batch's fence, 0 on a single server). Throws
// std::invalid_argument for a text with a NUL byte (pg::Params), before anything of the
// operation is sent.
void write_batch(PgSink& sink, const Batch& batch);

}  // namespace plateau::store
