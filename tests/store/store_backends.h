#pragma once
// The store tests run against every backend (issue 16, item 1): a test written with
// TEST_P(<fixture deriving BackendTest>, ...) runs once on SQLite (a fresh file) and once on
// PostgreSQL (a fresh schema of the process's test cluster, pg_test_cluster.h); instantiate a
// fixture with PLATEAU_ALL_BACKENDS(Fixture). Where the backends' own words differ (an error
// text, a version pragma), the test names both (expected()).
#include <gtest/gtest.h>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <filesystem>
#include <memory>
#include <string>

#include "pg_test_cluster.h"
#include "store/backend.h"
#include "store/migrations.h"
#include "store/pg_connection.h"
#include "store/store_url.h"

namespace plateau::store::testing {

enum class BackendKind { kSqlite, kPostgres };

// The text of a failure ("" for none): what the tests compare.
inline std::string what(const std::exception_ptr& e) {
  if (!e) return "";
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "?";
  }
}

class BackendTest : public ::testing::TestWithParam<BackendKind> {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "-" + info->name();
    for (char& c : name) {
      if (c == '/') c = '-';
    }
    dir_ = std::filesystem::temp_directory_path() /
           ("plateau-store-" + std::to_string(::getpid()) + "-" + name);
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = dir_ / "plateau.db";
    if (postgres()) {
      if (pg_url().empty()) GTEST_SKIP() << pg_skip_reason();
      pg_reset();
    }
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  bool postgres() const { return GetParam() == BackendKind::kPostgres; }
  std::string url() const { return postgres() ? pg_url() : "sqlite:" + path_.string(); }
  // A new backend on this test's database (opened, migrated).
  std::unique_ptr<Backend> open_backend() const { return store::open_backend(url()); }
  const std::string& expected(const std::string& sqlite, const std::string& postgres_text) const {
    return postgres() ? postgres_text : sqlite;
  }
  const std::vector<std::string>& backend_migrations() const {
    return postgres() ? postgres_migrations() : migrations();
  }

  // Runs `sql` on the database directly, not through a backend.
  void raw_exec(const std::string& sql) const {
    if (postgres()) {
      pg::Connection(pg_url()).exec(sql);
    } else {
      SQLite::Database(path_.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE).exec(sql);
    }
  }
  // Marks the database as being at schema version `v`, as the backend keeps it.
  void set_schema_version(int v) const {
    raw_exec(postgres() ? "CREATE TABLE IF NOT EXISTS plateau_schema (version INTEGER NOT NULL);"
                          "DELETE FROM plateau_schema; INSERT INTO plateau_schema VALUES (" +
                              std::to_string(v) + ")"
                        : "PRAGMA user_version = " + std::to_string(v));
  }

  std::filesystem::path dir_;
  std::filesystem::path path_;
};

inline std::string backend_name(const ::testing::TestParamInfo<BackendKind>& info) {
  return info.param == BackendKind::kSqlite ? "Sqlite" : "Postgres";
}

}  // namespace plateau::store::testing

#define PLATEAU_ALL_BACKENDS(Fixture)                                                    \
  INSTANTIATE_TEST_SUITE_P(All, Fixture,                                                  \
                           ::testing::Values(::plateau::store::testing::BackendKind::kSqlite, \
                                             ::plateau::store::testing::BackendKind::kPostgres), \
                           ::plateau::store::testing::backend_name)
