// What players are told about a failed write: a fixed text per kind of failure, never the
// database's address or message (store_failure.h).
#include "store/store_failure.h"

#include <SQLiteCpp/Exception.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <stdexcept>

#include "store/pg_connection.h"

namespace plateau::store {
namespace {

template <typename E>
std::string told(E error) {
  return reason_for_players(std::make_exception_ptr(std::move(error)));
}

TEST(StoreFailure, AnUnreachableDatabaseIsNotLocated) {
  EXPECT_EQ(told(pg::ConnectionLost("cannot connect to PostgreSQL at "
                                    "postgresql://plateau:***@10.1.2.3:5432/plateau: refused")),
            "the database cannot be reached");
}

TEST(StoreFailure, ADiskFullIsSaidOnBothBackends) {
  EXPECT_EQ(told(SQLite::Exception("database or disk is full", SQLITE_FULL)),
            "the server's disk is full");
  EXPECT_EQ(told(pg::Error("could not extend file \"base/16384/16390\"", "53100")),
            "the server's disk is full");
}

TEST(StoreFailure, TextsTheDatabaseRefuses) {
  EXPECT_EQ(told(std::invalid_argument("a text with a NUL byte cannot be stored in PostgreSQL")),
            "a text the database cannot store");
  EXPECT_EQ(told(pg::Error("invalid byte sequence for encoding \"UTF8\": 0xff", "22021")),
            "a text the database cannot store");
}

TEST(StoreFailure, EverythingElseNamesNoTableOrColumn) {
  EXPECT_EQ(told(pg::Error("duplicate key value violates unique constraint \"moves_pkey\"",
                           "23505")),
            "a storage error");
  EXPECT_EQ(told(SQLite::Exception("UNIQUE constraint failed: moves.table_id, moves.ply",
                                   SQLITE_CONSTRAINT)),
            "a storage error");
  EXPECT_EQ(told(std::runtime_error("/var/lib/plateau/plateau.db: disk I/O error")),
            "a storage error");
  EXPECT_EQ(told(42), "a storage error");
  EXPECT_EQ(reason_for_players(nullptr), "a storage error");
}

}  // namespace
}  // namespace plateau::store
