// Access to invisible tables (table_access.h), and the Table members that enforce it: the
// check every table command passes, /invite, and dropping watchers who lost access.
#include "server/table_access.h"

#include <sodium.h>

#include <algorithm>
#include <stdexcept>

#include "core/text.h"
#include "server/table.h"

namespace plateau::server {

bool may_reach(const TableAccess& access, std::string_view user) {
  if (!access.invisible) return true;
  if (user.empty()) return false;
  const std::string lower = to_lower(user);
  if (to_lower(access.host) == lower) return true;
  if (access.invited.count(lower)) return true;
  return std::any_of(access.seated.begin(), access.seated.end(),
                     [&](const std::string& s) { return to_lower(s) == lower; });
}

std::string unknown_table_error(const Command& c) {
  if (!c.board) return "you are at no table: give a board number, or /open GAME, /table N";
  if (!c.game.empty()) return "no " + c.game + " board " + std::to_string(*c.board);
  return "no board " + std::to_string(*c.board);
}

std::string new_record_key() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  unsigned char bytes[16];
  randombytes_buf(bytes, sizeof bytes);
  char hex[2 * sizeof bytes + 1];
  sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
  return hex;
}

bool record_key_matches(const TableAccess& access, std::string_view given) {
  if (access.record_key.empty() || given.size() != access.record_key.size()) return false;
  return sodium_memcmp(access.record_key.data(), given.data(), given.size()) == 0;
}

// ---------------------------------------------------------------------------------------------
// Table members (on the table's strand)

TableAccess Table::access() const {
  TableAccess a;
  a.invisible = table_flags_.count("invisible") > 0;
  a.host = creator_;
  for (const auto& s : seats_) {
    if (s.kind == SeatKind::kUser) a.seated.push_back(s.name);
  }
  a.invited = invited_;
  a.record_key = a.invisible ? record_key_ : std::string();
  return a;
}

void Table::require_reachable(const Tx& tx, const Command& c) const {
  if (!may_reach(access(), tx.caller.user)) throw CommandError(unknown_table_error(c));
}

void Table::drop_unreachable_watchers() {
  const TableAccess a = access();
  if (!a.invisible) return;
  watchers_.erase(
      std::remove_if(watchers_.begin(), watchers_.end(),
                     [&](const Watcher& w) { return w.client.expired() || !may_reach(a, w.user); }),
      watchers_.end());
}

std::string Table::record_path() const {
  return "/records/" + game_name_ + "/" + std::to_string(number_) + "?key=" + record_key_;
}

void Table::cmd_invite(Tx& tx, const Command& c) {
  require_user(tx);
  if (table_seat_of(tx.caller.user) < 0 && to_lower(tx.caller.user) != to_lower(creator_)) {
    throw CommandError("only the players and the host of " + label() + " may invite");
  }
  const std::string& name = c.args.at(0);
  if (!services_.user_exists(name)) {
    throw CommandError("no user named '" + name.substr(0, 30) + "'");
  }
  TableAccess a = access();
  a.invisible = true;  // who could reach it if it were invisible
  if (may_reach(a, name)) {
    tx.reply(ok_event(name + " can already reach " + label() + "."));
    return;
  }
  if (invited_.size() >= kMaxInvitedPerTable) {
    throw CommandError(label() + " has " + std::to_string(invited_.size()) +
                       " invitations already, the most a table may have");
  }
  invited_.insert(to_lower(name));
  tx.table_changed = true;
  tx.reply(ok_event("You invited " + name + " to " + label() + "."));
  tx.user(name, Event{"invite",
                      {{"game", game_name_},
                       {"board", number_},
                       {"by", tx.caller.user},
                       {"text", tx.caller.user + " invites you to " + label() + ": /table " +
                                    game_name_ + " " + std::to_string(number_) + " to go there."}},
                      {}});
}

}  // namespace plateau::server
