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
  // A command of `client` is running (the Lobby holds each, from its start to its end): if the
  // node link forwards it, its answer may carry table events (a move's, as the reply) that the
  // feed would also deliver. Until release(client), the feed delivers nothing to that client;
  // then it delivers what is after the client's cursor — so follow() (which moves the cursor to
  // the answer's last_seq) comes before release(). Holds nest; one not released within 15 s
  // lapses. Thread-safe. By default, nothing.
  virtual void hold(const std::shared_ptr<Client>& /*client*/) {}
  virtual void release(const std::shared_ptr<Client>& /*client*/) {}
};

}  // namespace plateau::server
