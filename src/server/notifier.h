#pragma once
// Notifications by mail (issue 15, item 4; docs/MAIL.md): who gets the mail about one table
// action. The mail renderer (mail_outbox.h) asks recipients() and sends those players (the ones
// with an address) the board's mail; the daily digest (digest_body) lists the boards that wait
// on a player who chose `notify digest`.
//
//   * A board challenged by mail (TableNotice::by_mail): every player gets every page, as
//     pbmserv did (the mail is the game's transport; `notify` does not apply).
//   * Any other table: a player gets mail only while no live connection of theirs is open
//     (TableNotice::connected), only with `notify every`, and only about what concerns them:
//     a new board or a game started, their turn (a move or an undo after which they are to
//     move), a draw offer or undo request of someone else, the game's end.
//   * The correspondence nag (TableNotice::nag_user) goes to the player it nags alone, unless
//     their setting is `off` on a board not played by mail.
// Pure functions; the caps of the outbox (kMailPerAddressHour, kMaxOutboxRows) still apply.
#include <functional>
#include <string>
#include <vector>

#include "server/table_services.h"

namespace plateau::server {

// The `notify` settings, as stored (store::AccountRow::notify).
inline constexpr const char* kNotifyEvery = "every";
inline constexpr const char* kNotifyDigest = "digest";
inline constexpr const char* kNotifyOff = "off";

// What one action did, as far as notifications care, read from its table events.
struct ActionFacts {
  bool created = false;  // a board challenged into existence ("challenge")
  bool started = false;  // a table's game started ("start")
  bool turned = false;   // a move or an undo: someone new may be to move ("move", "board")
  bool ended = false;    // "gameover"
  std::vector<std::string> requesters;  // who made a draw offer or undo request
};
ActionFacts action_facts(const std::vector<const Event*>& events);

// The players of `notice` (in its order, each once) who get the action's mail; `notify_of`
// gives a player's setting (kNotifyEvery, ...). Whether they have an address is the caller's
// business.
std::vector<std::string> recipients(const TableNotice& notice, const ActionFacts& facts,
                                    const std::function<std::string(const std::string&)>& notify_of);

// One board waiting on a player, for the digest.
struct WaitingBoard {
  std::string title;  // "Phutball Board 101"
  std::string label;  // "phutball 101"
  std::int64_t since_ms = 0;  // the turn began
};
// The digest's body: one line per board ("phutball 101: your move since 2026-12-02 17:05 UTC
// (Phutball Board 101)"), then how to change the setting.
std::string digest_body(const std::string& user, const std::vector<WaitingBoard>& boards);

}  // namespace plateau::server
