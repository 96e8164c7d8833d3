#pragma once
// `plateau store copy`: every row of one store into another, empty one (SQLite to PostgreSQL
// and back; docs/STORE.md), then checked: the target read back equals the source row for row,
// and every started game replays through the rules (its record written and loaded again) to
// the same final position from both.
#include <cstddef>
#include <string>

namespace plateau::cli {

struct CopyReport {
  std::size_t accounts = 0, ratings = 0, counters = 0, tables = 0, moves = 0, chat = 0,
              events = 0, tokens = 0, mail = 0, vacations = 0,
              mail_seen = 0, nodes = 0;
  std::size_t games_replayed = 0;  // started tables whose moves replayed on both sides
  std::size_t games_in_setup = 0;  // tables not started (nothing to replay)
};

// Copies the store `from` into `to` (store URLs, store/store_url.h). Throws std::runtime_error
// (URLs redacted) if either cannot be opened, `to` is not empty (nothing is written then), the
// write fails (nothing is written: one transaction), or the check finds a difference (the
// target then holds the copy, to look at; it names the first difference).
CopyReport copy_store(const std::string& from, const std::string& to);

}  // namespace plateau::cli
