#pragma once
// A message for one user that is not a table event, on its way to the other nodes (issue 16
// item 3; docs/CLUSTER.md, "Messages to a user on any node"): an `/invite`, a queued move's
// notice (dropped, cancelled, illegal now). The node whose table made it tells the user's
// connections it holds itself, then publishes it on plateau_notices; every other node tells
// the user's connections it holds, each once. The connection whose forwarded command made it
// already heard it as an answer over the node link: the notice names it (`skip`), and its
// node leaves it out.
//
// A message to everyone at a table that is not a table event (a resignation of a player of
// three or more, a store failure, a guest's set-up table closed) goes the same way to the
// connections that follow the table on the other nodes (remote_feed.h): kind "table".
//
// The payload, at most cluster::kMaxNoticeBytes (7,900) bytes of JSON:
//   {"v":1,"kind":"user","to":NAME,"from":NODE,"skip":{"node":NODE,"cid":C},
//    "event":{"type":TYPE,"data":{...}}}            ("skip" only when a connection heard it)
//   {"v":1,"kind":"table","table":ID,"from":NODE,"skip":...,"event":...}  (ok and error only)
// The database is a trust boundary: parse_user_notice() accepts only what a node writes —
// a valid user name and node ids, and one of the events below with exactly its fields, each
// of its type and bounded, no control character in any text — and refuses anything else.
//   invite  {game, board, by, text}
//   queued  {game, board, move, dropped | cancelled (true), text}
//   error   {message}
//   ok      {text}
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "server/event.h"

namespace plateau::server {

struct UserNotice {
  std::string to;  // the user (any case: the receiving node looks the name up as a login)
  std::int64_t table_id = 0;  // instead of `to` (> 0): the followers of this table
  std::string from;           // the node that published it (it skips it: it told its own)
  // The connection that heard it as its command's answer: its node and the node link's client
  // id there (lobby_forwarding.h ProxyClient). Empty / 0 when none did.
  std::string skip_node;
  std::uint64_t skip_cid = 0;
  Event event;  // type and data only (no page, no seq: not a table event)
};

// The longest text field of an event carried (a queued move is at most 200 bytes; the texts a
// table writes are one line well under this).
inline constexpr std::size_t kMaxNoticeText = 1000;

// The payload of `notice`, or "" when it cannot be sent as one (an event not in the list
// above, or too long): the caller logs and drops it.
std::string user_notice_payload(const UserNotice& notice);

// The notice `payload` carries, or nullopt if it is not a user or table notice as a node writes it
// (another kind of notice included). Never throws.
std::optional<UserNotice> parse_user_notice(const std::string& payload);

// The user notices one node delivers, at most kPerSecond a second after a burst of kBurst:
// whatever writes to plateau_notices (a node, or anyone who can NOTIFY on the database) cannot
// keep the node's feed thread busy without bound. A node's own users are bounded already by
// the command rate of their connections (--rate), as on a single server; this is far above.
// Only the notices that have a connection to tell on the node spend it (lobby_notices.cpp):
// those to users connected elsewhere or nowhere cost a parse and a look-up, nothing more.
class NoticeBudget {
 public:
  static constexpr double kPerSecond = 2000;
  static constexpr double kBurst = 4000;
  // Takes one notice from the budget; false when it is spent (drop the notice). Thread-safe.
  bool take();

 private:
  std::mutex mutex_;
  double tokens_ = kBurst;
  std::chrono::steady_clock::time_point refill_ = std::chrono::steady_clock::now();
};

}  // namespace plateau::server
