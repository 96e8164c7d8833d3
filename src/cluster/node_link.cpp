// The node link (node_link.h): one authenticated connection per direction between nodes.
#include "cluster/node_link.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <deque>
#include <set>

#include "cluster/cluster_db.h"
#include "cluster/link_conn.h"

namespace plateau::cluster {

namespace asio = boost::asio;
using asio::ip::tcp;
using nlohmann::json;

// One link connection, either end. Everything but send() and close() runs on its strand.

void LinkReply::send(const char* type, json fields) {
  if (auto conn = conn_.lock()) {
    fields["t"] = type;
    fields["id"] = id_;
    conn->send(std::move(fields));
  }
}

void LinkReply::event(json fields) { send("ev", std::move(fields)); }
void LinkReply::done(json fields) { send("done", std::move(fields)); }

NodeLink::NodeLink(asio::io_context& io, LinkOptions options, Serve serve, Gone gone)
    : io_(io),
      options_(std::move(options)),
      serve_(std::move(serve)),
      gone_(std::move(gone)),
      acceptor_(io),
      accept_wait_(io) {
  try {
    const tcp::endpoint ep(asio::ip::make_address(options_.bind),
                           static_cast<unsigned short>(options_.port));
    acceptor_.open(ep.protocol());
    acceptor_.set_option(tcp::acceptor::reuse_address(true));
    acceptor_.bind(ep);
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on the node port " + std::to_string(options_.port) +
                             ": " + e.what());
  }
}

NodeLink::~NodeLink() { stop(); }

void NodeLink::start(std::function<std::optional<std::vector<LinkPeer>>()> peers) {
  spdlog::info("node link: node {} listening on port {}", options_.self_id, port_);
  accept();
  if (!peers) return;
  peers_thread_ = std::thread([this, peers = std::move(peers)] {
    std::unique_lock lock(mutex_);
    while (!stopped_) {
      lock.unlock();
      std::optional<std::vector<LinkPeer>> live;
      try {
        live = peers();
      } catch (const std::exception& e) {
        spdlog::warn("node link: cannot list the peers: {}", e.what());
      }
      if (live) keep(*live);
      lock.lock();
      wake_.wait_for(lock, options_.peers_every, [this] { return stopped_; });
    }
  });
}

void NodeLink::keep(const std::vector<LinkPeer>& peers) {
  std::lock_guard lock(mutex_);
  if (stopped_) return;
  const auto now = std::chrono::steady_clock::now();
  // A peer missing from the listing (frozen or hung: no heartbeat for 2 s) may keep its TCP
  // connection open for ever; ready_peers() leaves it out until it is listed again.
  for (auto& [id, p] : peers_) p.listed = false;
  for (const auto& l : peers) {
    if (l.id == options_.self_id) continue;
    Peer& p = peers_[l.id];
    p.listed = true;
    if (p.host != l.host || p.port != l.port) {
      p.host = l.host;
      p.port = l.port;
      p.retry_at = {};
    }
    if (!p.ready && !p.connecting && now >= p.retry_at) connect(l.id);
  }
}

void NodeLink::accept() {
  acceptor_.async_accept(asio::make_strand(io_), [this](boost::system::error_code ec,
                                                        tcp::socket socket) {
    {
      std::lock_guard lock(mutex_);
      if (stopped_) return;
    }
    if (!ec) {
      boost::system::error_code aec;
      const auto remote = socket.remote_endpoint(aec);
      const std::string address = aec ? "?" : remote.address().to_string();
      {
        std::lock_guard lock(mutex_);
        std::size_t& n = handshaking_[address];
        std::string refused;
        if (n >= options_.max_handshakes_per_address) {
          refused = std::to_string(n) + " handshakes from its address at once";
        } else if (handshaking_all_ >= options_.max_handshakes) {
          refused = std::to_string(handshaking_all_) + " handshakes at once";
        }
        if (!refused.empty()) {
          if (n == 0) handshaking_.erase(address);
          socket.close(aec);
          note_link_refusal(address + ":" + std::to_string(remote.port()), refused);
          return accept();
        }
        ++n;
        ++handshaking_all_;
      }
      // Counted until the handshake ends either way (ready, or closed before).
      auto release = [this, address, counted = std::make_shared<std::atomic<bool>>(true)] {
        if (!counted->exchange(false)) return;
        std::lock_guard lock(mutex_);
        auto it = handshaking_.find(address);
        if (it != handshaking_.end() && --it->second == 0) handshaking_.erase(it);
        --handshaking_all_;
      };
      LinkConn::Handlers h;
      h.frame = [this](const std::shared_ptr<LinkConn>& conn, json frame) {
        const std::string type = frame["t"].get<std::string>();
        const LinkOrigin from{conn->peer(), conn->serial};
        if (type == "note") return serve_(from, std::move(frame), nullptr);
        if (type != "req")
          throw std::runtime_error("an unknown frame '" + type.substr(0, 16) + "'");
        auto id = frame.find("id");
        if (id == frame.end() || !id->is_number_unsigned()) throw std::runtime_error("no id");
        serve_(from, std::move(frame), std::make_shared<LinkReply>(conn, id->get<std::uint64_t>()));
      };
      h.ready = [release](const std::shared_ptr<LinkConn>& conn) {
        release();
        spdlog::info("node link: node {} connected from {}", conn->peer(), conn->where());
      };
      h.closed = [this, release](const std::shared_ptr<LinkConn>& conn, const std::string& why) {
        release();
        if (conn->peer().empty() || conn->peer() == "?") return;
        spdlog::info("node link: connection from node {} closed: {}", conn->peer(), why);
        gone_(LinkOrigin{conn->peer(), conn->serial});
      };
      auto conn = std::make_shared<LinkConn>(std::move(socket), LinkConn::Role::kServer, options_,
                                             "", std::move(h));
      {
        std::lock_guard lock(mutex_);
        conn->serial = ++next_serial_;
        std::erase_if(inbound_, [](const auto& w) { return w.expired(); });
        inbound_.push_back(conn);
      }
      conn->start();
    } else if (ec == asio::error::operation_aborted) {
      return;
    } else {
      // No descriptor left (EMFILE, ENFILE): the connection stays in the backlog, and taking
      // it again at once would spin a thread; wait as the client ports do.
      if (!accept_failing_) {  // once per outage
        spdlog::warn("node link: cannot accept a connection (retrying): {}", ec.message());
      }
      accept_failing_ = true;
      accept_wait_.expires_after(std::chrono::milliseconds(100));
      accept_wait_.async_wait([this](boost::system::error_code wec) {
        if (!wec) accept();
      });
      return;
    }
    accept_failing_ = false;
    accept();
  });
}

void NodeLink::stop() {
  std::vector<std::shared_ptr<LinkConn>> conns;
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
    wake_.notify_all();
    for (auto& w : inbound_) {
      if (auto c = w.lock()) conns.push_back(c);
    }
    for (auto& [id, p] : peers_) {
      if (p.conn) conns.push_back(p.conn);
    }
  }
  if (peers_thread_.joinable()) peers_thread_.join();
  boost::system::error_code ec;
  acceptor_.close(ec);
  for (auto& c : conns) c->close("the node stops");
}

void NodeLink::request(const std::string& peer, const std::string& host, int port, json fields,
                       std::function<void(const json&)> on_event,
                       std::function<void(const json&)> on_done,
                       std::function<void(LinkFailure, const std::string&)> on_fail) {
  std::string refused;
  {
    std::lock_guard lock(mutex_);
    Peer& p = peers_[peer];
    if (p.host != host || p.port != port) {
      p.host = host;
      p.port = port;
      p.retry_at = {};  // a new address: no reason to wait
    }
    if (stopped_) {
      refused = "this node is stopping";
    } else if (p.in_flight.size() >= options_.max_in_flight_per_peer) {
      refused = "too many requests to node " + peer + " at once";
    } else if (!p.ready && !p.connecting && std::chrono::steady_clock::now() < p.retry_at) {
      refused = "node " + peer + " could not be reached a moment ago";
    }
    if (refused.empty()) {
      const std::uint64_t id = ++next_id_;
      fields["t"] = "req";
      fields["id"] = id;
      auto timer = std::make_shared<asio::steady_timer>(io_);
      arm(timer, peer, id);
      p.in_flight[id] = Pending{std::move(on_event), std::move(on_done), on_fail, timer};
      if (p.ready) {
        p.conn->send(std::move(fields));
      } else {
        p.waiting.push_back(std::move(fields));
        if (!p.connecting) connect(peer);
      }
      return;
    }
  }
  asio::post(io_,
             [on_fail = std::move(on_fail), refused] { on_fail(LinkFailure::kNotSent, refused); });
}

void NodeLink::arm(const std::shared_ptr<asio::steady_timer>& timer, const std::string& peer,
                   std::uint64_t id) {
  timer->expires_after(options_.request_timeout);  // cancels a wait already armed
  timer->async_wait([this, peer, id](boost::system::error_code ec) {
    if (!ec) fail(peer, id, LinkFailure::kLost, "no answer from node " + peer + " in time");
  });
}

std::vector<LinkPeer> NodeLink::ready_peers() {
  std::lock_guard lock(mutex_);
  std::vector<LinkPeer> ready;
  for (const auto& [id, p] : peers_) {
    if (p.ready && p.listed) ready.push_back(LinkPeer{id, p.host, p.port});
  }
  return ready;
}

void NodeLink::note(const std::string& peer, json fields) {
  std::lock_guard lock(mutex_);
  auto it = peers_.find(peer);
  if (it == peers_.end() || !it->second.ready) return;
  fields["t"] = "note";
  it->second.conn->send(std::move(fields));
}

void NodeLink::connect(const std::string& peer_id) {
  Peer& p = peers_[peer_id];
  p.connecting = true;
  auto resolver = std::make_shared<tcp::resolver>(io_);
  resolver->async_resolve(
      p.host, std::to_string(p.port),
      [this, peer_id, resolver](boost::system::error_code ec, tcp::resolver::results_type found) {
        if (ec) return peer_closed(peer_id, nullptr, "cannot resolve its address: " + ec.message());
        auto socket = std::make_shared<tcp::socket>(asio::make_strand(io_));
        asio::async_connect(
            *socket, found,
            [this, peer_id, socket](boost::system::error_code ec, const tcp::endpoint&) {
              if (ec) return peer_closed(peer_id, nullptr, ec.message());
              LinkConn::Handlers h;
              h.ready = [this, peer_id](const std::shared_ptr<LinkConn>& conn) {
                peer_ready(peer_id, conn);
              };
              h.frame = [this, peer_id](const std::shared_ptr<LinkConn>&, json frame) {
                answer(peer_id, std::move(frame));
              };
              h.closed = [this, peer_id](const std::shared_ptr<LinkConn>& conn,
                                         const std::string& why) {
                peer_closed(peer_id, conn, why);
              };
              auto conn = std::make_shared<LinkConn>(std::move(*socket), LinkConn::Role::kClient,
                                                     options_, peer_id, std::move(h));
              {
                std::lock_guard lock(mutex_);
                if (stopped_) return;
                peers_[peer_id].conn = conn;
              }
              conn->start();
            });
      });
}

void NodeLink::peer_ready(const std::string& peer_id, const std::shared_ptr<LinkConn>& conn) {
  std::lock_guard lock(mutex_);
  Peer& p = peers_[peer_id];
  if (p.conn != conn) return;
  spdlog::info("node link: connected to node {} at {}", peer_id, conn->where());
  p.ready = true;
  p.connecting = false;
  p.backoff = std::chrono::milliseconds(0);
  for (auto& f : p.waiting) conn->send(std::move(f));
  p.waiting.clear();
}

void NodeLink::peer_closed(const std::string& peer_id, const std::shared_ptr<LinkConn>& conn,
                           const std::string& why) {
  std::vector<Pending> failed_sent, failed_unsent;
  {
    std::lock_guard lock(mutex_);
    Peer& p = peers_[peer_id];
    if (conn && p.conn != conn) return;
    const bool was_ready = p.ready;
    if (was_ready) {
      spdlog::info("node link: connection to node {} closed: {}", peer_id, why);
    } else {
      spdlog::warn("node link: cannot connect to node {} at {}:{}: {}", peer_id, p.host, p.port,
                   why);
    }
    // Requests still waiting were never sent; those in flight may have been run.
    std::set<std::uint64_t> unsent;
    for (const auto& f : p.waiting) unsent.insert(f["id"].get<std::uint64_t>());
    for (auto& [id, pending] : p.in_flight) {
      pending.timer->cancel();
      (unsent.count(id) ? failed_unsent : failed_sent).push_back(std::move(pending));
    }
    p.in_flight.clear();
    p.waiting.clear();
    p.conn.reset();
    p.ready = false;
    p.connecting = false;
    p.backoff =
        std::min(options_.max_backoff, std::max(std::chrono::milliseconds(250), p.backoff * 2));
    p.retry_at =
        std::chrono::steady_clock::now() + (was_ready ? std::chrono::milliseconds(0) : p.backoff);
  }
  const std::string reason = "node " + peer_id + ": " + why;
  for (auto& f : failed_unsent) f.on_fail(LinkFailure::kNotSent, reason);
  for (auto& f : failed_sent) f.on_fail(LinkFailure::kLost, reason);
}

void NodeLink::answer(const std::string& peer_id, json frame) {
  const std::string type = frame["t"].get<std::string>();
  if (type != "ev" && type != "done")
    throw std::runtime_error("an unknown frame '" + type.substr(0, 16) + "'");
  auto idit = frame.find("id");
  if (idit == frame.end() || !idit->is_number_unsigned()) throw std::runtime_error("no id");
  const std::uint64_t id = idit->get<std::uint64_t>();
  std::function<void(const json&)> call;
  {
    std::lock_guard lock(mutex_);
    Peer& p = peers_[peer_id];
    auto it = p.in_flight.find(id);
    if (it == p.in_flight.end()) return;  // timed out already
    if (type == "ev") {
      call = it->second.on_event;
      // The owner is alive and working on it: the time-out counts from its latest frame, so
      // that a long answer (a relayed connection, legacy_relay.h) lives while frames come.
      arm(it->second.timer, peer_id, id);
    } else {
      call = std::move(it->second.on_done);
      it->second.timer->cancel();
      p.in_flight.erase(it);
    }
  }
  if (call) call(frame);
}

void NodeLink::fail(const std::string& peer_id, std::uint64_t id, LinkFailure kind,
                    const std::string& why) {
  std::function<void(LinkFailure, const std::string&)> call;
  {
    std::lock_guard lock(mutex_);
    Peer& p = peers_[peer_id];
    auto it = p.in_flight.find(id);
    if (it == p.in_flight.end()) return;
    call = std::move(it->second.on_fail);
    p.in_flight.erase(it);
    // Still waiting for the connection: it was never sent.
    if (std::erase_if(p.waiting,
                      [id](const json& f) { return f["id"].get<std::uint64_t>() == id; }) > 0) {
      kind = LinkFailure::kNotSent;
    }
  }
  spdlog::warn("node link: request {} to node {} failed: {}", id, peer_id, why);
  call(kind, why);
}

}  // namespace plateau::cluster
