#pragma once
// The biloba 0.9.3 port of a node among several (issue 16 item 2; docs/CLUSTER.md "The biloba
// 0.9.3 port"). A legacy game lives in one LegacyServer (its players wait there for each other's
// clicks) and an original client knows nothing of nodes, so a cluster plays all its legacy
// games on one node, the *legacy host*: the node with the smallest id among this node and the
// live peers its node link reaches now (NodeLink::ready_peers: a frozen peer is passed over). Every other node relays each connection its port accepts to
// the host over the node link (authenticated, node_link.h), byte for byte:
//   request {"legacy":"open","sid":N,"address":A}  client's node -> host: the host serves the
//           bytes as a connection from address A (LegacyServer::adopt, A's connection limits)
//   note    {"legacy":"data","sid":N,"d":BASE64}    the client's bytes, in order
//   note    {"legacy":"close","sid":N}              the client has gone
//   event   {"d":BASE64} or {"ka":1}                the server's bytes, or "alive" every 3 s
//   done    {} or {"refused":WHY}                   the connection is over
// Bounds: each direction of a relay carries at most 16 KiB/s (burst 64 KiB; a game needs a few
// bytes a click), at most 256 KiB waits to be written to a socket (more closes the relay), a
// node relays at most 128 connections to its host at once (the link's 256 requests in flight
// keep room for forwarded commands), a host serves at most 1,024 relayed connections, 128 of
// them from one node (a node's relays on a new link connection close those of its older ones).
// When the host dies its games end (their connections close) and the next node in id order
// hosts new ones; two nodes whose links do not reach each other each host their own games, so
// a connection is always served somewhere.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "cluster/node_link.h"
#include "compat/biloba/legacy_server.h"

namespace plateau::biloba::net {

class LegacyRelay {
 public:
  static constexpr std::size_t kMaxOutgoing = 128;   // relayed to the host at once, this node
  static constexpr std::size_t kMaxIncoming = 1024;  // served here for other nodes, in all
  static constexpr std::size_t kMaxWaitingBytes = 256 * 1024;
  static constexpr double kBytesPerSecond = 16 * 1024;
  static constexpr double kBurstBytes = 64 * 1024;

  // `self_id`: this node's id (the host is the smallest id). Relays run on `io`'s threads.
  LegacyRelay(boost::asio::io_context& io, cluster::NodeLink& link, std::string self_id);
  ~LegacyRelay();
  LegacyRelay(const LegacyRelay&) = delete;
  LegacyRelay& operator=(const LegacyRelay&) = delete;

  // This node's legacy server, which serves the connections other nodes relay here.
  void set_server(std::weak_ptr<LegacyServer> server);

  // LegacyServerOptions::divert: when a reachable peer is the host, relays `socket` (a client
  // of this node's port, admitted with `slot`) there, taking both, and returns true; false
  // when this node is the host (serve it here). Over kMaxOutgoing the socket is closed (true).
  bool divert(boost::asio::ip::tcp::socket& socket, std::shared_ptr<const void>& slot);

  // A link frame with "legacy" from node `from`: a request ("open", with `reply`) or a note
  // ("data", "close"; `reply` null). Throws std::runtime_error for a malformed frame (the link
  // closes that connection, node_link.h).
  void serve(const cluster::LinkOrigin& from, const nlohmann::json& frame,
             std::shared_ptr<cluster::LinkReply> reply);
  // `from`'s connection ended: the relays it opened here close.
  void gone(const cluster::LinkOrigin& from);
  // Closes every relay, both ways (shutdown).
  void stop();

 private:
  struct Outgoing;
  struct Incoming;
  boost::asio::io_context& io_;
  cluster::NodeLink& link_;
  std::string self_id_;
  std::mutex mutex_;
  bool stopped_ = false;
  std::weak_ptr<LegacyServer> server_;
  std::uint64_t next_sid_ = 0;
  std::map<std::uint64_t, std::weak_ptr<Outgoing>> outgoing_;  // by sid
  // By the link connection's serial and the client node's sid.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::shared_ptr<Incoming>> incoming_;
};

}  // namespace plateau::biloba::net
