#pragma once
// Schema migrations of the store, one list per backend, the same versions in both: migration i
// brings a database from version i to i + 1. SQLite keeps the version in `PRAGMA user_version`,
// PostgreSQL in the table plateau_schema (postgres_backend.h). Opening a database applies the
// missing ones, one transaction each.
//
// Adding a migration is one entry at the end of BOTH lists, with the same number in the comment:
// SQLite's in migrations.cpp, PostgreSQL's in postgres_migrations.cpp (types: INTEGER stays
// INTEGER when it holds a small number and becomes BIGINT when it holds ms or an id, REAL
// becomes DOUBLE PRECISION, a COLLATE NOCASE key becomes a unique index on plateau_nocase()).
#include <string>
#include <vector>

namespace plateau::store {

// The SQL of each SQLite migration, in order.
const std::vector<std::string>& migrations();

// The SQL of each PostgreSQL migration, in order; the same versions as migrations().
const std::vector<std::string>& postgres_migrations();

}  // namespace plateau::store
