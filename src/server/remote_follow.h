#pragma once
// The seam between the node link (commands forwarded to the node that owns a table) and the
// delivery of a remote table's events on the node a client is connected to (issue 16, items 2
// and 3; docs/CLUSTER.md). The table's owner never pushes events to another node's clients:
// it stores them (table_events) and announces each batch with pg_notify; the client's own node
// reads them by seq and delivers them to the clients that follow the table there.
//
// The node link calls follow() once a forwarded command has made a client a player or a
// spectator of a table another node owns (open, join, watch, table, resync, an accepted
// challenge, ...) and unfollow() once it has left it; the implementation (the event feed)
// delivers every event of that table after `after_seq`, in seq order, without gaps or
// repeats, until unfollow() or the client's disconnection.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace plateau::server {

class Client;

class RemoteFollow {
 public:
  virtual ~RemoteFollow() = default;
  // `client` follows table `table_id` (of `game`, board `number`), owned by another node, from
  // the event after `after_seq` (the `last_seq` its answer carried; 0 = from the start).
  // Following a table it already follows only moves `after_seq` forward. Thread-safe.
  virtual void follow(const std::shared_ptr<Client>& client, std::int64_t table_id,
                      const std::string& game, int number, std::int64_t after_seq) = 0;
  // `client` no longer follows `table_id` (it left, or the table ended and was dropped).
  // Unknown pairs are ignored. Thread-safe.
  virtual void unfollow(const std::shared_ptr<Client>& client, std::int64_t table_id) = 0;
  // Where `client` stands in each table it follows: table id -> the last seq it was told.
  // The node link takes this when it forwards a command, for send_answer(). Thread-safe.
  virtual std::map<std::int64_t, std::int64_t> positions(const std::shared_ptr<Client>& client) {
    (void)client;
    return {};
  }
  // The owner answered `client`'s forwarded command with event `seq` of `table_id`; `since` is
  // the client's position in that table when the command was forwarded (positions(); -1 if it
  // did not follow it). An event the command made (seq > since) may be on its way from the
  // feed too: then exactly one of the two reaches the client. So this runs `send` (which sends
  // the answer) unless the feed has delivered that seq meanwhile, and from then on the feed
  // counts it as delivered; events before it that the feed has not delivered yet (another
  // player's chat a moment earlier) still come from the feed, after the answer, which is never
  // held back. An older event told again (a move re-sent with its #n is acknowledged again)
  // is always sent. Thread-safe.
  virtual void send_answer(const std::shared_ptr<Client>& client, std::int64_t table_id,
                           std::int64_t seq, std::int64_t since, const std::function<void()>& send) {
    (void)client, (void)table_id, (void)seq, (void)since;
    send();
  }
};

}  // namespace plateau::server
