#include "store/store_url.h"

#include <stdexcept>
#include <string_view>

#include "store/pg_connection.h"
#include "store/postgres_backend.h"
#include "store/sqlite_backend.h"

namespace plateau::store {

namespace {

constexpr std::string_view kSqlite = "sqlite:";

}  // namespace

bool is_postgres_url(const std::string& url) {
  return url.starts_with("postgresql://") || url.starts_with("postgres://");
}

std::string bad_store_url(const std::string& url) {
  if (url.starts_with(kSqlite)) {
    if (url.size() == kSqlite.size()) return "sqlite: needs a file path (sqlite:PATH)";
    return "";
  }
  if (is_postgres_url(url)) return "";
  return "store URL '" + pg::redact_url(url) +
         "' is neither sqlite:PATH nor postgresql://USER@HOST[:PORT]/DATABASE";
}

std::unique_ptr<Backend> open_backend(const std::string& url) {
  if (std::string why = bad_store_url(url); !why.empty()) throw std::invalid_argument(why);
  if (is_postgres_url(url)) return std::make_unique<PostgresBackend>(url);
  return std::make_unique<SqliteBackend>(url.substr(kSqlite.size()));
}

std::string printable_store_url(const std::string& url) { return pg::redact_url(url); }

}  // namespace plateau::store
