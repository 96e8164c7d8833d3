#include "server/table_quota.h"

#include <cctype>

#include "core/text.h"
#include "server/command.h"
#include "store/store_types.h"

namespace plateau::server {

std::string count_of(int n, const std::string& thing) {
  return std::to_string(n) + " " + thing + (n == 1 ? "" : "s");
}

bool same_user(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

bool is_open(TableStatus status) {
  return status == TableStatus::kSetup || status == TableStatus::kPlaying;
}

int open_tables_created_by(const TableIndex& tables, const std::string& user) {
  int n = 0;
  for (const auto& [key, t] : tables) {
    // The creator is fixed; the summary (a copy) only for the user's own tables.
    if (same_user(t->creator(), user) && is_open(t->summary().status)) ++n;
  }
  return n;
}

int open_boards_started_by_others(const TableIndex& tables, const std::string& user) {
  int n = 0;
  for (const auto& [key, t] : tables) {
    if (same_user(t->creator(), user)) continue;
    const TableSummary s = t->summary();
    if (!is_open(s.status)) continue;
    for (const auto& seat : s.seats) {
      if (seat.kind == SeatKind::kUser && same_user(seat.name, user)) {
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
