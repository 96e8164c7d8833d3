#include "server/table_quota.h"

#include "core/text.h"
#include "server/command.h"
#include "store/store_types.h"

namespace plateau::server {

std::string count_of(int n, const std::string& thing) {
  return std::to_string(n) + " " + thing + (n == 1 ? "" : "s");
}

bool is_open(TableStatus status) {
  return status == TableStatus::kSetup || status == TableStatus::kPlaying;
}

int open_tables_created_by(const TableIndex& tables, const std::string& user) {
  const std::string lower = to_lower(user);
  int n = 0;
  for (const auto& [key, t] : tables) {
    // The creator is fixed; the summary (a copy) only for the user's own tables.
    if (to_lower(t->creator()) == lower && is_open(t->summary().status)) ++n;
  }
  return n;
}

int open_boards_started_by_others(const TableIndex& tables, const std::string& user) {
  const std::string lower = to_lower(user);
  int n = 0;
  for (const auto& [key, t] : tables) {
    if (to_lower(t->creator()) == lower) continue;
    const TableSummary s = t->summary();
    if (!is_open(s.status)) continue;
    for (const auto& seat : s.seats) {
      if (seat.kind == "user" && to_lower(seat.name) == lower) {
        ++n;
        break;
      }
    }
  }
  return n;
}

void check_table_quota(const TableIndex& tables, const std::string& user, bool guest,
                       const LobbyLimits& limits) {
  const int max = guest ? limits.max_open_tables_per_guest : limits.max_open_tables_per_user;
  if (max <= 0) throw CommandError("guests may not open tables here; register an account");
  const int open = open_tables_created_by(tables, user);
  if (open >= max) {
    throw CommandError("you have " + count_of(open, "open table") +
                       " (set-up or playing), the most " + (guest ? "a guest" : "an account") +
                       " may have");
  }
}

void check_challenge_accepted(const TableIndex& tables, const std::string& name, int limit) {
  if (limit == store::kAcceptAllChallenges || limit < 0) return;
  if (limit == 0) throw CommandError(name + " does not accept challenges");
  if (open_boards_started_by_others(tables, name) >= limit) {
    throw CommandError(name + " accepts at most " + count_of(limit, "open board") +
                       " started by others");
  }
}

}  // namespace plateau::server
