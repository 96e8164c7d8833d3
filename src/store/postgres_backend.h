#pragma once
// The PostgreSQL backend (`plateau serve --store postgresql://...`, issue 16 item 1): the same
// Backend as SQLite's, over one libpq connection. Opening applies the missing migrations
// (postgres_migrations.cpp, the same versions as SQLite's; the version is the one row of
// plateau_schema), each in one transaction under an advisory lock, so two servers opening one
// new database do not both migrate it. A group is one transaction; the session runs with
// synchronous_commit=on, so COMMIT returns once the group is durable.
//
// A group costs two round trips to the server: all its statements at once (libpq's pipeline
// mode, no savepoints, the events' notifications in one statement), then COMMIT once every
// fence agreed. Only when a batch fails is the group rolled back and run again statement by
// statement, each batch in a SAVEPOINT, so that the failing batch alone is undone
// (docs/PERFORMANCE.md "Server on PostgreSQL").
//
// A lost connection fails the group in progress (GroupOutcome::commit_error: nothing of it is
// told as stored) and the next commit_group or load connects again; the Store goes on. One
// case stays unknown to any client of a database: the connection drops after COMMIT was sent
// and before its answer came; the group may then be stored although it was reported failed.
//
// Values go only as parameters of prepared statements, never into SQL text. Errors and logs
// name the URL with its password hidden (pg::redact_url).
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "store/backend.h"

namespace plateau::store {

namespace pg {
class Connection;
}

class PostgresBackend final : public Backend {
 public:
  // Connects to `url` (postgresql://USER:PASSWORD@HOST:PORT/DB?..., or a libpq key=value
  // string) and applies the missing migrations. Throws std::runtime_error (the URL redacted)
  // if the server cannot be reached, the database's encoding is not UTF8, a migration fails,
  // or the database is of a newer version.
  explicit PostgresBackend(const std::string& url);
  ~PostgresBackend() override;

  Snapshot load(std::size_t events_per_table = SIZE_MAX) override;
  GroupOutcome commit_group(std::span<const Batch* const> batches, std::int64_t alive_ms) override;
  int schema_version() const override { return version_; }

 private:
  void migrate();
  // The group in one pipeline and a COMMIT. Returns false, nothing stored and no transaction
  // left open, if a statement failed or a fence refused (the caller then finds the failing
  // batch); sets out.batch_errors of batches that could not be sent (a NUL byte). Throws what
  // the COMMIT throws, or pg::ConnectionLost if the server cannot be reached.
  bool commit_pipelined(std::span<const Batch* const> batches, std::int64_t alive_ms,
                        GroupOutcome& out);
  // Runs `sql` (a BEGIN), on a new connection if the old one was lost; throws
  // pg::ConnectionLost if the server cannot be reached.
  void begin(const char* sql);
  // After a failure: leaves no transaction open on a connection that is still up.
  void end_failed_transaction() noexcept;

  std::mutex mutex_;  // load() may run while the writer commits: one connection, one user
  std::string url_;
  std::unique_ptr<pg::Connection> db_;
  int version_ = 0;
  std::int64_t alive_at_open_ms_ = 0;
  // The server_state key of this server's sign of life: "alive_ms", or "alive_ms:ID" for node
  // ID of several (its sessions' application_name is "plateau-node-ID").
  std::string alive_key_ = "alive_ms";
};

}  // namespace plateau::store
