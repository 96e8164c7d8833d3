#pragma once
// The game server (DESIGN.md §5): owns the I/O threads, the store, the lobby and the listeners
// (text commands, HTTP + WebSocket, the Biloba 0.9.3 protocol), and shuts down gracefully on
// SIGTERM or SIGINT after the store has written everything it was given.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "server/limits.h"
#include "server/session.h"

namespace plateau::server {

struct ServerOptions {
  std::filesystem::path data_dir = "data";  // holds plateau.db
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
  // The Biloba 0.9.3 protocol (docs/BILOBA_NETWORK.md); 0 = off. Finished legacy games are kept
  // in <data_dir>/biloba/ as <id>-<name>.blb (the original's dump) and <id>-<name>.record, and as
  // finished tables in the store.
  std::uint16_t biloba_port = 8000;
  std::string biloba_log;  // the legacy server's protocol log, as biloba-server's LOGFILE ("" = none)
  int io_threads = 2;
  int worker_threads = 2;  // CPU players (passwords: lobby_limits.hash_threads)
  SessionLimits limits;
  LobbyLimits lobby_limits;
};

// Runs the server until SIGTERM/SIGINT. Returns the process exit status. Throws
// std::runtime_error when the data directory or a port cannot be used.
int run_server(const ServerOptions& options);

}  // namespace plateau::server
