#pragma once
// Who may reach a table (issue 12 item 4; DESIGN.md §5: "invisible means unreachable, not
// unlisted"). A visible table is open to everyone. An invisible one is reachable only by its
// seated players, its host (the user who opened it) and the users they invited (/invite NAME);
// to everyone else it does not exist: every command, listing and URL answers exactly as for a
// table number that was never used. The lobby checks before it hands a command to a table and
// the table checks again on its strand (the table may have become invisible in between); both
// use may_reach() and unknown_table_error(), so the two answers cannot drift apart.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "server/command.h"

namespace plateau::server {

// The facts may_reach() needs, copied out of the table (thread-safe as part of TableSummary).
struct TableAccess {
  bool invisible = false;
  std::string host;                 // the creator's account name ("" for imported games)
  std::vector<std::string> seated;  // names of the seats of kind "user"
  std::set<std::string> invited;    // lower-case names invited with /invite
  // Secret of an invisible table's record URL, /records/GAME/N?key=KEY (HTTP carries no login);
  // given only to users who may reach the table. Empty for a visible table.
  std::string record_key;
};

// True if `user` (an account or guest name, case-insensitive; "" when not logged in) may reach
// the table: always for a visible table, otherwise only a seated player, the host or an invitee.
bool may_reach(const TableAccess& access, std::string_view user);

// The error the lobby gives for a table that does not exist, as command `c` named it: "no GAME
// board N" (game word given), "no board N", or, without a board number (the current table),
// "you are at no table: ...". An unreachable table gets exactly this text.
std::string unknown_table_error(const Command& c);

// The 404 body of /records/GAME/N for a table that does not exist, or one the request may not
// read (an invisible table without its key).
inline constexpr std::string_view kNoSuchRecord = "no such record\n";

// A new random record key: 32 lower-case hex digits (128 bits from libsodium).
std::string new_record_key();

// True if `given` is the table's record key (constant time); false if the table has none.
bool record_key_matches(const TableAccess& access, std::string_view given);

}  // namespace plateau::server
