#pragma once
// Who may open how many tables (issue 12, items 5 and 6): a cap on the open tables (set-up or
// playing) a user or guest created, and each account's own limit on the boards others start
// in its name (the `limit` command). Plain checks over the lobby's table index; the lobby calls
// them with its mutex held, so a check and the table it admits are one step.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "server/limits.h"
#include "server/table.h"

namespace plateau::server {

// The largest N of `limit N` (more is `limit accept`).
inline constexpr int kMaxChallengeLimit = 1000;

// The lobby's tables by (game, board number).
using TableIndex = std::map<std::pair<std::string, int>, std::shared_ptr<Table>>;

// "1 open table", "2 open tables": `n` and `thing`, plural unless n is 1.
std::string count_of(int n, const std::string& thing);

// Names compare without regard to ASCII case (user names are ASCII).
bool same_user(std::string_view a, std::string_view b);

// True while a table counts against its creator and its players: set-up or playing.
bool is_open(TableStatus status);

// Open tables of `tables` that `user` (any case) created, by /open or a challenge.
int open_tables_created_by(const TableIndex& tables, const std::string& user);
// Open tables of `tables` where `user` holds a seat and someone else is the creator.
int open_boards_started_by_others(const TableIndex& tables, const std::string& user);

// Throws CommandError if `user` may not create one more table: with `max` open ones already
// ("you have N open tables (set-up or playing), the most an account may have", "... a guest
// ..."), or if `max` is 0 for guests ("guests may not open tables here; register an account").
void check_table_quota(const TableIndex& tables, const std::string& user, bool guest,
                       const LobbyLimits& limits);

// Throws CommandError if `name` (an account, as registered) does not take a board started by
// someone else: "NAME does not accept challenges" for a limit of 0, "NAME accepts at most N
// open boards started by others" once N are open. `limit` as store::AccountRow::challenge_limit.
void check_challenge_accepted(const TableIndex& tables, const std::string& name, int limit);

}  // namespace plateau::server
