#include "store/store_failure.h"

#include <SQLiteCpp/Exception.h>
#include <sqlite3.h>

#include <stdexcept>

#include "store/pg_connection.h"

namespace plateau::store {

namespace {

constexpr const char* kUnreachable = "the database cannot be reached";
constexpr const char* kDiskFull = "the server's disk is full";
constexpr const char* kBadText = "a text the database cannot store";
constexpr const char* kOther = "a storage error";

}  // namespace

std::string reason_for_players(const std::exception_ptr& error) noexcept {
  if (!error) return kOther;
  try {
    std::rethrow_exception(error);
  } catch (const pg::ConnectionLost&) {
    return kUnreachable;
  } catch (const pg::Error& e) {
    // Class 53: insufficient resources (53100 disk_full); 22021: character_not_in_repertoire
    // (invalid UTF-8).
    if (e.sqlstate() == "53100") return kDiskFull;
    if (e.sqlstate() == "22021") return kBadText;
    return kOther;
  } catch (const SQLite::Exception& e) {
    return (e.getErrorCode() == SQLITE_FULL) ? kDiskFull : kOther;
  } catch (const std::invalid_argument&) {
    return kBadText;  // pg::Params refuses a NUL byte with std::invalid_argument
  } catch (...) {
    return kOther;
  }
}

}  // namespace plateau::store
