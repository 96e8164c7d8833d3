#pragma once
// What a player may be told when the store refused a write. The full reason (a file path, the
// database's host and port, PostgreSQL's message naming tables and columns) goes to the
// operator's log only: it tells a stranger where the database lives and how it is built.
#include <exception>
#include <string>

namespace plateau::store {

// A short, fixed text for `error` (an exception from Backend::commit_group or Store):
//   "the database cannot be reached"  the PostgreSQL connection is gone or cannot be opened
//   "the server's disk is full"       SQLITE_FULL, or PostgreSQL's 53100 disk_full
//   "a text the database cannot store" a NUL byte, or invalid UTF-8 PostgreSQL refused
//   "a storage error"                 anything else (constraint violations, I/O errors, ...)
// Never throws; a null `error` gives "a storage error".
std::string reason_for_players(const std::exception_ptr& error) noexcept;

}  // namespace plateau::store
