#pragma once
// The game server (DESIGN.md §5): owns the I/O threads, the store, the lobby and the listeners
// (text commands, HTTP + WebSocket, and those the application adds: the compatibility ports),
// and shuts down gracefully on SIGTERM or SIGINT after the store has written everything it was
// given.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cluster/node_link.h"
#include "server/asio.h"
#include "server/limits.h"
#include "server/session.h"

namespace plateau::server {

class ConnectionLimit;
class Lobby;
struct ServerOptions;

// The node link's frames that listeners added by the application serve (a node of a cluster
// only): a frame holding field K goes to serve[K] instead of the lobby's forwarding; every
// `gone` hears of a peer's connection that ended. Filled while the listeners are made, before
// the link accepts; read-only afterwards.
struct LinkHandlers {
  std::map<std::string, cluster::NodeLink::Serve> serve;
  std::vector<cluster::NodeLink::Gone> gone;
};

// What a listener added by the application (ServerOptions::extra_listeners) is given.
struct ServerContext {
  boost::asio::io_context& io;  // the server's I/O threads
  Lobby& lobby;                 // restored, with its worker pool (lobby.workers())
  // Every port's connections count against these limits (connection_limit.h).
  std::shared_ptr<ConnectionLimit> connections;
  const ServerOptions& options;
  // A node of a cluster: its link to the other nodes and the handlers of the link's frames it
  // may add (both null for a server alone).
  cluster::NodeLink* link = nullptr;
  LinkHandlers* link_handlers = nullptr;
};

// A listener the application adds (a compatibility protocol's port). Made once the lobby has
// restored its tables, before the server's own ports accept; stop() runs on shutdown, before
// the lobby stops; destroyed after the I/O threads have stopped.
class ExtraListener {
 public:
  virtual ~ExtraListener() = default;
  // Stops accepting and closes its connections. Called once, from the shutdown handler.
  virtual void stop() = 0;
};

// Makes one extra listener; throws std::runtime_error (the server does not start) when it
// cannot listen.
using ExtraListenerFactory = std::function<std::unique_ptr<ExtraListener>(const ServerContext&)>;

struct ServerOptions {
  std::filesystem::path data_dir = "data";     // holds plateau.db
  // The database (store/store_url.h): sqlite:PATH or postgresql://...; "" for the default,
  // sqlite:DATA_DIR/plateau.db.
  std::string store_url;
  std::filesystem::path web_dir = "web/dist";  // the built browser client, served at "/"
  std::string bind = "0.0.0.0";
  // HTTPS and WSS on the HTTP port instead of HTTP and WS when both are set (PEM files;
  // tls.h). A file that cannot be used stops the start with one line saying why.
  std::filesystem::path tls_cert;
  std::filesystem::path tls_key;
  // Origins besides the served one whose pages may open a WebSocket ("https://host[:port]";
  // origin_check.h).
  std::vector<std::string> allowed_origins;
  std::uint16_t http_port = 8080;
  std::uint16_t text_port = 8023;
  // Listeners the application adds, made in this order (src/cli/cmd_serve.cpp adds the
  // biloba 0.9.3 port, src/compat/biloba/legacy_lobby.h).
  std::vector<ExtraListenerFactory> extra_listeners;
  int io_threads = 2;
  int worker_threads = 2;  // CPU players (passwords: lobby_limits.hash_threads)
  SessionLimits limits;
  LobbyLimits lobby_limits;
  // Several nodes on one PostgreSQL database (docs/CLUSTER.md): this server's node id ("" for
  // a server alone), the HOST:PORT where clients reach it and its port for other nodes. A
  // node id needs a PostgreSQL store.
  std::string node_id;
  std::string node_address;
  int node_port = 0;
  // The node link's shared secret (cluster/link_auth.h read_cluster_secret): a file of 32
  // bytes or more that only its owner may read, the same on every node. Needed with node_id.
  std::string cluster_secret_file;
  // Where this node's clients' new tables go: "least-loaded" (the live node with the fewest
  // tables) or "here" (--place-tables).
  std::string place_tables = "least-loaded";
};

// Runs the server until SIGTERM/SIGINT. Returns the process exit status. Throws
// std::runtime_error when the data directory or a port cannot be used.
int run_server(const ServerOptions& options);

}  // namespace plateau::server
