#include "compat/biloba/legacy_relay.h"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "compat/biloba/relay_pipe.h"
#include "server/rate_limited_log.h"

namespace plateau::biloba::net {

namespace asio = boost::asio;
using json = nlohmann::json;
using tcp = asio::ip::tcp;
using relay_detail::Pipe;

namespace {

constexpr auto kAliveEvery = std::chrono::seconds(3);  // under the link's 10 s request time-out

std::string to_base64(const char* data, std::size_t size) {
  std::string out(sodium_base64_ENCODED_LEN(size, sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(data), size,
                    sodium_base64_VARIANT_ORIGINAL);
  out.resize(out.size() - 1);  // its terminating NUL
  return out;
}

// The bytes of field "d" (base64 of at most one chunk); throws std::runtime_error otherwise.
std::string bytes_of(const json& frame) {
  auto d = frame.find("d");
  if (d == frame.end() || !d->is_string()) throw std::runtime_error("legacy relay: no data");
  const auto& text = d->get_ref<const std::string&>();
  if (text.size() > sodium_base64_ENCODED_LEN(kRelayChunk, sodium_base64_VARIANT_ORIGINAL)) {
    throw std::runtime_error("legacy relay: too much data in one frame");
  }
  std::string out(kRelayChunk, '\0');
  std::size_t size = 0;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(),
                        text.size(), nullptr, &size, nullptr,
                        sodium_base64_VARIANT_ORIGINAL) != 0) {
    throw std::runtime_error("legacy relay: bad base64");
  }
  out.resize(size);
  return out;
}

std::uint64_t sid_of(const json& frame) {
  auto sid = frame.find("sid");
  if (sid == frame.end() || !sid->is_number_unsigned()) {
    throw std::runtime_error("legacy relay: no sid");
  }
  return sid->get<std::uint64_t>();
}

server::RateLimitedLog& refusals() {
  static server::RateLimitedLog log;
  return log;
}

}  // namespace

// On the client's node: the client's socket, relayed to the host.
struct LegacyRelay::Outgoing : Pipe<tcp::socket> {
  Outgoing(tcp::socket socket, std::shared_ptr<const void> slot, LegacyRelay& relay,
           cluster::LinkPeer host, std::uint64_t sid)
      : Pipe(std::move(socket)), slot(std::move(slot)), relay(relay), host(std::move(host)),
        sid(sid) {}

  void start(const std::string& address) {
    auto self = std::static_pointer_cast<Outgoing>(shared_from_this());
    relay.link_.request(
        host.id, host.host, host.port, json{{"legacy", "open"}, {"sid", sid}, {"address", address}},
        [self](const json& frame) {
          if (!frame.contains("d")) {  // "alive": the first one says the host serves it
            return self->on_strand([self] {
              if (!std::exchange(self->reading, true)) self->read_next();
            });
          }
          std::string bytes;
          try {
            bytes = bytes_of(frame);
          } catch (const std::exception& e) {
            spdlog::warn("biloba relay: node {}: {}", self->host.id, e.what());
            return self->on_strand([self] { self->close(); });
          }
          self->on_strand([self, bytes = std::move(bytes)]() mutable {
            self->write(std::move(bytes));
          });
        },
        [self](const json& done) {
          if (auto why = done.find("refused"); why != done.end() && refusals().due()) {
            spdlog::info("biloba relay: node {} refused a connection: {}", self->host.id,
                         why->dump());
          }
          self->on_strand([self] {
            self->answered = true;
            self->close_after_writes();
          });
        },
        [self](cluster::LinkFailure, const std::string& why) {
          spdlog::info("biloba relay: a connection to node {} ended: {}", self->host.id, why);
          self->on_strand([self] {
            self->answered = true;
            self->close();
          });
        });
  }
  void read(std::string bytes) override {
    relay.link_.note(host.id, json{{"legacy", "data"},
                                   {"sid", sid},
                                   {"d", to_base64(bytes.data(), bytes.size())}});
  }
  void read_end() override {
    if (answered) return close();
    // The client's end of file (or error): the host's session reads it as its own (the
    // "close" note), and what it still sends is written until its "done", as a server the
    // client reached directly would answer a client that half-closed after its command.
    relay.link_.note(host.id, json{{"legacy", "close"}, {"sid", sid}});
    told_end = true;
  }
  void ended() override {
    if (!answered && !told_end) relay.link_.note(host.id, json{{"legacy", "close"}, {"sid", sid}});
    std::lock_guard lock(relay.mutex_);
    relay.outgoing_.erase(sid);
  }

  std::shared_ptr<const void> slot;  // this node's connection limits count the client
  LegacyRelay& relay;
  cluster::LinkPeer host;
  std::uint64_t sid;
  bool answered = false;  // the host said "done", or the link failed: nothing to tell it
  bool told_end = false;  // the host was told of the client's end (read_end)
  // The client's bytes are read once the host answered: sent before, on a link connection
  // still opening, the notes would be dropped (NodeLink::note) and the stream broken.
  bool reading = false;
};

// On the host: one end of a socket pair whose other end the legacy server serves, relayed to
// the client's node as the answer of its "open" request.
struct LegacyRelay::Incoming : Pipe<asio::local::stream_protocol::socket> {
  Incoming(asio::local::stream_protocol::socket socket, std::shared_ptr<cluster::LinkReply> reply,
           LegacyRelay& relay, std::pair<std::uint64_t, std::uint64_t> key, std::string peer)
      : Pipe(std::move(socket)), reply(std::move(reply)), relay(relay), key(key),
        peer(std::move(peer)), alive(this->socket().get_executor()) {}

  void start() {
    reply->event(json{{"ka", 1}});  // the client's node may send the client's bytes now
    read_next();
    keep_alive();
  }
  void keep_alive() {
    alive.expires_after(kAliveEvery);
    alive.async_wait([self = std::static_pointer_cast<Incoming>(shared_from_this())](
                         boost::system::error_code ec) {
      if (ec || self->closed()) return;
      self->reply->event(json{{"ka", 1}});
      self->keep_alive();
    });
  }
  void read(std::string bytes) override {
    reply->event(json{{"d", to_base64(bytes.data(), bytes.size())}});
  }
  void read_end() override { close(); }
  void ended() override {
    alive.cancel();
    reply->done(std::move(done_fields));  // nothing is sent once the link connection is gone
    std::lock_guard lock(relay.mutex_);
    relay.incoming_.erase(key);
  }

  std::shared_ptr<cluster::LinkReply> reply;
  LegacyRelay& relay;
  std::pair<std::uint64_t, std::uint64_t> key;
  std::string peer;  // the client's node (its relays on an older connection are orphans)
  asio::steady_timer alive;
  json done_fields = json::object();
};

LegacyRelay::LegacyRelay(asio::io_context& io, cluster::NodeLink& link, std::string self_id)
    : io_(io), link_(link), self_id_(std::move(self_id)) {}

LegacyRelay::~LegacyRelay() = default;

void LegacyRelay::set_server(std::weak_ptr<LegacyServer> server) {
  std::lock_guard lock(mutex_);
  server_ = std::move(server);
}

bool LegacyRelay::divert(tcp::socket& socket, std::shared_ptr<const void>& slot) {
  std::optional<cluster::LinkPeer> host;
  for (auto& peer : link_.ready_peers()) {
    if (peer.id < self_id_ && (!host || peer.id < host->id)) host = std::move(peer);
  }
  if (!host) return false;  // this node is the host
  boost::system::error_code ec;
  const auto remote = socket.remote_endpoint(ec);
  std::shared_ptr<Outgoing> out;
  {
    std::lock_guard lock(mutex_);
    if (stopped_ || ec || outgoing_.size() >= kMaxOutgoing) {
      if (!ec && !stopped_ && refusals().due()) {
        spdlog::warn("biloba relay: {} connections relayed to node {} already: refused {}",
                     outgoing_.size(), host->id, remote.address().to_string());
      }
      socket.close(ec);
      return true;
    }
    // Its own strand: the accepted socket came on the legacy server's.
    const auto protocol = remote.protocol();
    tcp::socket moved(asio::make_strand(io_), protocol, socket.release(ec));
    if (ec) return true;
    out = std::make_shared<Outgoing>(std::move(moved), std::move(slot), *this, *host, ++next_sid_);
    outgoing_[out->sid] = out;
  }
  out->start(remote.address().to_string());
  return true;
}

void LegacyRelay::serve(const cluster::LinkOrigin& from, const json& frame,
                        std::shared_ptr<cluster::LinkReply> reply) {
  const auto what = frame.at("legacy");
  if (!what.is_string()) throw std::runtime_error("legacy relay: a bad frame");
  const auto key = std::make_pair(from.serial, sid_of(frame));
  if (!reply) {  // a note: the client's bytes, or its end
    std::shared_ptr<Incoming> in;
    std::string bytes;
    const bool data = what == "data";
    if (data) {
      bytes = bytes_of(frame);
    } else if (what != "close") {
      throw std::runtime_error("legacy relay: an unknown note");
    }
    {
      std::lock_guard lock(mutex_);
      if (auto it = incoming_.find(key); it != incoming_.end()) in = it->second;
    }
    if (!in) return;  // closed here meanwhile
    in->on_strand([in, data, bytes = std::move(bytes)]() mutable {
      if (data) return in->write(std::move(bytes));
      // The client has gone: the legacy server reads the end of file, as from a socket.
      boost::system::error_code ec;
      in->socket().shutdown(asio::socket_base::shutdown_send, ec);
    });
    return;
  }
  if (what != "open") throw std::runtime_error("legacy relay: an unknown request");
  auto address = frame.find("address");
  if (address == frame.end() || !address->is_string() || address->get<std::string>().size() > 64) {
    throw std::runtime_error("legacy relay: no address");
  }
  std::shared_ptr<LegacyServer> server;
  std::size_t from_peer = 0;
  std::vector<std::shared_ptr<Incoming>> superseded;
  {
    std::lock_guard lock(mutex_);
    server = server_.lock();
    // A node relays on its one connection to this node (node_link.h): relays of an older
    // connection of the same node are orphans (it failed them when that connection broke, even
    // if this end has not noticed yet), and are closed. So one node holds at most 128 here, not
    // 128 on each of as many connections as it opens (eight took all 1,024).
    for (const auto& [k, in] : incoming_) {
      if (k.first == from.serial) {
        ++from_peer;
      } else if (in->peer == from.peer && k.first < from.serial) {
        superseded.push_back(in);
      }
    }
  }
  if (!superseded.empty()) {
    spdlog::info("biloba relay: node {} relays on a new link connection: {} of its relays on "
                 "an older one closed",
                 from.peer, superseded.size());
    for (auto& in : superseded) in->on_strand([in] { in->close(); });
  }
  {
    std::lock_guard lock(mutex_);
    if (stopped_ || !server) return reply->done(json{{"refused", "this node is stopping"}});
    if (incoming_.size() >= kMaxIncoming || from_peer >= kMaxOutgoing) {
      return reply->done(json{{"refused", "too many relayed connections"}});
    }
    if (incoming_.count(key)) throw std::runtime_error("legacy relay: a sid used twice");
  }
  auto strand = asio::make_strand(io_);
  asio::local::stream_protocol::socket ours(strand), theirs(io_);
  asio::local::connect_pair(ours, theirs);
  auto in = std::make_shared<Incoming>(std::move(ours), reply, *this, key, from.peer);
  {
    std::lock_guard lock(mutex_);
    incoming_[key] = in;
  }
  if (!server->adopt(std::move(theirs), address->get<std::string>())) {
    in->on_strand([in] {
      in->done_fields = json{{"refused", "the connection limits refuse it"}};
      in->close();
    });
    return;
  }
  in->on_strand([in] { in->start(); });
}

void LegacyRelay::gone(const cluster::LinkOrigin& from) {
  std::vector<std::shared_ptr<Incoming>> closing;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, in] : incoming_) {
      if (key.first == from.serial) closing.push_back(in);
    }
  }
  for (auto& in : closing) in->on_strand([in] { in->close(); });
}

void LegacyRelay::stop() {
  std::vector<std::shared_ptr<Incoming>> in;
  std::vector<std::shared_ptr<Outgoing>> out;
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    for (const auto& [key, i] : incoming_) in.push_back(i);
    for (const auto& [sid, o] : outgoing_) {
      if (auto p = o.lock()) out.push_back(std::move(p));
    }
  }
  for (auto& i : in) i->on_strand([i] { i->close(); });
  for (auto& o : out) o->on_strand([o] { o->close(); });
}

}  // namespace plateau::biloba::net
