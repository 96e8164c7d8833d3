#include "server/server.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "cluster/node.h"
#include "cluster/node_link.h"
#include "server/asio.h"
#include "server/connection_limit.h"
#include "server/http_session.h"
#include "server/lobby.h"
#include "server/rate_limited_log.h"
#include "server/remote_feed.h"
#include "server/text_session.h"
#include "server/tls.h"
#include "store/store.h"
#include "store/store_url.h"

namespace plateau::server {

namespace {

using boost::asio::ip::tcp;

// Accepts connections on one port and hands each socket, on its own strand, to `factory`
// with its place in the ConnectionLimit (a connection over a limit is refused at once, after
// `refusal(text)` is written to it when that is not empty). When accept fails for lack of
// descriptors (EMFILE, ENFILE, or no kernel memory) it waits SessionLimits::accept_backoff
// before trying again, instead of spinning on a connection it cannot take; failures are logged
// at most once per second.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  using Factory = std::function<void(tcp::socket, ConnectionLimit::Slot)>;
  using Refusal = std::function<std::string(const char* why)>;
  Listener(boost::asio::io_context& io, const tcp::endpoint& endpoint, std::string name,
           std::shared_ptr<ConnectionLimit> limit, std::chrono::milliseconds backoff,
           Refusal refusal, Factory factory)
      : io_(io),
        acceptor_(io),
        retry_(io),
        name_(std::move(name)),
        limit_(std::move(limit)),
        backoff_(backoff),
        refusal_(std::move(refusal)),
        factory_(std::move(factory)) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(boost::asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(boost::asio::socket_base::max_listen_connections);
    spdlog::info("listening: {} on {}:{}", name_, endpoint.address().to_string(), endpoint.port());
  }
  void start() { accept(); }
  void stop() {
    boost::asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
      boost::system::error_code ignored;
      self->stopped_ = true;
      self->retry_.cancel();
      self->acceptor_.close(ignored);
    });
  }

 private:
  void accept() {
    acceptor_.async_accept(
        boost::asio::make_strand(io_),
        [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
          if (ec == boost::asio::error::operation_aborted || self->stopped_) return;
          if (!ec) {
            self->admit(std::move(socket));
            self->accept();
            return;
          }
          if (auto n = self->failures_.due()) {
            spdlog::warn("{}: accept failed: {}{}", self->name_, ec.message(),
                         *n > 1 ? " (" + std::to_string(*n) + " times since the last report)"
                                : std::string());
          }
          if (out_of_resources(ec)) {
            // The pending connection stays in the backlog: retry once descriptors may be free.
            self->retry_.expires_after(self->backoff_);
            self->retry_.async_wait([self](boost::system::error_code wait_ec) {
              if (!wait_ec && !self->stopped_) self->accept();
            });
            return;
          }
          self->accept();
        });
  }

  static bool out_of_resources(const boost::system::error_code& ec) {
    return ec == boost::asio::error::no_descriptors ||
           ec == boost::system::errc::too_many_files_open_in_system ||
           ec == boost::asio::error::no_buffer_space || ec == boost::asio::error::no_memory;
  }

  void admit(tcp::socket socket) {
    boost::system::error_code ec;
    const auto peer = socket.remote_endpoint(ec);
    if (ec) return;  // already gone
    ConnectionLimit::Refusal why = ConnectionLimit::Refusal::kNone;
    auto slot = limit_->admit(peer.address().to_string(), &why);
    if (!slot) {
      if (auto n = refusals_.due()) {
        spdlog::warn("{}: refused {}: {}{}", name_, peer.address().to_string(), refusal_text(why),
                     *n > 1 ? " (" + std::to_string(*n) + " refusals since the last report)"
                            : std::string());
      }
      const std::string text = refusal_ ? refusal_(refusal_text(why)) : std::string();
      if (!text.empty()) {
        // A new socket's send buffer is empty: this never blocks, and a failure is ignored.
        socket.non_blocking(true, ec);
        socket.write_some(boost::asio::buffer(text), ec);
      }
      socket.shutdown(tcp::socket::shutdown_both, ec);
      socket.close(ec);
      return;
    }
    socket.set_option(tcp::no_delay(true), ec);
    factory_(std::move(socket), std::move(slot));
  }

  boost::asio::io_context& io_;
  tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_;
  std::string name_;
  std::shared_ptr<ConnectionLimit> limit_;
  std::chrono::milliseconds backoff_;
  Refusal refusal_;
  Factory factory_;
  RateLimitedLog failures_;
  RateLimitedLog refusals_;
  bool stopped_ = false;
};

}  // namespace

int run_server(const ServerOptions& options) {
  // Checked before anything else starts, so that a bad file is the only thing said.
  std::shared_ptr<boost::asio::ssl::context> tls;
  if (!options.tls_cert.empty() || !options.tls_key.empty()) {
    if (options.tls_cert.empty() || options.tls_key.empty()) {
      throw std::runtime_error("--tls-cert and --tls-key go together");
    }
    tls = make_tls_context(options.tls_cert, options.tls_key);
  }
  std::error_code fs_error;
  std::filesystem::create_directories(options.data_dir, fs_error);
  if (fs_error) {
    throw std::runtime_error("cannot create data directory " + options.data_dir.string() + ": " +
                             fs_error.message());
  }
  const std::string store_url = options.store_url.empty()
                                    ? "sqlite:" + (options.data_dir / "plateau.db").string()
                                    : options.store_url;
  spdlog::info("store: {}", store::printable_store_url(store_url));
  if (!options.node_id.empty() && !store::is_postgres_url(store_url)) {
    throw std::runtime_error(
        "--node-id needs a PostgreSQL store (--store postgresql://...): "
        "several nodes share one database; SQLite serves one machine");
  }
  // The node link's key, before anything starts: a secret file that cannot be used is the
  // only thing said.
  cluster::LinkKey link_key{};
  if (!options.node_id.empty()) {
    if (options.cluster_secret_file.empty()) {
      throw std::runtime_error("--node-id needs --cluster-secret-file (docs/CLUSTER.md)");
    }
    link_key = cluster::read_cluster_secret(options.cluster_secret_file);
  }
  // A node's store connection carries its name, so that a node found frozen can have all its
  // sessions ended (cluster_db.h terminate_node).
  store::Store store(store::open_backend(
      options.node_id.empty() ? store_url : cluster::url_for_node(store_url, options.node_id)));
  std::unique_ptr<cluster::Node> node;
  if (!options.node_id.empty()) {
    node = std::make_unique<cluster::Node>(cluster::NodeOptions{
        store_url, options.node_id, options.node_address, options.node_port, {},
        options.lobby_limits.events_kept});
  }

  boost::asio::io_context io(options.io_threads);
  boost::asio::thread_pool workers(static_cast<std::size_t>(std::max(1, options.worker_threads)));
  // Password hashing has its own threads: guessing must never starve the CPU players.
  boost::asio::thread_pool hashing(
      static_cast<std::size_t>(std::max(1, options.lobby_limits.hash_threads)));
  Lobby lobby(io, store, workers, hashing, options.lobby_limits);
  // The node's thread hands taken-over tables to the lobby: it stops before the lobby goes,
  // whichever way this function ends.
  struct StopNode {
    cluster::Node* node;
    ~StopNode() {
      if (node) node->stop();
    }
  } stop_node{node.get()};
  lobby.set_node(node.get());
  // The node link: commands for tables other nodes own go to them (lobby_forward.cpp).
  std::unique_ptr<cluster::NodeLink> link;
  LinkHandlers link_handlers;
  if (node) {
    cluster::LinkOptions link_options;
    link_options.self_id = options.node_id;
    link_options.bind = options.bind;
    link_options.port = options.node_port;
    link_options.key = link_key;
    link = std::make_unique<cluster::NodeLink>(
        io, link_options,
        [&lobby, &link_handlers](const cluster::LinkOrigin& from, nlohmann::json frame,
                                 std::shared_ptr<cluster::LinkReply> reply) {
          for (const auto& [field, serve] : link_handlers.serve) {
            if (frame.contains(field)) return serve(from, std::move(frame), std::move(reply));
          }
          if (frame.contains("legacy")) {
            // A peer relays to this node a biloba connection it has no port for (started with
            // --biloba-port 0): refused, rather than a malformed command that cuts the link.
            if (reply) reply->done(nlohmann::json{{"refused", "no biloba 0.9.3 port here"}});
            return;
          }
          lobby.serve_forwarded(from, std::move(frame), std::move(reply));
        },
        [&lobby, &link_handlers](const cluster::LinkOrigin& from) {
          lobby.forget_forwarded(from);
          for (const auto& gone : link_handlers.gone) gone(from);
        });
    lobby.set_link(link.get(), options.place_tables == "here");
  }
  lobby.restore();
  lobby.discard_abandoned_guest_tables();
  // The events, presence, listings and notices of the other nodes (remote_feed.h); stopped
  // before the lobby goes, whichever way this function ends.
  std::unique_ptr<RemoteFeed> feed;
  if (node) {
    feed = std::make_unique<RemoteFeed>(lobby, cluster::FeedOptions{store_url, options.node_id});
    lobby.set_remote_feed(feed.get());
  }
  struct StopFeed {
    RemoteFeed* feed;
    ~StopFeed() {
      if (feed) feed->stop();
    }
  } stop_feed{feed.get()};
  if (node) {
    node->start(
        [&lobby](std::vector<cluster::LoadedTable> tables, std::int64_t downtime_ms) {
          lobby.adopt_tables(std::move(tables), downtime_ms);
        },
        [&lobby] { lobby.recheck_tables(); });
  }
  if (feed) feed->start();

  auto http_settings = std::make_shared<HttpSettings>();
  http_settings->web_dir = options.web_dir;
  http_settings->data_dir = options.data_dir;
  http_settings->allowed_origins = options.allowed_origins;

  std::atomic<bool> ready{false};
  // Every port's connections count against the same per-address and total limits.
  auto connections = std::make_shared<ConnectionLimit>(options.limits.max_connections_per_address,
                                                       options.limits.max_connections);
  const auto address = boost::asio::ip::make_address(options.bind);
  std::vector<std::shared_ptr<Listener>> listeners;
  try {
    listeners.push_back(std::make_shared<Listener>(
        io, tcp::endpoint(address, options.text_port), "text", connections,
        options.limits.accept_backoff,
        [](const char* why) { return "error: " + std::string(why) + "\n"; },
        [&lobby, &options](tcp::socket socket, ConnectionLimit::Slot slot) {
          auto session = std::make_shared<TextSession>(lobby, std::move(socket), options.limits);
          session->hold(std::move(slot));
          session->start();
        }));
    listeners.push_back(std::make_shared<Listener>(
        io, tcp::endpoint(address, options.http_port), tls ? "https" : "http", connections,
        options.limits.accept_backoff,
        [](const char* why) {
          const std::string body = std::string(why) + "\n";
          return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
                 "Connection: close\r\nContent-Length: " +
                 std::to_string(body.size()) + "\r\n\r\n" + body;
        },
        [&lobby, &options, &ready, http_settings, tls](tcp::socket socket,
                                                       ConnectionLimit::Slot slot) {
          if (tls) {
            auto session = std::make_shared<HttpsSession>(lobby, TlsStream(std::move(socket), *tls),
                                                          options.limits, ready, http_settings);
            session->hold(std::move(slot));
            session->start();
          } else {
            auto session = std::make_shared<HttpSession>(lobby, PlainStream(std::move(socket)),
                                                         options.limits, ready, http_settings);
            session->hold(std::move(slot));
            session->start();
          }
        }));
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error(std::string("cannot listen: ") + e.what());
  }
  std::vector<std::unique_ptr<ExtraListener>> extras;
  const ServerContext context{io, lobby, connections, options, link.get(),
                              link ? &link_handlers : nullptr};
  for (const auto& make : options.extra_listeners) extras.push_back(make(context));
  for (auto& l : listeners) l->start();
  if (link) {
    // One connection kept to each live peer (their rows in `nodes`).
    link->start([n = node.get()]() -> std::optional<std::vector<cluster::LinkPeer>> {
      auto loads = n->loads();
      if (!loads) return std::nullopt;
      std::vector<cluster::LinkPeer> peers;
      for (const auto& [row, tables] : *loads) {
        std::string host = row.address.substr(0, row.address.rfind(':'));
        if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
        peers.push_back({row.id, host, row.node_port});
      }
      return peers;
    });
  }

  boost::asio::signal_set signals(io, SIGTERM, SIGINT);
  signals.async_wait([&](boost::system::error_code ec, int sig) {
    if (ec) return;
    spdlog::info("signal {}: shutting down", sig);
    ready = false;
    for (auto& l : listeners) l->stop();
    for (auto& x : extras) x->stop();
    if (link) link->stop();
    lobby.stop();
    // Let tables finish what they are writing, then stop the I/O.
    store.flush();
    // Then the other nodes may take the tables over at once (Node::stop).
    if (node) node->stop();
    io.stop();
  });

  ready = true;
  spdlog::info("ready");
  std::vector<std::thread> threads;
  for (int i = 1; i < options.io_threads; ++i) threads.emplace_back([&io] { io.run(); });
  io.run();
  for (auto& t : threads) t.join();
  workers.join();
  hashing.join();
  store.flush();
  spdlog::info("stopped");
  return 0;
}

}  // namespace plateau::server
