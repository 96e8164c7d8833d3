#pragma once
// The node link (issue 16 item 2; docs/CLUSTER.md "The node link"): the TCP connections between
// the nodes of one cluster, on their --node-port. Each node listens there and opens one
// connection of its own to each peer it sends requests to (kept, opened again after a back-off
// when it drops); requests go out on a node's own connections and their answers come back on
// them, so each connection carries requests one way and answers the other.
//
// A connection is authenticated both ways before anything else (link_auth.h): the listening
// end sends a hello with a fresh nonce; the connecting end answers with its nonce, its node id
// and its proof; the listening end checks it and sends its own proof. A peer that fails (no
// answer within 5 s, a wrong proof, a replayed handshake, a malformed or oversized frame) is
// cut and logged (at most one line a second). Afterwards each frame is JSON with its MAC; an
// unknown or malformed frame closes that connection, never the server.
//
// Frames (JSON objects, field "t"), after the handshake:
//   request  {"t":"req","id":N,...}             home -> owner, answered by:
//   event    {"t":"ev","id":N,...}               owner -> home, zero or more
//   done     {"t":"done","id":N,...}             owner -> home, once: the request is over
//   note     {"t":"note",...}                    home -> owner, unanswered
// The fields besides "t" and "id" are the user's (lobby_forward.cpp).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

// clang-format off
#include <utility>
#include <boost/asio.hpp>
// clang-format on

#include "cluster/link_auth.h"

namespace plateau::cluster {

class LinkConn;

struct LinkOptions {
  std::string self_id;  // this node's id
  std::string bind = "0.0.0.0";
  int port = 0;  // --node-port (0: an ephemeral port, tests)
  LinkKey key{};
  // A request with no frame back ("ev" or "done") for this long fails; each "ev" starts it
  // again, so an answer that streams (legacy_relay.h) lives while its frames come.
  std::chrono::milliseconds request_timeout{10000};
  std::chrono::milliseconds handshake_timeout{5000};
  std::size_t max_in_flight_per_peer = 256;      // more requests at once fail at once
  std::size_t max_queued_bytes = 8u << 20;       // unsent output per connection; more closes it
  std::chrono::milliseconds max_backoff{10000};  // between connection attempts to a dead peer
  std::chrono::milliseconds peers_every{2000};   // how often the live peers are listed
  // Connections still in their handshake from one address; more are closed at once (a peer
  // needs one, so a stranger cannot hold the node's descriptors within the time-out).
  std::size_t max_handshakes_per_address = 16;
  std::size_t max_handshakes = 256;  // the same from all addresses together (many addresses)
};

// A live peer as the database lists it: its id and where its node link listens.
struct LinkPeer {
  std::string id;
  std::string host;
  int port = 0;
};

// The connection a request came in on: the peer's node id and a serial number unique in this
// process (a peer that reconnects gets a new one).
struct LinkOrigin {
  std::string peer;
  std::uint64_t serial = 0;
};

// Sends the answer of one request back on the connection it came in on. Thread-safe; does
// nothing once that connection is gone.
class LinkReply {
 public:
  LinkReply(std::weak_ptr<LinkConn> conn, std::uint64_t id) : conn_(std::move(conn)), id_(id) {}
  // One "ev" frame with `fields` (and "t", "id").
  void event(nlohmann::json fields);
  // The "done" frame with `fields` (and "t", "id"); once.
  void done(nlohmann::json fields);

 private:
  void send(const char* type, nlohmann::json fields);
  std::weak_ptr<LinkConn> conn_;
  std::uint64_t id_;
};

// How a request ended without its "done": never sent (the peer cannot be reached, or too many
// requests to it are in flight) or sent and unanswered (time-out, the connection lost).
enum class LinkFailure { kNotSent, kLost };

class NodeLink {
 public:
  // An authenticated "req" frame from peer `from`: answer through `reply` (events, then done).
  // A "note" frame comes with a null `reply`. Runs on the connection's strand; must not block.
  using Serve = std::function<void(const LinkOrigin& from, nlohmann::json frame,
                                   std::shared_ptr<LinkReply> reply)>;
  // A connection that came in from a peer ended (what was served on it may be forgotten).
  using Gone = std::function<void(const LinkOrigin& from)>;

  // Listens on options.bind:options.port at once (throws std::runtime_error saying why if it
  // cannot); accepts from start().
  NodeLink(boost::asio::io_context& io, LinkOptions options, Serve serve, Gone gone);
  ~NodeLink();
  NodeLink(const NodeLink&) = delete;
  NodeLink& operator=(const NodeLink&) = delete;

  // Accepts; with `peers` (a blocking call: the live nodes from the database, nullopt when it
  // cannot be read), keeps a connection open to each live peer: every peers_every, on a thread
  // of its own, the peers without one are connected (after their back-off).
  void start(std::function<std::optional<std::vector<LinkPeer>>()> peers = nullptr);
  // Stops accepting and closes every connection; pending requests fail (kLost/kNotSent).
  void stop();
  int port() const { return port_; }

  // Sends request `fields` to node `peer` at host:port (its nodes row). `on_event` receives
  // each "ev" frame, then exactly one of: `on_done(done frame)` or `on_fail(why)`. Both run on
  // an I/O thread, never inside this call. Thread-safe.
  void request(const std::string& peer, const std::string& host, int port, nlohmann::json fields,
               std::function<void(const nlohmann::json&)> on_event,
               std::function<void(const nlohmann::json&)> on_done,
               std::function<void(LinkFailure, const std::string& why)> on_fail);
  // Sends note `fields` to `peer` if a connection to it is open (else drops it). Thread-safe.
  void note(const std::string& peer, nlohmann::json fields);
  // The peers this node's own connection to is open and authenticated now, by id, that the
  // latest listing (start's `peers`) saw live: a frozen peer's connection stays open, but it
  // drops out of the listing within 2 s of its last heartbeat. Thread-safe.
  std::vector<LinkPeer> ready_peers();

 private:
  struct Pending {
    std::function<void(const nlohmann::json&)> on_event;
    std::function<void(const nlohmann::json&)> on_done;
    std::function<void(LinkFailure, const std::string&)> on_fail;
    std::shared_ptr<boost::asio::steady_timer> timer;
  };
  struct Peer {
    std::string host;
    int port = 0;
    std::shared_ptr<LinkConn> conn;
    bool ready = false;                   // authenticated
    bool connecting = false;              // resolving, connecting or shaking hands
    bool listed = true;                   // in the latest listing of live peers (keep())
    std::vector<nlohmann::json> waiting;  // requests to send once ready
    std::map<std::uint64_t, Pending> in_flight;
    std::chrono::steady_clock::time_point retry_at{};
    std::chrono::milliseconds backoff{0};
  };
  void accept();
  void keep(const std::vector<LinkPeer>& peers);
  void connect(const std::string& peer_id);  // with mutex_ held
  // (Re)starts request `id`'s time-out: request_timeout from now. With mutex_ held.
  void arm(const std::shared_ptr<boost::asio::steady_timer>& timer, const std::string& peer,
           std::uint64_t id);
  void peer_ready(const std::string& peer_id, const std::shared_ptr<LinkConn>& conn);
  void peer_closed(const std::string& peer_id, const std::shared_ptr<LinkConn>& conn,
                   const std::string& why);
  void answer(const std::string& peer_id, nlohmann::json frame);
  void fail(const std::string& peer_id, std::uint64_t id, LinkFailure kind, const std::string& why);

  boost::asio::io_context& io_;
  LinkOptions options_;
  Serve serve_;
  Gone gone_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer accept_wait_;  // after a failed accept (no descriptor left)
  bool accept_failing_ = false;            // accept() runs one at a time: no lock
  int port_ = 0;
  std::mutex mutex_;
  bool stopped_ = false;
  std::uint64_t next_id_ = 0;
  std::uint64_t next_serial_ = 0;
  std::map<std::string, Peer> peers_;
  std::vector<std::weak_ptr<LinkConn>> inbound_;
  std::map<std::string, std::size_t> handshaking_;  // inbound, by remote address
  std::size_t handshaking_all_ = 0;                 // inbound, in all
  std::condition_variable wake_;                    // stop() wakes the peers thread
  std::thread peers_thread_;
};

}  // namespace plateau::cluster
