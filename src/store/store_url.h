#pragma once
// Which database a Store uses, named by a URL (`plateau serve --store URL`, `plateau store copy`):
//   sqlite:PATH                   the SQLite file PATH (SqliteBackend; created if missing)
//   postgresql://... postgres://  a PostgreSQL database, as libpq reads the URI (PostgresBackend)
#include <memory>
#include <string>

#include "store/backend.h"

namespace plateau::store {

// "" if `url` names a backend this program has (nothing is opened), else why not, in one line
// that names the accepted forms (the URL itself redacted).
std::string bad_store_url(const std::string& url);

// Opens the backend of `url` (migrating it). Throws std::invalid_argument for a URL
// bad_store_url() refuses, std::runtime_error when the database cannot be opened.
std::unique_ptr<Backend> open_backend(const std::string& url);

// True if `url` names a PostgreSQL database (postgresql:// or postgres://).
bool is_postgres_url(const std::string& url);

// `url` as it may be logged: a PostgreSQL password hidden.
std::string printable_store_url(const std::string& url);

}  // namespace plateau::store
