#pragma once
// The embedded SQLite backend (the default): one database file in WAL mode with
// synchronous=FULL, so a commit returns only once it is on disk. Opening applies the missing
// migrations (migrations.h), one transaction each.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>

#include "store/backend.h"

namespace SQLite {
class Database;
}

namespace plateau::store {

class SqliteBackend final : public Backend {
 public:
  // Opens (creating if needed) the database at `path`, sets WAL, synchronous=FULL and foreign
  // keys, and applies the missing migrations. Throws std::runtime_error (with the path) if the
  // file cannot be opened or is not a Plateau database of a known version.
  explicit SqliteBackend(const std::filesystem::path& path);
  ~SqliteBackend() override;

  Snapshot load() override;
  GroupOutcome commit_group(std::span<const Batch* const> batches, std::int64_t alive_ms) override;
  int schema_version() const override { return version_; }

  // Its prepared statements (an implementation detail of sqlite_backend.cpp).
  class Statements;

 private:
  // Records alive_ms in the open transaction (never throws: a failure is left to the commit).
  void note_alive(std::int64_t alive_ms);
  // After a failure: makes sure no transaction is left open on the connection.
  void end_failed_transaction() noexcept;

  // load() may run while the writer commits (a test reading back); one connection, one user.
  std::mutex db_mutex_;
  std::unique_ptr<SQLite::Database> db_;
  std::unique_ptr<Statements> statements_;  // after db_: finalized before it is closed
  int version_ = 0;
  std::int64_t alive_at_open_ms_ = 0;  // server_state.alive_ms as found when opened
};

}  // namespace plateau::store
